// The startup global-settings check (spec 001 §4, §8, §9): 2 s after start, a 10 s success toast
// with a way to the settings page, only when the household has mail settings and this user has no
// mailbox; failures are only logged.
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MailAccountWithSync } from '../api/types';
import { calls, DANA, json, mockFetch, renderWithProviders, signInAs } from '../test/helpers';
import { AppRoutes } from './App';
import { STARTUP_CHECK_DELAY_MS, STARTUP_TOAST_MS, StartupGlobalCheck } from './StartupGlobalCheck';
import { mailAccount } from '../features/accounts/accountFixtures';

type Handler = Parameters<typeof mockFetch>[0][string];

const FOUND = 'נמצאו הגדרות מייל גלובליות!';

const ACCOUNT = mailAccount({
  id: 7,
  email_address: 'dana@home.example',
  imap_server: 'mail.home.example',
  smtp_server: 'mail.home.example',
  sync: null,
});

const EXISTS = { exists: true, lastUpdated: '2026-11-20T08:30:00Z', updatedBy: 'דנה כהן' };

function server(routes: Record<string, Handler> = {}, accounts: MailAccountWithSync[] = []) {
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: { ...DANA, role: 'user' } }),
    'GET /api/auth/accounts': () => json(200, { success: true, accounts }),
    'GET /api/global-settings/email/exists': () => json(200, EXISTS),
    ...routes,
  });
}

/** Captured before the test fakes it. */
const realSetTimeout = globalThis.setTimeout;

/** Lets promises and the mocked fetch finish without moving the (fake) clock. */
async function flush(rounds = 20) {
  for (let i = 0; i < rounds; i++) {
    await act(() => new Promise<void>((resolve) => realSetTimeout(resolve, 0)));
  }
}

function start() {
  signInAs({ ...DANA, role: 'user' });
  return renderWithProviders(<StartupGlobalCheck />, { route: '/Inbox' });
}

const toast = () => screen.queryByText(FOUND);

describe('StartupGlobalCheck', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('asks 2 s after start and, without a mailbox, shows a 10 s toast leading to the settings', async () => {
    const fetch = server();
    const r = start();
    await flush();
    act(() => vi.advanceTimersByTime(STARTUP_CHECK_DELAY_MS - 1));
    await flush();
    expect(calls(fetch, 'GET', '/api/global-settings/email/exists')).toHaveLength(0);
    expect(toast()).not.toBeInTheDocument();

    act(() => vi.advanceTimersByTime(1));
    await flush();
    expect(calls(fetch, 'GET', '/api/global-settings/email/exists')).toHaveLength(1);
    const shown = screen.getByTestId('startup-global-toast');
    expect(shown).toHaveTextContent(FOUND);
    expect(shown.closest('[data-testid="toast"]')).toHaveClass('toast--success');

    // It lasts 10 s.
    act(() => vi.advanceTimersByTime(STARTUP_TOAST_MS - 1));
    expect(toast()).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(toast()).not.toBeInTheDocument();
    expect(r.location().pathname).toBe('/Inbox');
    expect([STARTUP_CHECK_DELAY_MS, STARTUP_TOAST_MS]).toEqual([2000, 10_000]);
  });

  it('its button goes to the settings page and closes it', async () => {
    server();
    const r = start();
    await flush();
    act(() => vi.advanceTimersByTime(STARTUP_CHECK_DELAY_MS));
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'למעבר להגדרות' }));
    expect(r.location().pathname).toBe('/Settings');
    expect(toast()).not.toBeInTheDocument();
  });

  it('says nothing to a user who has a mailbox', async () => {
    const fetch = server({}, [ACCOUNT]);
    start();
    await flush();
    act(() => vi.advanceTimersByTime(STARTUP_CHECK_DELAY_MS));
    await flush();
    expect(calls(fetch, 'GET', '/api/global-settings/email/exists')).toHaveLength(1);
    expect(calls(fetch, 'GET', '/api/auth/accounts').length).toBeGreaterThan(0);
    expect(toast()).not.toBeInTheDocument();
  });

  it('says nothing when there are no global settings', async () => {
    server({ 'GET /api/global-settings/email/exists': () => json(200, { exists: false, lastUpdated: null, updatedBy: null }) });
    start();
    await flush();
    act(() => vi.advanceTimersByTime(STARTUP_CHECK_DELAY_MS));
    await flush();
    expect(toast()).not.toBeInTheDocument();
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
  });

  it('ignores a failure silently (logged only)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    server({ 'GET /api/global-settings/email/exists': () => Promise.reject(new TypeError('Failed to fetch')) });
    start();
    await flush();
    act(() => vi.advanceTimersByTime(STARTUP_CHECK_DELAY_MS));
    await flush();
    expect(warn).toHaveBeenCalled();
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
  });

  it('runs in the signed-in app', async () => {
    const fetch = server({
      'GET /api/emails/counts': () => json(200, { inbox: 0, unread: 0, starred: 0, drafts: 0, sent: 0, trash: 0 }),
    });
    signInAs({ ...DANA, role: 'user' });
    renderWithProviders(<AppRoutes />, { route: '/Inbox' });
    await flush();
    act(() => vi.advanceTimersByTime(STARTUP_CHECK_DELAY_MS));
    await flush();
    expect(calls(fetch, 'GET', '/api/global-settings/email/exists')).toHaveLength(1);
    expect(screen.getByTestId('startup-global-toast')).toHaveTextContent(FOUND);
  });
});
