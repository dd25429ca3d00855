// Fixtures of the smart features tests: inbox rows shaped like the server's, a connected mailbox,
// insights, and a fake server with the routes the page reads (each overridable per test).

import type { Insights } from '../../api/ai';
import type { MailAccountWithSync } from '../../api/types';
import { ACCOUNT as INBOX_ACCOUNT, mail } from '../inbox/testFixtures';
import { DANA, json, mockFetch } from '../../test/helpers';

export type Handler = Parameters<typeof mockFetch>[0][string];

/** A connected mailbox that has not reported its sync yet. */
export const ACCOUNT: MailAccountWithSync = { ...INBOX_ACCOUNT, sync: null };

/** An inbox row, as the inbox tests build them. */
export const row = mail;

export const TEN = Array.from({ length: 10 }, (_, i) => row(10 - i));

export const INSIGHTS: Insights = {
  periodDays: 30,
  received: 120,
  sent: 35,
  replyTime: { medianHours: 3.5, averageHours: 0.5, samples: 20 },
  replyRate: 0.8,
  needsReply: { count: 4, urgent: 1, oldestDays: 6 },
  busiestSenders: [
    { address: 'a@x.com', name: 'דנה', count: 12 },
    { address: 'b@x.com', name: '', count: 7 },
  ],
  busiestDay: { weekday: 0, count: 30 },
};

export const AI_KEY_MISSING = {
  success: false,
  error: 'ai_key_missing',
  message: 'לא הוגדר מפתח API של Claude. אנא הגדר בהגדרות.',
};

/** The page's server: ten mails, one mailbox, insights; `routes` add or replace handlers. */
export function smartServer(routes: Record<string, Handler> = {}) {
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/auth/accounts': () => json(200, { success: true, accounts: [ACCOUNT] }),
    'GET /api/emails/inbox': () => json(200, TEN),
    'GET /api/smart/insights': () => json(200, INSIGHTS),
    ...routes,
  });
}

/** The JSON body a mocked call was sent with. */
export function bodyOf(init: RequestInit | undefined): unknown {
  return JSON.parse(String(init?.body ?? 'null'));
}
