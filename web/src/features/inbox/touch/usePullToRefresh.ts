// Pull to refresh on the mail list (issue 39): a finger that starts with the list at its top and
// pulls down past PULL_TRIGGER (after damping) refreshes when released. Touch events rather than
// pointer events: the browser owns vertical panning (the rows' `touch-action: pan-y`) and sends
// pointercancel as soon as it pans, while touch events keep coming.

import { useEffect, useRef, useState, type RefObject } from 'react';

/** The pulled distance is the finger's divided by this (the list resists the pull). */
const DAMPING = 2;
/** Pulled this far (px, after damping), a release refreshes. */
export const PULL_TRIGGER = 64;
/** The indicator never grows past this. */
const PULL_MAX = 96;

/** Whether the page and the list are both scrolled to their top. */
function atTop(el: HTMLElement): boolean {
  return el.scrollTop <= 0 && (document.scrollingElement?.scrollTop ?? 0) <= 0;
}

export function usePullToRefresh(ref: RefObject<HTMLElement | null>, onRefresh: (() => void) | undefined): number {
  const [pulled, setPulled] = useState(0);
  const latest = useRef(onRefresh);
  useEffect(() => {
    latest.current = onRefresh;
  });

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let startY: number | null = null;
    let startX = 0;
    let distance = 0;
    const onStart = (e: TouchEvent) => {
      if (e.touches.length !== 1 || !atTop(el) || !latest.current) return;
      startY = e.touches[0].clientY;
      startX = e.touches[0].clientX;
      distance = 0;
    };
    const onMove = (e: TouchEvent) => {
      if (startY === null) return;
      const dy = e.touches[0].clientY - startY;
      const dx = e.touches[0].clientX - startX;
      if (dy <= 0 || Math.abs(dx) > dy) {
        distance = 0;
        setPulled(0);
        if (dy < 0 || Math.abs(dx) > 2 * Math.abs(dy)) startY = null;
        return;
      }
      distance = Math.min(PULL_MAX, dy / DAMPING);
      setPulled(distance);
    };
    const onEnd = () => {
      if (startY !== null && distance >= PULL_TRIGGER) latest.current?.();
      startY = null;
      distance = 0;
      setPulled(0);
    };
    el.addEventListener('touchstart', onStart, { passive: true });
    el.addEventListener('touchmove', onMove, { passive: true });
    el.addEventListener('touchend', onEnd);
    el.addEventListener('touchcancel', onEnd);
    return () => {
      el.removeEventListener('touchstart', onStart);
      el.removeEventListener('touchmove', onMove);
      el.removeEventListener('touchend', onEnd);
      el.removeEventListener('touchcancel', onEnd);
    };
  }, [ref]);

  return pulled;
}
