// The reading pane (spec 000 §2 "Inbox page"): sender, recipients, date, subject, attachments
// and the body. Remote images stay blocked until the user asks for them; a mail that could not be
// decoded is shown as it arrived, with its raw file to download. Opening an unread mail marks it
// read (the caller does the marking, so the list and the counts follow).

import { useEffect, useRef, useState } from 'react';
import useSWR from 'swr';
import { errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import { downloadAttachment, downloadRaw } from '../../api/mail';
import type { EmailDetail } from '../../api/types';
import { useToast } from '../../app/Toasts';
import { BackIcon, DownloadIcon, PaperclipIcon } from '../../components/icons';
import { he } from '../../i18n/he';
import { formatDateTime } from '../../lib/dates';
import { formatSize } from '../../lib/size';
import { MailBody } from './MailBody';

const t = he.mail;

export interface ReadingPaneProps {
  id: string;
  onBack: () => void;
  /** Called once when the mail turns out to be unread. */
  onMarkRead: (email: EmailDetail) => void;
}

function Addresses({ list }: { list: string[] }) {
  return (
    <>
      {list.map((a, i) => (
        <span key={`${a}-${i}`}>
          {i > 0 && ', '}
          <bdi dir="ltr">{a}</bdi>
        </span>
      ))}
    </>
  );
}

export function ReadingPane({ id, onBack, onMarkRead }: ReadingPaneProps) {
  const toast = useToast();
  const [remote, setRemote] = useState(false);
  const { data, error, mutate } = useSWR<EmailDetail>(keys.email(id, remote), {
    keepPreviousData: true,
    revalidateOnFocus: false,
  });
  const marked = useRef(false);
  const [downloading, setDownloading] = useState<number | 'raw' | null>(null);

  useEffect(() => {
    if (!data || data.id !== id || data.is_read || marked.current) return;
    marked.current = true;
    onMarkRead(data);
  }, [data, id, onMarkRead]);

  async function download(what: number | 'raw', filename = '') {
    setDownloading(what);
    try {
      if (what === 'raw') await downloadRaw(id);
      else await downloadAttachment(id, what, filename);
    } catch (err) {
      toast.error(`${t.downloadFailed}: ${errorMessage(err)}`);
    } finally {
      setDownloading(null);
    }
  }

  const back = (
    <button type="button" className="button reading-pane__back" onClick={onBack} data-testid="reading-back">
      <BackIcon />
      {t.back}
    </button>
  );

  if (!data) {
    return (
      <article className="reading-pane" data-testid="reading-pane" data-id={id}>
        {back}
        {error ? (
          <div className="notice notice--error" role="alert" data-testid="reading-error">
            <p>
              {t.mailLoadFailed} {errorMessage(error)}
            </p>
            <button type="button" className="link-button" onClick={() => void mutate()}>
              {t.retry}
            </button>
          </div>
        ) : (
          <p className="card__status reading-pane__status" role="status">
            {he.app.loading}
          </p>
        )}
      </article>
    );
  }

  const subject = data.subject?.trim() || t.noSubject;
  const files = (data.attachments ?? []).filter((a) => !a.inline);

  return (
    <article className="reading-pane" data-testid="reading-pane" data-id={id} aria-labelledby="reading-subject">
      {back}
      <header className="reading-pane__header">
        <h2 id="reading-subject" className="reading-pane__subject" dir="auto" data-testid="reading-subject">
          {subject}
        </h2>
        <dl className="reading-pane__facts">
          <div className="reading-pane__fact">
            <dt>{t.from}</dt>
            <dd data-testid="reading-from">
              {data.from_name?.trim() && (
                <span className="reading-pane__name" dir="auto">
                  {data.from_name}
                </span>
              )}{' '}
              <bdi dir="ltr" className="reading-pane__address">
                {data.from}
              </bdi>
            </dd>
          </div>
          {data.to?.length > 0 && (
            <div className="reading-pane__fact">
              <dt>{t.to}</dt>
              <dd data-testid="reading-to">
                <Addresses list={data.to} />
              </dd>
            </div>
          )}
          {data.cc?.length > 0 && (
            <div className="reading-pane__fact">
              <dt>{t.cc}</dt>
              <dd>
                <Addresses list={data.cc} />
              </dd>
            </div>
          )}
          <div className="reading-pane__fact">
            <dt>{t.date}</dt>
            <dd>
              <time dateTime={data.date} data-testid="reading-date">
                {formatDateTime(data.date)}
              </time>
            </dd>
          </div>
        </dl>
      </header>

      {files.length > 0 && (
        <section className="attachments" aria-label={t.attachments}>
          <h3 className="visually-hidden">{t.attachments}</h3>
          <ul className="attachments__list">
            {files.map((a) => (
              <li key={a.index}>
                <button
                  type="button"
                  className="attachment"
                  disabled={downloading === a.index}
                  aria-label={t.download(a.filename)}
                  onClick={() => void download(a.index, a.filename)}
                  data-testid="mail-attachment"
                  data-index={a.index}
                >
                  <PaperclipIcon />
                  <bdi className="attachment__name">{a.filename}</bdi>
                  <bdi className="attachment__size">{formatSize(a.size, t.sizeUnits)}</bdi>
                  <DownloadIcon />
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}

      {data.parsed === false && (
        <div className="notice notice--warning reading-pane__notice" role="note" data-testid="mail-unparsed">
          <p>{t.unparsed}</p>
          <button
            type="button"
            className="link-button"
            disabled={downloading === 'raw'}
            onClick={() => void download('raw')}
            data-testid="mail-download-raw"
          >
            {t.downloadRaw}
          </button>
        </div>
      )}

      {data.remoteContentBlocked && !remote && (
        <div className="notice notice--info remote-bar" role="note" data-testid="remote-blocked">
          <span>{t.remoteBlocked}</span>
          <button type="button" className="link-button" onClick={() => setRemote(true)} data-testid="show-remote">
            {t.showRemote}
          </button>
        </div>
      )}

      <MailBody html={data.body ?? ''} title={t.bodyTitle(subject)} />
    </article>
  );
}
