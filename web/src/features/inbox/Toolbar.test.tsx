import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { calls, list, paged, renderInbox, server, solo } from './testFixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The query of the last thread listing the page asked for. */
function lastQuery(fetch: ReturnType<typeof server>): Record<string, string> {
  const all = calls(fetch, 'GET', '/api/threads/inbox');
  const url = new URL(String(all[all.length - 1][0]), 'http://x');
  return Object.fromEntries(url.searchParams);
}

describe('toolbar filter and sort', () => {
  it('passes filter, status, sort and order to the server', async () => {
    const fetch = server({
      'GET /api/threads/inbox': (_init, url) =>
        url.includes('status=spam') ? list([]) : list([solo(1), solo(2)], 2),
    });
    renderInbox();
    await screen.findAllByTestId('thread-row');
    expect(lastQuery(fetch)).toEqual({ page: '1', perPage: '50' });
    expect(screen.getByTestId('mail-count')).toHaveTextContent('2 מתוך 2');
    const user = userEvent.setup();

    await user.selectOptions(screen.getByTestId('mail-filter'), 'unread');
    await waitFor(() => expect(lastQuery(fetch)).toEqual({ page: '1', perPage: '50', filter: 'unread' }));

    await user.selectOptions(screen.getByTestId('mail-filter'), 'attachment');
    await waitFor(() => expect(lastQuery(fetch).filter).toBe('attachment'));

    await user.selectOptions(screen.getByTestId('mail-filter'), 'status:urgent');
    await waitFor(() => expect(lastQuery(fetch)).toEqual({ page: '1', perPage: '50', status: 'urgent' }));

    await user.selectOptions(screen.getByTestId('mail-sort'), 'sender');
    await waitFor(() => expect(lastQuery(fetch)).toEqual({ page: '1', perPage: '50', status: 'urgent', sort: 'sender' }));
    expect(screen.getByTestId('mail-sort-order')).toHaveAttribute('data-order', 'asc');

    await user.click(screen.getByTestId('mail-sort-order'));
    await waitFor(() =>
      expect(lastQuery(fetch)).toEqual({ page: '1', perPage: '50', status: 'urgent', sort: 'sender', order: 'desc' }),
    );

    await user.selectOptions(screen.getByTestId('mail-sort'), 'date');
    await user.click(screen.getByTestId('mail-sort-order'));
    await waitFor(() => expect(lastQuery(fetch)).toEqual({ page: '1', perPage: '50', status: 'urgent', order: 'asc' }));

    // Nothing matches: a filter's own empty state, with the way back.
    await user.selectOptions(screen.getByTestId('mail-filter'), 'status:spam');
    const empty = await screen.findByTestId('mail-empty');
    expect(empty).toHaveTextContent('אין הודעות שמתאימות לסינון.');
    await user.click(screen.getByTestId('mail-clear-filter'));
    await waitFor(() => expect(lastQuery(fetch)).toEqual({ page: '1', perPage: '50' }));
    expect(await screen.findAllByTestId('thread-row')).toHaveLength(2);
  });

  it('the next page keeps the options', async () => {
    const all = Array.from({ length: 60 }, (_, i) => solo(i + 1));
    const fetch = server({
      'GET /api/threads/inbox': paged(all),
    });
    renderInbox();
    await screen.findAllByTestId('thread-row');
    const user = userEvent.setup();
    await user.selectOptions(screen.getByTestId('mail-filter'), 'starred');
    await waitFor(() => expect(lastQuery(fetch).filter).toBe('starred'));
    await user.click(await screen.findByTestId('mail-load-more'));
    await waitFor(() => expect(lastQuery(fetch)).toEqual({ page: '2', perPage: '50', filter: 'starred' }));
  });
});
