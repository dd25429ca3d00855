// he-IL dates without a date library: the app only needs a handful of fixed formats
// (spec 000 §1: dd/MM/yyyy and HH:mm, weeks start on Sunday). Everything is in the
// browser's local time zone, which is what a person reading their mail expects.

/** Anything the helpers accept: a Date, an ISO string from the API, or epoch milliseconds. */
export type DateInput = Date | string | number;

/** Sunday..Thursday — the Israeli work week (Date#getDay numbering, Sunday = 0). */
export const ISRAELI_WORK_WEEK: readonly number[] = [0, 1, 2, 3, 4];

/** Weeks start on Sunday in the Hebrew locale. */
export const WEEK_STARTS_ON = 0;

const pad2 = (n: number) => String(n).padStart(2, '0');

export function toDate(d: DateInput): Date {
  return d instanceof Date ? d : new Date(d);
}

function valid(d: Date): boolean {
  return !Number.isNaN(d.getTime());
}

/** dd/MM/yyyy, or '' for an unparseable input (a bad date from a mail header must not crash a list). */
export function formatDate(input: DateInput): string {
  const d = toDate(input);
  if (!valid(d)) return '';
  return `${pad2(d.getDate())}/${pad2(d.getMonth() + 1)}/${d.getFullYear()}`;
}

/** HH:mm on the 24-hour clock. */
export function formatTime(input: DateInput): string {
  const d = toDate(input);
  if (!valid(d)) return '';
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** dd/MM/yyyy HH:mm */
export function formatDateTime(input: DateInput): string {
  const d = toDate(input);
  if (!valid(d)) return '';
  return `${formatDate(d)} ${formatTime(d)}`;
}

/** dd/MM — used for dates within the current year in lists. */
export function formatDayMonth(input: DateInput): string {
  const d = toDate(input);
  if (!valid(d)) return '';
  return `${pad2(d.getDate())}/${pad2(d.getMonth() + 1)}`;
}

export function isSameDay(a: DateInput, b: DateInput): boolean {
  const x = toDate(a);
  const y = toDate(b);
  return (
    x.getFullYear() === y.getFullYear() && x.getMonth() === y.getMonth() && x.getDate() === y.getDate()
  );
}

/** Midnight (local) of the Sunday that starts the week containing `d`. */
export function startOfWeek(input: DateInput, weekStartsOn: number = WEEK_STARTS_ON): Date {
  const d = toDate(input);
  const out = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  const diff = (out.getDay() - weekStartsOn + 7) % 7;
  out.setDate(out.getDate() - diff);
  return out;
}

/** Whether `d` falls on one of `workDays` (Date#getDay numbers); defaults to the Israeli Sun–Thu week. */
export function isWorkDay(input: DateInput, workDays: readonly number[] = ISRAELI_WORK_WEEK): boolean {
  const d = toDate(input);
  return valid(d) && workDays.includes(d.getDay());
}

/**
 * The short form for a date column in a mail list, like desktop clients:
 * today → HH:mm, earlier this year → dd/MM, older (or future years) → dd/MM/yyyy.
 */
export function formatListDate(input: DateInput, now: DateInput = new Date()): string {
  const d = toDate(input);
  if (!valid(d)) return '';
  const n = toDate(now);
  if (isSameDay(d, n)) return formatTime(d);
  if (d.getFullYear() === n.getFullYear()) return formatDayMonth(d);
  return formatDate(d);
}

/**
 * The date column of the mail list (spec 000 §1): today → HH:mm, any other day → dd/MM/yyyy.
 */
export function formatMailDate(input: DateInput, now: DateInput = new Date()): string {
  const d = toDate(input);
  if (!valid(d)) return '';
  return isSameDay(d, now) ? formatTime(d) : formatDate(d);
}
