// The mail a draft answers, inside its card (spec 000 §2: "each with its original mail shown with a
// processed badge"): sender, subject, date and a 200-character text preview (spec §9); the whole
// body, already sanitized by the server, opens on request in the sandboxed mail frame.

import { useMemo, useState } from 'react';
import type { DraftOriginal } from '../../api/outgoing';
import { MailBody } from '../../components/MailBody';
import { he } from '../../i18n/he';
import { heOutgoing } from '../../i18n/outgoing';
import { formatDateTime } from '../../lib/dates';
import { decodeBase64Html, previewText } from '../../lib/mailText';

const t = heOutgoing.drafts;

export function OriginalMail({ original }: { original: DraftOriginal }) {
  const [full, setFull] = useState(false);
  const html = useMemo(() => decodeBase64Html(original.body ?? ''), [original.body]);
  const preview = useMemo(() => previewText(html), [html]);
  const subject = original.subject?.trim() || he.mail.noSubject;
  const name = original.from_name?.trim();

  return (
    <section className="draft-original" aria-label={t.original} data-testid="draft-original">
      <header className="draft-original__header">
        <span className="draft-original__title">{t.original}</span>
        <span className="label-chip label-chip--processed" data-testid="draft-original-processed">
          {t.processed}
        </span>
      </header>
      <dl className="draft-original__facts">
        <div>
          <dt>{he.mail.from}</dt>
          <dd>
            {name && <bdi dir="auto">{name} </bdi>}
            <bdi dir="ltr" className="draft-original__address">
              {original.from}
            </bdi>
          </dd>
        </div>
        <div>
          <dt>{t.subjectLabel}</dt>
          <dd dir="auto">{subject}</dd>
        </div>
        {original.date && (
          <div>
            <dt>{he.mail.date}</dt>
            <dd>
              <time dateTime={original.date}>{formatDateTime(original.date)}</time>
            </dd>
          </div>
        )}
      </dl>
      {full ? (
        <div className="draft-card__frame">
          <MailBody html={html} title={t.originalTitle(subject)} />
        </div>
      ) : (
        preview && (
          <p className="draft-original__preview" dir="auto">
            {preview}
          </p>
        )
      )}
      {html.trim() && (
        <button type="button" className="link-button" onClick={() => setFull((x) => !x)} aria-expanded={full}>
          {full ? t.hideOriginal : t.showOriginal}
        </button>
      )}
    </section>
  );
}
