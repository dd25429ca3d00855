import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../App';
import { DANA, json, mockFetch, renderWithProviders } from '../../test/helpers';

async function fill(p: { name?: string; username?: string; password?: string; confirm?: string }) {
  const user = userEvent.setup();
  if (p.name) await user.type(await screen.findByLabelText('שם מלא'), p.name);
  if (p.username) await user.type(screen.getByLabelText('שם משתמש'), p.username);
  if (p.password) await user.type(screen.getByLabelText('סיסמה'), p.password);
  if (p.confirm) await user.type(screen.getByLabelText('אימות סיסמה'), p.confirm);
  await user.click(screen.getByRole('button', { name: 'יצירת מנהל מערכת' }));
}

describe('SetupPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('creates the first admin and hands over to the login screen with the username', async () => {
    const fetch = mockFetch({
      'GET /api/setup/status': () => json(200, { needsSetup: true }),
      'POST /api/setup/admin': () => json(200, { success: true, user: DANA }),
    });
    const r = renderWithProviders(<AppRoutes />, { route: '/setup?token=abc123' });
    await fill({ name: 'דנה כהן', username: 'dana', password: 'longpassword', confirm: 'longpassword' });

    await waitFor(() => expect(r.location().pathname).toBe('/login'));
    const call = fetch.mock.calls.find(([u]) => u === '/api/setup/admin');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      token: 'abc123',
      name: 'דנה כהן',
      username: 'dana',
      password: 'longpassword',
    });
    expect(screen.getByLabelText('שם משתמש')).toHaveValue('dana');
    expect(screen.getAllByText('חשבון מנהל המערכת נוצר בהצלחה. אפשר להתחבר עכשיו.').length).toBeGreaterThan(0);
  });

  it('checks password length and confirmation before calling the server', async () => {
    const fetch = mockFetch({ 'GET /api/setup/status': () => json(200, { needsSetup: true }) });
    renderWithProviders(<AppRoutes />, { route: '/setup?token=abc' });
    await fill({ name: 'דנה', username: 'dana', password: 'short', confirm: 'short' });
    expect(await screen.findByRole('alert')).toHaveTextContent('הסיסמה חייבת להכיל לפחות 8 תווים');

    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('סיסמה'));
    await user.type(screen.getByLabelText('סיסמה'), 'longpassword');
    await user.clear(screen.getByLabelText('אימות סיסמה'));
    await user.type(screen.getByLabelText('אימות סיסמה'), 'longpassworx');
    await user.click(screen.getByRole('button', { name: 'יצירת מנהל מערכת' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('הסיסמאות אינן תואמות');
    expect(fetch.mock.calls.some(([u]) => u === '/api/setup/admin')).toBe(false);
  });

  it("shows the server's message for a wrong token", async () => {
    mockFetch({
      'GET /api/setup/status': () => json(200, { needsSetup: true }),
      'POST /api/setup/admin': () =>
        json(403, { success: false, error: 'forbidden', message: 'קישור ההגדרה אינו תקף' }),
    });
    renderWithProviders(<AppRoutes />, { route: '/setup?token=wrong' });
    await fill({ name: 'דנה', username: 'dana', password: 'longpassword', confirm: 'longpassword' });
    expect(await screen.findByRole('alert')).toHaveTextContent('קישור ההגדרה אינו תקף');
  });

  it('warns when the link has no token', async () => {
    mockFetch({ 'GET /api/setup/status': () => json(200, { needsSetup: true }) });
    renderWithProviders(<AppRoutes />, { route: '/setup' });
    expect(await screen.findByTestId('setup-missing-token')).toBeInTheDocument();
  });

  it('says so when setup is already done, with a link to login', async () => {
    mockFetch({ 'GET /api/setup/status': () => json(200, { needsSetup: false }) });
    renderWithProviders(<AppRoutes />, { route: '/setup?token=abc' });
    expect(await screen.findByTestId('setup-done')).toHaveTextContent('ההגדרה הראשונית כבר הושלמה');
    expect(screen.getByRole('link', { name: 'מעבר למסך הכניסה' })).toHaveAttribute('href', '/login');
  });
});
