import { describe, expect, it } from 'vitest';
import { dateInputValue, formatOffset, quickDate, quickSlot, slotDate, toRfc3339 } from './schedule';

// Local times throughout: the rules are about the user's own clock, whatever the test machine's zone.
const at = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min, 0, 0);

describe('quick schedule options (spec 000 §5)', () => {
  // Thursday 31 December 2026, 14:35: month and year ends are crossed.
  const thursday = at(2026, 12, 31, 14, 35);

  it('tomorrow and the day after at 09:00, across month and year ends', () => {
    expect(quickSlot('tomorrow', thursday)).toEqual({ date: '2027-01-01', time: '09:00' });
    expect(quickSlot('dayafter', thursday)).toEqual({ date: '2027-01-02', time: '09:00' });
  });

  it('in one hour with the minutes zeroed', () => {
    expect(quickSlot('hour', thursday)).toEqual({ date: '2026-12-31', time: '15:00' });
    expect(quickSlot('hour', at(2026, 11, 23, 9, 0))).toEqual({ date: '2026-11-23', time: '10:00' });
  });

  it('in one hour late in the evening is the next day at 00:00', () => {
    expect(quickSlot('hour', at(2026, 12, 31, 23, 10))).toEqual({ date: '2027-01-01', time: '00:00' });
  });

  it('next Monday from a Monday is a week later', () => {
    // 23 November 2026 is a Monday.
    expect(at(2026, 11, 23).getDay()).toBe(1);
    expect(quickSlot('monday', at(2026, 11, 23, 8, 0))).toEqual({ date: '2026-11-30', time: '09:00' });
  });

  it('next Monday from a Sunday is the next day', () => {
    expect(at(2026, 11, 22).getDay()).toBe(0);
    expect(quickSlot('monday', at(2026, 11, 22, 20, 0))).toEqual({ date: '2026-11-23', time: '09:00' });
  });

  it('next Monday from a Friday and from a Thursday', () => {
    expect(quickSlot('monday', at(2026, 11, 27, 12, 0))).toEqual({ date: '2026-11-30', time: '09:00' });
    expect(quickSlot('monday', thursday)).toEqual({ date: '2027-01-04', time: '09:00' });
  });

  it('every option is in the future', () => {
    for (const option of ['tomorrow', 'dayafter', 'hour', 'monday'] as const) {
      expect(quickDate(option, thursday).getTime()).toBeGreaterThan(thursday.getTime());
    }
  });
});

describe('date and time inputs', () => {
  it('the date input value is the local date', () => {
    expect(dateInputValue(at(2026, 3, 5, 23, 59))).toBe('2026-03-05');
  });

  it('a slot needs both parts', () => {
    expect(slotDate({ date: '2026-11-23', time: '' })).toBeNull();
    expect(slotDate({ date: '', time: '09:00' })).toBeNull();
    expect(slotDate({ date: '2026-11-23', time: '09:30' })?.getTime()).toBe(at(2026, 11, 23, 9, 30).getTime());
  });
});

describe('RFC 3339 with the browser offset', () => {
  it('formats offsets east and west of UTC', () => {
    expect(formatOffset(120)).toBe('+02:00');
    expect(formatOffset(180)).toBe('+03:00');
    expect(formatOffset(0)).toBe('+00:00');
    expect(formatOffset(-300)).toBe('-05:00');
    expect(formatOffset(330)).toBe('+05:30');
  });

  it('writes the local wall time and the offset of that moment, naming the same instant', () => {
    const d = at(2026, 11, 23, 9, 0);
    const s = toRfc3339(d);
    expect(s).toMatch(/^2026-11-23T09:00:00[+-]\d{2}:\d{2}$/);
    expect(s.endsWith(formatOffset(-d.getTimezoneOffset()))).toBe(true);
    expect(Date.parse(s)).toBe(d.getTime());
  });
});
