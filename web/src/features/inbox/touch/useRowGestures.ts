// A list row's touch gestures (issue 39): a sideways swipe (either way) does the user's swipe
// action (the `swipeAction` preference: archive or mark processed), a long press ticks the row
// for the bulk bar. A vertical move is the list scrolling and cancels both (the row sets
// `touch-action: pan-y`, so the browser keeps vertical panning and reports it as a cancel). The
// click a touch leaves behind after either gesture does not open the mail. Mouse and pen
// pointers are left alone: the row's checkbox and click serve them.

import { useCallback, useEffect, useRef, useState, type MouseEvent as ReactMouseEvent, type PointerEvent } from 'react';

/** Held this long without moving, a touch is a long press. */
export const LONG_PRESS_MS = 500;
/** A finger moves this far (px) before the move counts as a swipe or a scroll. */
export const MOVE_SLOP = 10;

/** How far (px) a row of `width` must travel for the swipe to act: 30% of it, at most 120. */
export function swipeThreshold(width: number): number {
  return Math.min(120, Math.max(48, width * 0.3));
}

type Mode = 'idle' | 'pending' | 'swipe' | 'scroll' | 'pressed';

/**
 * Eats the click the browser sends after a gesture, wherever it lands: the bulk bar a long press
 * opens (or a swiped row leaving) moves the rows, so it may hit another row than the pressed
 * one. The next press is a new gesture and ends the watch; a keyboard's click (detail 0) is
 * never eaten.
 */
function swallowNextClick(): void {
  const swallow = (e: MouseEvent) => {
    if (e.detail === 0) return;
    e.preventDefault();
    e.stopPropagation();
    stop();
  };
  const stop = () => {
    document.removeEventListener('click', swallow, true);
    document.removeEventListener('pointerdown', stop, true);
  };
  document.addEventListener('click', swallow, true);
  // Registered after the current event has run its course (a pointerup may still be under way).
  window.setTimeout(() => document.addEventListener('pointerdown', stop, true));
}

export interface RowGestures {
  /** The row's sideways offset while a swipe is under way (0 otherwise). */
  offset: number;
  /** The swipe has gone far enough to act when released. */
  armed: boolean;
  handlers: {
    onPointerDown: (e: PointerEvent<HTMLElement>) => void;
    onPointerMove: (e: PointerEvent<HTMLElement>) => void;
    onPointerUp: (e: PointerEvent<HTMLElement>) => void;
    onPointerCancel: (e: PointerEvent<HTMLElement>) => void;
    onContextMenu: (e: ReactMouseEvent<HTMLElement>) => void;
  };
}

export function useRowGestures({ onSwipe, onLongPress }: { onSwipe: () => void; onLongPress: () => void }): RowGestures {
  const start = useRef<{ x: number; y: number; width: number } | null>(null);
  const mode = useRef<Mode>('idle');
  const timer = useRef<number | undefined>(undefined);
  const offsetRef = useRef(0);
  const [offset, setOffset] = useState(0);

  const clearTimer = () => {
    if (timer.current !== undefined) window.clearTimeout(timer.current);
    timer.current = undefined;
  };
  useEffect(() => clearTimer, []);

  const move = (dx: number) => {
    offsetRef.current = dx;
    setOffset(dx);
  };

  const onPointerDown = useCallback(
    (e: PointerEvent<HTMLElement>) => {
      if (e.pointerType !== 'touch' || !e.isPrimary) return;
      start.current = { x: e.clientX, y: e.clientY, width: e.currentTarget.getBoundingClientRect().width };
      mode.current = 'pending';
      clearTimer();
      timer.current = window.setTimeout(() => {
        if (mode.current !== 'pending') return;
        mode.current = 'pressed';
        swallowNextClick();
        navigator.vibrate?.(15);
        onLongPress();
      }, LONG_PRESS_MS);
    },
    [onLongPress],
  );

  const onPointerMove = useCallback((e: PointerEvent<HTMLElement>) => {
    const s = start.current;
    if (!s || e.pointerType !== 'touch') return;
    const dx = e.clientX - s.x;
    const dy = e.clientY - s.y;
    if (mode.current === 'pending') {
      if (Math.abs(dx) > MOVE_SLOP && Math.abs(dx) > Math.abs(dy)) {
        mode.current = 'swipe';
        clearTimer();
        e.currentTarget.setPointerCapture?.(e.pointerId);
      } else if (Math.abs(dy) > MOVE_SLOP) {
        mode.current = 'scroll';
        clearTimer();
      }
    }
    if (mode.current === 'swipe') move(dx);
  }, []);

  const finish = useCallback(
    (cancelled: boolean) => {
      clearTimer();
      const s = start.current;
      if (mode.current === 'swipe') {
        swallowNextClick();
        if (!cancelled && s && Math.abs(offsetRef.current) >= swipeThreshold(s.width)) onSwipe();
        move(0);
      }
      mode.current = 'idle';
      start.current = null;
    },
    [onSwipe],
  );

  const onContextMenu = useCallback((e: ReactMouseEvent<HTMLElement>) => {
    // A phone's long press would open the browser's menu (or select text) over the selection.
    if (mode.current === 'pressed' || mode.current === 'pending') e.preventDefault();
  }, []);

  const armed = start.current !== null && Math.abs(offset) >= swipeThreshold(start.current.width);
  return {
    offset,
    armed,
    handlers: {
      onPointerDown,
      onPointerMove,
      onPointerUp: () => finish(false),
      onPointerCancel: () => finish(true),
      onContextMenu,
    },
  };
}
