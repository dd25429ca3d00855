// The folder's threads as a list of rows. On a wide screen, pages of 50 with "טען עוד" while the
// server has more (spec 000 §3). On a phone (issue 42) the list scrolls on: only the rows near the
// screen are in the DOM (useRowWindow), and the next page is asked for while AHEAD rows are still
// below what is rendered, so a flick does not stop at the 50th thread.

import { useEffect, useMemo, useRef, type DragEvent } from 'react';
import type { Thread } from '../../api/types';
import { he } from '../../i18n/he';
import { useSettingsSync } from '../settings/sync/SettingsProvider';
import { useLabels } from '../labels/useLabels';
import { ThreadRow } from './ThreadRow';
import { useRowWindow } from './useRowWindow';
import { PHONE_QUERY, useMediaQuery } from '../../components/useMediaQuery';
import { PULL_TRIGGER, usePullToRefresh } from './touch/usePullToRefresh';
import './touch/touch.css';

const t = he.mail;

/** On a phone, the next page is asked for when fewer rows than this follow the rendered ones. */
const AHEAD = 25;

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
  const phone = useMediaQuery(PHONE_QUERY);
  const list = useRef<HTMLUListElement>(null);
  const ids = useMemo(() => threads.map((th) => th.id), [threads]);
  const win = useRowWindow(list, scroller, ids, phone);
  // Once for every row: a hook per row cost each row's mount on a phone's scroll.
  const { look } = useLabels();
  const wantMore = phone && hasMore && !loadingMore && win.end > threads.length - AHEAD;
  useEffect(() => {
    if (wantMore) onLoadMore();
  }, [wantMore, onLoadMore]);
  return (
    <div className="mail-list-scroll" ref={scroller}>
      {pulled > 0 && (
        <div className="mail-list__pull" style={{ blockSize: pulled }} role="status" data-testid="pull-refresh">
          {pulled >= PULL_TRIGGER ? he.touch.releaseToRefresh : he.touch.pullToRefresh}
        </div>
      )}
      <ul
        className="mail-list"
        aria-label={he.inbox.threadListLabel}
        data-testid="mail-list"
        ref={list}
        style={phone ? { paddingBlockStart: win.before, paddingBlockEnd: win.after } : undefined}
      >
        {threads.slice(win.start, win.end).map((thread, i) => (
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
            posInSet={phone ? win.start + i + 1 : undefined}
            setSize={phone ? threads.length : undefined}
            look={look}
          />
        ))}
      </ul>
      {phone && loadingMore && (
        <p className="mail-list__more" role="status" data-testid="mail-loading-more">
          {t.loadingMore}
        </p>
      )}
      {hasMore && !phone && (
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
