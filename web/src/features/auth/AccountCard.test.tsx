import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import SettingsPage from '../settings/SettingsPage';
import { NO_MAILBOX } from '../settings/settingsFixtures';


const PASSWORD_PATH = '/api/app/password';

function passwordCalls(fetch: ReturnType<typeof mockFetch>) {
  return fetch.mock.calls.filter(([url]) => url === PASSWORD_PATH);
}

function renderPage() {
  signInAs({ ...DANA, role: 'user' });
  return renderWithProviders(<SettingsPage />, { route: '/settings' });
}

async function fill(current: string, next: string, confirm: string) {
  const user = userEvent.setup();
  if (current) await user.type(screen.getByTestId('password-current'), current);
  if (next) await user.type(screen.getByTestId('password-new'), next);
  if (confirm) await user.type(screen.getByTestId('password-confirm'), confirm);
  return user;
}

describe('AccountCard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows the user's name, username and role", () => {
    mockFetch({ ...NO_MAILBOX, 'GET /api/app/me': () => json(200, { success: true, user: { ...DANA, role: 'user' } }) });
    renderPage();
    const card = screen.getByTestId('account-card');
    expect(within(card).getByRole('heading', { name: 'החשבון שלי' })).toBeInTheDocument();
    expect(screen.getByTestId('account-name')).toHaveTextContent('דנה כהן');
    expect(screen.getByTestId('account-username').querySelector('bdi')).toHaveTextContent('dana');
    expect(screen.getByTestId('account-role')).toHaveTextContent('משתמש');
  });

  it('keeps submit disabled until all three fields are filled', async () => {
    mockFetch({ ...NO_MAILBOX, 'GET /api/app/me': () => json(200, { success: true, user: { ...DANA, role: 'user' } }) });
    renderPage();
    expect(screen.getByTestId('password-submit')).toBeDisabled();
    await fill('old-secret', 'new-secret-1', '');
    expect(screen.getByTestId('password-submit')).toBeDisabled();
    await userEvent.setup().type(screen.getByTestId('password-confirm'), 'x');
    expect(screen.getByTestId('password-submit')).toBeEnabled();
  });

  it('blocks mismatched passwords without calling the server', async () => {
    const fetch = mockFetch({
      ...NO_MAILBOX,
      'GET /api/app/me': () => json(200, { success: true, user: { ...DANA, role: 'user' } }),
      'POST /api/app/password': () => json(200, { success: true }),
    });
    renderPage();
    const user = await fill('old-secret', 'new-secret-1', 'new-secret-2');
    await user.click(screen.getByTestId('password-submit'));
    expect(await screen.findByRole('alert')).toHaveTextContent('הסיסמאות אינן תואמות');
    expect(passwordCalls(fetch)).toHaveLength(0);
  });

  it('blocks a new password shorter than 8 characters', async () => {
    const fetch = mockFetch({
      ...NO_MAILBOX,
      'GET /api/app/me': () => json(200, { success: true, user: { ...DANA, role: 'user' } }),
      'POST /api/app/password': () => json(200, { success: true }),
    });
    renderPage();
    const user = await fill('old-secret', 'short7x', 'short7x');
    await user.click(screen.getByTestId('password-submit'));
    expect(await screen.findByRole('alert')).toHaveTextContent('הסיסמה חייבת להכיל לפחות 8 תווים');
    expect(passwordCalls(fetch)).toHaveLength(0);
  });

  it('posts the passwords, shows a success toast and clears the form', async () => {
    const fetch = mockFetch({
      ...NO_MAILBOX,
      'GET /api/app/me': () => json(200, { success: true, user: { ...DANA, role: 'user' } }),
      'POST /api/app/password': () => json(200, { success: true }),
    });
    renderPage();
    const user = await fill('old-secret', 'new-secret-1', 'new-secret-1');
    await user.click(screen.getByTestId('password-submit'));

    expect(await screen.findByText('הסיסמה עודכנה')).toBeInTheDocument();
    const calls = passwordCalls(fetch);
    expect(calls).toHaveLength(1);
    const init = calls[0][1];
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      currentPassword: 'old-secret',
      newPassword: 'new-secret-1',
    });
    await waitFor(() => expect(screen.getByTestId('password-current')).toHaveValue(''));
    expect(screen.getByTestId('password-new')).toHaveValue('');
    expect(screen.getByTestId('password-confirm')).toHaveValue('');
    expect(screen.queryByTestId('password-error')).not.toBeInTheDocument();
    expect(screen.getByTestId('password-submit')).toBeDisabled();
  });

  it("shows the server's message inline on 400 and keeps the input", async () => {
    mockFetch({
      ...NO_MAILBOX,
      'GET /api/app/me': () => json(200, { success: true, user: { ...DANA, role: 'user' } }),
      'POST /api/app/password': () =>
        json(400, { success: false, error: 'invalid_password', message: 'הסיסמה הנוכחית שגויה' }),
    });
    renderPage();
    const user = await fill('wrong-one', 'new-secret-1', 'new-secret-1');
    await user.click(screen.getByTestId('password-submit'));
    const alert = await screen.findByTestId('password-error');
    expect(alert).toHaveAttribute('role', 'alert');
    expect(alert).toHaveTextContent('הסיסמה הנוכחית שגויה');
    expect(screen.getByTestId('password-current')).toHaveValue('wrong-one');
    expect(screen.getByTestId('password-submit')).toBeEnabled();
  });
});
