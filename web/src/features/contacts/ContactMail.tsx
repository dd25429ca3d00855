// 'מיילים אחרונים': the 20 newest mails from or to a contact (GET /api/contacts/{id}/mail, found by
// the search index), each with its subject, date and folder. Choosing one opens it in the inbox,
// in its folder, as a search result does (features/search/folders.ts).

import { useNavigate } from 'react-router-dom';
import useSWR from 'swr';
import type { Contact, ContactMailResponse } from '../../api/contacts';
import { keys } from '../../api/keys';
import type { SearchResult } from '../../api/search';
import { PaperclipIcon } from '../../components/icons';
import { Modal } from '../../components/Modal';
import { he } from '../../i18n/he';
import { heContacts } from '../../i18n/contacts';
import { formatDateTime } from '../../lib/dates';
import { openResultHref, resultFolderTitle } from '../search/folders';
import { LoadState } from '../../components/LoadState';

const t = heContacts.mail;

function MailRow({ mail, onOpen }: { mail: SearchResult; onOpen: (m: SearchResult) => void }) {
  const subject = mail.subject?.trim() || he.mail.noSubject;
  const folder = resultFolderTitle(mail);
  return (
    <li>
      <button
        type="button"
        className={`contact-mail__item${mail.is_read ? '' : ' is-unread'}`}
        aria-label={t.open(subject)}
        onClick={() => onOpen(mail)}
        data-testid="contact-mail-item"
        data-id={mail.id}
      >
        <bdi dir="auto" className="contact-mail__subject">
          {subject}
        </bdi>
        <span className="contact-mail__meta">
          {mail.hasAttachments && <PaperclipIcon />}
          {folder && (
            <span className="contact-mail__folder" data-testid="contact-mail-folder">
              <bdi dir="auto">{folder}</bdi>
            </span>
          )}
          <time className="contact-mail__date" dateTime={mail.date} dir="ltr">
            {formatDateTime(mail.date)}
          </time>
        </span>
      </button>
    </li>
  );
}

export function ContactMail({ contact, onClose }: { contact: Contact; onClose: () => void }) {
  const navigate = useNavigate();
  const { data, error, mutate } = useSWR<ContactMailResponse>(keys.contactMail(contact.id));

  let body;
  if (!data) {
    body = <LoadState of={{ error, mutate }} text={t} testIds={{ error: 'contact-mail-error' }} />;
  } else if (data.emails.length === 0) {
    body = (
      <p className="card__status" data-testid="contact-mail-empty">
        {t.empty}
      </p>
    );
  } else {
    body = (
      <ul className="contact-mail list-box" aria-label={t.listLabel}>
        {data.emails.map((m) => (
          <MailRow key={m.id} mail={m} onOpen={(r) => navigate(openResultHref(r))} />
        ))}
      </ul>
    );
  }

  return (
    <Modal title={heContacts.mailOf(contact.name)} closeLabel={t.close} onClose={onClose} testId="contact-mail-dialog" wide>
      <p className="contact-mail__address">
        <bdi dir="ltr">{contact.email}</bdi>
      </p>
      {body}
    </Modal>
  );
}
