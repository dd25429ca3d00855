// Quiet hours in the card: the server keeps minutes after midnight; the time inputs show HH:MM.

import type { PushQuiet, PushSpan } from '../../api/push';

/** The night's default when first ticked: 22:00 to 07:00. */
export const NIGHT_DEFAULT: PushSpan = { from: 22 * 60, to: 7 * 60 };
/** Shabbat's preset: Friday 16:00 (before candle lighting, all year) to Saturday 20:00 (after havdalah, all year). */
export const SHABBAT_DEFAULT: PushSpan = { from: 16 * 60, to: 20 * 60 };

/** 420 → "07:00". */
export function toClock(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** "07:00" → 420; null when it is not a time of day. */
export function fromClock(value: string): number | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h < 24 && min < 60 ? h * 60 + min : null;
}

/** Whether two quiet settings say the same. */
export function sameQuiet(a: PushQuiet, b: PushQuiet): boolean {
  const same = (x: PushSpan | null, y: PushSpan | null) => (x === null ? y === null : y !== null && x.from === y.from && x.to === y.to);
  return same(a.night, b.night) && same(a.shabbat, b.shabbat);
}
