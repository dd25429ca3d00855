// The installable app on a phone (issue 39): the real binary, a real Dovecot + Postfix, headless
// Chromium emulating phones (360×740 and 412×915, touch).
// - installable: the manifest (Hebrew, rtl) and the service worker register, Chromium's own
//   installability check (CDP Page.getInstallabilityErrors) finds nothing, the shell is cached
//   under this build's version, the compose shortcut opens compose;
// - the first screen: the list starts above the fold (the Inbox Zero panel folded to one line of
//   counts that opens it, the toolbar one row);
// - touch: a swipe archives (the mail reaches Dovecot's Archive), a long press selects, a pull
//   refreshes; the swipe preference changed elsewhere reaches the open page and marks processed;
// - no page scrolls sideways at 360 px; every page passes the accessibility checks Lighthouse
//   makes from the accessibility tree (support/a11y.mjs: names of controls and images, title,
//   lang and dir, a zoomable viewport); a phone-size screenshot of every page at both sizes;
// - a new version deployed (web/dist/sw.js changed under a debug binary): the Hebrew prompt, and
//   the click reloads into it with only the new cache left;
// - with the server stopped, the shell loads from the service worker and says in Hebrew that the
//   server cannot be reached (last: stopping the server ends the suite's store).
// Screenshots: web/e2e/screenshots/phone/.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { a11yProblems } from './support/a11y.mjs';
import { CHROMIUM_ARGS, launch, newPage, shot } from './support/browser.mjs';
import { sleep } from './support/server.mjs';
import { eventually, htmlMail, jsonApi, mailIn, signIn, startSignedIn } from './support/session.mjs';

const SUITE = 'phone';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };
const SMALL = { width: 360, height: 740, mobile: true };
const LARGE = { width: 412, height: 915, mobile: true };

/** Every page of the route table (web/src/app/routes.ts) and what shows it has loaded. */
const PAGES = [
  ['Inbox', 'inbox-page'],
  ['PendingReplies', 'drafts-page'],
  ['Compose', 'compose-page'],
  ['Search', 'page-SearchPage'],
  ['Contacts', 'page-ContactsPage'],
  ['Tasks', 'page-TasksPage'],
  ['Subscriptions', 'page-SubscriptionsPage'],
  ['Snoozed', 'page-SnoozedPage'],
  ['Rules', 'page-RulesPage'],
  ['SmartFeatures', 'smart-page'],
  ['AITraining', 'page-AITrainingPage'],
  ['Settings', 'page-SettingsPage'],
];

let mail;
let server;
let browser;
let token;

const api = jsonApi(() => server.base, () => token);

const mailFrom = htmlMail;
const inFolder = (folder, messageId) => mailIn(api, folder, messageId);

/** The subject's flags in a Dovecot mailbox, or null when it is not there. */
function serverFlags(folder, subject) {
  try {
    const out = mail.doveadm('-f', 'flow', 'fetch', '-u', 'user1@example.test', 'flags', 'mailbox', folder, 'subject', subject);
    const line = out.split('\n').find((l) => l.startsWith('flags='));
    return line === undefined ? null : line.slice('flags='.length);
  } catch {
    return null; // the mailbox does not exist yet
  }
}

/** A finger on the screen through CDP (Chromium turns it into touch and pointer events). */
async function touch(cdp, points) {
  const [first, ...rest] = points;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [first] });
  for (const p of rest) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] });
    await sleep(16);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** `n` points from `from` to `to`. */
function path(from, to, n = 12) {
  return Array.from({ length: n + 1 }, (_, i) => ({
    x: Math.round(from.x + ((to.x - from.x) * i) / n),
    y: Math.round(from.y + ((to.y - from.y) * i) / n),
  }));
}

const rowOf = (page, subject) => page.getByTestId('thread-row').filter({ hasText: subject });

/** A signed-in phone tab on the inbox with the service worker in control. */
async function phoneInbox(size) {
  const tab = await newPage(browser, size);
  await signIn(tab.page, server, ADMIN);
  await tab.page.getByTestId('inbox-page').waitFor();
  await tab.page.evaluate(() => navigator.serviceWorker.ready);
  return tab;
}

before(async () => {
  ({ mail, server, token } = await startSignedIn(ADMIN));
  const off = await api('POST', '/api/settings/spam-detection', { enabled: false });
  assert.equal(off.status, 200, JSON.stringify(off.body));
  for (const [i, subject] of ['ארוחת שישי', 'חוזה השכירות', 'אסיפת הורים', 'חשבון החשמל', 'טיול שנתי'].entries()) {
    await mail.deliver('user1@example.test', mailFrom({ subject, messageId: `phone-${i}@example.test`, body: `<p>${subject}: פרטים בפנים.</p>` }));
    await inFolder('inbox', `phone-${i}@example.test`);
  }
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  mail?.stop();
});

test('installable: the manifest and the service worker register, no installability errors, the shell cached, the shortcuts honoured', async () => {
  const { page, context, problems } = await phoneInbox(LARGE);
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = await page.evaluate(async (href) => {
    const res = await fetch(href);
    return { type: res.headers.get('content-type'), body: await res.json() };
  }, manifestHref);
  assert.equal(manifest.type, 'application/manifest+json');
  assert.equal(manifest.body.lang, 'he');
  assert.equal(manifest.body.dir, 'rtl');
  assert.equal(manifest.body.display, 'standalone');
  assert.match(manifest.body.short_name, /[\u0590-\u05FF]/, 'a Hebrew short name');
  const sizes = manifest.body.icons.map((i) => `${i.sizes}/${i.purpose}`);
  for (const want of ['192x192/any', '512x512/any', '512x512/maskable']) assert.ok(sizes.includes(want), sizes.join(' '));
  assert.equal(await page.locator('link[rel="apple-touch-icon"]').getAttribute('href'), '/apple-touch-icon.png');

  // The worker: scoped to the whole app, in control, and the shell in one versioned cache.
  const sw = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    const names = await caches.keys();
    const cache = await caches.open(names[0]);
    return {
      scope: reg.scope,
      script: reg.active?.scriptURL,
      names,
      shell: !!(await cache.match('/index.html')),
      entries: (await cache.keys()).length,
    };
  });
  assert.equal(sw.scope, `${server.base}/`);
  assert.equal(sw.script, `${server.base}/sw.js`);
  assert.equal(sw.names.length, 1, sw.names.join(' '));
  assert.match(sw.names[0], /^mailclient-shell-[0-9a-f]{16}$/);
  assert.ok(sw.shell && sw.entries > 10, JSON.stringify(sw));
  // The API is never answered from the cache.
  assert.ok(!(await page.evaluate(async (n) => (await (await caches.open(n)).keys()).some((r) => new URL(r.url).pathname.startsWith('/api/')), sw.names[0])));

  // Chromium's own check ("in-incognito" in a throwaway context: a profile on disk, as a phone's).
  const profile = mkdtempSync(join(tmpdir(), 'mc-phone-profile-'));
  const installed = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    viewport: { width: LARGE.width, height: LARGE.height },
    isMobile: true,
    hasTouch: true,
    locale: 'he-IL',
  });
  try {
    const own = installed.pages()[0] ?? (await installed.newPage());
    await signIn(own, server, ADMIN);
    await own.getByTestId('inbox-page').waitFor();
    await own.evaluate(() => navigator.serviceWorker.ready);
    const cdp = await installed.newCDPSession(own);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, []);
    const { errors: manifestErrors } = await cdp.send('Page.getAppManifest');
    assert.deepEqual(manifestErrors, []);
  } finally {
    await installed.close();
    rmSync(profile, { recursive: true, force: true });
  }

  // The shortcuts: compose and the inbox, as a launch from the home screen opens them.
  for (const s of manifest.body.shortcuts) {
    await page.goto(`${server.base}${s.url}`);
    await page.getByTestId(s.url.endsWith('Compose') ? 'compose-page' : 'inbox-page').waitFor();
  }
  // A page load now comes through the worker (which asked the server first: it is up).
  const reloaded = await page.reload();
  assert.ok(reloaded.fromServiceWorker(), 'the page load went through the service worker');
  assert.ok(await page.evaluate(() => navigator.serviceWorker.controller !== null));
  assert.deepEqual(problems, []);
  await context.close();
});

test('the first screen on a phone: the list first, the Inbox Zero panel one line that opens', async () => {
  const { page, context, problems } = await phoneInbox(SMALL);
  await page.getByTestId('thread-row').first().waitFor();
  await shot(page, SUITE, '01-inbox-360');
  const firstRow = await page.getByTestId('thread-row').first().boundingBox();
  assert.ok(firstRow && firstRow.y + firstRow.height <= SMALL.height / 2, `the first row ends at ${firstRow?.y + firstRow?.height}`);
  const summary = page.getByTestId('iz-summary');
  assert.equal(await summary.getAttribute('aria-expanded'), 'false');
  const toolbar = await page.getByRole('toolbar').boundingBox();
  assert.ok(toolbar && toolbar.height <= 56, `the toolbar is one row (${toolbar?.height}px)`);
  await summary.click();
  assert.equal(await summary.getAttribute('aria-expanded'), 'true');
  await page.getByTestId('iz-refresh').waitFor();
  await shot(page, SUITE, '02-inbox-zero-open-360');
  await summary.click();
  await page.getByTestId('iz-refresh').waitFor({ state: 'hidden' });
  assert.deepEqual(problems, []);
  await context.close();
});

test('touch: a swipe archives (to Dovecot’s Archive), a long press selects, a pull refreshes', async () => {
  const { page, context, problems } = await phoneInbox(SMALL);
  const cdp = await context.newCDPSession(page);
  const row = rowOf(page, 'ארוחת שישי');
  await row.waitFor();
  const box = await row.boundingBox();
  const y = box.y + box.height / 2;
  // Swipe from the start (right, in Hebrew) toward the end.
  await touch(cdp, path({ x: box.x + box.width - 20, y }, { x: box.x + 40, y }));
  await row.waitFor({ state: 'detached' });
  await page.getByTestId('toast').filter({ hasText: 'ארכיון' }).first().waitFor();
  await eventually('the swiped mail in Dovecot’s Archive', () => serverFlags('Archive', 'ארוחת שישי') !== null);
  assert.equal(serverFlags('INBOX', 'ארוחת שישי'), null);

  // A long press ticks the row and brings the bulk bar.
  const other = rowOf(page, 'חוזה השכירות');
  const ob = await other.boundingBox();
  const at = { x: ob.x + ob.width / 2, y: ob.y + ob.height / 2 };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at] });
  // Held until the row shows it is ticked, as a person waits for it.
  await eventually('the row ticked by the long press', () => other.getByTestId('thread-row-select').isChecked(), 5_000);
  await sleep(100);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await page.getByTestId('bulk-bar').waitFor();
  assert.ok(await other.getByTestId('thread-row-select').isChecked());
  assert.equal(new URL(page.url().replace('#/', '')).searchParams.get('mail'), null, 'the long press did not open the mail');
  await shot(page, SUITE, '03-long-press-selected-360');
  await other.getByTestId('thread-row-select').uncheck();

  // Pull to refresh: new mail delivered meanwhile shows after the pull.
  await mail.deliver('user1@example.test', mailFrom({ subject: 'הודעה חדשה מהגן', messageId: 'phone-pull@example.test', body: '<p>מחר יום כיף.</p>' }));
  const list = await page.getByTestId('mail-list').boundingBox();
  await touch(cdp, path({ x: list.x + list.width / 2, y: list.y + 20 }, { x: list.x + list.width / 2, y: list.y + 220 }, 16));
  await rowOf(page, 'הודעה חדשה מהגן').waitFor({ timeout: 20_000 });

  // What a swipe does is a preference that follows the user live: 'processed', chosen on
  // another device (the API here), reaches this open page, and the next swipe marks processed.
  const current = await api('GET', '/api/settings/sync');
  const put = await api('PUT', '/api/settings/sync', {
    settingsUpdate: { swipeAction: 'processed' },
    settingsType: 'ui',
    baseVersion: current.body.version,
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const meeting = rowOf(page, 'אסיפת הורים');
  await eventually('the new swipe action on the open page', async () => (await meeting.getAttribute('data-swipe-label')) === 'טופל');
  const mb = await meeting.boundingBox();
  await touch(cdp, path({ x: mb.x + 40, y: mb.y + mb.height / 2 }, { x: mb.x + mb.width - 20, y: mb.y + mb.height / 2 }));
  await meeting.waitFor({ state: 'detached' });
  await eventually('the swiped mail processed in Dovecot', () => (serverFlags('Archive', 'אסיפת הורים') ?? '').includes('$Processed'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('no page scrolls sideways at 360 px and every page passes the accessibility checks; a phone screenshot of every page at 360 and 412', async () => {
  const a11y = [];
  for (const size of [SMALL, LARGE]) {
    const { page, context, problems } = await phoneInbox(size);
    for (const [name, testId] of PAGES) {
      await page.goto(`${server.base}/#/${name}`);
      await page.getByTestId(testId).first().waitFor();
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(() => {
        const d = document.documentElement;
        return { scroll: d.scrollWidth, client: d.clientWidth, body: document.body.scrollWidth };
      });
      assert.ok(
        overflow.scroll <= overflow.client && overflow.body <= overflow.client,
        `${name} at ${size.width}px scrolls sideways: ${JSON.stringify(overflow)}`,
      );
      for (const p of await a11yProblems(page)) a11y.push(`${name} at ${size.width}px: ${p}`);
      await shot(page, SUITE, `page-${size.width}-${name}`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
  assert.deepEqual([...new Set(a11y)], []);
});

test('a new version deployed: a Hebrew prompt, the click reloads into it, the old cache removed', async (t) => {
  // A debug binary serves web/dist from disk: the test "deploys" by changing the worker's version
  // there (as a new build would) and puts it back afterwards.
  const swFile = fileURLToPath(new URL('../dist/sw.js', import.meta.url));
  const original = readFileSync(swFile, 'utf8');
  const NEXT = 'f'.repeat(16);
  const { page, context, problems } = await phoneInbox(SMALL);
  try {
    const [before] = await page.evaluate(() => caches.keys());
    assert.notEqual(before, `mailclient-shell-${NEXT}`);
    writeFileSync(swFile, original.replace(/^const VERSION = "[0-9a-f]+";/, `const VERSION = "${NEXT}";`));
    const served = await page.evaluate(async () => (await fetch('/sw.js', { cache: 'no-store' })).text());
    if (!served.includes(NEXT)) {
      t.skip('this binary embeds the bundle (a release build): nothing to deploy from disk');
      return;
    }
    assert.equal(await page.getByTestId('pwa-update').count(), 0);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const prompt = page.getByTestId('pwa-update');
    await prompt.waitFor();
    assert.match(await prompt.innerText(), /גרסה חדשה/);
    await shot(page, SUITE, '05-update-prompt-360');
    // Nothing changes until the user clicks: the old version still controls the page.
    assert.deepEqual(await page.evaluate(() => caches.keys()), [before, `mailclient-shell-${NEXT}`].sort());
    await Promise.all([page.waitForEvent('load'), page.getByTestId('pwa-update-reload').click()]);
    await page.getByTestId('inbox-page').waitFor();
    await eventually('only the new cache', async () => {
      const names = await page.evaluate(() => caches.keys());
      return names.length === 1 && names[0] === `mailclient-shell-${NEXT}`;
    });
    assert.equal(await page.getByTestId('pwa-update').count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    writeFileSync(swFile, original);
    await context.close();
  }
});

test('with the server stopped the shell loads from the service worker and says the server is unreachable', async () => {
  const { page, context } = await phoneInbox(SMALL);
  await page.reload();
  await page.getByTestId('inbox-page').waitFor();
  await server.stop();
  await page.reload();
  // The shell (the layout, in Hebrew) came from the cache; the banner says why there is no mail.
  await page.getByRole('heading', { name: 'דואר נכנס' }).first().waitFor();
  const banner = page.getByTestId('server-offline');
  await banner.waitFor();
  assert.match(await banner.innerText(), /אין חיבור לשרת/);
  await shot(page, SUITE, '04-server-stopped-360');
  await context.close();
  server = null;
});
