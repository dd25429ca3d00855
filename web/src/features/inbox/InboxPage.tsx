// Inbox (spec 000 §2 "Inbox page"): `?folder=` picks the folder (default inbox). The thread list
// and reading pane arrive with mailbox sync; until then this says plainly that no mailbox is
// connected. The folder's title is the layout's page heading.

import { Link, useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { InboxIcon } from '../../components/icons';
import { he } from '../../i18n/he';
import { DEFAULT_FOLDER, SIDEBAR_FOLDERS, normalizeFolder } from './folders';

export default function InboxPage() {
  const [params] = useSearchParams();
  const folder = normalizeFolder(params.get('folder')) ?? DEFAULT_FOLDER;
  const color = SIDEBAR_FOLDERS.find((f) => f.key === folder)?.color;

  return (
    <section className="page-section" data-testid="inbox-page" data-folder={folder}>
      <EmptyState
        icon={
          <span style={color ? { color } : undefined}>
            <InboxIcon />
          </span>
        }
        action={
          <Link className="button button--primary" to="/Settings">
            {he.empty.goToSettings}
          </Link>
        }
      >
        <p className="empty-state__title">{he.empty.noMailbox}</p>
        <p>{he.empty.connectHint}</p>
      </EmptyState>
    </section>
  );
}
