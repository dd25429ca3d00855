// The outbox as the server answers it, for tests: a mail (`OutboxMail`) and an item
// (`OutboxItem`) with every field the server sends, the test's own values over them.

import type { OutboxItem, OutboxMail } from '../../api/outgoing';

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

/** An outbox item in `state`, its mail addressed by its id. */
export function outboxItem(id: string, state: OutboxItem['state'], over: Partial<OutboxItem> = {}): OutboxItem {
  return {
    id,
    kind: 'send',
    state,
    sendAt: '2026-03-05T07:00:00Z',
    attempts: 0,
    nextTry: null,
    lastError: null,
    retry: true,
    createdAt: '2026-03-04T09:00:00Z',
    mail: outboxMail({
      to: [`to${id}@example.test`],
      cc: ['cc@example.test'],
      subject: `נושא ${id}`,
      body: '<p>x</p>',
      snoozed_until: state === 'scheduled' ? '2026-03-05T07:00:00Z' : null,
    }),
    ...over,
  };
}
