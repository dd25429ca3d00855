// One row of the mail list: sender (or recipients in Sent and Drafts), subject, a one-line
// preview, the date, a paperclip for attachments, and the star. Unread rows are bold.
// The whole row opens the mail; the star is its own button and does not open it.

import type { MouseEvent } from 'react';
import type { Email } from '../../api/types';
import { PaperclipIcon, StarIcon } from '../../components/icons';
import { he } from '../../i18n/he';
import { formatDateTime, formatMailDate } from '../../lib/dates';

const t = he.mail;

export interface MailRowProps {
  email: Email;
  selected: boolean;
  /** Name the recipients instead of the sender (Sent, Drafts). */
  showRecipients: boolean;
  onOpen: (email: Email) => void;
  onToggleStar: (email: Email) => void;
}

export function senderLabel(e: Email): string {
  return e.from_name?.trim() || e.from?.trim() || t.unknownSender;
}

function recipientsLabel(e: Email): string {
  const to = (e.to ?? []).filter(Boolean);
  return to.length ? `${t.toPrefix} ${to.join(', ')}` : t.unknownSender;
}

export function MailRow({ email: e, selected, showRecipients, onOpen, onToggleStar }: MailRowProps) {
  const who = showRecipients ? recipientsLabel(e) : senderLabel(e);
  const subject = e.subject?.trim() || t.noSubject;
  const starLabel = e.is_starred ? t.unstar : t.star;

  function star(ev: MouseEvent<HTMLButtonElement>) {
    ev.stopPropagation();
    onToggleStar(e);
  }

  return (
    <li
      className={`mail-row${e.is_read ? '' : ' is-unread'}${selected ? ' is-selected' : ''}`}
      data-testid="mail-row"
      data-id={e.id}
      data-read={e.is_read}
      onClick={() => onOpen(e)}
    >
      <button
        type="button"
        className={`icon-button mail-row__star${e.is_starred ? ' is-starred' : ''}`}
        aria-label={starLabel}
        aria-pressed={e.is_starred}
        title={starLabel}
        onClick={star}
        data-testid="mail-row-star"
      >
        <StarIcon />
      </button>
      <button
        type="button"
        className="mail-row__open"
        aria-current={selected ? 'true' : undefined}
        data-testid="mail-row-open"
      >
        <span className="mail-row__top">
          <span className="mail-row__sender" dir="auto" data-testid="mail-row-sender">
            {who}
          </span>
          {!e.is_read && <span className="visually-hidden">{t.unread}</span>}
          {e.hasAttachments && (
            <span className="mail-row__clip" title={t.hasAttachments} data-testid="mail-row-attachment">
              <PaperclipIcon />
              <span className="visually-hidden">{t.hasAttachments}</span>
            </span>
          )}
          <time className="mail-row__date" dateTime={e.date} title={formatDateTime(e.date)}>
            {formatMailDate(e.date)}
          </time>
        </span>
        <span className="mail-row__subject" dir="auto" data-testid="mail-row-subject">
          {subject}
        </span>
        {e.preview && (
          <span className="mail-row__preview" dir="auto">
            {e.preview}
          </span>
        )}
      </button>
    </li>
  );
}
