import { describe, expect, it } from 'vitest';
import { fromParams } from '../compose/prefill';
import { composeHref, formatHours, formatPercent, replyComposeHref, safeCount, weekdayName } from './format';
import { row } from './smartFixtures';

const params = (href: string) => new URLSearchParams(href.split('?')[1]);

describe('smart features: compose links', () => {
  it('a suggestion opens Compose to the sender, with Re: subject, the text and the Message-ID', () => {
    const href = replyComposeHref(row(7, { subject: 'פגישה מחר' }), { label: 'אישור', text: 'מעולה, נתראה.\n\nתודה' });
    expect(href.startsWith('/Compose?')).toBe(true);
    const p = params(href);
    expect(p.get('reply')).toBe('מעולה, נתראה.\n\nתודה');
    expect(p.get('suggestion')).toBe('אישור');
    expect(p.get('originalMessageId')).toBe('<m7@example.test>');
    expect(p.get('replyFrom')).toBe('sender7@example.test');
    expect(p.get('replySubject')).toBe('פגישה מחר');

    const initial = fromParams(p);
    expect(initial.to).toEqual(['sender7@example.test']);
    expect(initial.subject).toBe('Re: פגישה מחר');
    expect(initial.replySubject).toBe('פגישה מחר');
    expect(initial.bodyHtml).toContain('מעולה, נתראה.');
    expect(initial.bodyHtml).toContain('תודה');
    expect(initial.reply).toEqual({ originalMessageId: '<m7@example.test>' });
  });

  it('a mail without a Message-ID is linked by its local id; an already Re: subject is kept', () => {
    const href = replyComposeHref(row(42, { messageId: null, subject: 'Re: שאלה', from: 'Ron <ron@example.test>' }), {
      label: 'תודה',
      text: 'תודה רבה',
    });
    const initial = fromParams(params(href));
    expect(initial.reply).toEqual({ originalId: '42' });
    expect(initial.subject).toBe('Re: שאלה');
    expect(initial.to).toEqual(['ron@example.test']);
  });

  it('smart compose opens Compose with the written body', () => {
    const href = composeHref('שלום רב,\nאשמח לפגישה & תודה');
    expect(params(href).get('content')).toBe('שלום רב,\nאשמח לפגישה & תודה');
    expect(fromParams(params(href)).bodyHtml).toContain('אשמח לפגישה &amp; תודה');
  });
});

describe('smart features: insight numbers', () => {
  it('formats hours as Hebrew minutes, hours or days', () => {
    expect(formatHours(0)).toBe('פחות מדקה');
    expect(formatHours(0.5)).toBe('30 דקות');
    expect(formatHours(1 / 60)).toBe('דקה');
    expect(formatHours(1)).toBe('שעה');
    expect(formatHours(2)).toBe('שעתיים');
    expect(formatHours(3.5)).toBe('3.5 שעות');
    expect(formatHours(6.14)).toBe('6.1 שעות');
    expect(formatHours(72)).toBe('3 ימים');
    expect(formatHours(null)).toBeNull();
    expect(formatHours(Number.NaN)).toBeNull();
    expect(formatHours(undefined)).toBeNull();
  });

  it('formats the reply rate as a whole percentage, null stays null', () => {
    expect(formatPercent(0.8)).toBe('80%');
    expect(formatPercent(0.666)).toBe('67%');
    expect(formatPercent(1)).toBe('100%');
    expect(formatPercent(null)).toBeNull();
    expect(formatPercent(Number.NaN)).toBeNull();
  });

  it('names weekdays from Sunday = 0, and counts are never NaN', () => {
    expect(weekdayName(0)).toBe('יום ראשון');
    expect(weekdayName(6)).toBe('שבת');
    expect(weekdayName(7)).toBeNull();
    expect(weekdayName(null)).toBeNull();
    expect(safeCount(Number.NaN)).toBe(0);
    expect(safeCount(-3)).toBe(0);
    expect(safeCount(12)).toBe(12);
  });
});

describe('smart features: insights key', () => {
  it("asks for the browser's time zone in minutes east of UTC", async () => {
    const { insightsKey } = await import('./InsightsCard');
    const summer = { getTimezoneOffset: () => -180 } as Date;
    expect(insightsKey(summer)).toBe('/api/smart/insights?tz=180');
    const west = { getTimezoneOffset: () => 300 } as Date;
    expect(insightsKey(west)).toBe('/api/smart/insights?tz=-300');
  });
});
