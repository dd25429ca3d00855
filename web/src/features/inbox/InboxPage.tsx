// Inbox (spec 000 §2 "Inbox page"): `?folder=` picks the folder (default inbox); the folder's
// title is the layout's page heading. Without a connected mailbox it says so and points to the
// settings; otherwise the folder's threads and reading pane, with the Inbox Zero panel above them
// on the inbox.

import { Link, useSearchParams } from 'react-router-dom';
import { errorMessage } from '../../api/client';
import { EmptyState } from '../../components/EmptyState';
import { InboxIcon } from '../../components/icons';
import { LoadError } from '../../components/LoadError';
import { he } from '../../i18n/he';
import { useMailAccounts } from '../accounts/useMailAccounts';
import { DEFAULT_FOLDER, SIDEBAR_FOLDERS, normalizeFolder } from './folders';
import { useOwnFolder } from '../folders/useFolderTree';
import { ownFolderKey } from '../../api/folders';
import { MailView } from './MailView';
import { MAIL_PARAM } from './useOpenMail';
import { InboxZeroPanel } from './zero/InboxZeroPanel';

/** Without a busy sync, mailbox status is re-read this often (it drives list refreshes). */
const ACCOUNTS_IDLE_POLL_MS = 30_000;

export default function InboxPage() {
  const [params] = useSearchParams();
  const folder = normalizeFolder(params.get('folder')) ?? DEFAULT_FOLDER;
  const { accounts, failed, error, mutate } = useMailAccounts({ idleInterval: ACCOUNTS_IDLE_POLL_MS });
  const color = SIDEBAR_FOLDERS.find((f) => f.key === folder)?.color;
  // `?box=<path>`: a folder of the user's own (the layout's heading is its plain name).
  const own = useOwnFolder() ?? undefined;

  let content;
  if (failed) {
    content = (
      <LoadError
        message={`${he.mail.loadFailed}: ${errorMessage(error)}`}
        onRetry={() => void mutate()}
        className="mail-view__notice"
        testId="accounts-error"
      />
    );
  } else if (!accounts) {
    content = (
      <p className="card__status mail-view__status" role="status" data-testid="mail-loading">
        {he.mail.loading}
      </p>
    );
  } else if (accounts.length === 0) {
    content = (
      <EmptyState
        testId="no-account-empty"
        icon={
          <span style={color ? { color } : undefined}>
            <InboxIcon />
          </span>
        }
        action={
          <Link className="button button--primary" to="/Settings" data-testid="no-account-settings">
            {he.empty.goToSettings}
          </Link>
        }
      >
        <p className="empty-state__title">{he.empty.noMailbox}</p>
        <p>{he.empty.connectHint}</p>
      </EmptyState>
    );
  } else {
    content = (
      <>
        {folder === 'inbox' && !own && (
          <div className="inbox-zero-slot">
            <InboxZeroPanel />
          </div>
        )}
        <MailView key={own ? ownFolderKey(own.path) : folder} folder={folder} accounts={accounts} own={own} />
      </>
    );
  }

  return (
    <section
      className={`page-section inbox${params.has(MAIL_PARAM) ? ' has-open-mail' : ''}`}
      data-testid="inbox-page"
      data-folder={own ? own.path : folder}
    >
      {content}
    </section>
  );
}
