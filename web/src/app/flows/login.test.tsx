import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTH_STORAGE_KEY } from '../../api/session';
import { AppRoutes } from '../App';
import { DANA, json, mockFetch, renderWithProviders } from '../../test/helpers';

function renderLogin() {
  return renderWithProviders(<AppRoutes />, { route: '/login' });
}

async function fillAndSubmit(username = 'dana', password = 'correct horse') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('שם משתמש'), username);
  await user.type(screen.getByLabelText('סיסמה'), password);
  await user.click(screen.getByRole('button', { name: 'כניסה' }));
}

describe('LoginPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('renders both fields, required, and the submit button', () => {
    mockFetch({});
    renderLogin();
    const username = screen.getByLabelText('שם משתמש');
    const password = screen.getByLabelText('סיסמה');
    expect(username).toBeRequired();
    expect(password).toBeRequired();
    expect(password).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'כניסה' })).toHaveAttribute('type', 'submit');
  });

  it('does not submit with empty fields', async () => {
    const fetch = mockFetch({});
    renderLogin();
    await userEvent.setup().click(screen.getByRole('button', { name: 'כניסה' }));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows מתחבר... and disables the fields while the request is pending', async () => {
    let answer!: (r: Response) => void;
    mockFetch({ 'POST /api/app/login': () => new Promise<Response>((r) => (answer = r)) });
    renderLogin();
    await fillAndSubmit();

    const button = await screen.findByRole('button', { name: 'מתחבר...' });
    expect(button).toBeDisabled();
    expect(screen.getByLabelText('שם משתמש')).toBeDisabled();
    expect(screen.getByLabelText('סיסמה')).toBeDisabled();

    await act(async () => answer(json(401, { success: false, error: 'invalid_credentials', message: 'x' })));
    expect(await screen.findByRole('button', { name: 'כניסה' })).toBeEnabled();
    expect(screen.getByLabelText('שם משתמש')).toBeEnabled();
  });

  it('stores the session and goes to /inbox on success', async () => {
    const fetch = mockFetch({
      'POST /api/app/login': () => json(200, { success: true, token: 'tok-abc', user: DANA }),
      'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    });
    const r = renderLogin();
    await fillAndSubmit('dana', 'secret-pass');

    await waitFor(() => expect(r.location().pathname).toBe('/inbox'));
    const stored = JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? '{}');
    expect(stored.token).toBe('tok-abc');
    expect(stored.user.username).toBe('dana');

    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/app/login');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ username: 'dana', password: 'secret-pass' });
    // The signed-in layout shows the inbox heading.
    expect(await screen.findByRole('heading', { level: 1, name: 'דואר נכנס' })).toBeInTheDocument();
  });

  it('shows שם משתמש או סיסמה שגויים on 401', async () => {
    mockFetch({
      'POST /api/app/login': () =>
        json(401, { success: false, error: 'invalid_credentials', message: 'שם משתמש או סיסמה שגויים' }),
    });
    const r = renderLogin();
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('שם משתמש או סיסמה שגויים');
    expect(r.location().pathname).toBe('/login');
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
  });

  it('treats an ok response with success:false as a failure', async () => {
    // Even carrying a token, `success: false` is not a sign-in (spec 000 §5).
    mockFetch({ 'POST /api/app/login': () => json(200, { success: false, token: 'tok', user: DANA }) });
    const r = renderLogin();
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('שם משתמש או סיסמה שגויים');
    expect(r.location().pathname).toBe('/login');
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
  });

  it('shows the network message when the server cannot be reached', async () => {
    mockFetch({
      'POST /api/app/login': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    renderLogin();
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'לא ניתן להתחבר לשרת. אנא בדוק את החיבור לאינטרנט.',
    );
  });

  it('shows אירעה שגיאה בהתחברות on a server error', async () => {
    mockFetch({
      'POST /api/app/login': () => json(500, { success: false, error: 'internal', message: 'שגיאה בשרת' }),
    });
    renderLogin();
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('אירעה שגיאה בהתחברות');
  });

  it("shows the server's Hebrew message when throttled (429)", async () => {
    const msg = 'יותר מדי ניסיונות כניסה. נסה שוב בעוד 60 שניות.';
    mockFetch({
      'POST /api/app/login': () =>
        json(429, { success: false, error: 'too_many_attempts', message: msg, retryAfterSecs: 60 }),
    });
    renderLogin();
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent(msg);
  });
});
