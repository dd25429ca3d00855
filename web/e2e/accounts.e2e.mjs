// End to end: an admin adds a user from the settings page while the server runs, the new user
// signs in, sees no user management, and changes their own password; the admin then removes
// them after confirming. Screenshots: web/e2e/screenshots/accounts/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, newPage, shot } from './support/browser.mjs';
import { createFirstAdmin, startServer } from './support/server.mjs';
import { signIn as signInAs } from './support/session.mjs';

const SUITE = 'accounts';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };
const USER = { name: 'יוסי לוי', username: 'yossi', password: 'yossi-password-1' };

let server;
let browser;

before(async () => {
  server = await startServer();
  await createFirstAdmin(server, ADMIN);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const signIn = (page, credentials) => signInAs(page, server, credentials);

async function signOut(page) {
  await page.getByTestId('logout').click();
  await page.waitForURL(/#\/login/);
}

test('admin adds a user; the user changes their password; the admin removes them', async () => {
  const { page, context, problems } = await newPage(browser);
  await signIn(page, ADMIN);
  await page.goto(`${server.base}/#/Settings`);
  await page.getByTestId('users-card').waitFor();
  await page.getByTestId(`user-row-${ADMIN.username}`).waitFor();

  await page.getByTestId('add-user-username').fill(USER.username);
  await page.getByTestId('add-user-name').fill(USER.name);
  await page.getByTestId('add-user-password').fill(USER.password);
  await page.getByTestId('add-user-submit').click();
  await page.getByTestId(`user-row-${USER.username}`).waitFor();
  assert.match(await page.getByTestId(`user-row-${USER.username}`).innerText(), new RegExp(USER.name));
  assert.equal(await page.getByTestId(`user-delete-${ADMIN.username}`).count(), 0, 'no delete on own row');
  await shot(page, SUITE, '01-admin-settings');
  await signOut(page);

  // The new user signs in, has no user management, and changes their own password.
  await signIn(page, USER);
  await page.goto(`${server.base}/#/Settings`);
  await page.getByTestId('account-card').waitFor();
  assert.equal(await page.getByTestId('users-card').count(), 0, 'plain users do not manage users');
  const newPassword = 'yossi-password-2';
  await page.getByTestId('password-current').fill(USER.password);
  await page.getByTestId('password-new').fill(newPassword);
  await page.getByTestId('password-confirm').fill(newPassword);
  await page.getByTestId('password-submit').click();
  await page.getByTestId('toast').filter({ hasText: 'הסיסמה' }).first().waitFor();
  await shot(page, SUITE, '02-user-settings');
  await signOut(page);

  // The old password no longer works; the new one does.
  await page.getByTestId('login-username').fill(USER.username);
  await page.getByTestId('login-password').fill(USER.password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('login-error').waitFor();
  await signIn(page, { username: USER.username, password: newPassword });
  await signOut(page);

  // The admin removes the user after confirming; the user can no longer sign in.
  await signIn(page, ADMIN);
  // Nothing of the previous user's session (toasts, notifications) carries over.
  assert.equal(await page.getByTestId('toast').count(), 0, 'no toasts from the previous user');
  assert.equal(await page.getByTestId('notification-count').count(), 0, 'no notifications either');
  await page.goto(`${server.base}/#/Settings`);
  await page.getByTestId(`user-row-${USER.username}`).scrollIntoViewIfNeeded();
  await page.getByTestId(`user-delete-${USER.username}`).click();
  await page.getByTestId('confirm-dialog').waitFor();
  await shot(page, SUITE, '03-confirm-delete');
  await page.getByTestId('confirm-yes').click();
  await page.getByTestId(`user-row-${USER.username}`).waitFor({ state: 'detached' });
  const res = await fetch(`${server.base}/api/app/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: USER.username, password: newPassword }),
  });
  assert.equal(res.status, 401);

  // The one expected complaint is the 401 of the deliberate old-password login.
  const unexpected = problems.filter((p) => !/status of 401/.test(p));
  assert.deepEqual(unexpected, [], 'no console errors, CSP violations or failed requests');
  await context.close();
});
