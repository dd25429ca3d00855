// The pending-replies page's data as the server answers it, for tests: a draft with every field,
// the test's own values over it, and a server holding the drafts and an empty outbox.

import type { Draft } from '../../api/outgoing';
import { DANA, json, mockFetch } from '../../test/helpers';
import type { Handler } from '../inbox/testFixtures';

export function draft(id: string, over: Partial<Draft> = {}): Draft {
  return {
    id,
    draftContent: `<p dir="auto">טיוטה ${id}</p>`,
    to: `to${id}@example.test`,
    toName: `נמען ${id}`,
    cc: [],
    subject: `Re: נושא ${id}`,
    createdAt: '2026-03-04T09:15:00Z',
    isAutoReply: false,
    savedInGmail: true,
    outboxId: null,
    messageId: `<d${id}@example.test>`,
    ...over,
  };
}

/** The page's server: drafts as given (a function re-read on every GET), an empty outbox. */
export function draftsServer(drafts: () => Draft[], routes: Record<string, Handler> = {}) {
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/drafts': () => json(200, { drafts: drafts(), total: drafts().length }),
    'GET /api/outbox': () => json(200, { items: [] }),
    'GET /api/emails/counts': () => json(200, { needsReply: 1 }),
    ...routes,
  });
}
