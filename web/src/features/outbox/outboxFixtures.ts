// A mail as the outbox answers it (`OutboxMail`), for tests: every field the server sends, with
// the test's own values over it.

import type { OutboxMail } from '../../api/outgoing';

export function outboxMail(over: Partial<OutboxMail> = {}): OutboxMail {
  return {
    to: ['ron@example.test'],
    cc: [],
    bcc: [],
    subject: 'שלום',
    body: '<p dir="auto">גוף</p>',
    priority: 'medium',
    from_name: '',
    inReplyTo: null,
    originalMessageId: null,
    references: [],
    originalId: null,
    attachments: [],
    snoozed_until: null,
    ...over,
  };
}
