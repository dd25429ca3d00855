import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTH_STORAGE_KEY } from '../api/session';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../test/helpers';
import { AppRoutes } from './App';

describe('AuthProvider', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('starts signed in from storage and verifies with GET /api/app/me', async () => {
    signInAs(DANA, 'tok-1');
    const fetch = mockFetch({ 'GET /api/app/me': () => json(200, { success: true, user: { ...DANA, name: 'דנה לוי' } }) });
    const r = renderWithProviders(<AppRoutes />, { route: '/Inbox' });
    // Signed in at once, no trip through /login.
    expect(r.location().pathname).toBe('/Inbox');
    expect(await screen.findByTestId('user-name')).toHaveTextContent(/דנה/);
    await waitFor(() => expect(fetch).toHaveBeenCalledWith('/api/app/me', expect.anything()));
    // The refreshed name is shown and stored.
    expect(await screen.findByText('דנה לוי')).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY)!).user.name).toBe('דנה לוי');
  });

  it('a 401 from /api/app/me clears the session and goes to /login', async () => {
    signInAs(DANA, 'revoked');
    mockFetch({
      'GET /api/app/me': () => json(401, { success: false, error: 'unauthorized', message: 'עליך להתחבר תחילה' }),
    });
    const r = renderWithProviders(<AppRoutes />, { route: '/Settings' });
    await waitFor(() => expect(r.location().pathname).toBe('/login'));
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
    expect(await screen.findByRole('button', { name: 'כניסה' })).toBeInTheDocument();
  });

  it('logout calls POST /api/app/logout, clears the session and goes to /login', async () => {
    signInAs(DANA, 'tok-1');
    const fetch = mockFetch({
      'GET /api/app/me': () => json(200, { success: true, user: DANA }),
      'POST /api/app/logout': () => json(200, { success: true }),
    });
    const r = renderWithProviders(<AppRoutes />, { route: '/Inbox' });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'התנתקות' }));
    await waitFor(() => expect(r.location().pathname).toBe('/login'));
    const call = fetch.mock.calls.find(([u]) => u === '/api/app/logout');
    expect(call?.[1]?.method).toBe('POST');
    expect((call?.[1]?.headers as Record<string, string>).Authorization).toBe('tok-1');
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
  });

  it('with nothing stored, any page redirects to /login', async () => {
    mockFetch({});
    const r = renderWithProviders(<AppRoutes />, { route: '/Settings' });
    await waitFor(() => expect(r.location().pathname).toBe('/login'));
  });
});
