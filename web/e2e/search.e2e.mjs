// The search page end to end (spec 001 "Advanced search page", docs/API.md "Search") against the
// real binary, with no mail server: the user is made with `mailclient user add` and the mail
// brought in with `mailclient import` before `serve` starts — the 25 Hebrew golden messages
// (tests/fixtures/search/hebrew/, three of them into Sent) and the 3,250-message development
// corpus. The sidebar box lands on /Search?q=, totals match the API, hits are marked in the
// snippets, the query language works from the box (a malformed query shows the server's Hebrew
// message), the filter panel narrows to a folder and clears, paging, a result opens in the inbox
// and Back returns, and the phone layout. Screenshots: web/e2e/screenshots/search/.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { launch, newPage, shot as save } from './support/browser.mjs';
import { cli, newDataDir, startServer } from './support/server.mjs';
import { eventually, jsonApi, signIn as signInAs } from './support/session.mjs';

const SUITE = 'search';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };
const repo = fileURLToPath(new URL('../..', import.meta.url));
const golden = join(repo, 'tests/fixtures/search');
// The golden set's own placement: these three are sent mail (hebrew-queries.json `folders.sent`).
const SENT = JSON.parse(readFileSync(join(golden, 'hebrew-queries.json'), 'utf8')).folders.sent;

let server;
let browser;
let token;
let dataDir;
const scratch = mkdtempSync(join(tmpdir(), 'mailclient-e2e-search-'));

const api = jsonApi(() => server.base, () => token);

before(async () => {
  // The import remembers a message by its bytes: the Sent ones go in a folder of their own so the
  // INBOX import does not take them first.
  const inbox = join(scratch, 'inbox');
  const sent = join(scratch, 'sent');
  mkdirSync(inbox);
  mkdirSync(sent);
  for (const f of readdirSync(join(golden, 'hebrew'))) {
    copyFileSync(join(golden, 'hebrew', f), join(SENT.includes(f) ? sent : inbox, f));
  }
  const corpus = execFileSync('bash', [join(repo, 'scripts/corpus.sh'), 'dir'], { encoding: 'utf8' }).trim();

  dataDir = newDataDir();
  cli(dataDir, 'user', 'add', ADMIN.username, '--admin', '--password', ADMIN.password, '--name', ADMIN.name);
  const imported = [
    cli(dataDir, 'import', inbox, '--user', ADMIN.username, '--quiet'),
    cli(dataDir, 'import', sent, '--user', ADMIN.username, '--folder', 'Sent', '--quiet'),
    cli(dataDir, 'import', corpus, '--user', ADMIN.username, '--quiet'),
  ];
  for (const out of imported) console.log(`# ${out.trim()}`);

  server = await startServer({ dataDir });
  assert.equal(server.setupLink, undefined, 'a store with a user prints no setup link');
  const login = await api('POST', '/api/app/login', { username: ADMIN.username, password: ADMIN.password });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  token = login.body.token;
  // Whatever the index still has to catch up on after the start, it is done before the page asks.
  await eventually(
    'the index to catch up',
    async () => {
      const r = await api('GET', '/api/search?q=python&tz=120');
      return r.status === 200 && !r.body.indexing && r.body.total > 0;
    },
    60_000,
  );
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  // stop() removes the data dir; this is for a setup that failed before serve started.
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

const signIn = (page) => signInAs(page, server, ADMIN);

/** A screenshot without a row left highlighted by where the pointer last clicked. */
async function shot(page, suite, name) {
  await page.mouse.move(0, 0);
  await save(page, suite, name);
}

/** GET /api/search from the page itself, with the session the app stored: the body. */
async function apiSearch(page, params) {
  const res = await page.evaluate(async (query) => {
    const { token: t } = JSON.parse(localStorage.getItem('mailclient.auth'));
    const tz = -new Date().getTimezoneOffset() || 0;
    const qs = new URLSearchParams({ ...query, tz: String(tz) });
    const r = await fetch(`/api/search?${qs}`, { headers: { authorization: t } });
    return { status: r.status, body: await r.json() };
  }, params);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** The hash route's path and query, decoded: `/Search?q=פגישה`. */
function route(page) {
  const hash = new URL(page.url()).hash.replace(/^#/, '');
  const [path, query = ''] = hash.split('?');
  return { path, params: new URLSearchParams(query) };
}

/**
 * Waits until the page shows the final answer to `params` (the same total as the API, the index
 * caught up, nothing loading): polled, never a fixed sleep. While the API still says `indexing`,
 * the search is asked again. Returns the API's answer.
 */
async function settled(page, params) {
  return eventually(`the results of ${JSON.stringify(params)}`, async () => {
    const expected = await apiSearch(page, params);
    if (expected.indexing) return false;
    const total = page.getByTestId('search-total');
    if (!(await total.isVisible())) return false;
    if (await page.getByTestId('search-indexing').isVisible()) {
      await page.getByTestId('search-submit').click();
      return false;
    }
    if (Number(await total.getAttribute('data-total')) !== expected.total) return false;
    if (await page.getByTestId('search-loading').count()) return false;
    const shown = await page.getByTestId('search-result').count();
    return shown === expected.results.length && expected;
  });
}

/** Types `q` into the page's box and searches (Enter). */
async function searchFor(page, q) {
  await page.getByTestId('search-input').fill(q);
  await page.getByTestId('search-input').press('Enter');
  await eventually(`the URL to carry ${q}`, () => route(page).params.get('q') === q);
}

const resultIds = (page) =>
  page.getByTestId('search-result').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));

/** No horizontal scrolling of the whole page. */
async function assertNoHorizontalOverflow(page, where) {
  const { scroll, inner } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
  }));
  assert.ok(scroll <= inner, `${where}: page ${scroll}px wide in a ${inner}px window`);
}

/** Every result row: sender, date and subject visible, inside the row, and not on top of each other. */
async function assertRowsLaidOut(page) {
  const rows = await page.getByTestId('search-result').evaluateAll((els) =>
    els.map((row) => {
      const box = (sel) => {
        const el = row.querySelector(sel);
        if (!el) return null;
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, w: r.width, h: r.height, text: el.textContent.trim() };
      };
      const r = row.getBoundingClientRect();
      return {
        id: row.getAttribute('data-id'),
        row: { left: r.left, right: r.right },
        from: box('.search-result__from'),
        subject: box('.search-result__subject'),
        date: box('.search-result__date'),
        fromClipped: (() => {
          const el = row.querySelector('.search-result__from');
          return el ? el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).textOverflow !== 'ellipsis' : false;
        })(),
      };
    }),
  );
  assert.ok(rows.length > 0);
  for (const r of rows) {
    for (const part of ['from', 'subject', 'date']) {
      const b = r[part];
      assert.ok(b && b.w > 0 && b.h > 0 && b.text, `row ${r.id}: ${part} shown (${JSON.stringify(b)})`);
      assert.ok(b.left >= r.row.left - 1 && b.right <= r.row.right + 1, `row ${r.id}: ${part} inside its row`);
    }
    const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    assert.ok(!overlap(r.from, r.date), `row ${r.id}: sender and date do not overlap`);
    assert.ok(!r.fromClipped, `row ${r.id}: a long sender ends in an ellipsis, not a hard cut`);
  }
}

test('search: the sidebar box, totals and hits, operators, filters, paging, opening a result', async () => {
  const { page, context, problems } = await newPage(browser);
  await signIn(page);

  // 1. The sidebar's box lands on /Search?q=פגישה with the results.
  await page.getByTestId('sidebar-search').fill('פגישה');
  await page.getByTestId('sidebar-search').press('Enter');
  await page.waitForURL(/#\/Search\?q=/);
  assert.equal(route(page).path, '/Search');
  assert.equal(route(page).params.get('q'), 'פגישה');
  assert.equal(await page.getByTestId('search-input').inputValue(), 'פגישה');
  const meeting = await settled(page, { q: 'פגישה' });
  assert.ok(meeting.total >= 7, `פגישה finds its prefixed forms (${meeting.total})`);
  assert.equal(Number(await page.getByTestId('search-total').getAttribute('data-total')), meeting.total);
  assert.match(await page.getByTestId('search-total').innerText(), new RegExp(`נמצאו ${meeting.total} תוצאות`));
  assert.deepEqual(await resultIds(page), meeting.results.map((r) => String(r.id)), 'the same rows, in order');
  // The hit is marked: פגישה itself or a prefixed form (הפגישה, בפגישה, …).
  const marks = await page.getByTestId('search-result-snippet').locator('mark').allInnerTexts();
  assert.ok(marks.some((m) => m.includes('פגיש')), `a marked hit: ${JSON.stringify(marks)}`);
  await assertRowsLaidOut(page);
  for (const row of await page.getByTestId('search-result').all()) {
    assert.ok(await row.locator('.search-result__from').isVisible());
    assert.ok(await row.locator('.search-result__subject').isVisible());
  }
  // Right to left: the page, the panel on the right of the results, Hebrew rows read RTL.
  const layout = await page.evaluate(() => {
    const side = document.querySelector('.search-side').getBoundingClientRect();
    const results = document.querySelector('[data-testid="search-results"]').getBoundingClientRect();
    const hebrewSubject = [...document.querySelectorAll('.search-result__subject')].find((e) => /[\u0590-\u05FF]/.test(e.textContent));
    return {
      dir: document.documentElement.dir,
      sideRightOfResults: side.left >= results.right - 1,
      subjectDirection: hebrewSubject && getComputedStyle(hebrewSubject).direction,
    };
  });
  assert.deepEqual(layout, { dir: 'rtl', sideRightOfResults: true, subjectDirection: 'rtl' });
  await assertNoHorizontalOverflow(page, 'results');
  await shot(page, SUITE, '01-hebrew-results');

  // 2. The query language in the box.
  for (const q of ['from:dana', '"open source"', 'צה"ל']) {
    await searchFor(page, q);
    const answer = await settled(page, { q });
    assert.ok(answer.total > 0, `${q} finds mail`);
    console.log(`# ${q}: ${answer.total} results`);
  }
  assert.equal((await settled(page, { q: 'צה"ל' })).total, 2, 'צה"ל = צה״ל: both army mails');
  await shot(page, SUITE, '02-acronym');
  // A malformed query: the server's Hebrew message, and no results.
  const bad = await api('GET', `/api/search?q=${encodeURIComponent('"open')}&tz=120`);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error, 'bad_query');
  assert.match(bad.body.message, /[\u0590-\u05FF]/, 'the message is Hebrew');
  await searchFor(page, '"open');
  const error = page.getByTestId('search-error');
  await error.waitFor();
  assert.equal((await error.innerText()).trim(), bad.body.message);
  assert.equal(await page.getByTestId('search-results').count(), 0);
  await shot(page, SUITE, '03-bad-query');

  // 3. The filter panel: Sent only, then cleared.
  await searchFor(page, 'פגישה');
  await settled(page, { q: 'פגישה' });
  await page.getByTestId('search-filter-folder').selectOption('sent');
  await page.getByTestId('search-filters-apply').click();
  await eventually('folder=sent in the URL', () => route(page).params.get('folder') === 'sent');
  assert.equal(route(page).params.get('q'), 'פגישה', 'the query stays');
  const inSent = await settled(page, { q: 'פגישה', folder: 'sent' });
  assert.ok(inSent.total > 0 && inSent.total < meeting.total, `Sent holds some (${inSent.total} of ${meeting.total})`);
  assert.ok(inSent.results.every((r) => r.folderRole === 'sent'));
  for (const chip of await page.getByTestId('search-result-folder').allInnerTexts()) assert.equal(chip.trim(), 'נשלחו');
  await shot(page, SUITE, '04-filter-sent');
  await page.getByTestId('search-filters-clear').click();
  await eventually('no folder in the URL', () => !route(page).params.has('folder'));
  assert.equal(route(page).params.get('q'), 'פגישה');
  assert.equal(await page.getByTestId('search-filter-folder').inputValue(), 'all');
  assert.equal((await settled(page, { q: 'פגישה' })).total, meeting.total);

  // 4. Paging through a common English word.
  await searchFor(page, 'python');
  const first = await settled(page, { q: 'python' });
  assert.ok(first.total > first.perPage, `more than a page (${first.total})`);
  const page1 = await resultIds(page);
  assert.equal(page1.length, first.perPage);
  assert.match(await page.getByTestId('search-page').innerText(), new RegExp(`עמוד 1 מתוך ${Math.ceil(first.total / first.perPage)}`));
  assert.ok(await page.getByTestId('search-prev').isDisabled());
  await page.getByTestId('search-next').click();
  await eventually('page=2 in the URL', () => route(page).params.get('page') === '2');
  const second = await settled(page, { q: 'python', page: '2' });
  const page2 = await resultIds(page);
  assert.deepEqual(page2, second.results.map((r) => String(r.id)));
  assert.equal(page2.filter((id) => page1.includes(id)).length, 0, 'page 2 shows other mail');
  assert.match(await page.getByTestId('search-page').innerText(), /עמוד 2 מתוך/);
  await shot(page, SUITE, '05-page-2');
  await page.getByTestId('search-prev').click();
  await eventually('back on page 1', () => !route(page).params.has('page'));
  await settled(page, { q: 'python' });
  assert.deepEqual(await resultIds(page), page1);

  // 5. A result opens in the inbox's reading pane; Back returns to the results.
  await searchFor(page, 'פגישה');
  await settled(page, { q: 'פגישה' });
  const target = meeting.results[0];
  await page.locator(`[data-testid="search-result"][data-id="${target.id}"]`).click();
  await eventually('the inbox URL with the mail', () => {
    const { path, params } = route(page);
    return path === '/Inbox' && params.get('mail') === String(target.id);
  });
  await page.getByTestId('reading-pane').waitFor();
  await eventually('the mail\'s subject in the pane', async () =>
    (await page.getByTestId('reading-subject').innerText()).includes(target.subject.trim()),
  );
  await shot(page, SUITE, '06-opened');
  await page.goBack();
  await eventually('back on the search', () => route(page).path === '/Search' && route(page).params.get('q') === 'פגישה');
  await settled(page, { q: 'פגישה' });
  assert.ok((await resultIds(page)).includes(String(target.id)));

  // With nothing asked, the page invites a search and shows the operators; it asks nothing.
  let asked = 0;
  page.on('request', (r) => r.url().includes('/api/search') && asked++);
  await page.goto(`${server.base}/#/Search`);
  await page.getByTestId('search-idle').waitFor();
  assert.ok(await page.getByTestId('search-help').isVisible());
  assert.ok((await page.getByTestId('search-help-item').count()) > 10, 'the operators are listed');
  assert.equal(await page.getByTestId('search-input').inputValue(), '');
  assert.equal(asked, 0, 'no search without a query or a filter');
  await shot(page, SUITE, '07-idle-help');

  await context.close();
  // The malformed query is the one deliberate failure (Chromium logs its 400); anything else is a defect.
  const expected = [/status of 400/];
  const unexpected = problems.filter((p) => !expected.some((re) => re.test(p)));
  assert.equal(problems.length - unexpected.length, 1, `the one deliberate 400: ${problems}`);
  assert.deepEqual(unexpected, [], 'no console errors, CSP violations or failed requests');
});

test('search on a phone: the filters fold behind their toggle, nothing runs off the side', async () => {
  const { page, context, problems } = await newPage(browser, { width: 375, height: 812 });
  await signIn(page);
  await page.goto(`${server.base}/#/Search?q=${encodeURIComponent('פגישה')}`);
  const meeting = await settled(page, { q: 'פגישה' });
  assert.ok(meeting.total >= 7);

  const toggle = page.getByTestId('search-filters-toggle');
  assert.ok(await toggle.isVisible(), 'the toggle shows');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.getByTestId('search-filters').isVisible(), false, 'the panel starts folded');
  await assertRowsLaidOut(page);
  await assertNoHorizontalOverflow(page, 'phone results');
  await shot(page, SUITE, '08-phone-results');

  await toggle.click();
  await page.getByTestId('search-filters').waitFor();
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  await assertNoHorizontalOverflow(page, 'phone filters');
  await shot(page, SUITE, '09-phone-filters');
  // Applying folds it again and runs the search; the toggle counts the filter.
  await page.getByTestId('search-filter-folder').selectOption('sent');
  await page.getByTestId('search-filters-apply').click();
  await eventually('folder=sent in the URL', () => route(page).params.get('folder') === 'sent');
  await settled(page, { q: 'פגישה', folder: 'sent' });
  assert.equal(await page.getByTestId('search-filters').isVisible(), false);
  assert.match(await page.getByTestId('search-filters-count').innerText(), /1/);
  await assertNoHorizontalOverflow(page, 'phone filtered');
  await shot(page, SUITE, '10-phone-filtered');

  // The long English rows of the corpus, with their pager.
  await page.goto(`${server.base}/#/Search?q=python`);
  await settled(page, { q: 'python' });
  await page.getByTestId('search-pager').waitFor();
  await assertRowsLaidOut(page);
  await assertNoHorizontalOverflow(page, 'phone English');
  await page.getByTestId('search-pager').scrollIntoViewIfNeeded();
  await shot(page, SUITE, '11-phone-english-pager');

  await context.close();
  assert.deepEqual(problems, [], 'no console errors or failed requests');
});
