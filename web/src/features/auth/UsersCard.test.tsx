import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../api/types';
import { formatDate } from '../../lib/dates';
import { bodyOf, DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import SettingsPage from '../settings/SettingsPage';
import { NO_MAILBOX } from '../settings/settingsFixtures';


const YOSSI: User = { id: 2, username: 'yossi', name: 'יוסי לוי', role: 'user', createdAt: '2026-11-23T09:00:00Z' };
const RUTH: User = { id: 3, username: 'ruth', name: 'רות מזרחי', role: 'admin', createdAt: '2026-11-24T09:00:00Z' };

type Fetch = ReturnType<typeof mockFetch>;

function calls(fetch: Fetch, method: string, path: string) {
  return fetch.mock.calls.filter(([url, init]) => url === path && (init?.method ?? 'GET') === method);
}

/** A tiny in-memory server for the admin routes; `users` changes as the tests act. */
function adminServer(initial: User[] = [DANA, YOSSI, RUTH], me: User = DANA) {
  let users = [...initial];
  const idFrom = (url: string) => Number(url.split('/').pop());
  const fetch = mockFetch({
    ...NO_MAILBOX,
    'GET /api/app/me': () => json(200, { success: true, user: me }),
    'GET /api/admin/users': () => json(200, { success: true, users }),
    'POST /api/admin/users': (init) => {
      const b = JSON.parse(String(init?.body));
      const user: User = { id: 10, username: b.username, name: b.name, role: b.role, createdAt: '2026-12-01T09:00:00Z' };
      users = [...users, user];
      return json(200, { success: true, user });
    },
    'PUT /api/admin/users/2': (init, url) => update(init, url),
    'PUT /api/admin/users/3': (init, url) => update(init, url),
    'DELETE /api/admin/users/2': (_init, url) => {
      users = users.filter((u) => u.id !== idFrom(url));
      return json(200, { success: true });
    },
  });
  function update(init: RequestInit | undefined, url: string) {
    const b = JSON.parse(String(init?.body));
    const id = idFrom(url);
    users = users.map((u) => (u.id === id ? { ...u, ...(b.role ? { role: b.role } : {}) } : u));
    return json(200, { success: true, user: users.find((u) => u.id === id) });
  }
  return fetch;
}

function renderPage(me: User = DANA) {
  signInAs(me);
  return renderWithProviders(<SettingsPage />, { route: '/settings' });
}

describe('UsersCard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("is not rendered, and fetches nothing, for role 'user'", async () => {
    const plain: User = { ...YOSSI };
    const fetch = adminServer([DANA, YOSSI], plain);
    renderPage(plain);
    expect(screen.getByTestId('account-card')).toBeInTheDocument();
    // Let the background /me check settle before asserting nothing else happened.
    await waitFor(() => expect(calls(fetch, 'GET', '/api/app/me')).toHaveLength(1));
    expect(screen.queryByTestId('users-card')).not.toBeInTheDocument();
    expect(screen.queryByText('ניהול משתמשים')).not.toBeInTheDocument();
    expect(calls(fetch, 'GET', '/api/admin/users')).toHaveLength(0);
  });

  it('lists the users from the server for an admin, marking the signed-in one', async () => {
    adminServer();
    renderPage();
    const card = screen.getByTestId('users-card');
    expect(within(card).getByRole('status')).toHaveTextContent('טוען משתמשים...');

    const yossi = await screen.findByTestId('user-row-yossi');
    expect(yossi).toHaveTextContent('יוסי לוי');
    expect(yossi.querySelector('bdi')).toHaveTextContent('yossi');
    expect(yossi).toHaveTextContent('משתמש');
    expect(yossi).toHaveTextContent(formatDate(YOSSI.createdAt));
    expect(yossi).not.toHaveTextContent('את/ה');

    const ruth = screen.getByTestId('user-row-ruth');
    expect(ruth).toHaveTextContent('רות מזרחי');
    expect(ruth).toHaveTextContent('מנהל מערכת');

    const own = screen.getByTestId('user-row-dana');
    expect(own).toHaveTextContent('את/ה');
    expect(screen.getAllByTestId(/^user-row-/)).toHaveLength(3);
  });

  it('shows an error with a retry when the list cannot be loaded', async () => {
    const fetch = mockFetch({
      ...NO_MAILBOX,
      'GET /api/app/me': () => json(200, { success: true, user: DANA }),
      'GET /api/admin/users': () => json(500, { success: false, error: 'internal', message: 'שגיאה בשרת' }),
    });
    renderPage();
    const error = await screen.findByTestId('users-error');
    expect(error).toHaveTextContent('לא ניתן לטעון את רשימת המשתמשים.');
    await userEvent.setup().click(within(error).getByRole('button', { name: 'נסה שוב' }));
    await waitFor(() => expect(calls(fetch, 'GET', '/api/admin/users')).toHaveLength(2));
  });

  it('has no delete button on the signed-in user’s own row', async () => {
    adminServer();
    renderPage();
    await screen.findByTestId('user-row-dana');
    expect(screen.queryByTestId('user-delete-dana')).not.toBeInTheDocument();
    expect(screen.getByTestId('user-delete-yossi')).toBeInTheDocument();
    expect(screen.getByTestId('user-delete-ruth')).toBeInTheDocument();
  });

  it('adds a user with the right JSON, then reloads the list', async () => {
    const fetch = adminServer();
    renderPage();
    await screen.findByTestId('user-row-yossi');
    const user = userEvent.setup();

    expect(screen.getByTestId('add-user-submit')).toBeDisabled();
    await user.type(screen.getByTestId('add-user-username'), 'noa');
    await user.type(screen.getByTestId('add-user-name'), 'נועה ברק');
    await user.type(screen.getByTestId('add-user-password'), 'noa-secret-1');
    await user.selectOptions(screen.getByTestId('add-user-role'), 'admin');
    await user.click(screen.getByTestId('add-user-submit'));

    expect(await screen.findByTestId('user-row-noa')).toHaveTextContent('נועה ברק');
    const posts = calls(fetch, 'POST', '/api/admin/users');
    expect(posts).toHaveLength(1);
    expect(bodyOf(posts[0])).toEqual({ username: 'noa', name: 'נועה ברק', password: 'noa-secret-1', role: 'admin' });
    expect(calls(fetch, 'GET', '/api/admin/users')).toHaveLength(2);
    expect(screen.getByText('המשתמש נועה ברק נוסף')).toBeInTheDocument();
    expect(screen.getByTestId('add-user-username')).toHaveValue('');
    expect(screen.getByTestId('add-user-role')).toHaveValue('user');
  });

  it('does not post a new user with a short password', async () => {
    const fetch = adminServer();
    renderPage();
    await screen.findByTestId('user-row-yossi');
    const user = userEvent.setup();
    await user.type(screen.getByTestId('add-user-username'), 'noa');
    await user.type(screen.getByTestId('add-user-name'), 'נועה');
    await user.type(screen.getByTestId('add-user-password'), 'short');
    await user.click(screen.getByTestId('add-user-submit'));
    expect(await screen.findByTestId('add-user-error')).toHaveTextContent('הסיסמה חייבת להכיל לפחות 8 תווים');
    expect(calls(fetch, 'POST', '/api/admin/users')).toHaveLength(0);
  });

  it("shows the server's message as an error toast when adding fails", async () => {
    const msg = 'שם המשתמש כבר קיים';
    mockFetch({
      ...NO_MAILBOX,
      'GET /api/app/me': () => json(200, { success: true, user: DANA }),
      'GET /api/admin/users': () => json(200, { success: true, users: [DANA, YOSSI] }),
      'POST /api/admin/users': () => json(409, { success: false, error: 'conflict', message: msg }),
    });
    renderPage();
    await screen.findByTestId('user-row-yossi');
    const user = userEvent.setup();
    await user.type(screen.getByTestId('add-user-username'), 'yossi');
    await user.type(screen.getByTestId('add-user-name'), 'יוסי');
    await user.type(screen.getByTestId('add-user-password'), 'long-enough');
    await user.click(screen.getByTestId('add-user-submit'));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveAttribute('data-testid', 'toast');
    expect(toast).toHaveTextContent(msg);
    // The form keeps what was typed so it can be corrected.
    expect(screen.getByTestId('add-user-username')).toHaveValue('yossi');
  });

  it('asks for confirmation in a dialog and deletes only after confirming', async () => {
    const fetch = adminServer();
    renderPage();
    await screen.findByTestId('user-row-yossi');
    const user = userEvent.setup();

    await user.click(screen.getByTestId('user-delete-yossi'));
    const dialog = screen.getByTestId('confirm-dialog');
    expect(dialog).toHaveAttribute('role', 'dialog');
    expect(dialog).toHaveTextContent('יוסי לוי');
    expect(screen.getByTestId('confirm-no')).toHaveFocus();
    expect(calls(fetch, 'DELETE', '/api/admin/users/2')).toHaveLength(0);

    // Cancel: nothing is sent.
    await user.click(screen.getByTestId('confirm-no'));
    expect(screen.queryByTestId('confirm-dialog')).not.toBeInTheDocument();
    expect(calls(fetch, 'DELETE', '/api/admin/users/2')).toHaveLength(0);

    // Escape also cancels.
    await user.click(screen.getByTestId('user-delete-yossi'));
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('confirm-dialog')).not.toBeInTheDocument();
    expect(calls(fetch, 'DELETE', '/api/admin/users/2')).toHaveLength(0);

    await user.click(screen.getByTestId('user-delete-yossi'));
    await user.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(screen.queryByTestId('user-row-yossi')).not.toBeInTheDocument());
    expect(calls(fetch, 'DELETE', '/api/admin/users/2')).toHaveLength(1);
    expect(screen.queryByTestId('confirm-dialog')).not.toBeInTheDocument();
    expect(screen.getByText('המשתמש יוסי לוי נמחק')).toBeInTheDocument();
  });

  it('toggles the role with a PUT of the flipped role', async () => {
    const fetch = adminServer();
    renderPage();
    await screen.findByTestId('user-row-yossi');
    const user = userEvent.setup();

    await user.click(screen.getByTestId('user-role-toggle-yossi'));
    await waitFor(() => expect(calls(fetch, 'PUT', '/api/admin/users/2')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'PUT', '/api/admin/users/2')[0])).toEqual({ role: 'admin' });
    await waitFor(() => expect(screen.getByTestId('user-role-yossi')).toHaveTextContent('מנהל מערכת'));

    await user.click(screen.getByTestId('user-role-toggle-ruth'));
    await waitFor(() => expect(calls(fetch, 'PUT', '/api/admin/users/3')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'PUT', '/api/admin/users/3')[0])).toEqual({ role: 'user' });
  });

  it("shows the server's message as an error toast when a change is refused", async () => {
    const msg = 'חייב להישאר לפחות מנהל מערכת אחד';
    mockFetch({
      ...NO_MAILBOX,
      'GET /api/app/me': () => json(200, { success: true, user: DANA }),
      'GET /api/admin/users': () => json(200, { success: true, users: [DANA, RUTH] }),
      'PUT /api/admin/users/3': () => json(400, { success: false, error: 'invalid', message: msg }),
    });
    renderPage();
    await screen.findByTestId('user-row-ruth');
    await userEvent.setup().click(screen.getByTestId('user-role-toggle-ruth'));
    expect(await screen.findByRole('alert')).toHaveTextContent(msg);
    expect(screen.getByTestId('user-role-ruth')).toHaveTextContent('מנהל מערכת');
  });

  it('resets a password from an inline form, warning that it signs the user out', async () => {
    const fetch = adminServer();
    renderPage();
    await screen.findByTestId('user-row-yossi');
    const user = userEvent.setup();

    await user.click(screen.getByTestId('user-reset-yossi'));
    const form = screen.getByTestId('user-reset-form-yossi');
    expect(form).toHaveTextContent('תנתק את המשתמש מכל המכשירים');

    await user.type(screen.getByTestId('user-reset-password-yossi'), 'short');
    await user.click(screen.getByTestId('user-reset-submit-yossi'));
    expect(within(form).getByRole('alert')).toHaveTextContent('הסיסמה חייבת להכיל לפחות 8 תווים');
    expect(calls(fetch, 'PUT', '/api/admin/users/2')).toHaveLength(0);

    await user.type(screen.getByTestId('user-reset-password-yossi'), '-but-now-long');
    await user.click(screen.getByTestId('user-reset-submit-yossi'));
    await waitFor(() => expect(calls(fetch, 'PUT', '/api/admin/users/2')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'PUT', '/api/admin/users/2')[0])).toEqual({ password: 'short-but-now-long' });
    await waitFor(() => expect(screen.queryByTestId('user-reset-form-yossi')).not.toBeInTheDocument());
    expect(screen.getByText('הסיסמה של יוסי לוי אופסה')).toBeInTheDocument();
  });
});
