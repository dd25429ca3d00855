// The keyboard cursor of the thread list: j/k move it, Enter opens its thread, and with a mail
// open the next thread opens too (reading along). It follows the open thread however that was
// opened, and moves to a neighbour when its thread leaves the list. Its ring shows only once
// the keyboard is in use; opening with the mouse hides it again.

import { useCallback, useEffect, useState } from 'react';
import type { Thread } from '../../api/types';

export interface ThreadCursorOptions {
  threads: Thread[];
  openThreadId: string | null;
  /** A mail is open (maybe one outside the loaded list). */
  reading: boolean;
  open: (thread: Thread) => void;
}

export function useThreadCursor({ threads, openThreadId, reading, open }: ThreadCursorOptions) {
  const [cursorId, setCursorId] = useState<string | null>(null);
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (openThreadId) setCursorId(openThreadId);
  }, [openThreadId]);

  const cursorThread = threads.find((th) => th.id === cursorId) ?? null;

  function move(step: 1 | -1) {
    if (threads.length === 0) return;
    const at = threads.findIndex((th) => th.id === (cursorId ?? openThreadId));
    const index = at === -1 ? (step === 1 ? 0 : threads.length - 1) : Math.min(threads.length - 1, Math.max(0, at + step));
    const next = threads[index];
    setCursorId(next.id);
    if (reading) open(next);
  }

  function openAtCursor() {
    if (cursorThread) open(cursorThread);
  }

  /** Threads are leaving the list: a cursor on one of them moves to the next one left (or the one before). */
  const leave = useCallback((before: Thread[], gone: ReadonlySet<string>) => {
    setCursorId((cursor) => {
      if (!cursor || !gone.has(cursor)) return cursor;
      const at = before.findIndex((th) => th.id === cursor);
      const after = before.slice(at + 1).find((th) => !gone.has(th.id));
      const prior = before.slice(0, at).reverse().find((th) => !gone.has(th.id));
      return (after ?? prior)?.id ?? null;
    });
  }, []);

  return {
    /** The cursor's thread id when its ring should show, else null. */
    shownCursorId: visible ? cursorId : null,
    cursorThread,
    next: () => move(1),
    previous: () => move(-1),
    openAtCursor,
    leave,
    /** The keyboard was used: show the ring. */
    showRing: useCallback(() => setVisible(true), []),
    hideRing: useCallback(() => setVisible(false), []),
  };
}
