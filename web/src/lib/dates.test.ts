import { afterEach, describe, expect, it } from 'vitest';
import {
  ISRAELI_WORK_WEEK,
  displayTimeZone,
  setDisplayTimeZone,
  startOfWeek as startOfWeekIn,
  formatDate,
  formatDateTime,
  formatInputDateTime,
  formatListDate,
  formatMailDate,
  formatTime,
  isWorkDay,
  startOfWeek,
} from './dates';

describe('dates', () => {
  it('formats dd/MM/yyyy with zero padding', () => {
    expect(formatDate(new Date(2026, 0, 5, 9, 7))).toBe('05/01/2026');
    expect(formatDate(new Date(2026, 10, 22))).toBe('22/11/2026');
  });

  it('formats HH:mm on a 24-hour clock', () => {
    expect(formatTime(new Date(2026, 0, 5, 9, 7))).toBe('09:07');
    expect(formatTime(new Date(2026, 0, 5, 21, 45))).toBe('21:45');
    expect(formatTime(new Date(2026, 0, 5, 0, 0))).toBe('00:00');
  });

  it('joins date and time', () => {
    expect(formatDateTime(new Date(2026, 2, 1, 14, 3))).toBe('01/03/2026 14:03');
  });

  it('returns an empty string for invalid input instead of NaN/NaN', () => {
    expect(formatDate('not a date')).toBe('');
    expect(formatTime('not a date')).toBe('');
  });

  it('starts the week on Sunday', () => {
    // Wednesday 25 Nov 2026 → Sunday 22 Nov 2026.
    const s = startOfWeek(new Date(2026, 10, 25, 15, 30));
    expect(s.getDay()).toBe(0);
    expect(formatDate(s)).toBe('22/11/2026');
    expect(formatTime(s)).toBe('00:00');
    // A Sunday is its own week start; a Saturday belongs to the week that began six days earlier.
    expect(formatDate(startOfWeek(new Date(2026, 10, 22, 8)))).toBe('22/11/2026');
    expect(formatDate(startOfWeek(new Date(2026, 10, 28, 23)))).toBe('22/11/2026');
    // Across a month boundary.
    expect(formatDate(startOfWeek(new Date(2026, 11, 2)))).toBe('29/11/2026');
  });

  it('treats Sunday to Thursday as the Israeli work week', () => {
    expect(ISRAELI_WORK_WEEK).toEqual([0, 1, 2, 3, 4]);
    expect(isWorkDay(new Date(2026, 10, 22))).toBe(true); // Sunday
    expect(isWorkDay(new Date(2026, 10, 26))).toBe(true); // Thursday
    expect(isWorkDay(new Date(2026, 10, 27))).toBe(false); // Friday
    expect(isWorkDay(new Date(2026, 10, 28))).toBe(false); // Saturday
    expect(isWorkDay(new Date(2026, 10, 27), [1, 2, 3, 4, 5])).toBe(true);
  });

  it('uses a short relative form for list dates', () => {
    const now = new Date(2026, 10, 22, 18, 0);
    expect(formatListDate(new Date(2026, 10, 22, 8, 5), now)).toBe('08:05');
    expect(formatListDate(new Date(2026, 2, 9, 8, 5), now)).toBe('09/03');
    expect(formatListDate(new Date(2025, 2, 9, 8, 5), now)).toBe('09/03/2025');
  });

  it('formats the mail list date: today HH:mm, any other day dd/MM/yyyy', () => {
    const now = new Date(2026, 10, 22, 18, 0);
    expect(formatMailDate(new Date(2026, 10, 22, 8, 5), now)).toBe('08:05');
    expect(formatMailDate(new Date(2026, 10, 21, 23, 59), now)).toBe('21/11/2026');
    expect(formatMailDate(new Date(2025, 2, 9, 8, 5), now)).toBe('09/03/2025');
    expect(formatMailDate('not a date', now)).toBe('');
  });
});

describe('the display time zone (the timezone preference)', () => {
  afterEach(() => setDisplayTimeZone(undefined));

  it('shows an instant on the clock of the chosen zone', () => {
    // 2026-11-24 22:30 UTC: 00:30 on the 25th in Jerusalem (+2), 07:30 in Tokyo (+9).
    const instant = Date.UTC(2026, 10, 24, 22, 30);
    setDisplayTimeZone('Asia/Jerusalem');
    expect(formatDateTime(instant)).toBe('25/11/2026 00:30');
    setDisplayTimeZone('Asia/Tokyo');
    expect(formatDateTime(instant)).toBe('25/11/2026 07:30');
    setDisplayTimeZone('America/New_York');
    expect(formatDateTime(instant)).toBe('24/11/2026 17:30');
    expect(displayTimeZone()).toBe('America/New_York');
  });

  it("gives a datetime-local input's value on that zone's clock", () => {
    const instant = Date.UTC(2026, 10, 24, 22, 30);
    setDisplayTimeZone('Asia/Jerusalem');
    expect(formatInputDateTime(instant)).toBe('2026-11-25T00:30');
    expect(formatInputDateTime('2026-11-24T22:30:00Z')).toBe('2026-11-25T00:30');
    setDisplayTimeZone('America/New_York');
    expect(formatInputDateTime(instant)).toBe('2026-11-24T17:30');
    expect(formatInputDateTime('not a date')).toBe('');
  });

  it('counts "today" and weeks in that zone, and ignores unknown names', () => {
    setDisplayTimeZone('Asia/Jerusalem');
    const now = Date.UTC(2026, 10, 24, 22, 30); // Wednesday the 25th, 00:30 in Jerusalem
    expect(formatMailDate(Date.UTC(2026, 10, 24, 22, 10), now)).toBe('00:10');
    expect(formatMailDate(Date.UTC(2026, 10, 24, 21, 50), now)).toBe('24/11/2026');
    // The week began on Sunday the 22nd at midnight in Jerusalem: 21st 22:00 UTC.
    expect(startOfWeekIn(now).toISOString()).toBe('2026-11-21T22:00:00.000Z');
    setDisplayTimeZone('Mars/Olympus');
    expect(displayTimeZone()).toBe('Asia/Jerusalem');
  });
});

describe('dates in a display zone', () => {
  afterEach(() => setDisplayTimeZone(undefined));

  /** What Intl itself says the wall clock is: the reference the quarter-hour offsets must match. */
  function reference(zone: string, at: Date): string {
    const parts: Record<string, string> = {};
    const f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    for (const p of f.formatToParts(at)) parts[p.type] = p.value;
    return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}`;
  }

  it('agrees with Intl at every instant, across daylight-saving changes and odd offsets', () => {
    // Jerusalem's 2026 spring change (27/03 02:00 → 03:00) and autumn one (25/10), a minute apart
    // around each, and Kathmandu (+05:45), Lord Howe (a 30-minute DST) and New York at random.
    const instants: number[] = [];
    for (const edge of [Date.UTC(2026, 2, 27, 0, 0), Date.UTC(2026, 9, 24, 23, 0)]) {
      for (let m = -90; m <= 90; m++) instants.push(edge + m * 60_000);
    }
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 400; i++) instants.push(Date.UTC(1995, 0, 1) + Math.floor(random() * 45 * 365 * 86_400_000));
    for (const zone of ['Asia/Jerusalem', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/New_York']) {
      setDisplayTimeZone(zone);
      for (const ms of instants) expect(formatDateTime(new Date(ms)), `${zone} ${new Date(ms).toISOString()}`).toBe(reference(zone, new Date(ms)));
    }
  });
});
