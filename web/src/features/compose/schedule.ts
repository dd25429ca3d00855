// Scheduled sending's date arithmetic (spec 000 §5 "Quick schedule options"), in the browser's
// local time: the person picks "tomorrow 09:00" on their own clock. Pure, with `now` passed in,
// so the rules are tested at fixed moments (across midnight, from a Monday, from a Sunday).

export type QuickOption = 'tomorrow' | 'dayafter' | 'hour' | 'monday';

export const QUICK_OPTIONS: readonly QuickOption[] = ['tomorrow', 'dayafter', 'hour', 'monday'];

/** A local date and time as the date and time inputs hold them: yyyy-MM-dd and HH:mm. */
export interface Slot {
  date: string;
  time: string;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** yyyy-MM-dd in local time (what <input type=date> reads and its `min` needs). */
export function dateInputValue(d: Date): string {
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

/** HH:mm in local time. */
export function timeInputValue(d: Date): string {
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

function atNine(now: Date, daysAhead: number): Date {
  // new Date(y, m, d + n) lets Date carry over month and year ends, and keeps local time across DST.
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + daysAhead, 9, 0, 0, 0);
}

/** Days until the next Monday: from a Monday that is a week on, from a Sunday the day after. */
function daysToNextMonday(now: Date): number {
  const MONDAY = 1;
  return (MONDAY - now.getDay() + 7) % 7 || 7;
}

export function quickDate(option: QuickOption, now: Date): Date {
  switch (option) {
    case 'tomorrow':
      return atNine(now, 1);
    case 'dayafter':
      return atNine(now, 2);
    case 'hour': {
      // One hour on, on the hour: 14:35 becomes 15:00 (and 23:10 becomes 00:00 the next day).
      const d = new Date(now.getFullYear(), now.getMonth(), now.getDate(), now.getHours() + 1, 0, 0, 0);
      return d;
    }
    case 'monday':
      return atNine(now, daysToNextMonday(now));
  }
}

export function quickSlot(option: QuickOption, now: Date): Slot {
  const d = quickDate(option, now);
  return { date: dateInputValue(d), time: timeInputValue(d) };
}

/** The slot as a local Date, or null while either part is missing or malformed. */
export function slotDate(slot: Slot): Date | null {
  const dm = /^(\d{4})-(\d{2})-(\d{2})$/.exec(slot.date);
  const tm = /^(\d{2}):(\d{2})(?::\d{2})?$/.exec(slot.time);
  if (!dm || !tm) return null;
  const d = new Date(Number(dm[1]), Number(dm[2]) - 1, Number(dm[3]), Number(tm[1]), Number(tm[2]), 0, 0);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A UTC offset in minutes east of UTC as ±HH:mm (Date#getTimezoneOffset is west, hence the minus). */
export function formatOffset(minutesEast: number): string {
  const sign = minutesEast >= 0 ? '+' : '-';
  const abs = Math.abs(minutesEast);
  return `${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

/** RFC 3339 with the browser's offset at that moment (DST-aware): 2026-11-23T09:00:00+02:00. */
export function toRfc3339(d: Date): string {
  return `${dateInputValue(d)}T${timeInputValue(d)}:${pad2(d.getSeconds())}${formatOffset(-d.getTimezoneOffset())}`;
}
