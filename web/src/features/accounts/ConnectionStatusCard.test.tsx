import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSWRConfig } from 'swr';
import { keys } from '../../api/keys';
import type { MailAccountWithSync, SyncStatus } from '../../api/types';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { CONNECTION_POLL_MS, ConnectionStatusCard } from './ConnectionStatusCard';
import { IDLE_SYNC, mailAccount } from './accountFixtures';

type Fetch = ReturnType<typeof mockFetch>;

// 30/11/2026 10:00:00 local time: the card's clock in these tests.
const NOW = new Date(2026, 10, 30, 10, 0, 0).getTime();
const secs = (ms: number) => Math.floor(ms / 1000);

const SYNC: SyncStatus = { ...IDLE_SYNC, lastSync: secs(new Date(2026, 10, 30, 9, 42).getTime()) };

function account(id: number, email: string, sync: Partial<SyncStatus> | null): MailAccountWithSync {
  const status = sync === null ? null : { ...SYNC, ...sync };
  return mailAccount({ id, email_address: email, imap_server: 'mail.example', smtp_server: 'mail.example', sync: status });
}

function server(accounts: () => MailAccountWithSync[] | Response) {
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/auth/accounts': () => {
      const a = accounts();
      return a instanceof Response ? a : json(200, { success: true, accounts: a });
    },
  });
}

function accountCalls(fetch: Fetch) {
  return fetch.mock.calls.filter(([url]) => String(url) === '/api/auth/accounts').length;
}

/** What the live channel does on `sync_status`: revalidate the accounts key. */
function LiveProbe() {
  const { mutate } = useSWRConfig();
  return (
    <button type="button" onClick={() => void mutate(keys.mailAccounts())}>
      sync_status
    </button>
  );
}

function renderCard() {
  signInAs(DANA);
  return renderWithProviders(
    <>
      <ConnectionStatusCard />
      <LiveProbe />
    </>,
    { route: '/Settings' },
  );
}

function row(email: string) {
  const r = screen.getAllByTestId('connection-row').find((el) => el.dataset.email === email);
  if (!r) throw new Error(`no row for ${email}`);
  return r;
}

describe('ConnectionStatusCard', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('says so when no mailbox is connected', async () => {
    server(() => []);
    renderCard();
    const card = screen.getByTestId('connection-status');
    expect(within(card).getByRole('heading', { level: 2, name: 'מצב החיבור' })).toBeInTheDocument();
    expect(await screen.findByTestId('connection-status-empty')).toHaveTextContent('אין תיבת דואר מחוברת');
    expect(screen.queryByTestId('connection-row')).not.toBeInTheDocument();
  });

  it('shows each mailbox: connected with IDLE, syncing, polled, password refused, TLS problem, not running', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    server(() => [
      account(1, 'dana@home.example', { state: 'idle', idle: true }),
      account(2, 'work@corp.example', { state: 'syncing', idle: false }),
      account(3, 'old@isp.example', { state: 'idle', idle: false, lastSync: secs(new Date(2026, 10, 28, 17, 3).getTime()) }),
      account(4, 'dana@gmail.com', {
        state: 'error',
        errorKind: 'auth',
        error: 'שם המשתמש או הסיסמה של תיבת הדואר שגויים',
        nextRetryAt: secs(NOW) + 300,
      }),
      account(5, 'me@self.example', {
        state: 'error',
        errorKind: 'tls',
        error: 'תעודת האבטחה של השרת mail.self.example אינה מוכרת.',
        nextRetryAt: secs(NOW) + 16,
        lastSync: null,
      }),
      account(6, 'new@x.example', null),
    ]);
    renderCard();
    await screen.findAllByTestId('connection-row');

    const dana = row('dana@home.example');
    expect(within(dana).getByTestId('connection-address')).toHaveAttribute('dir', 'ltr');
    expect(dana.dataset.kind).toBe('connected');
    expect(within(dana).getByRole('status')).toHaveTextContent('מחובר');
    expect(within(dana).getByTestId('connection-idle')).toHaveTextContent('עדכון מיידי (IDLE): פעיל');
    expect(within(dana).getByTestId('connection-last-sync')).toHaveTextContent('סנכרון אחרון: 09:42');
    expect(within(dana).queryByTestId('connection-error')).not.toBeInTheDocument();
    expect(within(dana).queryByTestId('connection-retry')).not.toBeInTheDocument();

    const work = row('work@corp.example');
    expect(within(work).getByTestId('connection-state')).toHaveTextContent('מסנכרן');
    expect(within(work).getByTestId('connection-idle')).toHaveTextContent('עדכון מיידי (IDLE): כבוי — בדיקה תקופתית');

    // A sync on an earlier day shows its date.
    expect(within(row('old@isp.example')).getByTestId('connection-last-sync')).toHaveTextContent('28/11/2026 17:03');

    const gmail = row('dana@gmail.com');
    expect(within(gmail).getByTestId('connection-state')).toHaveTextContent('הסיסמה נדחתה');
    expect(within(gmail).getByTestId('connection-error')).toHaveTextContent('שם המשתמש או הסיסמה של תיבת הדואר שגויים');
    expect(within(gmail).getByTestId('connection-retry')).toHaveTextContent('ניסיון נוסף בשעה 10:05');
    // IDLE is not claimed either way while there is no session.
    expect(within(gmail).queryByTestId('connection-idle')).not.toBeInTheDocument();

    const self = row('me@self.example');
    expect(within(self).getByTestId('connection-state')).toHaveTextContent('בעיית הצפנה (TLS)');
    expect(within(self).getByTestId('connection-error')).toHaveTextContent('אינה מוכרת');
    expect(within(self).getByTestId('connection-retry')).toHaveTextContent('ניסיון נוסף בעוד 16 שניות');
    expect(within(self).getByTestId('connection-last-sync')).toHaveTextContent('סנכרון אחרון: טרם הושלם');

    expect(within(row('new@x.example')).getByTestId('connection-state')).toHaveTextContent('לא פעיל');

    // Each state line is a live region; the countdown is not inside one (it changes every second).
    expect(within(self).getByTestId('connection-state')).toHaveAttribute('role', 'status');
    expect(within(self).getByTestId('connection-retry').closest('[role="status"]')).toBeNull();
  });

  it('shows an Outlook mailbox slowed down by its provider as such, not as a failure', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    server(() => [
      account(1, 'dana@outlook.com', {
        state: 'throttled',
        errorKind: 'throttled',
        error: 'ספק הדואר מאט זמנית את הסנכרון של התיבה הזו. אין צורך לעשות דבר: הסנכרון יתחדש מעצמו.',
        nextRetryAt: secs(NOW) + 60,
      }),
      account(2, 'dana@home.example', { state: 'idle', idle: true }),
    ]);
    renderCard();
    await screen.findAllByTestId('connection-row');

    const outlook = row('dana@outlook.com');
    expect(outlook.dataset.kind).toBe('throttled');
    expect(within(outlook).getByTestId('connection-state')).toHaveTextContent('ספק הדואר מאט את הסנכרון');
    // Not the failure states' words: nothing for the user to mend.
    expect(within(outlook).getByTestId('connection-state')).not.toHaveTextContent('נותק');
    expect(within(outlook).getByTestId('connection-error')).toHaveTextContent('אין צורך לעשות דבר');
    expect(within(outlook).getByTestId('connection-retry')).toHaveTextContent('ניסיון נוסף בעוד 60 שניות');
  });

  it('counts the next try down, then says it is trying now, and shows the reconnect', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(NOW);
    let state: Partial<SyncStatus> = {
      state: 'error',
      errorKind: 'unreachable',
      error: 'לא ניתן להתחבר לשרת mail.example.',
      nextRetryAt: secs(NOW) + 8,
    };
    server(() => [account(1, 'dana@home.example', state)]);
    renderCard();
    const retry = await screen.findByTestId('connection-retry');
    expect(screen.getByTestId('connection-state')).toHaveTextContent('החיבור נותק — מתחבר מחדש');
    expect(retry).toHaveTextContent('ניסיון נוסף בעוד 8 שניות');

    act(() => vi.advanceTimersByTime(3000));
    expect(screen.getByTestId('connection-retry')).toHaveTextContent('ניסיון נוסף בעוד 5 שניות');
    act(() => vi.advanceTimersByTime(4000));
    expect(screen.getByTestId('connection-retry')).toHaveTextContent('ניסיון נוסף בעוד שנייה');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByTestId('connection-retry')).toHaveTextContent('מנסה להתחבר שוב עכשיו');

    // The server retries ("connecting" with the failure kept), then connects.
    state = { ...state, state: 'connecting' };
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await user.click(screen.getByRole('button', { name: 'sync_status' }));
    await waitFor(() => expect(screen.getByTestId('connection-row').dataset.kind).toBe('reconnecting'));
    expect(screen.getByTestId('connection-retry')).toHaveTextContent('מנסה להתחבר שוב עכשיו');

    state = { state: 'idle', idle: true, lastSync: secs(NOW) + 10 };
    await user.click(screen.getByRole('button', { name: 'sync_status' }));
    await waitFor(() => expect(screen.getByTestId('connection-state')).toHaveTextContent('מחובר'));
    expect(screen.queryByTestId('connection-retry')).not.toBeInTheDocument();
    expect(screen.queryByTestId('connection-error')).not.toBeInTheDocument();
    expect(screen.getByTestId('connection-last-sync')).toHaveTextContent('10:00');
  });

  it('follows a live revalidation of the accounts key (the sync_status event)', async () => {
    let n = 0;
    const fetch = server(() => {
      n++;
      return [account(1, 'dana@home.example', n === 1 ? { state: 'syncing' } : { state: 'idle' })];
    });
    renderCard();
    await waitFor(() => expect(screen.getByTestId('connection-state')).toHaveTextContent('מסנכרן'));
    await userEvent.setup().click(screen.getByRole('button', { name: 'sync_status' }));
    await waitFor(() => expect(screen.getByTestId('connection-state')).toHaveTextContent('מחובר'));
    expect(accountCalls(fetch)).toBe(2);
  });

  it('polls every 30 s as a fallback while nothing is busy', async () => {
    vi.useFakeTimers();
    const fetch = server(() => [account(1, 'dana@home.example', { state: 'idle' })]);
    renderCard();
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.getByTestId('connection-state')).toHaveTextContent('מחובר');
    expect(accountCalls(fetch)).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(CONNECTION_POLL_MS - 1000));
    expect(accountCalls(fetch)).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(accountCalls(fetch)).toBe(2);
  });

  it('shows a load failure with a retry', async () => {
    let fail = true;
    server(() => (fail ? json(500, { success: false, error: 'internal', message: 'שגיאה פנימית' }) : []));
    renderCard();
    const error = await screen.findByTestId('connection-status-error');
    expect(error).toHaveTextContent('לא ניתן לטעון את מצב החיבור.');
    expect(error).toHaveTextContent('שגיאה פנימית');
    fail = false;
    await userEvent.setup().click(within(error).getByRole('button', { name: 'נסה שוב' }));
    expect(await screen.findByTestId('connection-status-empty')).toBeInTheDocument();
  });
});
