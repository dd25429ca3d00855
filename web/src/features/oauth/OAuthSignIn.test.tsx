// The mail account card's OAuth2 part (issue 24): which buttons and which help show for the
// providers the admin configured, Microsoft's device flow (code, link, countdown, polling to done,
// expiry, refusal, cancel), Google's paste flow (a bad paste, the server's refusal, another paste)
// and redirect flow (leaving, and the way back), and "sign in again" on a revoked account.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OAuthProvider } from '../../api/oauth';
import type { DetectedProvider, MailAccountWithSync } from '../../api/types';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { MailAccountCard } from '../accounts/MailAccountCard';
import { NO_HOUSEHOLD } from '../settings/settingsFixtures';
import { formatRemaining } from './DeviceCodePanel';

type Handler = Parameters<typeof mockFetch>[0][string];
type Fetch = ReturnType<typeof mockFetch>;

const PROVIDERS: Record<string, DetectedProvider> = {
  'gmail.com': {
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
  },
  'outlook.com': {
    known: true,
    id: 'outlook',
    name: 'Outlook / Hotmail',
    imapServer: 'outlook.office365.com',
    imapPort: 993,
    imapSsl: true,
    smtpServer: 'smtp-mail.outlook.com',
    smtpPort: 587,
    smtpSsl: false,
    note: '',
  },
};

const BOTH: OAuthProvider[] = [
  { id: 'google', flow: 'paste' },
  { id: 'microsoft', flow: 'device' },
];

type Account = MailAccountWithSync;

function account(email: string, extra: Partial<Account> = {}): Account {
  return {
    id: 3,
    sessionId: '3',
    email_address: email,
    imap_server: 'outlook.office365.com',
    imap_port: 993,
    imap_ssl: true,
    smtp_server: 'smtp-mail.outlook.com',
    smtp_port: 587,
    smtp_ssl: false,
    imap_fingerprint: null,
    smtp_fingerprint: null,
    auth: 'password',
    needsSignIn: false,
    sync: null,
    ...extra,
  };
}

let accountsReads = 0;

function server(providers: OAuthProvider[], routes: Record<string, Handler> = {}, accounts: Account[] = []) {
  accountsReads = 0;
  return mockFetch({
    ...NO_HOUSEHOLD,
    'GET /api/app/me': () => json(200, { success: true, user: { ...DANA, role: 'user' } }),
    'GET /api/auth/accounts': () => {
      accountsReads += 1;
      return json(200, { success: true, accounts });
    },
    'GET /api/oauth/providers': () => json(200, { providers }),
    'GET /api/providers/detect': (_init, url) => {
      const email = new URL(url, 'http://x').searchParams.get('email') ?? '';
      const domain = email.split('@')[1] ?? '';
      const known = PROVIDERS[domain];
      return json(200, {
        email,
        provider: known ?? {
          ...PROVIDERS['gmail.com'],
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

function calls(fetch: Fetch, method: string, path: string) {
  return fetch.mock.calls.filter(
    ([url, init]) => String(url).split('?')[0] === path && (init?.method ?? 'GET') === method,
  );
}

function bodyOf(call: unknown[]): Record<string, unknown> {
  return JSON.parse(String((call[1] as RequestInit | undefined)?.body));
}

function renderCard(
  opts: { navigate?: (url: string) => void; openTab?: (url: string) => void; route?: string; role?: 'admin' | 'user' } = {},
) {
  signInAs({ ...DANA, role: opts.role ?? 'user' });
  return renderWithProviders(<MailAccountCard oauthNavigate={opts.navigate} oauthOpenTab={opts.openTab} />, {
    route: opts.route ?? '/Settings',
  });
}

type User = ReturnType<typeof userEvent.setup>;

async function typeAddress(user: User, email: string) {
  await user.type(screen.getByTestId('mail-email'), email);
  await user.tab();
  await screen.findByTestId('mail-provider');
}

const DEVICE = {
  flowId: 'flow-1',
  userCode: 'ABCD-EFGH',
  verificationUri: 'https://microsoft.com/devicelogin',
  expiresIn: 900,
  interval: 5,
};

describe('the mail account card: signing in with Google and Microsoft', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  describe('without a configured provider', () => {
    it('explains a Gmail app password step by step, and offers no sign-in button', async () => {
      server([]);
      const user = userEvent.setup();
      renderCard();
      await typeAddress(user, 'dana@gmail.com');
      const help = await screen.findByTestId('oauth-gmail-help');
      expect(help).toHaveTextContent('סיסמת אפליקציה');
      expect(help).toHaveTextContent('אימות דו-שלבי');
      expect(within(help).getByRole('link', { name: 'סיסמאות אפליקציה' })).toHaveAttribute(
        'href',
        'https://myaccount.google.com/apppasswords',
      );
      expect(within(help).getByRole('link', { name: 'אימות דו-שלבי' })).toHaveAttribute('target', '_blank');
      expect(screen.queryByTestId('oauth-google')).not.toBeInTheDocument();
      expect(screen.queryByTestId('oauth-microsoft')).not.toBeInTheDocument();
      expect(screen.queryByTestId('oauth-microsoft-help')).not.toBeInTheDocument();
    });

    it('says an Outlook address needs the admin to set up OAuth, naming the section of docs/OAUTH.md', async () => {
      server([]);
      const user = userEvent.setup();
      renderCard();
      await typeAddress(user, 'dana@outlook.com');
      const help = await screen.findByTestId('oauth-microsoft-help');
      expect(help).toHaveTextContent('מנהל המערכת צריך להגדיר התחברות OAuth2 עם Microsoft');
      expect(help).toHaveTextContent('docs/OAUTH.md');
      expect(within(help).getByTestId('oauth-readme-section')).toHaveTextContent('OAuth sign-in for Gmail and Microsoft mailboxes');
      expect(screen.queryByTestId('oauth-gmail-help')).not.toBeInTheDocument();
    });

    it('shows nothing of OAuth for any other address', async () => {
      server([]);
      const user = userEvent.setup();
      renderCard();
      await typeAddress(user, 'dana@home.example');
      expect(screen.queryByTestId('oauth-section')).not.toBeInTheDocument();
    });

    it('treats a failed providers request as none configured', async () => {
      server([], { 'GET /api/oauth/providers': () => json(500, { error: 'internal', message: 'שגיאה' }) });
      const user = userEvent.setup();
      renderCard();
      await typeAddress(user, 'dana@gmail.com');
      expect(await screen.findByTestId('oauth-gmail-help')).toBeInTheDocument();
    });
  });

  describe('with configured providers', () => {
    it('shows a button per configured provider and highlights the one the address belongs to', async () => {
      server(BOTH);
      const user = userEvent.setup();
      renderCard();
      const google = await screen.findByTestId('oauth-google');
      const microsoft = screen.getByTestId('oauth-microsoft');
      expect(google).toHaveTextContent('התחברות עם Google');
      expect(microsoft).toHaveTextContent('התחברות עם Microsoft');
      expect(google).toHaveAttribute('data-suggested', 'false');

      await typeAddress(user, 'dana@outlook.com');
      await waitFor(() => expect(microsoft).toHaveAttribute('data-suggested', 'true'));
      expect(microsoft).toHaveClass('button--primary');
      expect(microsoft).toHaveAccessibleDescription('מומלץ לכתובת הזו');
      expect(google).not.toHaveClass('button--primary');
      // Configured: no "ask the admin" note.
      expect(screen.queryByTestId('oauth-microsoft-help')).not.toBeInTheDocument();
    });

    it('shows only the configured one, and the app password help for Gmail when Google is not', async () => {
      server([{ id: 'microsoft', flow: 'device' }]);
      const user = userEvent.setup();
      renderCard();
      await screen.findByTestId('oauth-microsoft');
      expect(screen.queryByTestId('oauth-google')).not.toBeInTheDocument();
      await typeAddress(user, 'dana@gmail.com');
      expect(await screen.findByTestId('oauth-gmail-help')).toBeInTheDocument();
      expect(screen.getByTestId('oauth-microsoft')).toHaveAttribute('data-suggested', 'false');
    });

    it('asks for the address first', async () => {
      const fetch = server(BOTH);
      const user = userEvent.setup();
      renderCard();
      await user.click(await screen.findByTestId('oauth-microsoft'));
      expect(screen.getByTestId('oauth-error')).toHaveTextContent('הקלד קודם את כתובת הדואר שלך');
      expect(screen.getByTestId('mail-email')).toHaveFocus();
      expect(calls(fetch, 'POST', '/api/oauth/microsoft/device')).toHaveLength(0);
    });
  });

  describe("Microsoft's device code", () => {
    beforeEach(() => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
    });

    it('shows the code and the link, counts down, polls at the interval and ends connected', async () => {
      let polls = 0;
      const fetch = server(BOTH, {
        'POST /api/oauth/microsoft/device': () => json(200, DEVICE),
        'GET /api/oauth/flows/flow-1': () => {
          polls += 1;
          return json(200, polls < 3 ? { state: 'pending' } : { state: 'done', email: 'dana@outlook.com' });
        },
      });
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderCard();
      await typeAddress(user, 'dana@outlook.com');
      await user.click(screen.getByTestId('oauth-microsoft'));

      const panel = await screen.findByTestId('oauth-device');
      expect(bodyOf(calls(fetch, 'POST', '/api/oauth/microsoft/device')[0])).toEqual({ email: 'dana@outlook.com' });
      expect(screen.getByTestId('oauth-device-code')).toHaveTextContent('ABCD-EFGH');
      // Never a code someone else sent: whoever sent it would get the mailbox.
      expect(screen.getByTestId('oauth-device-phishing')).toHaveTextContent('לעולם אל תזין קוד שמישהו אחר שלח לך');
      const link = screen.getByTestId('oauth-device-link');
      expect(link).toHaveAttribute('href', 'https://microsoft.com/devicelogin');
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      expect(screen.getByTestId('oauth-device-status')).toHaveTextContent('ממתין לאישור שלך');
      expect(screen.getByTestId('oauth-device-countdown')).toHaveTextContent('הקוד בתוקף עוד 15:00');
      expect(screen.getByTestId('oauth-flow')).toHaveTextContent('dana@outlook.com');

      await user.click(within(panel).getByTestId('oauth-device-copy'));
      // user-event's clipboard stands in for the browser's.
      expect(await navigator.clipboard.readText()).toBe('ABCD-EFGH');
      expect(screen.getByTestId('oauth-device-copied')).toHaveTextContent('הקוד הועתק');

      // Nothing is asked before the interval.
      await act(() => vi.advanceTimersByTimeAsync(4000));
      expect(polls).toBe(0);
      await act(() => vi.advanceTimersByTimeAsync(1100));
      expect(polls).toBe(1);
      expect(screen.getByTestId('oauth-device-countdown')).toHaveTextContent('14:5');
      await act(() => vi.advanceTimersByTimeAsync(5000));
      expect(polls).toBe(2);
      const readsBefore = accountsReads;
      await act(() => vi.advanceTimersByTimeAsync(5000));
      expect(polls).toBe(3);

      expect(await screen.findByTestId('oauth-done')).toHaveTextContent('החשבון dana@outlook.com חובר. הסנכרון התחיל.');
      expect(screen.queryByTestId('oauth-device')).not.toBeInTheDocument();
      expect(screen.getByTestId('toast')).toHaveTextContent('החשבון dana@outlook.com חובר');
      await waitFor(() => expect(accountsReads).toBeGreaterThan(readsBefore));
      // Done means no more polling.
      await act(() => vi.advanceTimersByTimeAsync(20_000));
      expect(polls).toBe(3);
    });

    it('ends at the code\'s expiry, and a new code starts over', async () => {
      let starts = 0;
      const fetch = server(BOTH, {
        'POST /api/oauth/microsoft/device': () => {
          starts += 1;
          return json(200, { ...DEVICE, flowId: `flow-${starts}`, userCode: starts === 1 ? 'ABCD-EFGH' : 'WXYZ-1234', expiresIn: 12 });
        },
        'GET /api/oauth/flows/flow-1': () => json(200, { state: 'pending' }),
        'GET /api/oauth/flows/flow-2': () => json(200, { state: 'pending' }),
      });
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderCard();
      await typeAddress(user, 'dana@outlook.com');
      await user.click(screen.getByTestId('oauth-microsoft'));
      await screen.findByTestId('oauth-device');
      expect(screen.getByTestId('oauth-device-countdown')).toHaveTextContent('0:12');

      await act(() => vi.advanceTimersByTimeAsync(12_500));
      const ended = await screen.findByTestId('oauth-ended');
      expect(ended).toHaveAttribute('data-reason', 'expired');
      expect(ended).toHaveTextContent('תוקף הקוד פג');
      expect(ended).toHaveAttribute('role', 'alert');
      expect(screen.queryByTestId('oauth-device-code')).not.toBeInTheDocument();
      const pollsAtExpiry = calls(fetch, 'GET', '/api/oauth/flows/flow-1').length;
      await act(() => vi.advanceTimersByTimeAsync(20_000));
      expect(calls(fetch, 'GET', '/api/oauth/flows/flow-1')).toHaveLength(pollsAtExpiry);

      await user.click(screen.getByTestId('oauth-restart'));
      expect(await screen.findByTestId('oauth-device-code')).toHaveTextContent('WXYZ-1234');
      expect(calls(fetch, 'POST', '/api/oauth/microsoft/device').map(bodyOf)).toEqual([
        { email: 'dana@outlook.com' },
        { email: 'dana@outlook.com' },
      ]);
    });

    it("says the server's Hebrew message when the user refused, and keeps trying through a lost connection", async () => {
      let polls = 0;
      server(BOTH, {
        'POST /api/oauth/microsoft/device': () => json(200, { ...DEVICE, interval: 1 }),
        'GET /api/oauth/flows/flow-1': () => {
          polls += 1;
          if (polls === 1) throw new TypeError('Failed to fetch');
          return json(200, { state: 'denied', message: 'ההתחברות נדחתה בדף של Microsoft.' });
        },
      });
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderCard();
      await typeAddress(user, 'dana@outlook.com');
      await user.click(screen.getByTestId('oauth-microsoft'));
      await screen.findByTestId('oauth-device');
      await act(() => vi.advanceTimersByTimeAsync(1100));
      expect(await screen.findByTestId('oauth-device-trouble')).toHaveTextContent('אין כרגע חיבור לשרת');
      await act(() => vi.advanceTimersByTimeAsync(5100));
      const ended = await screen.findByTestId('oauth-ended');
      expect(ended).toHaveAttribute('data-reason', 'denied');
      expect(ended).toHaveTextContent('ההתחברות נדחתה בדף של Microsoft.');
      expect(screen.getByTestId('oauth-restart')).toHaveTextContent('קבלת קוד חדש');
    });

    it('stops polling when cancelled', async () => {
      const fetch = server(BOTH, {
        'POST /api/oauth/microsoft/device': () => json(200, DEVICE),
        'GET /api/oauth/flows/flow-1': () => json(200, { state: 'pending' }),
      });
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderCard();
      await typeAddress(user, 'dana@outlook.com');
      await user.click(screen.getByTestId('oauth-microsoft'));
      await screen.findByTestId('oauth-device');
      await user.click(screen.getByTestId('oauth-cancel'));
      expect(screen.queryByTestId('oauth-flow')).not.toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(30_000));
      expect(calls(fetch, 'GET', '/api/oauth/flows/flow-1')).toHaveLength(0);
    });

    it("shows the start's refusal in Hebrew", async () => {
      server(BOTH, {
        'POST /api/oauth/microsoft/device': () => json(502, { error: 'oauth_provider', message: 'שרת ההתחברות של Microsoft לא ענה.' }),
      });
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderCard();
      await typeAddress(user, 'dana@outlook.com');
      await user.click(screen.getByTestId('oauth-microsoft'));
      const ended = await screen.findByTestId('oauth-ended');
      expect(ended).toHaveAttribute('data-reason', 'start');
      expect(ended).toHaveTextContent('לא ניתן להתחיל את ההתחברות. שרת ההתחברות של Microsoft לא ענה.');
    });
  });

  describe("Google's pasted address", () => {
    const START = {
      flowId: 'g-1',
      authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth?client_id=x&state=s1',
      flow: 'paste',
      redirectUri: 'http://127.0.0.1:8765/',
    };

    it('opens Google in a new tab, explains the page that will not load, and takes another paste after a refusal', async () => {
      let finishes = 0;
      const fetch = server(BOTH, {
        'POST /api/oauth/google/start': () => json(200, START),
        'POST /api/oauth/google/finish': () => {
          finishes += 1;
          return finishes === 1
            ? json(400, { error: 'oauth_state', message: 'הכתובת שהודבקה לא שייכת להתחברות הזו.' })
            : json(200, { state: 'done', email: 'dana@gmail.com' });
        },
      });
      const openTab = vi.fn();
      const user = userEvent.setup();
      renderCard({ openTab });
      await typeAddress(user, 'dana@gmail.com');
      expect(screen.getByTestId('oauth-google')).toHaveAttribute('data-suggested', 'true');
      await user.click(screen.getByTestId('oauth-google'));

      const panel = await screen.findByTestId('oauth-paste');
      expect(openTab).toHaveBeenCalledWith(START.authorizeUrl);
      expect(bodyOf(calls(fetch, 'POST', '/api/oauth/google/start')[0])).toEqual({ email: 'dana@gmail.com' });
      expect(within(panel).getByTestId('oauth-paste-link')).toHaveAttribute('href', START.authorizeUrl);
      expect(within(panel).getByTestId('oauth-paste-link')).toHaveAttribute('target', '_blank');
      expect(panel).toHaveTextContent('127.0.0.1');
      expect(panel).toHaveTextContent('העתק את הכתובת המלאה משורת הכתובת של הדפדפן');
      const field = screen.getByLabelText('הכתובת שהדפדפן הגיע אליה');

      // Empty and not an address: said here, nothing sent.
      await user.click(screen.getByTestId('oauth-paste-submit'));
      expect(screen.getByTestId('oauth-paste-error')).toHaveTextContent('הדבק את הכתובת מהדפדפן');
      await user.type(field, 'code=abc');
      await user.click(screen.getByTestId('oauth-paste-submit'));
      expect(screen.getByTestId('oauth-paste-error')).toHaveTextContent('זו לא נראית כמו כתובת מלאה');
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(calls(fetch, 'POST', '/api/oauth/google/finish')).toHaveLength(0);

      // The server refuses the state: its message, and the flow stays open.
      await user.clear(field);
      await user.type(field, 'http://127.0.0.1:8765/?state=other&code=abc');
      await user.keyboard('{Enter}');
      expect(await screen.findByTestId('oauth-paste-error')).toHaveTextContent('הכתובת שהודבקה לא שייכת להתחברות הזו.');
      expect(bodyOf(calls(fetch, 'POST', '/api/oauth/google/finish')[0])).toEqual({
        flowId: 'g-1',
        redirectedUrl: 'http://127.0.0.1:8765/?state=other&code=abc',
      });
      // Enter in the field never submitted the password form.
      expect(calls(fetch, 'POST', '/api/auth/login')).toHaveLength(0);
      expect(field).toHaveFocus();

      await user.clear(field);
      await user.type(field, 'http://127.0.0.1:8765/?state=s1&code=good');
      await user.click(screen.getByTestId('oauth-paste-submit'));
      expect(await screen.findByTestId('oauth-done')).toHaveTextContent('החשבון dana@gmail.com חובר');
      expect(calls(fetch, 'POST', '/api/oauth/google/finish')).toHaveLength(2);
    });

    it('leaves for Google in the redirect flow', async () => {
      server(BOTH, {
        'POST /api/oauth/google/start': () => json(200, { ...START, flow: 'redirect', redirectUri: 'https://mail.example/api/oauth/google/callback' }),
      });
      const navigate = vi.fn();
      const openTab = vi.fn();
      const user = userEvent.setup();
      renderCard({ navigate, openTab });
      await typeAddress(user, 'dana@gmail.com');
      await user.click(screen.getByTestId('oauth-google'));
      expect(await screen.findByTestId('oauth-redirecting')).toHaveTextContent('עובר לדף ההתחברות של Google');
      expect(navigate).toHaveBeenCalledWith(START.authorizeUrl);
      expect(openTab).not.toHaveBeenCalled();
    });

    it('says a failed return in its own words for the reason code, never text from the address', async () => {
      server(BOTH);
      const view = renderCard({ route: '/settings?oauth=failed&reason=denied&message=%3Cb%3Ecall%20us%3C%2Fb%3E' });
      const toast = await screen.findByTestId('toast');
      expect(toast).toHaveTextContent('ההתחברות נכשלה. לא ניתנה הרשאה בדף של Google.');
      expect(toast).not.toHaveTextContent('call us');
      await waitFor(() => expect(view.location().search).toBe(''));
      expect(view.location().pathname).toBe('/settings');
    });

    it('an unknown reason code adds nothing to the sentence', async () => {
      server(BOTH);
      renderCard({ route: '/settings?oauth=failed&reason=%D7%94%D7%AA%D7%A7%D7%A9%D7%A8%D7%95' });
      const toast = await screen.findByTestId('toast');
      expect(toast).toHaveTextContent(/ההתחברות נכשלה\.$/);
      expect(toast).not.toHaveTextContent('התקשרו');
    });

    it('back from Google: the code leaves the address, the address to connect is confirmed, then finished with this session', async () => {
      const fetch = server(BOTH, {
        'POST /api/oauth/google/claim': () => json(200, { flowId: 'g-1', email: 'dana@gmail.com' }),
        'POST /api/oauth/google/finish': () => json(200, { state: 'done', email: 'dana@gmail.com' }),
      });
      const user = userEvent.setup();
      const view = renderCard({ route: '/settings?oauth=return&state=st-1&code=4%2F0Ab' });
      // Nothing is finished before the user says so.
      const question = await screen.findByTestId('oauth-confirm-question');
      expect(question).toHaveTextContent('לחבר לחשבון שלך את תיבת הדואר dana@gmail.com');
      expect(view.location().search).toBe('');
      expect(bodyOf(calls(fetch, 'POST', '/api/oauth/google/claim')[0])).toEqual({ state: 'st-1' });
      expect(calls(fetch, 'POST', '/api/oauth/google/finish')).toHaveLength(0);
      await user.click(screen.getByTestId('oauth-confirm-connect'));
      expect(await screen.findByTestId('oauth-done')).toHaveTextContent('החשבון dana@gmail.com חובר');
      expect(bodyOf(calls(fetch, 'POST', '/api/oauth/google/finish')[0])).toEqual({ flowId: 'g-1', code: '4/0Ab', state: 'st-1' });
      await waitFor(() => expect(accountsReads).toBeGreaterThanOrEqual(2));
    });

    it('back from Google with a flow this user did not start: nothing to confirm, the server\'s reason said', async () => {
      const fetch = server(BOTH, {
        'POST /api/oauth/google/claim': () =>
          json(404, { success: false, error: 'not_found', message: 'תהליך ההתחברות הזה לא התחיל מהחשבון שלך, או שפג תוקפו.' }),
      });
      renderCard({ route: '/settings?oauth=return&state=theirs&code=c' });
      expect(await screen.findByTestId('toast')).toHaveTextContent('לא התחיל מהחשבון שלך');
      expect(screen.queryByTestId('oauth-confirm')).not.toBeInTheDocument();
      expect(calls(fetch, 'POST', '/api/oauth/google/finish')).toHaveLength(0);
    });

    it('cancelling the confirmation connects nothing', async () => {
      const fetch = server(BOTH, {
        'POST /api/oauth/google/claim': () => json(200, { flowId: 'g-1', email: 'dana@gmail.com' }),
      });
      const user = userEvent.setup();
      renderCard({ route: '/settings?oauth=return&state=st-1&code=c' });
      await screen.findByTestId('oauth-confirm');
      await user.click(screen.getByTestId('oauth-cancel'));
      expect(screen.queryByTestId('oauth-confirm')).not.toBeInTheDocument();
      expect(calls(fetch, 'POST', '/api/oauth/google/finish')).toHaveLength(0);
    });
  });

  describe('an account whose sign-in was revoked', () => {
    beforeEach(() => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
    });

    it('says so, and "sign in again" restarts the provider\'s flow for that address', async () => {
      const fetch = server(
        BOTH,
        {
          'POST /api/oauth/microsoft/device': () => json(200, DEVICE),
          'GET /api/oauth/flows/flow-1': () => json(200, { state: 'pending' }),
        },
        [
          account('dana@outlook.com', { auth: 'microsoft', needsSignIn: true }),
          account('dana@home.example', { id: 4, sessionId: '4', auth: 'password', needsSignIn: false }),
        ],
      );
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderCard();
      const rows = await screen.findAllByTestId('mail-account-row');
      const [oauthRow, passwordRow] = rows;
      expect(within(oauthRow).getByTestId('mail-account-auth')).toHaveTextContent('התחברות עם Microsoft');
      expect(within(passwordRow).getByTestId('mail-account-auth')).toHaveTextContent('התחברות בסיסמה');
      const warning = within(oauthRow).getByTestId('mail-needs-signin');
      expect(warning).toHaveTextContent('ההרשאה של Microsoft בוטלה או פג תוקפה, והסנכרון נעצר');
      expect(within(passwordRow).queryByTestId('mail-needs-signin')).not.toBeInTheDocument();
      // An OAuth account has no password to edit; the password one does.
      expect(within(oauthRow).queryByTestId('mail-account-edit')).not.toBeInTheDocument();
      expect(within(passwordRow).getByTestId('mail-account-edit')).toBeInTheDocument();

      await user.click(within(oauthRow).getByRole('button', { name: 'התחבר מחדש' }));
      expect(await screen.findByTestId('oauth-device-code')).toHaveTextContent('ABCD-EFGH');
      expect(bodyOf(calls(fetch, 'POST', '/api/oauth/microsoft/device')[0])).toEqual({ email: 'dana@outlook.com' });
      expect(screen.getByTestId('oauth-flow')).toHaveTextContent('dana@outlook.com');
    });

    it('without the provider configured, says to ask the admin and offers no button', async () => {
      server([], {}, [account('dana@gmail.com', { auth: 'google', needsSignIn: true })]);
      renderCard();
      const warning = await screen.findByTestId('mail-needs-signin');
      expect(warning).toHaveTextContent('ההרשאה של Google בוטלה');
      expect(warning).toHaveTextContent('פנה למנהל המערכת');
      expect(screen.queryByTestId('mail-signin-again')).not.toBeInTheDocument();
    });
  });

  it('writes the countdown as m:ss, and h:mm:ss past an hour', () => {
    expect(formatRemaining(900_000)).toBe('15:00');
    expect(formatRemaining(61_001)).toBe('1:02');
    expect(formatRemaining(9_000)).toBe('0:09');
    expect(formatRemaining(-5)).toBe('0:00');
    expect(formatRemaining(3_725_000)).toBe('1:02:05');
  });
});
