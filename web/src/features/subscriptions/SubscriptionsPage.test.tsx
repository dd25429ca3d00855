import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Subscription } from '../../api/subscriptions';
import { DANA, bodyOf, calls, json, mockFetch, renderWithProviders, signInAs, toasts } from '../../test/helpers';
import SubscriptionsPage from './SubscriptionsPage';

const shop: Subscription = {
  id: '1',
  address: 'news@shop.example',
  name: 'שופ',
  listId: 'news.shop.example',
  last30: 4,
  last90: 10,
  opened: 3,
  verdict: 'ads',
  last: '2026-11-28T10:00:00Z',
  oneClick: true,
  mailto: false,
  link: null,
  bodyLinks: [],
  blocked: false,
  unsubscribed: null,
  attempt: null,
};
const club: Subscription = { ...shop, id: '2', address: 'club@list.example', name: '', verdict: 'list', oneClick: false, bodyLinks: ['https://club.example/remove'] };

function server() {
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/subscriptions': () => json(200, { subscriptions: [shop, club], attempts: [] }),
    'POST /api/subscriptions/2/unsubscribe': () =>
      json(200, {
        attempt: { id: '9', senderId: '2', address: club.address, method: 'body_link', target: club.bodyLinks[0], state: 'opened', reason: null, at: '2026-11-29T08:00:00Z' },
        open: club.bodyLinks,
        message: 'יש להשלים את ההסרה בדף של השולח שנפתח',
      }),
    'POST /api/subscriptions/bulk': () => json(200, { results: [{ id: '1', ok: true, message: 'x', attempt: null, open: [] }, { id: '2', ok: true, message: 'x', attempt: null, open: [] }] }),
  });
}

describe('SubscriptionsPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists each sender with its counts, opened share, verdict and way out', async () => {
    server();
    signInAs(DANA);
    renderWithProviders(<SubscriptionsPage />, { route: '/Subscriptions' });
    const rows = await screen.findAllByTestId('subscription');
    expect(rows).toHaveLength(2);
    const first = within(rows[0]);
    expect(first.getByTestId('subscription-counts')).toHaveTextContent('4 ב-30 יום · 10 ב-90 יום');
    expect(first.getByTestId('subscription-opened')).toHaveTextContent('נפתחו 30%');
    expect(first.getByText('פרסומת')).toBeInTheDocument();
    expect(first.getByText('הסרה בלחיצה')).toBeInTheDocument();
    expect(within(rows[1]).getByText('קישור הסרה במייל')).toBeInTheDocument();
    expect(screen.getByTestId('subscriptions-summary')).toHaveTextContent('2 שולחים של דיוור');
  });

  it('offers a removal link the server will not follow as a link to open, and never opens it', async () => {
    const fetch = server();
    const open = vi.fn();
    vi.stubGlobal('open', open);
    signInAs(DANA);
    renderWithProviders(<SubscriptionsPage />, { route: '/Subscriptions' });
    const rows = await screen.findAllByTestId('subscription');
    fireEvent.click(within(rows[1]).getByTestId('subscription-unsubscribe'));
    const offered = await screen.findByTestId('subscriptions-open');
    const link = within(offered).getByRole('link');
    expect(link).toHaveAttribute('href', 'https://club.example/remove');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(open).not.toHaveBeenCalled();
    expect(calls(fetch, 'POST', '/api/subscriptions/2/unsubscribe')).toHaveLength(1);
    expect(toasts().at(-1)?.text).toContain('יש להשלים את ההסרה');
  });

  it('acts on the checked senders at once', async () => {
    const fetch = server();
    signInAs(DANA);
    renderWithProviders(<SubscriptionsPage />, { route: '/Subscriptions' });
    await screen.findAllByTestId('subscription');
    fireEvent.click(screen.getByRole('checkbox', { name: 'בחירת שופ' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'בחירת club@list.example' }));
    const bar = screen.getByTestId('subscriptions-bulk');
    expect(bar).toHaveTextContent('2 נבחרו');
    fireEvent.click(within(bar).getByRole('button', { name: 'העברת הכל לארכיון' }));
    await screen.findByText('הפעולה בוצעה עבור 2 שולחים');
    const sent = calls(fetch, 'POST', '/api/subscriptions/bulk');
    expect(bodyOf(sent[0])).toEqual({ ids: ['1', '2'], action: 'archive' });
  });
});
