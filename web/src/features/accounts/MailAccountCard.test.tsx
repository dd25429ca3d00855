import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DetectedProvider, MailAccountWithSync } from '../../api/types';
import { bodyOf, calls, DANA, json, mockFetch, renderWithProviders, settle, signInAs } from '../../test/helpers';
import { MailAccountCard, REDIRECT_MS, SAVED_TOAST_MS } from './MailAccountCard';
import SettingsPage from '../settings/SettingsPage';
import { NO_HOUSEHOLD } from '../settings/settingsFixtures';
import { IDLE_SYNC, mailAccount } from './accountFixtures';

type Handler = Parameters<typeof mockFetch>[0][string];

const GMAIL: DetectedProvider = {
  known: true,
  id: 'gmail',
  name: 'Gmail',
  imapServer: 'imap.gmail.com',
  imapPort: 993,
  imapSsl: true,
  smtpServer: 'smtp.gmail.com',
  smtpPort: 465,
  smtpSsl: true,
  note: 'נדרשת סיסמת אפליקציה (App Password) מהגדרות האבטחה של החשבון',
};

const FP = 'AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89';

const ACCOUNT: MailAccountWithSync = mailAccount({
  id: 7,
  email_address: 'dana@home.example',
  imap_server: 'mail.home.example',
  smtp_server: 'mail.home.example',
  sync: { ...IDLE_SYNC, lastSync: Date.UTC(2026, 10, 30, 8, 5) / 1000 },
});

const CONNECTED = { success: true, message: 'החיבור לתיבת הדואר הצליח', imap: { ok: true }, smtp: { ok: true } };

function failed(imap: object, smtp: object) {
  return json(422, {
    success: false,
    error: 'mail_connection_failed',
    message: 'x',
    imap,
    smtp,
  });
}

function server(routes: Record<string, Handler> = {}, accounts: MailAccountWithSync[] = []) {
  return mockFetch({
    ...NO_HOUSEHOLD,
    'GET /api/app/me': () => json(200, { success: true, user: { ...DANA, role: 'user' } }),
    'GET /api/auth/accounts': () => json(200, { success: true, accounts }),
    'GET /api/providers/detect': (_init, url) => {
      const email = new URL(url, 'http://x').searchParams.get('email') ?? '';
      if (email.endsWith('@gmail.com')) return json(200, { email, provider: GMAIL });
      const domain = email.split('@')[1];
      return json(200, {
        email,
        provider: {
          ...GMAIL,
          known: false,
          id: 'guess',
          name: domain,
          imapServer: `imap.${domain}`,
          smtpServer: `smtp.${domain}`,
          note: '',
        },
      });
    },
    ...routes,
  });
}

function renderCard() {
  signInAs({ ...DANA, role: 'user' });
  return renderWithProviders(<MailAccountCard />, { route: '/Settings' });
}

async function fillAccount(user: ReturnType<typeof userEvent.setup>, email = 'dana@gmail.com', password = 'app-pass') {
  await user.type(screen.getByTestId('mail-email'), email);
  await user.tab();
  await user.type(screen.getByTestId('mail-password'), password);
}

describe('MailAccountCard', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('is on the settings page, with the spec defaults (993/465 with SSL) and port placeholders 993/587', async () => {
    server();
    signInAs({ ...DANA, role: 'user' });
    renderWithProviders(<SettingsPage />, { route: '/Settings' });
    // Where it stands among the page's cards is the page's own test (SettingsPage).
    const card = screen.getByTestId('mail-account-card');
    expect(within(card).getByRole('heading', { level: 2, name: 'חשבון הדואר' })).toBeInTheDocument();
    expect(screen.getByTestId('mail-imap-port')).toHaveValue('993');
    expect(screen.getByTestId('mail-smtp-port')).toHaveValue('465');
    expect(screen.getByTestId('mail-imap-port')).toHaveAttribute('placeholder', '993');
    expect(screen.getByTestId('mail-smtp-port')).toHaveAttribute('placeholder', '587');
    expect(screen.getByTestId('mail-imap-ssl')).toBeChecked();
    expect(screen.getByTestId('mail-smtp-ssl')).toBeChecked();
    expect(await screen.findByTestId('mail-accounts-empty')).toHaveTextContent('עדיין לא חוברה תיבת דואר.');
  });

  it('shows the port placeholders when the ports are emptied', async () => {
    server();
    renderCard();
    const user = userEvent.setup();
    await user.clear(screen.getByTestId('mail-smtp-port'));
    await user.clear(screen.getByTestId('mail-imap-port'));
    expect(screen.getByTestId('mail-smtp-port')).toHaveValue('');
    expect(screen.getByTestId('mail-smtp-port')).toHaveAttribute('placeholder', '587');
    expect(screen.getByTestId('mail-imap-port')).toHaveAttribute('placeholder', '993');
  });

  it('has a "detect provider" button, disabled until the address has an @', async () => {
    const fetch = server();
    renderCard();
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: 'זיהוי ספק' });
    expect(button).toHaveAttribute('data-testid', 'mail-detect');
    expect(button).toBeDisabled();
    await user.type(screen.getByTestId('mail-email'), 'dana');
    expect(button).toBeDisabled();
    await user.type(screen.getByTestId('mail-email'), '@');
    expect(button).toBeEnabled();
    await user.clear(screen.getByTestId('mail-email'));
    expect(button).toBeDisabled();
    expect(calls(fetch, 'GET', '/api/providers/detect')).toHaveLength(0);
  });

  it('detects on demand: fills a known provider\'s servers, ports and SSL over hand edits, and says so', async () => {
    const fetch = server();
    renderCard();
    const user = userEvent.setup();
    // Hand-edited first; the automatic detection leaves these alone, the button does not.
    await user.type(screen.getByTestId('mail-smtp-server'), 'relay.example.net');
    await user.clear(screen.getByTestId('mail-imap-port'));
    await user.type(screen.getByTestId('mail-imap-port'), '143');
    await user.click(screen.getByTestId('mail-imap-ssl'));
    // Typed and clicked at once, before the automatic detection's pause.
    await user.type(screen.getByTestId('mail-email'), 'dana@gmail.com');
    await user.click(screen.getByTestId('mail-detect'));

    const status = screen.getByTestId('mail-detect-status');
    await waitFor(() => expect(status).toHaveAttribute('data-kind', 'known'));
    expect(status).toHaveAttribute('role', 'status');
    expect(status).toHaveTextContent('זוהה ספק מוכר: Gmail. השרתים, הפורטים וההצפנה מולאו.');
    expect(screen.getByTestId('mail-imap-server')).toHaveValue('imap.gmail.com');
    expect(screen.getByTestId('mail-imap-port')).toHaveValue('993');
    expect(screen.getByTestId('mail-imap-ssl')).toBeChecked();
    expect(screen.getByTestId('mail-smtp-server')).toHaveValue('smtp.gmail.com');
    expect(screen.getByTestId('mail-smtp-port')).toHaveValue('465');
    expect(screen.getByTestId('mail-smtp-ssl')).toBeChecked();
    expect(calls(fetch, 'GET', '/api/providers/detect')[0][0]).toBe('/api/providers/detect?email=dana%40gmail.com');

    // It asks again on every click, even about the same address (the automatic detection asks once).
    const asked = calls(fetch, 'GET', '/api/providers/detect').length;
    await user.click(screen.getByTestId('mail-detect'));
    await waitFor(() => expect(calls(fetch, 'GET', '/api/providers/detect')).toHaveLength(asked + 1));
    // Editing the address drops the line (it was about the old one).
    await user.type(screen.getByTestId('mail-email'), 'x');
    expect(status).toBeEmptyDOMElement();
    // What the button filled is detection's again, not the user's: the automatic detection of
    // the new address (a mere guess) clears it, the once hand-edited SMTP server included.
    await waitFor(() => expect(screen.getByTestId('mail-imap-server')).toHaveValue(''));
    expect(screen.getByTestId('mail-smtp-server')).toHaveValue('');
    expect(screen.getByTestId('mail-provider')).toHaveTextContent('imap.gmail.comx');
  });

  it('detects on demand: for an unknown domain says it is a guess and fills nothing', async () => {
    server();
    renderCard();
    const user = userEvent.setup();
    await user.type(screen.getByTestId('mail-imap-server'), 'mail.home.example');
    await user.type(screen.getByTestId('mail-email'), 'me@home.example');
    await user.click(screen.getByTestId('mail-detect'));
    const status = screen.getByTestId('mail-detect-status');
    await waitFor(() => expect(status).toHaveAttribute('data-kind', 'guess'));
    expect(status).toHaveTextContent('ספק לא מוכר — ניחוש לפי הדומיין home.example. השדות לא שונו.');
    expect(within(status).getByText('home.example')).toHaveAttribute('dir', 'ltr');
    expect(screen.getByTestId('mail-imap-server')).toHaveValue('mail.home.example');
    expect(screen.getByTestId('mail-smtp-server')).toHaveValue('');
  });

  it('detects on demand: shows the server\'s message when the address is refused', async () => {
    server({
      'GET /api/providers/detect': () =>
        json(400, { success: false, error: 'bad_request', message: 'כתובת הדואר האלקטרוני אינה תקינה' }),
    });
    renderCard();
    const user = userEvent.setup();
    await user.type(screen.getByTestId('mail-email'), 'dana@gmail');
    await user.click(screen.getByTestId('mail-detect'));
    const status = screen.getByTestId('mail-detect-status');
    await waitFor(() => expect(status).toHaveAttribute('data-kind', 'error'));
    expect(status).toHaveTextContent('לא ניתן לזהות את הספק: כתובת הדואר האלקטרוני אינה תקינה');
    expect(screen.getByTestId('mail-imap-server')).toHaveValue('');
  });

  it('detects the provider from the address and fills the servers, keeping hand-edited fields', async () => {
    const fetch = server();
    renderCard();
    const user = userEvent.setup();
    // The user typed their own outgoing server first: detection must leave it alone.
    await user.type(screen.getByTestId('mail-smtp-server'), 'relay.example.net');
    await user.type(screen.getByTestId('mail-email'), 'dana@gmail.com');
    await user.tab();

    await waitFor(() => expect(screen.getByTestId('mail-imap-server')).toHaveValue('imap.gmail.com'));
    expect(screen.getByTestId('mail-smtp-server')).toHaveValue('relay.example.net');
    expect(screen.getByTestId('mail-imap-port')).toHaveValue('993');
    const hint = screen.getByTestId('mail-provider');
    expect(hint).toHaveTextContent('Gmail');
    expect(screen.getByTestId('mail-provider-note')).toHaveTextContent('סיסמת אפליקציה');
    expect(calls(fetch, 'GET', '/api/providers/detect')[0][0]).toBe('/api/providers/detect?email=dana%40gmail.com');
  });

  it('does not fill in a mere guess for an unknown domain, but shows it', async () => {
    server();
    renderCard();
    const user = userEvent.setup();
    await user.type(screen.getByTestId('mail-email'), 'me@home.example');
    await user.tab();
    expect(await screen.findByTestId('mail-provider')).toHaveTextContent('imap.home.example');
    expect(screen.getByTestId('mail-imap-server')).toHaveValue('');
    expect(screen.getByTestId('mail-imap-server')).toHaveAttribute('placeholder', 'imap.home.example');
  });

  it('tests the connection and shows the result of each server separately', async () => {
    const fetch = server({
      'POST /api/auth/test-connection': () =>
        failed(
          { ok: true },
          {
            ok: false,
            kind: 'auth',
            message: 'שם המשתמש או הסיסמה של תיבת הדואר שגויים',
            detail: '535 5.7.8 Username and Password not accepted',
          },
        ),
    });
    renderCard();
    const user = userEvent.setup();
    await fillAccount(user);
    await waitFor(() => expect(screen.getByTestId('mail-imap-server')).toHaveValue('imap.gmail.com'));
    await user.click(screen.getByTestId('mail-test'));

    const smtp = await screen.findByTestId('mail-result-smtp');
    expect(smtp).toHaveTextContent('ההתחברות נדחתה');
    expect(smtp).toHaveTextContent('שם המשתמש או הסיסמה של תיבת הדואר שגויים');
    const detail = smtp.querySelector('bdi');
    expect(detail).toHaveAttribute('dir', 'ltr');
    expect(detail).toHaveTextContent('535 5.7.8');
    expect(screen.getByTestId('mail-result-imap')).toHaveTextContent('החיבור תקין');
    expect(screen.getByTestId('mail-outcome-message')).toHaveTextContent('החיבור לשרת הדואר נכשל. בדוק את הפרטים.');

    expect(bodyOf(calls(fetch, 'POST', '/api/auth/test-connection')[0])).toEqual({
      email_address: 'dana@gmail.com',
      password: 'app-pass',
      imap_server: 'imap.gmail.com',
      imap_port: 993,
      imap_ssl: true,
      smtp_server: 'smtp.gmail.com',
      smtp_port: 465,
      smtp_ssl: true,
    });
    // Nothing is saved by a test.
    expect(calls(fetch, 'POST', '/api/auth/login')).toHaveLength(0);
  });

  it('names each failure kind in its own words', async () => {
    server({
      'POST /api/auth/test-connection': () =>
        failed(
          { ok: false, kind: 'unreachable', message: 'לא ניתן להתחבר לשרת imap.x.example.', detail: 'connection refused' },
          { ok: false, kind: 'timeout', message: 'השרת smtp.x.example לא הגיב בזמן.' },
        ),
    });
    renderCard();
    const user = userEvent.setup();
    await fillAccount(user, 'me@x.example');
    await user.click(screen.getByTestId('mail-test'));
    expect(await screen.findByTestId('mail-result-imap-kind')).toHaveTextContent('השרת אינו זמין');
    expect(screen.getByTestId('mail-result-smtp-kind')).toHaveTextContent('השרת לא הגיב בזמן');
  });

  it('shows an untrusted certificate and resubmits with its fingerprint once accepted', async () => {
    let attempts = 0;
    const fetch = server({
      'POST /api/auth/test-connection': (init) => {
        attempts++;
        const b = JSON.parse(String(init?.body));
        if (b.imap_fingerprint === FP && b.smtp_fingerprint === FP) return json(200, CONNECTED);
        const untrusted = { ok: false, kind: 'tls', message: 'תעודת האבטחה של השרת mail.home.example אינה מוכרת.', fingerprint: FP };
        return failed(untrusted, untrusted);
      },
    });
    renderCard();
    const user = userEvent.setup();
    await fillAccount(user, 'dana@home.example');
    await user.type(screen.getByTestId('mail-imap-server'), 'mail.home.example');
    await user.type(screen.getByTestId('mail-smtp-server'), 'mail.home.example');
    await user.click(screen.getByTestId('mail-test'));

    const warning = await screen.findByTestId('mail-fingerprint');
    expect(warning).toHaveTextContent('תעודת האבטחה של השרת אינה מוכרת');
    const code = screen.getByTestId('mail-fingerprint-imap');
    expect(code).toHaveTextContent(FP);
    expect(code).toHaveAttribute('dir', 'ltr');
    // The same certificate on both servers is listed once.
    expect(screen.queryByTestId('mail-fingerprint-smtp')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('mail-accept-cert'));
    await waitFor(() => expect(attempts).toBe(2));
    const second = bodyOf(calls(fetch, 'POST', '/api/auth/test-connection')[1]);
    expect(second.imap_fingerprint).toBe(FP);
    expect(second.smtp_fingerprint).toBe(FP);
    expect(await screen.findByTestId('mail-outcome-message')).toHaveTextContent('החיבור לשני השרתים הצליח');
    expect(screen.queryByTestId('mail-fingerprint')).not.toBeInTheDocument();
  });

  it('saves with POST /api/auth/login, confirms for 3 s, and goes to the inbox after 1.5 s', async () => {
    const fetch = server({
      'POST /api/auth/login': () =>
        json(200, { success: true, sessionId: '7', message: 'החיבור לתיבת הדואר הצליח', account: ACCOUNT }),
    });
    const r = renderCard();
    const user = userEvent.setup();
    await fillAccount(user);
    await waitFor(() => expect(screen.getByTestId('mail-imap-server')).toHaveValue('imap.gmail.com'));

    // The clock stands still from here: only the test moves it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    fireEvent.click(screen.getByTestId('mail-save'));
    const saved = 'חשבון הדואר נשמר והחיבור הצליח. הסנכרון התחיל.';
    await settle(() => screen.queryByText(saved, { selector: '.toast__message' }) !== null);
    expect(screen.getByTestId('mail-outcome-message')).toHaveTextContent(saved);
    expect(bodyOf(calls(fetch, 'POST', '/api/auth/login')[0])).toMatchObject({
      email_address: 'dana@gmail.com',
      password: 'app-pass',
      imap_server: 'imap.gmail.com',
    });

    act(() => vi.advanceTimersByTime(REDIRECT_MS - 1));
    expect(r.location().pathname).toBe('/Settings');
    act(() => vi.advanceTimersByTime(1));
    expect(r.location().pathname).toBe('/Inbox');

    act(() => vi.advanceTimersByTime(SAVED_TOAST_MS - REDIRECT_MS - 1));
    expect(screen.getByText(saved, { selector: '.toast__message' })).toBeInTheDocument();
    expect(screen.getByTestId('mail-outcome-message')).toHaveTextContent(saved);
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText(saved, { selector: '.toast__message' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('mail-outcome')).not.toBeInTheDocument();
    expect(REDIRECT_MS).toBe(1500);
    expect(SAVED_TOAST_MS).toBe(3000);
  });

  it('on a failed save says the connection failed and stays, with the error kept', async () => {
    server({
      'POST /api/auth/login': () =>
        failed({ ok: false, kind: 'auth', message: 'שם המשתמש או הסיסמה של תיבת הדואר שגויים' }, { ok: true }),
    });
    const r = renderCard();
    const user = userEvent.setup();
    await fillAccount(user);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    fireEvent.click(screen.getByTestId('mail-save'));
    await settle(() => screen.queryByRole('alert') !== null);
    expect(screen.getByRole('alert')).toHaveTextContent('החיבור לשרת הדואר נכשל. בדוק את הפרטים.');
    expect(screen.getByTestId('mail-result-imap')).toHaveTextContent('ההתחברות נדחתה');
    act(() => vi.advanceTimersByTime(10_000));
    expect(r.location().pathname).toBe('/Settings');
    expect(screen.getByRole('alert')).toHaveTextContent('החיבור לשרת הדואר נכשל. בדוק את הפרטים.');
    expect(screen.queryByText('חשבון הדואר נשמר והחיבור הצליח. הסנכרון התחיל.')).not.toBeInTheDocument();
  });

  it('says the server cannot be reached on a network failure', async () => {
    server({ 'POST /api/auth/login': () => Promise.reject(new TypeError('Failed to fetch')) });
    renderCard();
    const user = userEvent.setup();
    await fillAccount(user);
    await user.click(screen.getByTestId('mail-save'));
    expect(await screen.findByRole('alert')).toHaveTextContent('לא ניתן להתחבר לשרת');
  });

  it('asks for the password of an address that is not connected yet', async () => {
    const fetch = server();
    renderCard();
    const user = userEvent.setup();
    await user.type(screen.getByTestId('mail-email'), 'dana@gmail.com');
    await user.click(screen.getByTestId('mail-save'));
    expect(await screen.findByTestId('mail-error')).toHaveTextContent('יש להזין את סיסמת תיבת הדואר');
    expect(calls(fetch, 'POST', '/api/auth/login')).toHaveLength(0);
  });

  it('lists connected mailboxes with their sync state, syncs now, and edits one without a password', async () => {
    const fetch = server(
      {
        'POST /api/sync/refresh': () => json(200, { success: true, accounts: 1 }),
        'POST /api/auth/test-connection': () => json(200, CONNECTED),
      },
      [ACCOUNT, { ...ACCOUNT, id: 8, sessionId: '8', email_address: 'x@y.example', sync: { ...ACCOUNT.sync!, state: 'error', error: 'השרת mail.y.example לא הגיב בזמן.' } }],
    );
    renderCard();
    const rows = await screen.findAllByTestId('mail-account-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByTestId('mail-account-email')).toHaveTextContent('dana@home.example');
    expect(within(rows[0]).getByTestId('mail-sync-state')).toHaveTextContent('מעודכן');
    expect(within(rows[0]).getByTestId('mail-last-sync')).toHaveTextContent(/\d\d\/\d\d\/2026 \d\d:\d\d/);
    expect(within(rows[1]).getByTestId('mail-sync-state')).toHaveTextContent('שגיאה');
    expect(within(rows[1]).getByTestId('mail-sync-error')).toHaveTextContent('לא הגיב בזמן');
    expect(screen.queryByTestId('mail-local-statuses')).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByTestId('mail-sync-now'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/sync/refresh')).toHaveLength(1));

    await user.click(within(rows[0]).getByTestId('mail-account-edit'));
    expect(screen.getByTestId('mail-email')).toHaveValue('dana@home.example');
    expect(screen.getByTestId('mail-imap-server')).toHaveValue('mail.home.example');
    await user.click(screen.getByTestId('mail-test'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/auth/test-connection')).toHaveLength(1));
    // An empty password means "the one saved for this address".
    expect(bodyOf(calls(fetch, 'POST', '/api/auth/test-connection')[0]).password).toBe('');
  });

  it('says an Outlook mailbox is slowed down by its provider and names its folders whose statuses stay here', async () => {
    server({}, [
      {
        ...ACCOUNT,
        email_address: 'dana@outlook.com',
        sync: {
          ...ACCOUNT.sync!,
          state: 'throttled',
          errorKind: 'throttled',
          error: 'ספק הדואר מאט זמנית את הסנכרון של התיבה הזו. אין צורך לעשות דבר: הסנכרון יתחדש מעצמו.',
          localStatusFolders: ['ארכיון', 'INBOX'],
        },
      },
    ]);
    renderCard();
    const [outlook] = await screen.findAllByTestId('mail-account-row');
    expect(within(outlook!).getByTestId('mail-sync-state')).toHaveTextContent('מואט על ידי הספק');
    // The provider's slowing down is not shown as an error.
    expect(within(outlook!).queryByTestId('mail-sync-error')).not.toBeInTheDocument();
    expect(within(outlook!).getByTestId('mail-sync-throttled')).toHaveTextContent('אין צורך לעשות דבר');
    expect(within(outlook!).getByTestId('mail-local-statuses')).toHaveTextContent(
      'בתיקיות ארכיון, INBOX השרת אינו שומר סטטוסים: הם נשמרים רק ב-mailclient, ותוכנות דואר אחרות לא יראו אותם.',
    );
  });

  it('disconnects a mailbox after a confirmation that explains what is deleted', async () => {
    let accounts = [ACCOUNT];
    const fetch = mockFetch({
      'GET /api/app/me': () => json(200, { success: true, user: { ...DANA, role: 'user' } }),
      'GET /api/auth/accounts': () => json(200, { success: true, accounts }),
      'POST /api/auth/logout': () => {
        accounts = [];
        return json(200, { success: true, removed: 1, message: 'החשבון נותק והפרטים נמחקו מהשרת' });
      },
    });
    renderCard();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('mail-logout'));
    const dialog = screen.getByTestId('confirm-dialog');
    expect(dialog).toHaveTextContent('dana@home.example');
    expect(dialog).toHaveTextContent('הסיסמה והעותק המקומי של הדואר יימחקו מהשרת הזה');
    expect(dialog).toHaveTextContent('תיבת הדואר עצמה לא תושפע');
    expect(calls(fetch, 'POST', '/api/auth/logout')).toHaveLength(0);

    await user.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/auth/logout')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'POST', '/api/auth/logout')[0])).toEqual({ sessionId: '7' });
    expect(await screen.findByTestId('mail-accounts-empty')).toBeInTheDocument();
    expect(screen.queryByTestId('confirm-dialog')).not.toBeInTheDocument();
  });

  it('polls the accounts every 5 s while one is syncing', async () => {
    let n = 0;
    const fetch = server({
      'GET /api/auth/accounts': () => {
        n++;
        const state = n < 2 ? 'syncing' : 'idle';
        return json(200, { success: true, accounts: [{ ...ACCOUNT, sync: { ...ACCOUNT.sync!, state, fetchedMessages: 12 } }] });
      },
    });
    renderCard();
    expect(await screen.findByTestId('mail-sync-state')).toHaveTextContent('מסנכרן');
    expect(screen.getByTestId('mail-account-row')).toHaveTextContent('הורדו 12 הודעות');
    await waitFor(() => expect(screen.getByTestId('mail-sync-state')).toHaveTextContent('מעודכן'), { timeout: 7000 });
    expect(calls(fetch, 'GET', '/api/auth/accounts').length).toBeGreaterThanOrEqual(2);
  }, 10_000);
});
