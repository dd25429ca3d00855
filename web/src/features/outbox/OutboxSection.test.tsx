import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OutboxItem } from '../../api/outgoing';
import { formatDateTime } from '../../lib/dates';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { calls, toasts, type Handler } from '../inbox/testFixtures';
import { OutboxSection } from './OutboxSection';
import { outboxItem } from './outboxFixtures';

afterEach(() => {
  vi.unstubAllGlobals();
});

const ITEMS = () => [
  outboxItem('1', 'waiting'),
  outboxItem('2', 'scheduled'),
  outboxItem('3', 'sending'),
  outboxItem('4', 'failed', { lastError: 'SMTP: החיבור נכשל', nextTry: '2026-03-04T09:30:00Z', attempts: 2 }),
  outboxItem('5', 'failed', { lastError: '550 mailbox unavailable', retry: false }),
];

function server(items: () => OutboxItem[], routes: Record<string, Handler> = {}) {
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/outbox': () => json(200, { items: items() }),
    'GET /api/drafts': () => json(200, { drafts: [], total: 0 }),
    ...routes,
  });
}

function renderOutbox() {
  signInAs();
  return renderWithProviders(<OutboxSection />, { route: '/PendingReplies' });
}

const row = (id: string) => screen.getAllByTestId('outbox-item').find((r) => r.dataset.id === id)!;

describe('outbox', () => {
  it('lists each item with its recipients, subject and state in Hebrew', async () => {
    server(ITEMS);
    renderOutbox();
    const rows = await screen.findAllByTestId('outbox-item');
    expect(rows.map((r) => [r.dataset.id, r.dataset.state])).toEqual([
      ['1', 'waiting'],
      ['2', 'scheduled'],
      ['3', 'sending'],
      ['4', 'failed'],
      ['5', 'failed'],
    ]);
    expect(row('1')).toHaveTextContent('to1@example.test, cc@example.test');
    expect(row('1')).toHaveTextContent('נושא 1');
    expect(within(row('1')).getByTestId('outbox-state')).toHaveTextContent('ממתין לשליחה');
    expect(within(row('2')).getByTestId('outbox-state')).toHaveTextContent(`מתוזמן ל-${formatDateTime('2026-03-05T07:00:00Z')}`);
    expect(within(row('3')).getByTestId('outbox-state')).toHaveTextContent('נשלח כעת');
    expect(within(row('4')).getByTestId('outbox-state')).toHaveTextContent('השליחה נכשלה');
    expect(within(row('4')).getByTestId('outbox-error')).toHaveTextContent('SMTP: החיבור נכשל');
    expect(within(row('4')).getByTestId('outbox-next')).toHaveTextContent(`ניסיון נוסף ב-${formatDateTime('2026-03-04T09:30:00Z')}`);
    expect(within(row('5')).getByTestId('outbox-next')).toHaveTextContent('ממתין לתיקון');

    // Actions by state: nothing while sending, retry only when failed, the scheduled cancel wording.
    expect(within(row('3')).queryByRole('button')).toBeNull();
    expect(within(row('1')).queryByTestId('outbox-retry')).toBeNull();
    expect(within(row('4')).getByTestId('outbox-retry')).toBeInTheDocument();
    expect(within(row('2')).getByTestId('outbox-cancel')).toHaveTextContent('ביטול התזמון');
    expect(within(row('1')).getByTestId('outbox-cancel')).toHaveTextContent('ביטול השליחה');
  });

  it('is not shown at all when the outbox is empty', async () => {
    const fetch = server(() => []);
    renderOutbox();
    await waitFor(() => expect(calls(fetch, 'GET', '/api/outbox')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('outbox')).not.toBeInTheDocument();
  });

  it('retry now asks the server to try again', async () => {
    const fetch = server(ITEMS, {
      'POST /api/outbox/4/retry': () => json(200, { success: true, item: outboxItem('4', 'sending') }),
    });
    renderOutbox();
    await screen.findAllByTestId('outbox-item');
    const before = calls(fetch, 'GET', '/api/outbox').length;
    await userEvent.setup().click(within(row('4')).getByTestId('outbox-retry'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/outbox/4/retry')).toHaveLength(1));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'info', text: 'מנסה לשלוח שוב' }));
    await waitFor(() => expect(calls(fetch, 'GET', '/api/outbox').length).toBeGreaterThan(before));
  });

  it('cancel asks first; a scheduled one says its copy stays in Drafts', async () => {
    let items = ITEMS();
    const fetch = server(() => items, {
      'DELETE /api/outbox/2': () => {
        items = items.filter((i) => i.id !== '2');
        return json(200, { success: true });
      },
      'DELETE /api/outbox/1': () => json(409, { success: false, error: 'conflict', message: 'המייל כבר נשלח' }),
    });
    renderOutbox();
    await screen.findAllByTestId('outbox-item');
    const user = userEvent.setup();

    await user.click(within(row('2')).getByTestId('outbox-cancel'));
    const dialog = screen.getByTestId('confirm-dialog');
    expect(dialog).toHaveTextContent('לבטל את שליחת "נושא 2"?');
    expect(dialog).toHaveTextContent('עותק שלו יישאר בטיוטות');
    await user.click(within(dialog).getByTestId('confirm-no'));
    expect(calls(fetch, 'DELETE', '/api/outbox/2')).toHaveLength(0);

    await user.click(within(row('2')).getByTestId('outbox-cancel'));
    await user.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(calls(fetch, 'DELETE', '/api/outbox/2')).toHaveLength(1));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'success', text: 'התזמון בוטל; המייל נשאר בטיוטות' }));
    await waitFor(() => expect(screen.getAllByTestId('outbox-item').map((r) => r.dataset.id)).toEqual(['1', '3', '4', '5']));

    await user.click(within(row('1')).getByTestId('outbox-cancel'));
    await user.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', text: 'המייל כבר נשלח' }));
  });

  it('edit opens Compose on the item', async () => {
    server(ITEMS);
    const r = renderOutbox();
    await screen.findAllByTestId('outbox-item');
    await userEvent.setup().click(within(row('4')).getByTestId('outbox-edit'));
    expect(r.location().pathname).toBe('/Compose');
    expect(r.location().search).toBe('?outboxId=4');
  });
});
