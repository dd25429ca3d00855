// Pure helpers of the smart features page: the Compose links a suggestion or a written mail opens
// (read back by features/compose/prefill.ts fromParams), and the insights' numbers as Hebrew text.
// Every number helper answers null for a missing or non-finite value, so the card shows '—'
// instead of NaN.

import type { SuggestedReply } from '../../api/ai';
import type { Email } from '../../api/types';
import { heSmart } from '../../i18n/smart';
import { addressIn } from '../compose/prefill';

const d = heSmart.duration;

/** The reply link: recipient, 'Re:' subject and body are prefilled by Compose from these. */
export function replyComposeHref(
  mail: Pick<Email, 'id' | 'messageId' | 'from' | 'subject'>,
  reply: SuggestedReply,
): string {
  const q = new URLSearchParams();
  q.set('reply', reply.text);
  q.set('suggestion', reply.label);
  // The Message-ID threads the answer; a mail without one is linked by its local id.
  q.set('originalMessageId', mail.messageId?.trim() || mail.id);
  q.set('replyFrom', addressIn(mail.from) || (mail.from ?? '').trim());
  q.set('replySubject', mail.subject ?? '');
  return `/Compose?${q.toString()}`;
}

/** A new mail with the written body. */
export function composeHref(content: string): string {
  return `/Compose?${new URLSearchParams({ content }).toString()}`;
}

function finite(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/** Hours as Hebrew: under an hour in minutes, up to two days in hours (one decimal), then days. */
export function formatHours(hours: number | null | undefined): string | null {
  if (!finite(hours) || hours < 0) return null;
  const minutes = Math.round(hours * 60);
  if (minutes < 1) return d.lessThanMinute;
  if (minutes < 60) return d.minutes(minutes);
  if (hours < 48) {
    const rounded = Math.round(hours * 10) / 10;
    return d.hours(rounded.toLocaleString('he-IL', { maximumFractionDigits: 1 }));
  }
  return d.days(Math.round(hours / 24));
}

/** A 0–1 rate as a whole percentage ('80%'). */
export function formatPercent(rate: number | null | undefined): string | null {
  if (!finite(rate)) return null;
  const pct = Math.round(Math.min(1, Math.max(0, rate)) * 100);
  return `${pct}%`;
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayName(weekday: number | null | undefined): string | null {
  if (!finite(weekday)) return null;
  return heSmart.insights.weekdays[weekday] ?? null;
}

/** A count that is never NaN or negative. */
export function safeCount(v: unknown): number {
  return finite(v) && v > 0 ? Math.floor(v) : 0;
}
