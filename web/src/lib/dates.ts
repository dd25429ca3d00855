// he-IL dates without a date library: the app only needs a handful of fixed formats
// (spec 000 §1: dd/MM/yyyy and HH:mm, weeks start on Sunday). Everything is shown in the user's
// time zone (their `timezone` preference, set with setDisplayTimeZone), or in the browser's until
// the preferences are known: a person reading their mail expects their own clock.

/** Anything the helpers accept: a Date, an ISO string from the API, or epoch milliseconds. */
export type DateInput = Date | string | number;

/** Sunday..Thursday — the Israeli work week (Date#getDay numbering, Sunday = 0). */
export const ISRAELI_WORK_WEEK: readonly number[] = [0, 1, 2, 3, 4];

/** Weeks start on Sunday in the Hebrew locale. */
export const WEEK_STARTS_ON = 0;

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The IANA zone dates are shown in; undefined = the browser's own. */
let displayZone: string | undefined;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Whether the browser knows this IANA zone name. */
export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Shows every date from now on in `zone` (an unknown name keeps the current one). */
export function setDisplayTimeZone(zone: string | undefined): void {
  if (zone === undefined || isKnownTimeZone(zone)) displayZone = zone;
}

export function displayTimeZone(): string {
  return displayZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The wall clock of `d` in the display zone. */
interface Wall {
  year: number;
  month: number; // 1..12
  day: number;
  hour: number;
  minute: number;
  weekday: number; // Sunday = 0
}

/**
 * The display zone's offset from UTC (ms) by quarter hour of the UTC clock: a list of hundreds of
 * dates asked Intl for each (formatToParts, the slowest part of a phone's first paint). Zones
 * change offset only on a quarter hour, so every instant of one quarter shares it.
 */
const offsets = new Map<string, number>();
const QUARTER_MS = 15 * 60_000;
/** Quarters remembered at most (a long list spans years: a few thousand distinct ones). */
const OFFSETS_KEPT = 20_000;

function zoneFormatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(zone, f);
  }
  return f;
}

function zoneOffset(zone: string, ms: number): number {
  const quarter = Math.floor(ms / QUARTER_MS) * QUARTER_MS;
  const key = `${zone}|${quarter}`;
  const known = offsets.get(key);
  if (known !== undefined) return known;
  const parts: Record<string, string> = {};
  for (const p of zoneFormatter(zone).formatToParts(new Date(quarter))) parts[p.type] = p.value;
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour) % 24,
    Number(parts.minute),
  );
  // Years before 100 are not what Date.UTC reads them as; their offset is of no one's mail.
  const offset = Number.isFinite(asUtc) && Number(parts.year) >= 100 ? asUtc - quarter : 0;
  if (offsets.size >= OFFSETS_KEPT) offsets.clear();
  offsets.set(key, offset);
  return offset;
}

function wall(d: Date): Wall {
  if (displayZone === undefined) {
    return {
      year: d.getFullYear(),
      month: d.getMonth() + 1,
      day: d.getDate(),
      hour: d.getHours(),
      minute: d.getMinutes(),
      weekday: d.getDay(),
    };
  }
  const shifted = new Date(d.getTime() + zoneOffset(displayZone, d.getTime()));
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    weekday: shifted.getUTCDay(),
  };
}

/** The instant of midnight of a calendar day in the display zone. */
function zonedMidnight(year: number, month: number, day: number): Date {
  if (displayZone === undefined) return new Date(year, month - 1, day);
  const guess = Date.UTC(year, month - 1, day);
  const w = wall(new Date(guess));
  const offset = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - guess;
  return new Date(guess - offset);
}

/**
 * The display zone's offset from UTC at `at`, in minutes east (Asia/Jerusalem: 120 in winter,
 * 180 in summer): what the server needs to read a calendar day (search's after/before) as the
 * user's own day, whatever zone the browser runs in.
 */
export function displayZoneOffset(at: Date = new Date()): number {
  const w = wall(at);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  const whole = Math.floor(at.getTime() / 60_000) * 60_000;
  // `|| 0` turns the -0 of UTC into 0.
  return Math.round((asUtc - whole) / 60_000) || 0;
}

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
  const w = wall(d);
  return `${pad2(w.day)}/${pad2(w.month)}/${w.year}`;
}

/** HH:mm on the 24-hour clock. */
export function formatTime(input: DateInput): string {
  const d = toDate(input);
  if (!valid(d)) return '';
  const w = wall(d);
  return `${pad2(w.hour)}:${pad2(w.minute)}`;
}

/** dd/MM/yyyy HH:mm */
export function formatDateTime(input: DateInput): string {
  const d = toDate(input);
  if (!valid(d)) return '';
  return `${formatDate(d)} ${formatTime(d)}`;
}

/**
 * yyyy-MM-ddTHH:mm in the display zone: what a `datetime-local` input holds (and what the server
 * reads back in the user's time zone). '' for an unparseable input.
 */
export function formatInputDateTime(input: DateInput): string {
  const d = toDate(input);
  if (!valid(d)) return '';
  const w = wall(d);
  return `${String(w.year).padStart(4, '0')}-${pad2(w.month)}-${pad2(w.day)}T${pad2(w.hour)}:${pad2(w.minute)}`;
}

/** dd/MM — used for dates within the current year in lists. */
export function formatDayMonth(input: DateInput): string {
  const d = toDate(input);
  if (!valid(d)) return '';
  const w = wall(d);
  return `${pad2(w.day)}/${pad2(w.month)}`;
}

export function isSameDay(a: DateInput, b: DateInput): boolean {
  const x = wall(toDate(a));
  const y = wall(toDate(b));
  return x.year === y.year && x.month === y.month && x.day === y.day;
}

/** Midnight (in the display zone) of the Sunday that starts the week containing `d`. */
export function startOfWeek(input: DateInput, weekStartsOn: number = WEEK_STARTS_ON): Date {
  const w = wall(toDate(input));
  const diff = (w.weekday - weekStartsOn + 7) % 7;
  return zonedMidnight(w.year, w.month, w.day - diff);
}

/** Whether `d` falls on one of `workDays` (Date#getDay numbers); defaults to the Israeli Sun–Thu week. */
export function isWorkDay(input: DateInput, workDays: readonly number[] = ISRAELI_WORK_WEEK): boolean {
  const d = toDate(input);
  return valid(d) && workDays.includes(wall(d).weekday);
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
  if (wall(d).year === wall(n).year) return formatDayMonth(d);
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
