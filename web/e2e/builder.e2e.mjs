// The page-builder page end to end: the real binary with [builder] pointed at a local stub of
// Builder.io's content API (support/builder.mjs), headless Chromium, Builder's React SDK.
// - content: /builder shows the entry of /builder-demo, rendered by the SDK in Hebrew RTL (text,
//   columns, a section 1200 wide, the entry's scoped CSS), images that load only once scrolled
//   into view;
// - the form block: unsubmitted; required inputs stop an empty submit; a submission reaches the
//   stub's custom action through our server with the JSON body the SDK would send, the success
//   blocks and a toast show, the form resets; sending while a slow action answers; an error
//   answer shows the error blocks and the message found at errorMessagePath; toasts close;
// - personalization (the SDK's targeting by the page's path and dates), a lazy video, a binding
//   left out;
// - states: loading (a slow answer), error (the spec's message, retry 'נסה שוב'), empty (the
//   editor button), the preview badge (?builder.preview=page asks past the cache), and the admin
//   told where to set the key on a server without one;
// - the page never breaks the CSP: no console errors, no failed requests, and the browser asks
//   only our server (never Builder's hosts).
// Screenshots: web/e2e/screenshots/builder/.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { API_KEY, startBuilderStub } from './support/builder.mjs';
import { launch, newPage, shot } from './support/browser.mjs';
import { createFirstAdmin, newDataDir, startServer } from './support/server.mjs';
import { eventually, signIn } from './support/session.mjs';

const SUITE = 'builder';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };

let stub;
let server;
let bare;
let browser;

/** A server whose config file names the stub (or no key at all). */
async function serverWith(builderToml) {
  const dataDir = newDataDir();
  const config = join(dataDir, 'e2e.toml');
  writeFileSync(config, builderToml);
  const s = await startServer({ dataDir, args: ['--config', config] });
  await createFirstAdmin(s, ADMIN);
  return s;
}

before(async () => {
  stub = await startBuilderStub({ slowMs: 2500 });
  server = await serverWith(
    // The stub's form actions are on loopback: allowed by name (refused by default).
    `[builder]\napi_key = "${API_KEY}"\nbase_url = "${stub.base}"\nform_submit_url = "${stub.base}/api/v1/form-submit"\neditor_url = "https://builder.io/content"\ncache_secs = 60\nallowed_private_networks = ["127.0.0.1"]\n`,
  );
  bare = await serverWith('');
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await bare?.stop();
  await stub?.stop();
});

/** Requests the page made to anything but our server. */
function foreignRequests(page, base) {
  const foreign = [];
  page.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith(base) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
  return foreign;
}

test('content: Builder SDK renders the entry of /builder-demo, RTL, lazy images, a form through our server', async () => {
  const { page, problems } = await newPage(browser, { width: 1280, height: 800 });
  const foreign = foreignRequests(page, server.base);
  await signIn(page, server, ADMIN);
  await page.goto(`${server.base}/#/builder`);
  const content = page.getByTestId('builder-content');
  await content.getByText('ברוכים הבאים לעמוד ההדגמה').waitFor();
  assert.deepEqual(stub.requests.at(-1).path, '/builder-demo');
  assert.equal(stub.requests.at(-1).apiKey, API_KEY);
  assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
  await content.getByText('עמודה ראשונה').waitFor();
  await content.getByText('עמודה שנייה').waitFor();
  // Personalization: the variant targeted at this path, not the expired one, another path's or
  // the default.
  await content.getByText('גרסה מותאמת לדף ההדגמה').waitFor();
  for (const hidden of ['מבצע שהסתיים', 'גרסה לדף אחר', 'תוכן ברירת מחדל']) {
    assert.equal(await content.getByText(hidden).count(), 0, hidden);
  }

  // The SDK's styles applied (Emotion through the constructed sheet): columns side by side,
  // the section 1200 wide at most, the entry's own CSS scoped to it.
  const layout = await page.evaluate(() => {
    const find = (text) => [...document.querySelectorAll('.builder-text')].find((e) => e.textContent.includes(text));
    const a = find('עמודה ראשונה').getBoundingClientRect();
    const b = find('עמודה שנייה').getBoundingClientRect();
    const inner = [...document.querySelectorAll('[data-testid="builder-content"] section')].find(
      (e) => getComputedStyle(e).maxWidth === '1200px',
    );
    return {
      sameRow: Math.abs(a.top - b.top) < 4,
      firstIsRight: a.left > b.left,
      maxWidth: inner ? getComputedStyle(inner).maxWidth : null,
      scoped: getComputedStyle(document.querySelector('.e2e-scoped')).color,
      styleElements: document.querySelectorAll('style').length,
      // The app's own elements, outside the entry: its CSS does not reach them.
      outside: (() => {
        const probe = document.createElement('input');
        probe.type = 'password';
        probe.className = 'e2e-probe';
        probe.value = 'a';
        document.body.append(probe);
        const color = getComputedStyle(probe).color;
        probe.remove();
        return color;
      })(),
      sheets: document.adoptedStyleSheets.length,
    };
  });
  assert.ok(layout.sameRow, `columns side by side: ${JSON.stringify(layout)}`);
  assert.ok(layout.firstIsRight, 'RTL: the first column on the right');
  assert.equal(layout.maxWidth, '1200px');
  assert.equal(layout.scoped, 'rgb(0, 96, 0)');
  assert.equal(layout.styleElements, 0, 'no <style> element (the CSP refuses them)');
  assert.notEqual(layout.outside, 'rgb(255, 0, 0)', 'the entry\'s CSS reached a password input outside it');
  assert.ok(layout.sheets >= 2, `the entry's sheets adopted: ${layout.sheets}`);
  await shot(page, SUITE, 'content-top');

  // In the dark theme the page keeps its light paper and dark text (it was designed light).
  await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
  const dark = await page.evaluate(() => {
    const box = document.querySelector('[data-testid="builder-content"]');
    const p = [...box.querySelectorAll('.builder-text p')].find((e) => e.textContent.includes('עמודה ראשונה'));
    return { bg: getComputedStyle(box).backgroundColor, text: getComputedStyle(p).color };
  });
  assert.deepEqual(dark, { bg: 'rgb(255, 255, 255)', text: 'rgb(31, 35, 40)' });
  await shot(page, SUITE, 'content-dark-theme');
  await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));

  // Lazy images: none fetched until they are scrolled into view.
  await page.waitForTimeout(800);
  assert.deepEqual(stub.images, [], 'images below the fold are not loaded yet');
  assert.equal(await page.locator('video.builder-video source').count(), 0, 'nor the video');
  await page.evaluate(() => {
    const main = document.querySelector('main');
    (main?.scrollHeight > main?.clientHeight ? main : document.scrollingElement).scrollBy(0, 3000);
  });
  await eventually('lazy images loaded', () => stub.images.length >= 1, 10_000);
  await page.getByRole('img', { name: 'תמונה far-1' }).waitFor();
  await page.locator('video.builder-video').scrollIntoViewIfNeeded();
  await page.locator('video.builder-video source').waitFor({ state: 'attached' });
  assert.equal(
    await page.locator('video.builder-video source').getAttribute('src'),
    `${stub.base}/media/clip.mp4`,
  );

  // The form: required inputs first.
  const form = page.locator('form[name="צור קשר"]');
  await form.scrollIntoViewIfNeeded();
  assert.equal(await form.getAttribute('data-state'), 'unsubmitted');
  const before = stub.submissions.length;
  await form.getByRole('button', { name: 'שליחה' }).click();
  await page.waitForTimeout(300);
  assert.equal(stub.submissions.length, before, 'an empty required input stops the submit');
  await form.getByPlaceholder('שם מלא').fill('דנה כהן');
  await form.getByPlaceholder('דואר').fill('dana@example.test');
  await form.getByRole('button', { name: 'שליחה' }).click();
  await form.getByText('תודה! הפנייה התקבלה.').waitFor();
  await page.getByText('הטופס נשלח').first().waitFor();
  const sent = stub.submissions.at(-1);
  assert.equal(sent.path, '/custom-action');
  assert.equal(sent.method, 'POST');
  assert.equal(sent.contentType, 'application/json');
  assert.deepEqual(JSON.parse(sent.body), { name: 'דנה כהן', contact: { email: 'dana@example.test' } });
  assert.equal(await form.getByPlaceholder('שם מלא').inputValue(), '', 'the form reset after success');
  assert.equal(await form.getAttribute('data-state'), 'success');
  await form.getByText('תודה! הפנייה התקבלה.').scrollIntoViewIfNeeded();
  await shot(page, SUITE, 'form-success');

  // Sending, while the action takes its time: the sending state, then success again.
  await form.getByPlaceholder('שם מלא').fill('איטי');
  await form.getByPlaceholder('דואר').fill('dana@example.test');
  await form.getByRole('button', { name: 'שליחה' }).click();
  await form.getByText('שולח...').waitFor();
  assert.equal(await form.getAttribute('data-state'), 'sending');
  await form.getByText('תודה! הפנייה התקבלה.').waitFor();

  // An error answer: the error blocks and the message at errorMessagePath.
  await form.getByPlaceholder('שם מלא').fill('שגיאה');
  await form.getByPlaceholder('דואר').fill('dana@example.test');
  await form.getByRole('button', { name: 'שליחה' }).click();
  await form.getByText('השליחה נכשלה.').waitFor();
  await form.getByText('השם הזה כבר רשום').first().waitFor();
  assert.equal(await form.getAttribute('data-state'), 'error');
  await form.locator('.builder-form-error-text').scrollIntoViewIfNeeded();
  await shot(page, SUITE, 'form-error');
  // The form's results are toasts in the app's viewport, and they close.
  const viewport = page.getByTestId('toast-viewport');
  const failedToast = viewport.getByTestId('toast').filter({ hasText: 'השם הזה כבר רשום' });
  await failedToast.waitFor();
  await failedToast.locator('.toast__close').click();
  await failedToast.waitFor({ state: 'detached' });

  // Only the entry's own media come from elsewhere (where the entry points: here the stub);
  // the content and the form went through our server, and nothing went to Builder's hosts.
  assert.deepEqual(
    foreign.filter((u) => !u.startsWith(`${stub.base}/img/`) && u !== `${stub.base}/poster.png`),
    [],
    'the browser talks only to our server',
  );
  // Leaving the page takes the entry's stylesheets away with it.
  await page.evaluate(() => (window.location.hash = '#/inbox'));
  await eventually(
    'the entry\'s sheets removed',
    async () => (await page.evaluate(() => document.adoptedStyleSheets.length)) === layout.sheets - 2,
    10_000,
  );
  assert.deepEqual(problems, []);
});

test('states: loading, error with retry, empty with the editor button, preview badge', async () => {
  const { page, problems } = await newPage(browser, { width: 1100, height: 700 });
  await signIn(page, server, ADMIN);

  // Loading, then empty (the slow answer has no entry).
  await page.goto(`${server.base}/#/slow/BuilderPage`);
  await page.getByTestId('builder-loading').waitFor();
  await shot(page, SUITE, 'loading');
  await page.getByTestId('builder-empty').waitFor({ timeout: 10_000 });

  // Empty: the editor opens in a new tab.
  await page.goto(`${server.base}/#/BuilderPage`);
  const empty = page.getByTestId('builder-empty');
  await empty.getByText('אין עדיין תוכן לעמוד הזה').waitFor();
  await empty.getByText('/BuilderPage').waitFor();
  await shot(page, SUITE, 'empty');
  await page.evaluate(() => {
    // The closed network has no builder.io: record where the tab would go instead of going.
    window.__opened = [];
    window.open = (...args) => (window.__opened.push(args), null);
  });
  await page.getByTestId('builder-open-editor').click();
  const opened = await page.evaluate(() => window.__opened);
  assert.deepEqual(opened, [['https://builder.io/content', '_blank', 'noopener,noreferrer']]);

  // Error: Builder answered 500; the spec's message, the key explanation, 'נסה שוב' asks again.
  await page.goto(`${server.base}/#/broken/BuilderPage`);
  const error = page.getByTestId('builder-error');
  await error.waitFor();
  const text = await error.textContent();
  assert.match(text, /שגיאה בטעינת תוכן מ-Builder\.io: השירות החזיר שגיאה \(500\)/);
  assert.match(text, /api_key/);
  await shot(page, SUITE, 'error');
  const asked = stub.requests.filter((r) => r.path === '/broken/BuilderPage').length;
  await page.getByTestId('builder-retry').click();
  await eventually('retried', () => stub.requests.filter((r) => r.path === '/broken/BuilderPage').length > asked, 5000);
  await error.waitFor();

  // The preview badge, and the preview asks Builder past the server's cache.
  const cachedBefore = stub.requests.filter((r) => r.path === '/builder-demo').length;
  await page.goto(`${server.base}/#/builder?builder.preview=page`);
  await page.getByTestId('builder-preview-badge').getByText('מצב עריכה').waitFor();
  await page.getByTestId('builder-content').getByText('ברוכים הבאים לעמוד ההדגמה').waitFor();
  const demo = stub.requests.filter((r) => r.path === '/builder-demo');
  assert.ok(demo.length > cachedBefore, 'the preview fetched again');
  assert.match(demo.at(-1).query, /cachebust=true/);
  await shot(page, SUITE, 'preview-badge');
  // Without the query: no badge.
  await page.goto(`${server.base}/#/builder`);
  await page.getByTestId('builder-content').getByText('ברוכים הבאים לעמוד ההדגמה').waitFor();
  assert.equal(await page.getByTestId('builder-preview-badge').count(), 0);

  // A 502 from our server is expected on the error path (the browser logs the status).
  const unexpected = problems.filter((p) => !/status of 502/.test(p));
  assert.deepEqual(unexpected, []);
});

test('phone width: no key configured (the admin is told where to set it), the content stacked', async () => {
  const { page, problems } = await newPage(browser, { width: 390, height: 844 });
  await signIn(page, bare, ADMIN);
  await page.goto(`${bare.base}/#/BuilderPage`);
  const note = page.getByTestId('builder-not-configured');
  await note.waitFor();
  const text = await note.textContent();
  assert.match(text, /\[builder\]/);
  assert.match(text, /api_key/);
  assert.match(text, /MAILCLIENT_BUILDER_API_KEY/);
  await shot(page, SUITE, 'not-configured-phone');
  assert.deepEqual(problems, []);

  // The content at phone width: the columns stack (the SDK's stackColumnsAt "tablet").
  const phone = await newPage(browser, { width: 390, height: 844 });
  await signIn(phone.page, server, ADMIN);
  await phone.page.goto(`${server.base}/#/builder`);
  const content = phone.page.getByTestId('builder-content');
  await content.getByText('עמודה שנייה').waitFor();
  const stacked = await phone.page.evaluate(() => {
    const find = (text) => [...document.querySelectorAll('.builder-text')].find((e) => e.textContent.includes(text));
    const a = find('עמודה ראשונה').getBoundingClientRect();
    const b = find('עמודה שנייה').getBoundingClientRect();
    return { below: b.top >= a.bottom - 1, fits: document.documentElement.scrollWidth <= 390 };
  });
  assert.deepEqual(stacked, { below: true, fits: true });
  await shot(phone.page, SUITE, 'content-phone');
  assert.deepEqual(phone.problems, []);
});
