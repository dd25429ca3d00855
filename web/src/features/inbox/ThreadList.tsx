// The folder's threads as a list of rows, with "טען עוד" while the server has more.

import { useMemo, useRef, type DragEvent } from 'react';
import type { Thread } from '../../api/types';
import { he } from '../../i18n/he';
import { useSettingsSync } from '../settings/sync/SettingsProvider';
import { ThreadRow } from './ThreadRow';
import { PULL_TRIGGER, usePullToRefresh } from './touch/usePullToRefresh';
import './touch/touch.css';

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
  /** The swipe action of the user's preference (touch screens); none: rows do not swipe. */
  onSwipe?: (thread: Thread, action: 'archive' | 'processed') => void;
  /** Pull to refresh (touch screens). */
  onPullRefresh?: () => void;
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
  onSwipe,
  onPullRefresh,
}: ThreadListProps) {
  // The list-preview preference (spec 000 §3 `showPreview`): off, rows carry no text line.
  const { showPreview, swipeAction } = useSettingsSync().prefs;
  const action = swipeAction === 'processed' ? 'processed' : 'archive';
  // One object while the action stays: the rows are memoised.
  const swipe = useMemo(
    () =>
      onSwipe && {
        label: action === 'processed' ? he.touch.swipeProcessed : he.touch.swipeArchive,
        onSwipe: (thread: Thread) => onSwipe(thread, action),
      },
    [onSwipe, action],
  );
  const scroller = useRef<HTMLDivElement>(null);
  const pulled = usePullToRefresh(scroller, onPullRefresh);
  return (
    <div className="mail-list-scroll" ref={scroller}>
      {pulled > 0 && (
        <div className="mail-list__pull" style={{ blockSize: pulled }} role="status" data-testid="pull-refresh">
          {pulled >= PULL_TRIGGER ? he.touch.releaseToRefresh : he.touch.pullToRefresh}
        </div>
      )}
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
            swipe={swipe}
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
