// The phone's list keeps only the rows near the screen in the DOM (issue 42: it scrolls on without
// pages, thousands of threads in, and stays light). A small windowing of our own rather than a
// library: rows differ in height (a preview line, labels, density), so each rendered row's height
// is measured and kept by thread id, and a row not measured yet counts as the average of those
// that were. The list's padding stands for the rows above and below the window, so the scroll
// height stays that of the whole list. What scrolls does not matter: the window is the part of
// the list inside both its scroll box and the browser's viewport, re-read on any scroll (a
// capturing listener on the window sees every element's), on resize and when the scroll box
// changes size (a phone's list is hidden while a mail is open, and shown again). Read at once in
// the listener: React batches the state it sets.

import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';

/** A row's height before any row was measured (px; a thread row with its preview line). */
const FIRST_GUESS = 72;
/** Rows this far (px) above and below what is on screen are rendered too. */
export const OVERSCAN = 600;

/** The rows to render, and the space that stands for the rest. */
export interface RowWindow {
  start: number;
  end: number;
  /** Px above the first rendered row (the rows before `start`). */
  before: number;
  /** Px below the last rendered row. */
  after: number;
}

/** The band of the list (px from its top edge) that is on screen. */
export interface Band {
  top: number;
  bottom: number;
}

/**
 * The rows of `ids` within OVERSCAN px of `band`, with `known` heights by id (a row not measured
 * yet counts as the average of those that were), and the px that stand for the rows outside.
 */
export function windowOf(ids: readonly string[], known: ReadonlyMap<string, number>, band: Band): RowWindow {
  let sum = 0;
  for (const h of known.values()) sum += h;
  const guess = known.size ? sum / known.size : FIRST_GUESS;
  const from = band.top - OVERSCAN;
  const to = band.bottom + OVERSCAN;
  let offset = 0;
  let start = ids.length;
  let before = 0;
  let end = ids.length;
  for (let i = 0; i < ids.length; i++) {
    const h = known.get(ids[i]) ?? guess;
    if (start === ids.length && offset + h > from) {
      start = i;
      before = offset;
    }
    if (offset >= to) {
      end = i;
      break;
    }
    offset += h;
  }
  let after = 0;
  for (let i = end; i < ids.length; i++) after += known.get(ids[i]) ?? guess;
  return { start: Math.min(start, end), end, before, after };
}

/** Keeps a row's height by its thread id; whether it changed. */
function record(heights: Map<string, number>, el: HTMLElement): boolean {
  const id = el.dataset.id;
  const h = el.offsetHeight;
  if (!id || !h || heights.get(id) === h) return false;
  heights.set(id, h);
  return true;
}

/** The window over `ids` (the rows in order) of the list `list` inside the scroll box `scroller`. */
export function useRowWindow(
  list: RefObject<HTMLElement | null>,
  scroller: RefObject<HTMLElement | null>,
  ids: readonly string[],
  enabled: boolean,
): RowWindow {
  const heights = useRef(new Map<string, number>());
  const [band, setBand] = useState<Band>({ top: 0, bottom: typeof window === 'undefined' ? 800 : window.innerHeight });
  const [measured, setMeasured] = useState(0);

  const readBand = useCallback(() => {
    const ul = list.current;
    const box = scroller.current;
    // Hidden (a phone shows the open mail instead): keep the last band for when it comes back.
    if (!ul || !box || box.offsetParent === null) return;
    const rect = ul.getBoundingClientRect();
    const boxRect = box.getBoundingClientRect();
    // Rectangles are in the viewport's px, row heights (offsetHeight) in the list's own: they
    // differ by the app's scale (a CSS zoom, session/scale).
    const scale = ul.offsetHeight ? rect.height / ul.offsetHeight : 1;
    const top = (Math.max(boxRect.top, 0) - rect.top) / scale;
    const bottom = (Math.min(boxRect.bottom, window.innerHeight) - rect.top) / scale;
    setBand((b) => (Math.abs(b.top - top) < 1 && Math.abs(b.bottom - bottom) < 1 ? b : { top, bottom }));
  }, [list, scroller]);

  useEffect(() => {
    if (!enabled) return;
    const onScroll = () => readBand();
    readBand();
    window.addEventListener('scroll', onScroll, { capture: true, passive: true });
    window.addEventListener('resize', onScroll);
    const resized = typeof ResizeObserver === 'function' ? new ResizeObserver(onScroll) : null;
    if (scroller.current) resized?.observe(scroller.current);
    return () => {
      window.removeEventListener('scroll', onScroll, { capture: true });
      window.removeEventListener('resize', onScroll);
      resized?.disconnect();
    };
  }, [enabled, readBand, scroller]);

  const win = useMemo<RowWindow>(() => {
    void measured; // re-run when a row's height became known
    return enabled ? windowOf(ids, heights.current, band) : { start: 0, end: ids.length, before: 0, after: 0 };
  }, [enabled, ids, band, measured]);

  // Rows' heights come from a ResizeObserver, which reports them after the browser's own layout:
  // reading offsetHeight in a layout effect forced a layout of the page on every render, which
  // made most of a phone's scroll frames long tasks (issue 42). Each rendered row is observed once,
  // and left when it leaves the DOM.
  const observer = useMemo(
    () =>
      typeof ResizeObserver === 'function'
        ? new ResizeObserver((entries) => {
            let changed = false;
            for (const entry of entries) {
              const el = entry.target as HTMLElement;
              if (record(heights.current, el)) changed = true;
            }
            if (changed) setMeasured((n) => n + 1);
          })
        : null,
    [],
  );
  const observed = useRef(new Set<HTMLElement>());
  useEffect(
    () => () => {
      observer?.disconnect();
      // Observed again after a remount (StrictMode runs this cleanup once on mount too).
      observed.current.clear();
    },
    [observer],
  );

  // Each render: new rows are observed (or, without ResizeObserver, measured at once).
  useLayoutEffect(() => {
    if (!enabled || !list.current) return;
    let changed = false;
    for (const el of observed.current) {
      if (!el.isConnected) {
        observer?.unobserve(el);
        observed.current.delete(el);
      }
    }
    for (const el of Array.from(list.current.children) as HTMLElement[]) {
      if (observer) {
        if (!observed.current.has(el)) {
          observed.current.add(el);
          observer.observe(el);
        }
      } else if (record(heights.current, el)) {
        changed = true;
      }
    }
    if (changed) setMeasured((n) => n + 1);
  });

  return win;
}
