// End to end (issue 24): signing in to a mailbox with OAuth2 from the settings page's mail account
// card, against the real binary, the local OAuth2 stand-in (examples/oauth_stand_in.rs) and a
// private Dovecot (oauth2 passdb → the stand-in's introspection) + Postfix (SASL through Dovecot).
//   1. Microsoft's device code: the card shows the code; a second page opens the verification
//      link, types the code and approves; the card reaches "connected" and the mailbox syncs.
//   2. Google's pasted address: Google's page opens in a new tab and ends on 127.0.0.1 (nothing
//      listens there); a tampered address is refused in Hebrew, the real one connects the mailbox.
//   3. The user removes the app's access at the provider: the live notice and the account's
//      warning; "sign in again" runs the device flow for that address and sync comes back.
//   4. Google's way back to the app (redirect mode's callback hands the code and the state to
//      #/settings?oauth=return&…): the code leaves the address bar, the page shows the address
//      being connected, and nothing is connected until the user confirms.
// Screenshots (desktop and phone width): web/e2e/screenshots/oauth/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, newPage, shot } from './support/browser.mjs';
import { fixtures, startMailServer } from './support/mailserver.mjs';
import { mailclientOAuthToml, startOAuthStandIn } from './support/oauth.mjs';
import { createFirstAdmin, startServer } from './support/server.mjs';
import { eventually, jsonApi, signIn } from './support/session.mjs';

const SUITE = 'oauth';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
/** Where Google's paste flow sends the browser (a desktop client's loopback redirect). */
const LOOPBACK = 'http://127.0.0.1:8765/';

let stand;
let mail;
let server;
let browser;
let token;
const api = jsonApi(
  () => server.base,
  () => token,
);

before(async () => {
  stand = await startOAuthStandIn({ deviceInterval: 1 });
  mail = await startMailServer({
    env: { MAILTEST_OAUTH2_INTROSPECTION_URL: `${stand.url}/introspect` },
    config: (ports) => mailclientOAuthToml(stand.url, ports),
  });
  mail.seed('user1', fixtures('hebrew'));
  mail.seed('user2', fixtures('hebrew'));
  server = await startServer({ args: mail.configArgs });
  await createFirstAdmin(server, ADMIN);
  token = (await api('POST', '/api/app/login', { username: ADMIN.username, password: ADMIN.password })).body.token;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  mail?.stop();
  await stand?.stop();
});

/** Closes the toasts on screen (at phone width they cover the card). */
async function closeToasts(page) {
  for (let i = 0; i < 20; i++) {
    const close = page.locator('.toast__close');
    if ((await close.count()) === 0) return;
    await close.first().click();
  }
}

/** The same state at desktop and at phone width, each with `locator` in view (toasts closed). */
async function shots(page, name, locator) {
  await closeToasts(page);
  await locator.scrollIntoViewIfNeeded();
  await shot(page, SUITE, name);
  await page.setViewportSize(PHONE);
  await locator.scrollIntoViewIfNeeded();
  await shot(page, SUITE, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
  await locator.scrollIntoViewIfNeeded();
}

async function accountOf(email) {
  const res = await api('GET', '/api/auth/accounts');
  return res.body.accounts.find((a) => a.email_address === email);
}

async function synced(email) {
  return eventually(
    `${email} synced`,
    async () => {
      const a = await accountOf(email);
      return a?.sync?.initialSyncDone && a.sync.state === 'idle' && a;
    },
    120_000,
  );
}

/** Types the address and waits for the provider detection's line (a guess for example.test). */
async function typeAddress(page, email) {
  await page.getByTestId('mail-email').fill(email);
  await page.getByTestId('mail-email').blur();
  await page.getByTestId('mail-provider').waitFor();
}

/** What the user does in the second tab: the verification page, the code, "approve". */
async function approveDeviceCode(page, context) {
  const code = (await page.getByTestId('oauth-device-code').innerText()).trim();
  assert.match(code, /^[A-Z0-9]{4}-[A-Z0-9]{4}$/, code);
  const opened = context.waitForEvent('page');
  await page.getByTestId('oauth-device-link').click();
  const verify = await opened;
  await verify.waitForLoadState();
  assert.equal(new URL(verify.url()).pathname, '/device');
  await verify.locator('#user_code').fill(code);
  assert.equal(await verify.locator('#username').inputValue(), 'user1@example.test');
  await verify.locator('#approve').click();
  await verify.locator('#result').waitFor();
  assert.match(await verify.locator('#result').innerText(), /Approved/);
  await verify.close();
}

let page;
let context;
let problems;

test('Microsoft: the device code, approved in a second tab, connects and syncs the mailbox', async () => {
  ({ page, context, problems } = await newPage(browser, DESKTOP));
  await signIn(page, server, ADMIN);
  await page.goto(`${server.base}/#/Settings`);
  await page.getByTestId('mail-account-card').waitFor();
  const buttons = page.getByTestId('oauth-section');
  await page.getByTestId('oauth-microsoft').waitFor();
  assert.equal(await page.getByTestId('oauth-google').innerText(), 'התחברות עם Google');
  assert.equal(await page.getByTestId('oauth-microsoft').innerText(), 'התחברות עם Microsoft');
  await shots(page, '01-buttons', buttons);

  await typeAddress(page, 'user1@example.test');
  await page.getByTestId('oauth-microsoft').click();
  await page.getByTestId('oauth-device-code').waitFor();
  const flow = page.getByTestId('oauth-flow');
  assert.match(await page.getByTestId('oauth-device-countdown').innerText(), /הקוד בתוקף עוד \d+:\d\d/);
  assert.match(await page.getByTestId('oauth-device-status').innerText(), /ממתין לאישור שלך/);
  const link = page.getByTestId('oauth-device-link');
  assert.equal(await link.getAttribute('target'), '_blank');
  assert.equal(await link.getAttribute('href'), `${stand.url}/device`);
  await shots(page, '02-device-code', flow);

  await approveDeviceCode(page, context);
  await page.getByTestId('oauth-done').waitFor({ timeout: 30_000 });
  assert.match(await page.getByTestId('oauth-done').innerText(), /החשבון user1@example\.test חובר/);
  await shots(page, '03-device-done', flow);

  const a = await synced('user1@example.test');
  assert.equal(a.auth, 'microsoft');
  assert.equal(a.needsSignIn, false);
  assert.ok(a.sync.fetchedMessages > 0, JSON.stringify(a.sync));
  const row = page.locator('[data-testid="mail-account-row"][data-email="user1@example.test"]');
  await row.getByTestId('mail-account-auth').waitFor();
  assert.equal(await row.getByTestId('mail-account-auth').getAttribute('data-auth'), 'microsoft');
  await row.locator('[data-testid="mail-sync-state"][data-state="idle"]').waitFor({ timeout: 30_000 });
  await shots(page, '04-accounts', page.getByTestId('mail-accounts'));

  // The synced mail is in the inbox.
  await page.goto(`${server.base}/#/Inbox`);
  await page.getByTestId('thread-row').first().waitFor({ timeout: 30_000 });
  await page.goto(`${server.base}/#/Settings`);
  await page.getByTestId('mail-account-card').waitFor();
});

test("Google: the address the browser ended on, pasted into the card, connects the mailbox", async () => {
  await typeAddress(page, 'user2@example.test');
  // Google's page opens in a new tab and ends on the loopback redirect, where nothing listens.
  const landed = context.waitForEvent('request', (r) => r.url().startsWith(LOOPBACK));
  const opened = context.waitForEvent('page');
  await page.getByTestId('oauth-google').click();
  const google = await opened;
  const redirected = (await landed).url();
  await google.close();
  const url = new URL(redirected);
  assert.ok(url.searchParams.get('code') && url.searchParams.get('state'), redirected);

  const flow = page.getByTestId('oauth-flow');
  await page.getByTestId('oauth-paste').waitFor();
  assert.match(await flow.innerText(), /127\.0\.0\.1/);
  assert.match(await flow.innerText(), /העתק את הכתובת המלאה משורת הכתובת של הדפדפן/);
  await shots(page, '05-paste', flow);

  // A mangled address: the server's Hebrew refusal, and the flow still open.
  const wrong = new URL(redirected);
  wrong.searchParams.set('state', 'not-this-flow');
  await page.getByTestId('oauth-paste-url').fill(wrong.href);
  await page.getByTestId('oauth-paste-submit').click();
  const error = page.getByTestId('oauth-paste-error');
  await error.waitFor();
  assert.match(await error.innerText(), /[\u0590-\u05FF]/, 'a Hebrew message');
  await shots(page, '06-paste-refused', flow);

  // Another paste (by keyboard): the real address.
  await page.getByTestId('oauth-paste-url').fill(redirected);
  await page.getByTestId('oauth-paste-url').press('Enter');
  await page.getByTestId('oauth-done').waitFor({ timeout: 30_000 });
  assert.match(await page.getByTestId('oauth-done').innerText(), /החשבון user2@example\.test חובר/);
  await shots(page, '07-paste-done', flow);

  const a = await synced('user2@example.test');
  assert.equal(a.auth, 'google');
  const row = page.locator('[data-testid="mail-account-row"][data-email="user2@example.test"]');
  assert.equal(await row.getByTestId('mail-account-auth').getAttribute('data-auth'), 'google');
});

test('a revoked sign-in: the notice, the warning, and "sign in again" brings sync back', async () => {
  await closeToasts(page);
  await stand.revokeUser('user1@example.test');
  mail.doveadm('kick', 'user1@example.test');
  await page.getByTestId('mail-sync-now').click();

  const notice = page.getByTestId('oauth-notice');
  await notice.waitFor({ timeout: 60_000 });
  assert.match(await notice.innerText(), /user1@example\.test/);
  const row = page.locator('[data-testid="mail-account-row"][data-email="user1@example.test"]');
  const warning = row.getByTestId('mail-needs-signin');
  await warning.waitFor({ timeout: 30_000 });
  assert.match(await warning.innerText(), /ההרשאה של Microsoft בוטלה או פג תוקפה/);
  // The side column's connection card says the same, without a retry.
  const conn = page.locator('[data-testid="connection-row"][data-email="user1@example.test"]');
  await page.locator('[data-testid="connection-row"][data-email="user1@example.test"][data-kind="signInNeeded"]').waitFor();
  assert.equal(await conn.getByTestId('connection-retry').count(), 0);
  await shot(page, SUITE, '08-notice');
  // The notice stays until closed.
  await page.waitForTimeout(7000);
  assert.equal(await notice.count(), 1, 'the notice is still there');
  await shots(page, '09-needs-signin', row);
  await notice.waitFor({ state: 'detached' });
  await row.getByTestId('mail-signin-again').click();
  await page.getByTestId('oauth-device-code').waitFor();
  assert.match(await page.getByTestId('oauth-flow').innerText(), /user1@example\.test/);
  await approveDeviceCode(page, context);
  await page.getByTestId('oauth-done').waitFor({ timeout: 30_000 });
  await eventually('sync back for user1', async () => {
    const a = await accountOf('user1@example.test');
    return a && !a.needsSignIn && a.sync?.state === 'idle' && !a.sync.error;
  });
  await warning.waitFor({ state: 'detached', timeout: 30_000 });
  await shots(page, '10-signed-in-again', page.getByTestId('mail-accounts'));

  // The expected complaints: the refused paste's 400.
  const unexpected = problems.filter((p) => !/status of 400/.test(p));
  assert.deepEqual(unexpected, [], 'no console errors, CSP violations or failed requests');
  await context.close();
});

test("Google's way back: the address is confirmed before it is connected, and the code leaves the address bar", async () => {
  const fresh = await newPage(browser, DESKTOP);
  const { page: back, context: ctx } = fresh;
  await signIn(back, server, ADMIN);
  // A flow of this user; Google's page (the stand-in) ends where the redirect would.
  const start = (await api('POST', '/api/oauth/google/start', { email: 'user2@example.test' })).body;
  const google = await ctx.newPage();
  const landed = ctx.waitForEvent('request', (r) => r.url().startsWith(LOOPBACK));
  await google.goto(start.authorizeUrl).catch(() => {});
  const url = new URL((await landed).url());
  await google.close();
  const returned = new URLSearchParams({ oauth: 'return', state: url.searchParams.get('state'), code: url.searchParams.get('code') });
  await back.goto(`${server.base}/#/settings?${returned}`);
  const question = back.getByTestId('oauth-confirm-question');
  await question.waitFor();
  assert.match(await question.innerText(), /user2@example\.test/);
  assert.ok(!back.url().includes('code='), `the code left the address bar: ${back.url()}`);
  await shots(back, '11-confirm', back.getByTestId('oauth-flow'));
  await back.getByTestId('oauth-confirm-connect').click();
  await back.getByTestId('oauth-done').waitFor({ timeout: 30_000 });
  assert.match(await back.getByTestId('oauth-done').innerText(), /החשבון user2@example\.test חובר/);
  assert.deepEqual(fresh.problems, [], 'no console errors, CSP violations or failed requests');
  await ctx.close();
});
