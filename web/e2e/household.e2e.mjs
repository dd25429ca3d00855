// End to end: the household's settings and settings backups (spec 001 §2, §4, §5, §8, §9).
// The admin saves user1's real Dovecot settings for all users from the mail account card; a
// second user signs in, gets the startup toast within ~3 s, follows it to the settings, confirms
// loading, and is connected by the server — no answer their page receives ever holds the
// password. That user then saves a backup behind the master password (7 characters refused, 8
// accepted), fails to load it with a wrong one (nothing changes), loads it with the right one
// (a preference changed since comes back), downloads it and restores from the file. The AI
// training page's global save and load close it. Light and dark screenshots:
// web/e2e/screenshots/household/.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launch, newPage, shot } from './support/browser.mjs';
import { fixtures, startMailServer } from './support/mailserver.mjs';
import { createFirstAdmin, startServer } from './support/server.mjs';
import { eventually, jsonApi, signIn } from './support/session.mjs';

const SUITE = 'household';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };
const USER = { name: 'יוסי לוי', username: 'yossi', password: 'yossi-password-1' };
const MAILBOX_PASSWORD = 'pass1';
const MASTER = 'master-pass-8';
const WRONG_PASSWORD_MESSAGE = 'סיסמת האב שגויה (או שהגיבוי שונה). דבר לא השתנה.';

let mail;
let server;
let browser;
let adminToken;
// The user's own API session, apart from their page's (a change from it reaches the page live).
let userToken;
let downloads;
const admin = jsonApi(
  () => server.base,
  () => adminToken,
);
const user = jsonApi(
  () => server.base,
  () => userToken,
);

// The user's page, shared by the tests below (they run in order).
let u;
const answers = [];
const reads = [];

before(async () => {
  mail = await startMailServer();
  mail.seed('user1', fixtures('hebrew'));
  server = await startServer({ args: mail.configArgs });
  await createFirstAdmin(server, ADMIN);
  adminToken = (await admin('POST', '/api/app/login', { username: ADMIN.username, password: ADMIN.password })).body.token;
  const created = await admin('POST', '/api/admin/users', { ...USER, role: 'user' });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  downloads = mkdtempSync(join(tmpdir(), 'mailclient-e2e-household-'));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  mail?.stop();
  if (downloads) rmSync(downloads, { recursive: true, force: true });
});

async function fillAccount(page) {
  await page.getByTestId('mail-email').fill('user1@example.test');
  await page.getByTestId('mail-password').fill(MAILBOX_PASSWORD);
  await page.getByTestId('mail-imap-server').fill('127.0.0.1');
  await page.getByTestId('mail-imap-port').fill(String(mail.ports.imaps));
  await page.getByTestId('mail-smtp-server').fill('127.0.0.1');
  await page.getByTestId('mail-smtp-port').fill(String(mail.ports.submissions));
}

const toastWith = (page, text) => page.getByTestId('toast').filter({ hasText: text }).first();

async function setDark(api, dark) {
  const { version } = (await api('GET', '/api/settings/sync')).body;
  const res = await api('PUT', '/api/settings/sync', {
    settingsUpdate: { darkMode: dark },
    settingsType: 'ui',
    baseVersion: version,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

const theme = (page) => page.evaluate(() => document.documentElement.dataset.theme);

test('the admin saves the mail settings for all users; another user is connected with them', async () => {
  // The admin fills the card with user1's real settings and saves them for everyone.
  const a = await newPage(browser);
  await signIn(a.page, server, ADMIN);
  await a.page.goto(`${server.base}/#/Settings`);
  await a.page.getByTestId('mail-account-card').waitFor();
  await fillAccount(a.page);
  await a.page.getByTestId('mail-save-all').scrollIntoViewIfNeeded();
  await shot(a.page, SUITE, '01-admin-save-for-all');
  await a.page.getByTestId('mail-save-all').click();
  await toastWith(a.page, 'ההגדרות הגלובליות נשמרו').waitFor();
  const saved = await admin('GET', '/api/global-settings/email');
  assert.equal(saved.body.hasSettings, true, JSON.stringify(saved.body));
  assert.equal(saved.body.settings.email, 'user1@example.test');
  assert.equal(saved.body.settings.updatedBy, ADMIN.name);
  assert.ok(!JSON.stringify(saved.body).includes(MAILBOX_PASSWORD), 'the password is never read back');
  // The admin has no mailbox either: the card now offers the same settings.
  await a.page.getByTestId('global-offer').waitFor();
  await a.page.getByTestId('global-offer').scrollIntoViewIfNeeded();
  await shot(a.page, SUITE, '02-admin-offer');
  assert.deepEqual(a.problems, []);
  await a.context.close();

  // The other user: every answer their page gets is read, to look for the password.
  u = await newPage(browser);
  u.page.on('response', (res) => {
    if (!new URL(res.url()).pathname.startsWith('/api/')) return;
    reads.push(
      res
        .text()
        .then((text) => answers.push({ url: res.url(), text }))
        .catch(() => {}),
    );
  });
  await signIn(u.page, server, USER);
  const signedIn = Date.now();
  userToken = (await user('POST', '/api/app/login', { username: USER.username, password: USER.password })).body.token;
  const toast = u.page.getByTestId('startup-global-toast');
  await toast.waitFor({ timeout: 4000 });
  assert.ok(Date.now() - signedIn <= 4000, `the startup toast came after ${Date.now() - signedIn} ms`);
  assert.match(await toast.innerText(), /נמצאו הגדרות מייל גלובליות!/);
  await shot(u.page, SUITE, '03-startup-toast');

  await u.page.getByTestId('startup-global-open').click();
  await u.page.waitForURL(/#\/Settings/);
  const offer = u.page.getByTestId('global-offer');
  await offer.waitFor();
  assert.match(await offer.innerText(), /הגדרות מייל גלובליות נמצאו \(עודכנו על ידי דנה כהן בתאריך \d\d\/\d\d\/\d{4} \d\d:\d\d\)/);
  await offer.scrollIntoViewIfNeeded();
  await shot(u.page, SUITE, '04-user-offer');

  await u.page.getByTestId('global-offer-load').click();
  // The form shows the servers, never a password.
  await u.page.waitForFunction(() => document.querySelector('[data-testid="mail-imap-server"]')?.value === '127.0.0.1');
  assert.equal(await u.page.getByTestId('mail-email').inputValue(), 'user1@example.test');
  assert.equal(await u.page.getByTestId('mail-imap-port').inputValue(), String(mail.ports.imaps));
  assert.equal(await u.page.getByTestId('mail-smtp-port').inputValue(), String(mail.ports.submissions));
  assert.equal(await u.page.getByTestId('mail-password').inputValue(), '');
  await shot(u.page, SUITE, '05-user-loading');

  // Connected by the server, then on to the inbox.
  await toastWith(u.page, 'חשבון הדואר נשמר והחיבור הצליח').waitFor({ timeout: 20_000 });
  await u.page.waitForURL(/#\/inbox/i, { timeout: 15_000 });
  await eventually(
    'the initial sync of the loaded mailbox',
    async () => {
      const accounts = (await user('GET', '/api/auth/accounts')).body.accounts;
      const s = accounts?.[0]?.sync;
      return accounts?.[0]?.email_address === 'user1@example.test' && s?.initialSyncDone && s.state === 'idle';
    },
    120_000,
  );
  await u.page.getByTestId('thread-row').first().waitFor({ timeout: 20_000 });
  await shot(u.page, SUITE, '06-user-inbox');

  await Promise.all(reads);
  assert.ok(answers.some((a) => a.url.includes('/api/global-settings/email')), 'the global settings were read');
  const leaking = answers.filter((a) => a.text.includes(MAILBOX_PASSWORD)).map((a) => a.url);
  assert.deepEqual(leaking, [], 'no answer holds the mailbox password');
  assert.deepEqual(u.problems, []);
});

test('backups behind the master password: too short, wrong, right, downloaded and restored', async () => {
  const { page } = u;
  const posts = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname.startsWith('/api/settings/backup')) posts.push(req.url());
  });
  await page.goto(`${server.base}/#/Settings`);
  const load = page.getByTestId('backup-load');
  await page.locator('[data-testid="backup-status"][data-exists="false"]').waitFor();
  assert.equal(await load.isDisabled(), true);
  assert.equal((await load.innerText()).trim(), 'אין הגדרות שמורות');
  assert.equal(await page.getByTestId('backup-download').isDisabled(), true);
  await page.getByTestId('backup-section').scrollIntoViewIfNeeded();
  await shot(page, SUITE, '07-backup-none');

  // A preference of their own (light after a dark spell), so the backup has preferences to put
  // back: a user who never changed one has none kept, and a restore leaves theirs alone.
  await setDark(user, true);
  await setDark(user, false);
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light', null, { timeout: 5000 });

  // Save: 7 characters keep the button disabled and Enter does nothing; 8 save.
  await page.getByTestId('backup-save').click();
  const dialog = page.getByTestId('master-dialog');
  await dialog.waitFor();
  const password = page.getByTestId('master-password');
  await password.fill('1234567');
  assert.equal(await page.getByTestId('master-confirm').isDisabled(), true);
  await password.press('Enter');
  await page.waitForTimeout(300);
  assert.equal(await dialog.count(), 1, 'Enter with 7 characters leaves the modal open');
  assert.deepEqual(posts, [], 'and sends nothing');
  await shot(page, SUITE, '08-master-too-short');
  await password.fill(MASTER);
  assert.equal(await page.getByTestId('master-confirm').isEnabled(), true);
  await password.press('Enter');
  await toastWith(page, 'ההגדרות נשמרו בשרת, מוצפנות בסיסמת האב').waitFor();
  await dialog.waitFor({ state: 'detached' });
  await page.locator('[data-testid="backup-status"][data-exists="true"]').waitFor();
  assert.equal((await load.innerText()).trim(), 'טעינה מהשרת');
  assert.match(await page.getByTestId('backup-status').innerText(), /תיבות הדואר/);
  // Every section the server saved is named in Hebrew: no raw key such as "autoReply" (issue 43).
  assert.doesNotMatch(await page.getByTestId('backup-status').innerText(), /[a-z]{3,}/);
  const kept = (await user('GET', '/api/settings/backup')).body;
  assert.ok(kept.sections.includes('preferences') && kept.sections.includes('mailboxes'), JSON.stringify(kept));
  await shot(page, SUITE, '09-backup-saved');

  // A preference changed after the backup (dark mode, from elsewhere), so a restore shows.
  await setDark(user, true);
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark', null, { timeout: 5000 });

  // A wrong password: the server's message in the modal, nothing changed.
  await load.click();
  await dialog.waitFor();
  await password.fill('not-the-password');
  await page.getByTestId('master-confirm').click();
  const error = page.getByTestId('master-error');
  await error.waitFor();
  assert.equal((await error.innerText()).trim(), WRONG_PASSWORD_MESSAGE);
  await shot(page, SUITE, '10-master-wrong-dark');
  assert.equal((await user('GET', '/api/settings/sync')).body.syncedSettings.darkMode, true);

  // The right one: restored, the preferences with it (light again), in this session too.
  await password.fill(MASTER);
  await page.getByTestId('master-confirm').click();
  await toastWith(page, 'ההגדרות נטענו מהגיבוי').waitFor({ timeout: 20_000 });
  await dialog.waitFor({ state: 'detached' });
  assert.equal((await user('GET', '/api/settings/sync')).body.syncedSettings.darkMode, false);
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light', null, { timeout: 5000 });
  const accounts = (await user('GET', '/api/auth/accounts')).body.accounts;
  assert.equal(accounts.length, 1);
  assert.equal(accounts[0].email_address, 'user1@example.test');

  // Download the file, then restore from it.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('backup-download').click()]);
  assert.equal(download.suggestedFilename(), 'mailclient-settings.mcbk');
  const file = join(downloads, 'mailclient-settings.mcbk');
  await download.saveAs(file);
  assert.ok(readFileSync(file).length > 0);
  await setDark(user, true);
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark', null, { timeout: 5000 });
  await page.getByTestId('backup-file-input').setInputFiles(file);
  await dialog.waitFor();
  assert.match(await page.getByTestId('master-file').innerText(), /mailclient-settings\.mcbk/);
  await password.fill(MASTER);
  await shot(page, SUITE, '11-restore-file-dark');
  await page.getByTestId('master-confirm').click();
  await toastWith(page, 'ההגדרות נטענו מהגיבוי').waitFor({ timeout: 20_000 });
  await dialog.waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light', null, { timeout: 5000 });

  // The card in dark, with the backup part.
  await setDark(user, true);
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark', null, { timeout: 5000 });
  await page.getByTestId('backup-section').scrollIntoViewIfNeeded();
  await shot(page, SUITE, '12-backup-dark');

  await Promise.all(reads);
  const leaking = answers.filter((a) => a.text.includes(MAILBOX_PASSWORD)).map((a) => a.url);
  assert.deepEqual(leaking, [], 'no answer holds the mailbox password');
  // The one refused request is the wrong master password.
  const unexpected = u.problems.filter((p) => !/status of 400/.test(p));
  assert.deepEqual(unexpected, []);
  assert.equal(u.problems.length - unexpected.length, 1, u.problems.join('\n'));
});

test('AI training: the admin saves for all users, the user loads them into the form', async () => {
  const a = await newPage(browser);
  await signIn(a.page, server, ADMIN);
  await a.page.goto(`${server.base}/#/AITraining`);
  await a.page.getByTestId('training-general').waitFor();
  await a.page.getByTestId('training-tone').selectOption('friendly');
  await a.page.getByTestId('training-max-length').fill('700');
  await a.page.getByTestId('training-save-all').click();
  await toastWith(a.page, 'ההגדרות הגלובליות נשמרו').waitFor();
  await a.page.getByTestId('training-load-global').waitFor();
  await shot(a.page, SUITE, '13-training-admin');
  const global = (await admin('GET', '/api/global-settings/ai-training')).body;
  assert.equal(global.settings.tone, 'friendly');
  assert.equal(global.settings.maxLength, 700);
  assert.deepEqual(a.problems, []);
  await a.context.close();

  // The user (dark), with edits of their own, loads them into the form and saves as usual.
  const { page } = u;
  await page.goto(`${server.base}/#/AITraining`);
  await page.getByTestId('training-general').waitFor();
  assert.equal(await page.getByTestId('training-save-all').count(), 0, 'only admins save for all users');
  await page.getByTestId('training-tone').selectOption('casual');
  await page.getByTestId('training-max-length').fill('300');
  await page.getByTestId('training-load-global').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="training-tone"]')?.value === 'friendly');
  assert.equal(await page.getByTestId('training-max-length').inputValue(), '700');
  // (A user without settings of their own already sees the household's: nothing left unsaved.)
  assert.equal(await theme(page), 'dark');
  await toastWith(page, 'ההגדרות הגלובליות נטענו לטופס').waitFor();
  // Spec 001 §6: the saver's e-mail (the admin's mailbox), or the unknown-user label.
  const adminMailbox = (await admin('GET', '/api/auth/accounts')).body.accounts?.[0]?.email_address;
  assert.ok((await page.getByTestId('training-global-info').innerText()).includes(`עודכנו על ידי ${adminMailbox ?? 'משתמש לא ידוע'}`));
  // The toasts closed, to see the bar whole.
  while ((await page.getByTestId('toast').count()) > 0) await page.getByTestId('toast').first().getByRole('button').last().click();
  await shot(page, SUITE, '14-training-user-dark');
  await page.getByTestId('training-save').click();
  await page.getByTestId('training-saved').waitFor();
  const mine = (await user('GET', '/api/settings/ai-training')).body;
  assert.equal(mine.tone, 'friendly');
  assert.equal(mine.maxLength, 700);
  assert.ok(mine.updatedAt, 'saved as the user\'s own');

  await Promise.all(reads);
  const leaking = answers.filter((x) => x.text.includes(MAILBOX_PASSWORD)).map((x) => x.url);
  assert.deepEqual(leaking, []);
  const unexpected = u.problems.filter((p) => !/status of 400/.test(p));
  assert.deepEqual(unexpected, []);
  await u.context.close();
});
