// One row of the thread list (spec 000 §2, §3 Thread): a selection checkbox, the star, the
// people in the thread (or the recipients in Sent and Drafts), how many messages it holds, a
// paperclip, the date of its newest mail, the subject with at most 2 labels (the user's in their
// colours), and a preview.
// Unread threads are bold. The row opens the thread; the checkbox and the star do not.
// On a touch screen a sideways swipe does the swipe action and a long press ticks the row
// (touch/useRowGestures).

import { memo, useEffect, useRef, type DragEvent, type MouseEvent } from 'react';
import type { Email, Thread } from '../../api/types';
import { PaperclipIcon, StarIcon } from '../../components/icons';
import { he } from '../../i18n/he';
import { formatDateTime, formatMailDate } from '../../lib/dates';
import { labelText } from '../../lib/mailLabels';
import { LabelChip } from '../labels/LabelChip';
import type { LabelLook } from '../labels/useLabels';
import { MAX_LABELS } from './triageRules';
import { useRowGestures } from './touch/useRowGestures';

const t = he.mail;

export interface ThreadRowProps {
  thread: Thread;
  /** The open mail belongs to this thread. */
  open: boolean;
  /** Ticked for a bulk action. */
  checked: boolean;
  /** The keyboard cursor (j/k) is on this row. */
  cursor: boolean;
  /** Name the recipients instead of the senders (Sent, Drafts). */
  showRecipients: boolean;
  /** A line of the newest mail's text under the subject (the `showPreview` preference). */
  showPreview?: boolean;
  onOpen: (thread: Thread) => void;
  onToggleStar: (thread: Thread) => void;
  onToggleCheck: (thread: Thread) => void;
  /** A desktop drag of the row (onto a sidebar folder moves its mail). */
  onDragStart?: (ev: DragEvent, thread: Thread) => void;
  /** A swipe on a touch screen; its Hebrew name is shown under the row as it moves. */
  swipe?: { label: string; onSwipe: (thread: Thread) => void };
  /** In a windowed list (a phone's), for screen readers: the row's place among the loaded rows
   *  (from 1), and how many those are. */
  posInSet?: number;
  setSize?: number;
  /** A label keyword's name and colour (the list reads the user's labels once for all rows). */
  look: (keyword: string) => LabelLook;
}

export function senderLabel(e: Pick<Email, 'from' | 'from_name'>): string {
  return e.from_name?.trim() || e.from?.trim() || t.unknownSender;
}

export function threadSubject(thread: Pick<Thread, 'subject' | 'hasNoSubject'>): string {
  return (!thread.hasNoSubject && thread.subject?.trim()) || t.noSubject;
}

/**
 * The people of the row. Recipients come from the mail the row has: the list carries a thread's
 * newest mail only (the thread's `participants` are its senders), so a longer conversation names
 * its newest mail's recipients; the reading pane shows each mail's.
 */
function whoLabel(thread: Thread, showRecipients: boolean): string {
  const newest = thread.emails[0];
  if (showRecipients) {
    const to = [...new Set(thread.emails.flatMap((e) => e.to ?? []).filter(Boolean))];
    return to.length ? `${t.toPrefix} ${to.join(', ')}` : t.unknownSender;
  }
  const names = (thread.participants ?? []).map((p) => p.trim()).filter(Boolean);
  if (names.length) return names.join(', ');
  return newest ? senderLabel(newest) : t.unknownSender;
}


export const ThreadRow = memo(function ThreadRow({
  thread,
  open,
  checked,
  cursor,
  showRecipients,
  showPreview = true,
  onOpen,
  onToggleStar,
  onToggleCheck,
  onDragStart,
  swipe,
  posInSet,
  setSize,
  look,
}: ThreadRowProps) {
  const ref = useRef<HTMLLIElement>(null);
  const gestures = useRowGestures({
    onSwipe: () => swipe?.onSwipe(thread),
    onLongPress: () => {
      if (!checked) onToggleCheck(thread);
    },
  });
  const newest = thread.emails[0];
  const subject = threadSubject(thread);
  const starLabel = thread.isStarred ? t.unstar : t.star;
  const labels = (thread.labels ?? []).slice(0, MAX_LABELS);

  // Keep the keyboard cursor in view (jsdom has no scrollIntoView).
  useEffect(() => {
    if (cursor) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [cursor]);

  function star(ev: MouseEvent<HTMLButtonElement>) {
    ev.stopPropagation();
    onToggleStar(thread);
  }

  const classes = ['thread-row'];
  if (!thread.isRead) classes.push('is-unread');
  if (open) classes.push('is-selected');
  if (checked) classes.push('is-checked');
  if (cursor) classes.push('is-cursor');
  if (gestures.offset !== 0) classes.push('is-swiping');
  if (gestures.armed) classes.push('is-swipe-armed');

  return (
    <li
      ref={ref}
      className={classes.join(' ')}
      data-testid="thread-row"
      data-id={thread.id}
      data-read={thread.isRead}
      data-count={thread.count}
      aria-posinset={posInSet}
      aria-setsize={setSize}
      data-swipe-label={swipe?.label}
      data-swipe-side={gestures.offset > 0 ? 'right' : gestures.offset < 0 ? 'left' : undefined}
      style={gestures.offset ? { transform: `translateX(${gestures.offset}px)` } : undefined}
      onClick={() => onOpen(thread)}
      draggable={onDragStart ? true : undefined}
      onDragStart={onDragStart ? (ev) => onDragStart(ev, thread) : undefined}
      {...(swipe ? gestures.handlers : {})}
    >
      {/* The whole cell toggles the checkbox; a click here never opens the thread. */}
      <label className="thread-row__select" onClick={(ev) => ev.stopPropagation()}>
        <input
          type="checkbox"
          checked={checked}
          onChange={() => onToggleCheck(thread)}
          aria-label={he.inbox.selectThread(subject)}
          data-testid="thread-row-select"
        />
      </label>
      <button
        type="button"
        className={`icon-button thread-row__star${thread.isStarred ? ' is-starred' : ''}`}
        aria-label={starLabel}
        aria-pressed={thread.isStarred}
        title={starLabel}
        onClick={star}
        data-testid="thread-row-star"
      >
        <StarIcon />
      </button>
      <button
        type="button"
        className="thread-row__open"
        aria-current={open ? 'true' : undefined}
        data-testid="thread-row-open"
      >
        <span className="thread-row__top">
          {/* The box keeps the row's direction (the name sits at its start, the right); the name
              inside has its own, so an English name still reads left to right. */}
          <span className="thread-row__sender" data-testid="thread-row-sender">
            <bdi dir="auto">{whoLabel(thread, showRecipients)}</bdi>
          </span>
          {thread.count > 1 && (
            <span
              className="thread-row__count"
              title={he.inbox.messagesInThread(thread.count)}
              data-testid="thread-row-count"
            >
              {thread.count}
            </span>
          )}
          {!thread.isRead && <span className="visually-hidden">{t.unread}</span>}
          {thread.hasAttachments && (
            <span className="thread-row__clip" title={t.hasAttachments} data-testid="thread-row-attachment">
              <PaperclipIcon />
              <span className="visually-hidden">{t.hasAttachments}</span>
            </span>
          )}
          <time className="thread-row__date" dateTime={thread.lastDate} title={formatDateTime(thread.lastDate)}>
            {formatMailDate(thread.lastDate)}
          </time>
        </span>
        <span className="thread-row__line">
          <span className="thread-row__subject" dir="auto" data-testid="thread-row-subject">
            {subject}
          </span>
          {labels.map((l) =>
            // Statuses and priorities have their own colours; the user's labels theirs.
            he.inbox.labels[l] ? (
              <span key={l} className={`label-chip label-chip--${l}`} dir="auto" data-label={l} data-testid="thread-row-label">
                {labelText(l)}
              </span>
            ) : (
              <LabelChip key={l} look={look(l)} testId="thread-row-label" />
            ),
          )}
          {(newest?.folderLabels ?? []).slice(0, MAX_LABELS).map((name) => (
            <span key={`folder:${name}`} className="label-chip" dir="auto" title={he.inbox.folderLabel(name)} data-testid="thread-row-folder-label">
              {name}
            </span>
          ))}
        </span>
        {showPreview && newest?.preview && (
          <span className="thread-row__preview" dir="auto">
            {newest.preview}
          </span>
        )}
      </button>
    </li>
  );
});
