// The folder's threads as a list of rows, with "טען עוד" while the server has more.

import type { DragEvent } from 'react';
import type { Thread } from '../../api/types';
import { he } from '../../i18n/he';
import { useSettingsSync } from '../settings/sync/SettingsProvider';
import { ThreadRow } from './ThreadRow';

const t = he.mail;

export interface ThreadListProps {
  threads: Thread[];
  /** The thread holding the open mail. */
  openThreadId: string | null;
  checked: ReadonlySet<string>;
  cursorId: string | null;
  showRecipients: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onOpen: (thread: Thread) => void;
  onToggleStar: (thread: Thread) => void;
  onToggleCheck: (thread: Thread) => void;
  onDragStart?: (ev: DragEvent, thread: Thread) => void;
}

export function ThreadList({
  threads,
  openThreadId,
  checked,
  cursorId,
  showRecipients,
  hasMore,
  loadingMore,
  onLoadMore,
  onOpen,
  onToggleStar,
  onToggleCheck,
  onDragStart,
}: ThreadListProps) {
  // The list-preview preference (spec 000 §3 `showPreview`): off, rows carry no text line.
  const { showPreview } = useSettingsSync().prefs;
  return (
    <div className="mail-list-scroll">
      <ul className="mail-list" aria-label={he.inbox.threadListLabel} data-testid="mail-list">
        {threads.map((thread) => (
          <ThreadRow
            key={thread.id}
            thread={thread}
            open={thread.id === openThreadId}
            checked={checked.has(thread.id)}
            cursor={thread.id === cursorId}
            showRecipients={showRecipients}
            showPreview={showPreview}
            onOpen={onOpen}
            onToggleStar={onToggleStar}
            onToggleCheck={onToggleCheck}
            onDragStart={onDragStart}
          />
        ))}
      </ul>
      {hasMore && (
        <div className="mail-list__more">
          <button
            type="button"
            className="button"
            disabled={loadingMore}
            onClick={onLoadMore}
            data-testid="mail-load-more"
          >
            {loadingMore ? t.loadingMore : t.loadMore}
          </button>
        </div>
      )}
    </div>
  );
}
