// What the list column shows instead of threads: the load error, the loading state, and the
// empty states; and what the reading pane shows for a mail not loaded yet (MailLoadState; and
// ReadingPaneLoading while the pane's own chunk loads) (spec 000 §2: Spam, Promotions and the other folders each in their own words, and
// one for a filter that matches nothing). An empty Spam or Promotions folder also says when spam
// detection is off (SpamEmptyHint).

import { errorMessage } from '../../api/client';
import { EmptyState } from '../../components/EmptyState';
import { BackIcon, InboxIcon } from '../../components/icons';
import { LoadError } from '../../components/LoadError';
import { he, type FolderKey } from '../../i18n/he';
import { SpamEmptyHint } from '../spam/SpamEmptyHint';
import { SIDEBAR_FOLDERS, folderTitle } from './folders';

const t = he.mail;

export function ListError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <LoadError
      message={`${t.loadFailed}: ${errorMessage(error)}`}
      onRetry={onRetry}
      className="mail-view__notice"
      testId="mail-list-error"
    />
  );
}

export function ListLoading() {
  return (
    <p className="card__status mail-view__status" role="status" data-testid="mail-loading">
      {t.loading}
    </p>
  );
}

export interface EmptyFolderProps {
  folder: FolderKey;
  /** A folder of the user's own: its plain name. */
  title?: string;
  /** A filter is on: say nothing matches it, and offer to clear it. */
  filtered: boolean;
  stillSyncing: boolean;
  onClearFilter: () => void;
}

export function EmptyFolder({ folder, title, filtered, stillSyncing, onClearFilter }: EmptyFolderProps) {
  const color = SIDEBAR_FOLDERS.find((f) => f.key === folder)?.color;
  return (
    <div className="mail-view__empty" data-testid="mail-empty" data-folder={folder} data-filtered={filtered}>
      <EmptyState
        testId="mail-empty-state"
        icon={
          <span style={color ? { color } : undefined}>
            <InboxIcon />
          </span>
        }
        action={
          filtered ? (
            <button type="button" className="button" onClick={onClearFilter} data-testid="mail-clear-filter">
              {he.inbox.clearFilter}
            </button>
          ) : undefined
        }
      >
        <p className="empty-state__title">
          {filtered ? he.inbox.emptyFiltered : (t.emptyByFolder[folder] ?? he.empty.folderEmpty(title ?? folderTitle(folder)))}
        </p>
        {!filtered && stillSyncing && <p>{t.syncingHint}</p>}
        {!filtered && (folder === 'Spam' || folder === 'Promotions') && <SpamEmptyHint folderTitle={folderTitle(folder)} />}
      </EmptyState>
    </div>
  );
}

/** The reading pane's 'back to the list' button (shown on narrow screens). */
export function ReadingBack({ onBack }: { onBack: () => void }) {
  return (
    <button type="button" className="button reading-pane__back" onClick={onBack} data-testid="reading-back">
      <BackIcon />
      {t.back}
    </button>
  );
}

/** The reading pane while its chunk loads (MailView's Suspense): as ReadingPane shows loading. */
export function ReadingPaneLoading({ id, onBack }: { id: string; onBack: () => void }) {
  return (
    <article className="reading-pane" data-testid="reading-pane-loading" data-id={id}>
      <ReadingBack onBack={onBack} />
      <MailLoadState error={undefined} onRetry={() => undefined} />
    </article>
  );
}

/** A mail being read that is not there yet: loading, or its load error with a retry. */
export function MailLoadState({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  if (!error) {
    return (
      <p className="card__status reading-pane__status" role="status">
        {he.app.loading}
      </p>
    );
  }
  return <LoadError message={`${he.mail.mailLoadFailed} ${errorMessage(error)}`} onRetry={onRetry} testId="reading-error" />;
}
