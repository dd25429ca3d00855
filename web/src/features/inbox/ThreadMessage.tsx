// One message of the open thread. Collapsed: the sender, a preview and the date, as a button
// that expands it. Expanded: sender, recipients, date, attachments and the body in the sandboxed
// frame. Remote images stay blocked until the user asks, for this message or always for this
// sender; a sender on that list is noted, with a way to revoke it. A message that could not be
// decoded is shown as it arrived, with its raw file to download. An unread message is marked read
// when it is shown (the caller does the marking, so the list and the counts follow).

import { useEffect, useRef, useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import { downloadAttachment, downloadRaw } from '../../api/mail';
import { allowRemoteSender, revokeRemoteSender } from '../../api/triage';
import type { Email, EmailDetail } from '../../api/types';
import { useToast } from '../../session/Toasts';
import { usePreferences } from '../settings/sync/SettingsProvider';
import { DownloadIcon, PaperclipIcon } from '../../components/icons';
import { MailBody } from '../../components/MailBody';
import { he } from '../../i18n/he';
import { formatDateTime, formatMailDate } from '../../lib/dates';
import { formatSize } from '../../lib/size';
import { senderLabel } from './ThreadRow';
import { MailLoadState } from './ListStates';

const t = he.mail;

/** Every cached single-mail key (`/api/emails/{id}` with or without `?remote=1`). */
const isEmailDetailKey = (key: unknown) => typeof key === 'string' && /^\/api\/emails\/\d+(\?remote=1)?$/.test(key);

export interface ThreadMessageProps {
  id: string;
  /** The list's row, for the collapsed header; absent for a mail opened by URL outside the list. */
  row?: Email;
  expanded: boolean;
  /** Null when the message is the only one and cannot be collapsed. */
  onToggle: (() => void) | null;
  onMarkRead: (email: Email) => void;
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

export function ThreadMessage({ id, row, expanded, onToggle, onMarkRead }: ThreadMessageProps) {
  if (!expanded && row) {
    return (
      <article className="thread-message is-collapsed" data-testid="thread-message" data-id={id} data-expanded="false">
        <button
          type="button"
          className="thread-message__toggle"
          onClick={onToggle ?? undefined}
          aria-expanded="false"
          aria-label={he.inbox.expand(senderLabel(row))}
          data-testid="thread-message-toggle"
        >
          <span className={`thread-message__sender${row.is_read ? '' : ' is-unread'}`} dir="auto">
            {senderLabel(row)}
          </span>
          <span className="thread-message__preview" dir="auto">
            {row.preview}
          </span>
          <time className="thread-message__date" dateTime={row.date} title={formatDateTime(row.date)}>
            {formatMailDate(row.date)}
          </time>
        </button>
      </article>
    );
  }
  return <ExpandedMessage id={id} onToggle={onToggle} onMarkRead={onMarkRead} />;
}

function ExpandedMessage({ id, onToggle, onMarkRead }: Pick<ThreadMessageProps, 'id' | 'onToggle' | 'onMarkRead'>) {
  const toast = useToast();
  const { mutate: mutateGlobal } = useSWRConfig();
  const [remote, setRemote] = useState(false);
  const { data, error, mutate } = useSWR<EmailDetail>(keys.email(id, remote), {
    keepPreviousData: true,
    revalidateOnFocus: false,
  });
  const marked = useRef(false);
  // The autoRead preference: opening marks the mail read, or it stays unread until marked.
  const { autoRead } = usePreferences();
  const [downloading, setDownloading] = useState<number | 'raw' | null>(null);
  const [senderBusy, setSenderBusy] = useState(false);

  useEffect(() => {
    if (!autoRead || !data || data.id !== id || data.is_read || marked.current) return;
    marked.current = true;
    onMarkRead(data);
  }, [autoRead, data, id, onMarkRead]);

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

  /** "Always for this sender" and its revocation; every open mail is re-read (same sender or not). */
  async function setSenderAllowed(address: string, allow: boolean) {
    setSenderBusy(true);
    try {
      if (allow) await allowRemoteSender(address);
      else await revokeRemoteSender(address);
      toast.success(allow ? he.inbox.remoteAllowed(address) : he.inbox.remoteRevoked(address));
      setRemote(false);
      await mutateGlobal(isEmailDetailKey);
    } catch (err) {
      toast.error(`${he.inbox.remoteFailed}: ${errorMessage(err)}`);
    } finally {
      setSenderBusy(false);
    }
  }

  if (!data) {
    return (
      <article className="thread-message" data-testid="thread-message" data-id={id} data-expanded="true">
        <MailLoadState error={error} onRetry={() => void mutate()} />
      </article>
    );
  }

  const subject = data.subject?.trim() || t.noSubject;
  const files = (data.attachments ?? []).filter((a) => !a.inline);

  return (
    <article className="thread-message" data-testid="thread-message" data-id={id} data-expanded="true">
      <header className="thread-message__header">
        {onToggle && (
          <button
            type="button"
            className="link-button thread-message__collapse"
            onClick={onToggle}
            aria-expanded="true"
            data-testid="thread-message-toggle"
          >
            {he.inbox.collapse}
          </button>
        )}
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
          <span className="remote-bar__actions">
            <button type="button" className="link-button" onClick={() => setRemote(true)} data-testid="show-remote">
              {t.showRemote}
            </button>
            {data.from && (
              <button
                type="button"
                className="link-button"
                disabled={senderBusy}
                onClick={() => void setSenderAllowed(data.from, true)}
                title={he.inbox.remoteAllowSenderHint}
                data-testid="remote-sender-allow"
              >
                {he.inbox.remoteAllowSender}
              </button>
            )}
          </span>
        </div>
      )}

      {data.remoteAllowedForSender && (
        <div className="remote-note" role="note" data-testid="remote-sender-note">
          <span>{he.inbox.remoteAllowedNote}</span>
          <button
            type="button"
            className="link-button"
            disabled={senderBusy}
            onClick={() => void setSenderAllowed(data.from, false)}
            data-testid="remote-sender-revoke"
          >
            {he.inbox.remoteRevoke}
          </button>
        </div>
      )}

      {/* Remote images are let into the frame with the body that shows them: not while the
          blocked body is still on screen (the frame would load twice, the first load cut off). */}
      <MailBody
        html={data.body ?? ''}
        title={t.bodyTitle(subject)}
        remoteImages={!!data.remoteAllowedForSender || (remote && !data.remoteContentBlocked)}
      />
    </article>
  );
}
