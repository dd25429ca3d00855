// The list column of the smart features page: the 10 newest inbox mails (sender, subject, date),
// one of them chosen for the summary and reply cards. Loading, failure, "no mailbox connected"
// (with the way to the settings) and "no mail yet" each have their own state.

import { Link } from 'react-router-dom';
import { errorMessage } from '../../api/client';
import type { Email } from '../../api/types';
import { EmptyState } from '../../components/EmptyState';
import { InboxIcon } from '../../components/icons';
import { LoadError } from '../../components/LoadError';
import { he } from '../../i18n/he';
import { heSmart } from '../../i18n/smart';
import { formatDateTime, formatMailDate } from '../../lib/dates';
import { useMailAccounts } from '../accounts/useMailAccounts';
import { useLatestMails } from './useLatestMails';

const t = heSmart.list;

function sender(m: Email): string {
  return m.from_name?.trim() || m.from?.trim() || he.mail.unknownSender;
}

function MailItem({ mail, chosen, onChoose }: { mail: Email; chosen: boolean; onChoose: (m: Email) => void }) {
  const subject = mail.subject?.trim() || he.mail.noSubject;
  return (
    <li>
      <button
        type="button"
        className={`smart-mail${chosen ? ' is-chosen' : ''}${mail.is_read ? '' : ' is-unread'}`}
        aria-pressed={chosen}
        data-testid="smart-mail-item"
        data-id={mail.id}
        data-selected={chosen}
        onClick={() => onChoose(mail)}
      >
        <span className="smart-mail__top">
          <bdi className="smart-mail__from" dir="auto">
            {sender(mail)}
          </bdi>
          <time className="smart-mail__date" dateTime={mail.date} title={formatDateTime(mail.date)}>
            {formatMailDate(mail.date)}
          </time>
        </span>
        <bdi className="smart-mail__subject" dir="auto">
          {subject}
        </bdi>
      </button>
    </li>
  );
}

export function MailPicker({ chosenId, onChoose }: { chosenId: string | null; onChoose: (m: Email) => void }) {
  const { mails, failed, error, mutate } = useLatestMails();
  const { accounts } = useMailAccounts();

  if (failed) {
    return (
      <LoadError message={`${t.loadFailed}: ${errorMessage(error)}`} onRetry={() => void mutate()} testId="smart-list-error" />
    );
  }
  if (!mails) {
    return (
      <p className="card__status" role="status" data-testid="smart-list-loading">
        {t.loading}
      </p>
    );
  }
  if (mails.length === 0) {
    const noMailbox = accounts?.length === 0;
    return (
      <EmptyState
        testId={noMailbox ? 'smart-no-mailbox' : 'smart-list-empty'}
        icon={<InboxIcon />}
        action={
          noMailbox ? (
            <Link className="button button--primary" to="/Settings" data-testid="smart-no-mailbox-settings">
              {he.empty.goToSettings}
            </Link>
          ) : undefined
        }
      >
        <p className="empty-state__title">{noMailbox ? he.empty.noMailbox : t.empty}</p>
        <p>{noMailbox ? he.empty.connectHint : t.emptyHint}</p>
      </EmptyState>
    );
  }
  return (
    <ul className="smart-mail-list" aria-label={t.title} data-testid="smart-mail-list">
      {mails.map((m) => (
        <MailItem key={m.id} mail={m} chosen={m.id === chosenId} onChoose={onChoose} />
      ))}
    </ul>
  );
}
