// The mail account card's household parts (spec 001 §2, §4, §5, §8, §9): the admin's save for
// all users, the offer to load the global mail settings on opening the page (and the login 1 s
// later), and the settings backup behind the master-password modal.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MailAccountWithSync, User } from '../../api/types';
import { bodyOf, calls, DANA, json, mockFetch, renderWithProviders, settle, signInAs } from '../../test/helpers';
import { GLOBAL_LOGIN_DELAY_MS } from '../household/GlobalMailOffer';
import { MailAccountCard, REDIRECT_MS } from './MailAccountCard';
import { GLOBAL_MAIL, GLOBAL_MAIL_EXISTS, NO_HOUSEHOLD } from '../settings/settingsFixtures';
import { mailAccount } from './accountFixtures';

type Handler = Parameters<typeof mockFetch>[0][string];

const PLAIN: User = { ...DANA, id: 2, username: 'yossi', name: 'יוסי לוי', role: 'user' };

const ACCOUNT: MailAccountWithSync = mailAccount({
  id: 7,
  email_address: 'family@home.example',
  imap_server: 'mail.home.example',
  smtp_server: 'smtp.home.example',
  sync: null,
});

const WRONG = 'סיסמת האב שגויה (או שהגיבוי שונה). דבר לא השתנה.';
/** A restore's note: a mailbox of another install's household settings. */
const NOTE = 'תיבת הדואר dana@example.test חוברה בהגדרות הגלובליות של הבית';
const KEPT = { exists: true, createdAt: '2026-11-21T09:15:00Z', sections: ['preferences', 'mailboxes'] };

function server(user: User, routes: Record<string, Handler> = {}, accounts: MailAccountWithSync[] = []) {
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user }),
    'GET /api/auth/accounts': () => json(200, { success: true, accounts }),
    'GET /api/providers/detect': (_init, url) =>
      json(200, {
        email: new URL(url, 'http://x').searchParams.get('email'),
        provider: {
          known: false,
          id: 'guess',
          name: 'home.example',
          imapServer: 'imap.home.example',
          imapPort: 993,
          imapSsl: true,
          smtpServer: 'smtp.home.example',
          smtpPort: 465,
          smtpSsl: true,
          note: '',
        },
      }),
    ...NO_HOUSEHOLD,
    ...routes,
  });
}

function renderCard(user: User) {
  signInAs(user);
  return renderWithProviders(<MailAccountCard />, { route: '/Settings' });
}

async function fillForm(user: ReturnType<typeof userEvent.setup>, password = 'family-pass') {
  await user.type(screen.getByTestId('mail-email'), 'family@home.example');
  if (password) await user.type(screen.getByTestId('mail-password'), password);
  await user.type(screen.getByTestId('mail-imap-server'), 'mail.home.example');
  await user.type(screen.getByTestId('mail-smtp-server'), 'smtp.home.example');
}

describe('save for all users', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('is offered to admins only', async () => {
    server(PLAIN);
    renderCard(PLAIN);
    await screen.findByTestId('mail-accounts-empty');
    expect(screen.getByTestId('mail-save')).toBeInTheDocument();
    expect(screen.queryByTestId('mail-save-all')).not.toBeInTheDocument();
    expect(screen.queryByText('שמירה לכל המשתמשים')).not.toBeInTheDocument();
  });

  it('needs the address and the password, and says so without asking the server', async () => {
    const fetch = server(DANA);
    renderCard(DANA);
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'שמירה לכל המשתמשים' });
    await user.click(button);
    expect(screen.getByTestId('mail-error')).toHaveTextContent('מלא אימייל וסיסמה לפני השמירה הגלובלית');

    // An address without a password is not enough either.
    await fillForm(user, '');
    await user.click(button);
    expect(screen.getByTestId('mail-error')).toHaveTextContent('מלא אימייל וסיסמה לפני השמירה הגלובלית');
    expect(calls(fetch, 'POST', '/api/global-settings/email')).toHaveLength(0);
  });

  it('posts the form as the mailbox login takes it and confirms with the server\'s message', async () => {
    const fetch = server(DANA, {
      'POST /api/global-settings/email': () =>
        json(200, {
          success: true,
          message: 'ההגדרות הגלובליות נשמרו',
          settings: { lastUpdated: '2026-11-22T10:00:00Z', updatedBy: 'דנה כהן' },
        }),
    });
    renderCard(DANA);
    const user = userEvent.setup();
    await fillForm(user);
    await user.click(screen.getByTestId('mail-save-all'));

    await waitFor(() => expect(calls(fetch, 'POST', '/api/global-settings/email')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'POST', '/api/global-settings/email')[0])).toEqual({
      email_address: 'family@home.example',
      password: 'family-pass',
      imap_server: 'mail.home.example',
      imap_port: 993,
      imap_ssl: true,
      smtp_server: 'smtp.home.example',
      smtp_port: 465,
      smtp_ssl: true,
    });
    expect(await screen.findByText('ההגדרות הגלובליות נשמרו', { selector: '.toast__message' })).toBeInTheDocument();
    // Not the user's own mailbox: nothing is connected and nobody leaves the page.
    expect(calls(fetch, 'POST', '/api/auth/login')).toHaveLength(0);
    expect(screen.queryByTestId('mail-error')).not.toBeInTheDocument();
  });

  it("sends the admin's household AI key once (write-only), then shows that one is set", async () => {
    let keySet = false;
    const fetch = server(DANA, {
      'GET /api/global-settings/email': () =>
        json(200, keySet ? { hasSettings: true, settings: { ...GLOBAL_MAIL, claudeApiKeySet: true } } : { hasSettings: false, settings: null }),
      'POST /api/global-settings/email': () => {
        keySet = true;
        return json(200, { success: true, message: 'ההגדרות הגלובליות נשמרו', settings: { lastUpdated: '2026-11-22T10:00:00Z', updatedBy: 'דנה כהן' } });
      },
    });
    renderCard(DANA);
    const user = userEvent.setup();
    const field = await screen.findByLabelText('מפתח AI למשק הבית');
    expect(field).toHaveAttribute('type', 'password');
    await fillForm(user);
    await user.type(field, '  sk-ant-household  ');
    await user.click(screen.getByTestId('mail-save-all'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/global-settings/email')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'POST', '/api/global-settings/email')[0])).toMatchObject({ claudeApiKey: 'sk-ant-household' });
    await waitFor(() => expect(field).toHaveValue(''));
    expect(await screen.findByTestId('household-ai-key-status')).toHaveTextContent('מוגדר מפתח AI למשק הבית.');
    // An empty field leaves the household's key as it is: nothing is sent for it.
    await user.type(screen.getByTestId('mail-password'), 'x');
    await user.click(screen.getByTestId('mail-save-all'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/global-settings/email')).toHaveLength(2));
    expect(bodyOf(calls(fetch, 'POST', '/api/global-settings/email')[1])).not.toHaveProperty('claudeApiKey');
  });

  it('offers no household AI key to a user who is not an admin', async () => {
    server(PLAIN);
    renderCard(PLAIN);
    await screen.findByTestId('mail-accounts-empty');
    expect(screen.queryByLabelText('מפתח AI למשק הבית')).not.toBeInTheDocument();
  });

  it('says why a global save failed', async () => {
    server(DANA, {
      'POST /api/global-settings/email': () =>
        json(403, { success: false, error: 'forbidden', message: 'פעולה זו מותרת למנהלי מערכת בלבד' }),
    });
    renderCard(DANA);
    const user = userEvent.setup();
    await fillForm(user);
    await user.click(screen.getByTestId('mail-save-all'));
    expect(
      await screen.findByText('שגיאה בשמירה גלובלית: פעולה זו מותרת למנהלי מערכת בלבד', { selector: '.toast__message' }),
    ).toBeInTheDocument();
  });
});

describe('global mail settings on opening the page', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('asks a user without a mailbox whether to load them, naming who saved them and when', async () => {
    server(PLAIN, GLOBAL_MAIL_EXISTS);
    renderCard(PLAIN);
    const offer = await screen.findByTestId('global-offer');
    expect(within(offer).getByTestId('global-offer-question')).toHaveTextContent(
      /^הגדרות מייל גלובליות נמצאו \(עודכנו על ידי דנה כהן בתאריך 20\/11\/2026 \d\d:\d\d\)\. לטעון אותן\?$/,
    );
    expect(within(offer).getByRole('button', { name: 'טעינה' })).toBeInTheDocument();
    await userEvent.setup().click(within(offer).getByRole('button', { name: 'לא עכשיו' }));
    expect(screen.queryByTestId('global-offer')).not.toBeInTheDocument();
  });

  it('does not ask a user who has a mailbox, nor when there are none', async () => {
    const fetch = server(PLAIN, GLOBAL_MAIL_EXISTS, [ACCOUNT]);
    const r = renderCard(PLAIN);
    await screen.findByTestId('mail-account-row');
    await waitFor(() => expect(calls(fetch, 'GET', '/api/global-settings/email/exists')).toHaveLength(1));
    expect(screen.queryByTestId('global-offer')).not.toBeInTheDocument();
    r.unmount();

    server(PLAIN);
    renderCard(PLAIN);
    await screen.findByTestId('mail-accounts-empty');
    await screen.findByTestId('backup-status');
    expect(screen.queryByTestId('global-offer')).not.toBeInTheDocument();
  });

  it('on yes shows the servers (never a password), connects 1 s later and goes to the inbox', async () => {
    let accounts: MailAccountWithSync[] = [];
    const fetch = server(PLAIN, {
      ...GLOBAL_MAIL_EXISTS,
      'GET /api/auth/accounts': () => json(200, { success: true, accounts }),
      'POST /api/global-settings/email/load': () => {
        accounts = [ACCOUNT];
        return json(200, { success: true, sessionId: '7', message: 'החיבור לתיבת הדואר הצליח', account: ACCOUNT });
      },
    });
    const r = renderCard(PLAIN);
    const load = await screen.findByTestId('global-offer-load');

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    fireEvent.click(load);
    await settle(() => (screen.getByTestId('mail-imap-server') as HTMLInputElement).value !== '');
    expect(screen.getByTestId('mail-email')).toHaveValue(GLOBAL_MAIL.email);
    expect(screen.getByTestId('mail-imap-server')).toHaveValue('mail.home.example');
    expect(screen.getByTestId('mail-imap-port')).toHaveValue('993');
    expect(screen.getByTestId('mail-smtp-server')).toHaveValue('smtp.home.example');
    expect(screen.getByTestId('mail-smtp-port')).toHaveValue('465');
    expect(screen.getByTestId('mail-password')).toHaveValue('');
    expect(screen.getByText('תשמש הסיסמה השמורה בהגדרות הגלובליות (היא לא מוצגת כאן).')).toBeInTheDocument();
    expect(screen.getByTestId('global-offer-status')).toHaveTextContent('מתחבר לתיבת הדואר');

    // Spec 001 §9: the login runs 1 s after the settings were loaded, not before.
    act(() => vi.advanceTimersByTime(GLOBAL_LOGIN_DELAY_MS - 1));
    expect(calls(fetch, 'POST', '/api/global-settings/email/load')).toHaveLength(0);
    act(() => vi.advanceTimersByTime(1));
    expect(calls(fetch, 'POST', '/api/global-settings/email/load')).toHaveLength(1);
    // No password is sent, nor anything else: the server uses what it keeps.
    expect(calls(fetch, 'POST', '/api/global-settings/email/load')[0][1]?.body).toBeUndefined();
    expect(calls(fetch, 'POST', '/api/auth/login')).toHaveLength(0);

    const saved = 'חשבון הדואר נשמר והחיבור הצליח. הסנכרון התחיל.';
    await settle(() => screen.queryByText(saved, { selector: '.toast__message' }) !== null);
    expect(screen.getByTestId('mail-outcome-message')).toHaveTextContent(saved);
    act(() => vi.advanceTimersByTime(REDIRECT_MS - 1));
    expect(r.location().pathname).toBe('/Settings');
    act(() => vi.advanceTimersByTime(1));
    expect(r.location().pathname).toBe('/Inbox');
    expect(GLOBAL_LOGIN_DELAY_MS).toBe(1000);
  });

  it('shows the connection result when the household\'s settings do not connect', async () => {
    const fetch = server(PLAIN, {
      ...GLOBAL_MAIL_EXISTS,
      'POST /api/global-settings/email/load': () =>
        json(422, {
          success: false,
          error: 'mail_connection_failed',
          message: 'x',
          imap: { ok: false, kind: 'auth', message: 'שם המשתמש או הסיסמה של תיבת הדואר שגויים' },
          smtp: { ok: true },
        }),
    });
    const r = renderCard(PLAIN);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('global-offer-load'));
    expect(await screen.findByTestId('mail-result-imap', {}, { timeout: 3000 })).toHaveTextContent('ההתחברות נדחתה');
    expect(screen.getByTestId('mail-outcome-message')).toHaveTextContent('החיבור לשרת הדואר נכשל. בדוק את הפרטים.');
    expect(screen.getByTestId('mail-result-smtp')).toHaveTextContent('החיבור תקין');
    expect(screen.queryByTestId('global-offer')).not.toBeInTheDocument();
    expect(r.location().pathname).toBe('/Settings');

    // Saving the form as shown tries the household's settings again (there is no password here
    // to send); once a server field is changed by hand, a password of one's own is needed.
    await user.click(screen.getByTestId('mail-save'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/global-settings/email/load')).toHaveLength(2));
    expect(calls(fetch, 'POST', '/api/auth/login')).toHaveLength(0);
    await screen.findByTestId('mail-result-imap');
    await user.type(screen.getByTestId('mail-imap-server'), 'x');
    await user.click(screen.getByTestId('mail-save'));
    expect(await screen.findByTestId('mail-error')).toHaveTextContent('יש להזין את סיסמת תיבת הדואר');
    expect(calls(fetch, 'POST', '/api/global-settings/email/load')).toHaveLength(2);
  });

  it('says so when the settings cannot be read, and asks again', async () => {
    const fetch = server(PLAIN, {
      'GET /api/global-settings/email/exists': GLOBAL_MAIL_EXISTS['GET /api/global-settings/email/exists'],
      'GET /api/global-settings/email': () => json(500, { success: false, error: 'internal', message: 'שגיאה בשרת' }),
    });
    renderCard(PLAIN);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('global-offer-load'));
    expect(await screen.findByTestId('global-offer-error')).toHaveTextContent('שגיאה בטעינת ההגדרות הגלובליות: שגיאה בשרת');
    expect(screen.getByTestId('global-offer-load')).toBeEnabled();
    expect(calls(fetch, 'POST', '/api/global-settings/email/load')).toHaveLength(0);
  });

  it('only logs a failed existence check', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    server(PLAIN, {
      'GET /api/global-settings/email/exists': () => json(500, { success: false, error: 'internal', message: 'שגיאה בשרת' }),
    });
    renderCard(PLAIN);
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(screen.queryByTestId('global-offer')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    warn.mockRestore();
  });
});

describe('settings backup with a master password', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('disables "load" and says there are no saved settings when the server keeps none', async () => {
    server(PLAIN);
    renderCard(PLAIN);
    const load = await screen.findByRole('button', { name: 'אין הגדרות שמורות' });
    expect(load).toHaveAttribute('data-testid', 'backup-load');
    expect(load).toBeDisabled();
    expect(screen.getByTestId('backup-download')).toBeDisabled();
    expect(screen.getByTestId('backup-save')).toHaveTextContent('שמירה לשרת');
    expect(screen.getByTestId('backup-save')).toBeEnabled();
    expect(screen.getByTestId('backup-status')).toHaveTextContent('עדיין לא נשמר גיבוי בשרת.');
  });

  it('enables "load" and the download when a backup is kept, and says what it holds', async () => {
    server(PLAIN, { 'GET /api/settings/backup': () => json(200, KEPT) });
    renderCard(PLAIN);
    const load = await screen.findByRole('button', { name: 'טעינה מהשרת' });
    await waitFor(() => expect(load).toBeEnabled());
    expect(screen.getByTestId('backup-download')).toBeEnabled();
    expect(screen.getByTestId('backup-status')).toHaveTextContent(/גיבוי אחרון: 21\/11\/2026 \d\d:\d\d/);
    expect(screen.getByTestId('backup-status')).toHaveTextContent('כולל: ההעדפות, תיבות הדואר');
  });

  it('names every section in Hebrew, in the status line and the intro (never a raw key)', async () => {
    const sections = ['rules', 'autoReply', 'snoozes', 'followUps', 'contacts', 'tasks', 'spamDetection'];
    server(PLAIN, { 'GET /api/settings/backup': () => json(200, { ...KEPT, sections }) });
    renderCard(PLAIN);
    const status = await screen.findByTestId('backup-status');
    await waitFor(() => expect(status).toHaveTextContent('כולל: הכללים, המענה האוטומטי, הנודניקים'));
    expect(status.textContent).not.toMatch(/[a-z]{3,}/);
    const intro = document.querySelector('.backup__intro')?.textContent ?? '';
    for (const name of ['תיבות הדואר', 'הכללים', 'אנשי הקשר', 'המשימות', 'הזמנות לפגישות', 'זיהוי הספאם']) {
      expect(intro).toContain(name);
    }
  });

  it('keeps "save" disabled below 8 characters, Enter included; saves with 8', async () => {
    let kept: object = { exists: false, createdAt: null, sections: [] };
    const fetch = server(PLAIN, {
      'GET /api/settings/backup': () => json(200, kept),
      'POST /api/settings/backup': () => {
        kept = { exists: true, createdAt: '2026-11-22T12:00:00Z', sections: ['preferences'] };
        return json(200, {
          success: true,
          message: 'ההגדרות נשמרו בשרת, מוצפנות בסיסמת האב',
          createdAt: '2026-11-22T12:00:00Z',
          sections: ['preferences'],
          notes: [],
        });
      },
    });
    renderCard(PLAIN);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('backup-save'));
    const dialog = screen.getByTestId('master-dialog');
    expect(within(dialog).getByRole('heading', { name: 'שמירת ההגדרות לשרת' })).toBeInTheDocument();
    const password = within(dialog).getByLabelText('סיסמת האב');
    expect(password).toHaveFocus();
    const confirm = within(dialog).getByTestId('master-confirm');
    expect(confirm).toBeDisabled();

    await user.type(password, '1234567');
    expect(confirm).toBeDisabled();
    await user.type(password, '{Enter}');
    fireEvent.submit(password.closest('form')!);
    expect(calls(fetch, 'POST', '/api/settings/backup')).toHaveLength(0);
    expect(screen.getByTestId('master-dialog')).toBeInTheDocument();

    await user.type(password, '8');
    expect(confirm).toBeEnabled();
    await user.type(password, '{Enter}');
    await waitFor(() => expect(calls(fetch, 'POST', '/api/settings/backup')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'POST', '/api/settings/backup')[0])).toEqual({ masterPassword: '12345678' });
    await waitFor(() => expect(screen.queryByTestId('master-dialog')).not.toBeInTheDocument());
    expect(screen.getByText('ההגדרות נשמרו בשרת, מוצפנות בסיסמת האב', { selector: '.toast__message' })).toBeInTheDocument();
    // Now there is something to load.
    await waitFor(() => expect(screen.getByTestId('backup-load')).toBeEnabled());
    expect(screen.getByTestId('backup-load')).toHaveTextContent('טעינה מהשרת');
    expect(screen.getByTestId('backup-status')).toHaveTextContent('כולל: ההעדפות');
  });

  it('counts characters, not bytes: 7 Hebrew letters are still too few', async () => {
    server(PLAIN);
    renderCard(PLAIN);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('backup-save'));
    const password = screen.getByLabelText('סיסמת האב');
    await user.type(password, 'שלומעול');
    expect(screen.getByTestId('master-confirm')).toBeDisabled();
    await user.type(password, 'ם');
    expect(screen.getByTestId('master-confirm')).toBeEnabled();
  });

  it('shows a wrong password\'s error in the modal and changes nothing; the right one restores and reloads', async () => {
    const fetch = server(PLAIN, {
      'GET /api/settings/backup': () => json(200, KEPT),
      'POST /api/settings/backup/restore': (init) => {
        const { masterPassword } = JSON.parse(String(init?.body));
        if (masterPassword !== 'right-password')
          return json(400, { success: false, error: 'bad_request', message: WRONG });
        return json(200, {
          success: true,
          message: 'ההגדרות נטענו מהגיבוי',
          createdAt: null,
          sections: ['preferences', 'mailboxes'],
          notes: [],
        });
      },
    });
    renderCard(PLAIN);
    const user = userEvent.setup();
    const load = await screen.findByRole('button', { name: 'טעינה מהשרת' });
    await waitFor(() => expect(load).toBeEnabled());
    await user.click(load);
    const dialog = screen.getByTestId('master-dialog');
    expect(dialog).toHaveTextContent('ההגדרות שבגיבוי יחליפו את ההגדרות הנוכחיות שלך');
    await user.type(within(dialog).getByLabelText('סיסמת האב'), 'wrong-password');
    await user.click(within(dialog).getByTestId('master-confirm'));
    expect(await within(dialog).findByTestId('master-error')).toHaveTextContent(WRONG);
    expect(screen.getByTestId('master-dialog')).toBeInTheDocument();
    expect(screen.queryByText('ההגדרות נטענו מהגיבוי')).not.toBeInTheDocument();
    const before = calls(fetch, 'GET', '/api/auth/accounts').length;

    const password = within(dialog).getByLabelText('סיסמת האב');
    await user.clear(password);
    // Typing again clears the old error.
    expect(screen.queryByTestId('master-error')).not.toBeInTheDocument();
    await user.type(password, 'right-password');
    await user.click(within(dialog).getByTestId('master-confirm'));
    await waitFor(() => expect(screen.queryByTestId('master-dialog')).not.toBeInTheDocument());
    expect(screen.getByText('ההגדרות נטענו מהגיבוי', { selector: '.toast__message' })).toBeInTheDocument();
    expect(bodyOf(calls(fetch, 'POST', '/api/settings/backup/restore')[1])).toEqual({ masterPassword: 'right-password' });
    // The mailboxes (and everything else) are the backup's now: read again.
    await waitFor(() => expect(calls(fetch, 'GET', '/api/auth/accounts').length).toBeGreaterThan(before));
  });

  it('restores from a chosen file, sent in base64 with the master password', async () => {
    const fetch = server(PLAIN, {
      'POST /api/settings/backup/restore-file': () =>
        json(200, {
          success: true,
          message: 'ההגדרות נטענו מהגיבוי',
          createdAt: null,
          sections: ['templates'],
          notes: [NOTE],
        }),
    });
    renderCard(PLAIN);
    const user = userEvent.setup();
    await screen.findByTestId('backup-status');
    const bytes = new Uint8Array([0x4d, 0x43, 0x42, 0x4b, 0x00, 0xff, 0x10]);
    await user.upload(screen.getByTestId('backup-file-input'), new File([bytes], 'גיבוי.mcbk', { type: 'application/octet-stream' }));
    const dialog = screen.getByTestId('master-dialog');
    expect(within(dialog).getByRole('heading', { name: 'שחזור ההגדרות מקובץ' })).toBeInTheDocument();
    expect(within(dialog).getByTestId('master-file')).toHaveTextContent('גיבוי.mcbk');
    await user.type(within(dialog).getByLabelText('סיסמת האב'), 'file-password');
    await user.click(within(dialog).getByRole('button', { name: 'שחזור' }));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/settings/backup/restore-file')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'POST', '/api/settings/backup/restore-file')[0])).toEqual({
      masterPassword: 'file-password',
      file: 'TUNCSwD/EA==',
    });
    await waitFor(() => expect(screen.queryByTestId('master-dialog')).not.toBeInTheDocument());
    expect(screen.getByText('ההגדרות נטענו מהגיבוי', { selector: '.toast__message' })).toBeInTheDocument();
    // What the restore left out stays in view.
    expect(screen.getByTestId('backup-notes')).toHaveTextContent(NOTE);
  });

  it('downloads the kept backup with the session token', async () => {
    const fetch = server(PLAIN, {
      'GET /api/settings/backup': () => json(200, KEPT),
      'GET /api/settings/backup/download': () => new Response(new Blob(['sealed']), { status: 200 }),
    });
    vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL: () => 'blob:backup', revokeObjectURL: vi.fn() }));
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    renderCard(PLAIN);
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'הורדת קובץ הגיבוי' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    await waitFor(() => expect(downloads).toEqual(['mailclient-settings.mcbk']));
    const call = calls(fetch, 'GET', '/api/settings/backup/download')[0];
    expect((call[1]?.headers as Record<string, string>).Authorization).toBe('tok-1');
  });
});
