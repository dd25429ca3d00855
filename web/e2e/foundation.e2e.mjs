// End to end, in headless Chromium against the real binary: first run through the setup
// link, sign-in, the Hebrew right-to-left shell, the small-screen drawer, sign-out, and the
// redirect of an anonymous visitor to /login. Screenshots: web/e2e/screenshots/foundation/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, newPage, shot } from './support/browser.mjs';
import { startServer } from './support/server.mjs';

const SUITE = 'foundation';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'סיסמה-חזקה-1' };

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('first run, sign-in, Hebrew RTL shell, sign-out, redirect', async () => {
  assert.ok(server.setupLink, 'serve printed a setup link');
  const { page, context, problems } = await newPage(browser);

  // Without the token, the setup screen refuses.
  await page.goto(`${server.base}/#/setup?token=wrong`);
  await page.getByTestId('setup-username').fill('mallory');
  await page.getByTestId('setup-name').fill('מלורי');
  await page.getByTestId('setup-password').fill('password-123');
  await page.getByTestId('setup-confirm').fill('password-123');
  await page.getByTestId('setup-submit').click();
  await page.getByTestId('setup-error').waitFor();
  assert.match(await page.getByTestId('setup-error').innerText(), /קישור ההגדרה הראשונית אינו תקף/);

  // The printed link creates the first admin, then leads to the login screen.
  await page.goto(server.setupLink);
  await page.getByTestId('setup-name').fill(ADMIN.name);
  await page.getByTestId('setup-username').fill(ADMIN.username);
  await page.getByTestId('setup-password').fill(ADMIN.password);
  await page.getByTestId('setup-confirm').fill(ADMIN.password);
  await shot(page, SUITE, '01-setup');
  await page.getByTestId('setup-submit').click();
  await page.waitForURL(/#\/login/);

  // A wrong password shows the spec's message.
  await page.getByTestId('login-username').fill(ADMIN.username);
  await page.getByTestId('login-password').fill('not the password');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('login-error').waitFor();
  assert.equal(await page.getByTestId('login-error').innerText(), 'שם משתמש או סיסמה שגויים');
  await shot(page, SUITE, '02-login-error');

  await page.getByTestId('login-password').fill(ADMIN.password);
  assert.equal(await page.getByTestId('login-submit').innerText(), 'כניסה');
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/#\/inbox/i);
  await page.getByTestId('sidebar').waitFor();
  await page.getByTestId('inbox-page').waitFor();

  // The shell is Hebrew and right-to-left, and the sidebar sits on the right.
  const doc = await page.evaluate(() => ({
    dir: document.documentElement.dir,
    lang: document.documentElement.lang,
    direction: getComputedStyle(document.body).direction,
  }));
  assert.deepEqual(doc, { dir: 'rtl', lang: 'he', direction: 'rtl' });
  const sidebar = await page.getByTestId('sidebar').boundingBox();
  const main = await page.locator('main').first().boundingBox();
  assert.ok(sidebar.x > main.x, `sidebar (x=${sidebar.x}) is right of main (x=${main.x})`);
  const nav = await page.getByTestId('sidebar').innerText();
  for (const label of ['דואר נכנס', 'טיוטות', 'אשפה']) assert.ok(nav.includes(label), label);
  assert.ok(nav.includes(ADMIN.name), 'the user name is shown');
  assert.ok(nav.includes(ADMIN.username), 'the username is shown');
  // The self-hosted Hebrew font is loaded (no CDN).
  const fontLoaded = await page.evaluate(async () => {
    await document.fonts.ready;
    return document.fonts.check('16px Heebo', 'שלום');
  });
  assert.ok(fontLoaded, 'Heebo is loaded');
  await shot(page, SUITE, '03-inbox-shell');

  // Search box: Enter goes to /Search?q=.
  await page.getByTestId('sidebar-search').fill('פגישה');
  await page.getByTestId('sidebar-search').press('Enter');
  await page.waitForURL(/#\/Search\?q=/);
  assert.match(decodeURIComponent(page.url()), /q=פגישה/);

  // A page name is matched case-insensitively; an unknown one falls back to the inbox.
  await page.goto(`${server.base}/#/settings`);
  await page.getByTestId('page-title').waitFor();
  assert.match(await page.getByTestId('page-title').innerText(), /הגדרות/);
  await page.goto(`${server.base}/#/NoSuchPage`);
  await page.getByTestId('page-title').waitFor();
  assert.match(await page.getByTestId('page-title').innerText(), /דואר נכנס/);

  // The session survives a reload.
  await page.reload();
  await page.getByTestId('sidebar').waitFor();

  // Sign out: back to /login, and the inbox is closed to anonymous visitors.
  await page.getByTestId('logout').click();
  await page.waitForURL(/#\/login/);
  await page.goto(`${server.base}/#/Inbox`);
  await page.waitForURL(/#\/login/);
  await page.getByTestId('login-submit').waitFor();
  await shot(page, SUITE, '04-after-logout');

  // Chromium logs the status of the two deliberate failures (the wrong setup token, 403; the
  // wrong password, 401); anything else is a defect.
  const expected = [/status of 403/, /status of 401/];
  const unexpected = problems.filter((p) => !expected.some((re) => re.test(p)));
  assert.equal(problems.length - unexpected.length, 2, `the two deliberate failures: ${problems}`);
  assert.deepEqual(unexpected, [], 'no console errors, CSP violations or failed requests');
  await context.close();
});

test('small screens get a slide-in drawer', async () => {
  const { page, context, problems } = await newPage(browser, { width: 390, height: 844 });
  await page.goto(`${server.base}/#/login`);
  await page.getByTestId('login-username').fill(ADMIN.username);
  await page.getByTestId('login-password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/#\/inbox/i);
  await page.getByTestId('inbox-page').waitFor();

  const sidebar = page.getByTestId('sidebar');
  assert.equal(await sidebar.isVisible() && (await inViewport(page, 'sidebar')), false, 'drawer starts closed');
  await shot(page, SUITE, '05-mobile-closed');
  await page.getByTestId('menu-button').click();
  await page.waitForFunction(() => {
    const r = document.querySelector('[data-testid="sidebar"]').getBoundingClientRect();
    return r.right <= window.innerWidth + 1 && r.left >= -1 && r.width > 0;
  });
  await page.waitForTimeout(300); // let the slide-in transition finish for the screenshot
  await shot(page, SUITE, '06-mobile-drawer');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => {
    const r = document.querySelector('[data-testid="sidebar"]').getBoundingClientRect();
    return r.left >= window.innerWidth - 1 || r.right <= 1;
  });
  assert.deepEqual(problems, []);
  await context.close();
});

async function inViewport(page, testId) {
  return page.evaluate((id) => {
    const r = document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
    return r.width > 0 && r.left < window.innerWidth - 1 && r.right > 1;
  }, testId);
}
