import { describe, expect, it } from 'vitest';
import { OVERSCAN, windowOf } from './useRowWindow';

const ids = Array.from({ length: 1000 }, (_, i) => `t${i}`);
/** Every row measured at `h` px. */
const all = (h: number) => new Map(ids.map((id) => [id, h]));

describe('the phone list window', () => {
  it('renders the rows on screen and OVERSCAN px around them, padding standing for the rest', () => {
    // Rows of 100 px, the screen showing 5,000–5,700 px of the list: rows 44 to 63.
    const w = windowOf(ids, all(100), { top: 5000, bottom: 5700 });
    expect(w.start).toBe((5000 - OVERSCAN) / 100);
    expect(w.end).toBe((5700 + OVERSCAN) / 100);
    expect(w.before).toBe(w.start * 100);
    expect(w.after).toBe((ids.length - w.end) * 100);
    // The scroll height stays that of the whole list.
    expect(w.before + (w.end - w.start) * 100 + w.after).toBe(ids.length * 100);
  });

  it('counts a row not measured yet as the average of those that were', () => {
    const known = new Map([
      ['t0', 50],
      ['t1', 150],
    ]);
    const w = windowOf(ids, known, { top: 0, bottom: 700 });
    expect(w.start).toBe(0);
    // 50 + 150 + 98 × 100 ≥ 1,300 px: row 13 starts past the band and its overscan.
    expect(w.end).toBe(13);
    expect(w.after).toBe((ids.length - 13) * 100);
  });

  it('keeps the rendered rows bounded wherever the screen is, and reaches the last row', () => {
    for (const top of [0, 12_345, 99_300]) {
      const w = windowOf(ids, all(100), { top, bottom: top + 740 });
      expect(w.end - w.start).toBeLessThanOrEqual(Math.ceil((740 + 2 * OVERSCAN) / 100) + 1);
    }
    expect(windowOf(ids, all(100), { top: 99_300, bottom: 100_040 }).end).toBe(ids.length);
  });

  it('renders nothing of an empty list', () => {
    expect(windowOf([], new Map(), { top: 0, bottom: 700 })).toEqual({ start: 0, end: 0, before: 0, after: 0 });
  });
});
