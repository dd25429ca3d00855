// End to end against a real Dovecot + Postfix: connect a mailbox from the settings page (a wrong
// password first, then the right one), the inbox fills with the Hebrew golden mail, a mail opens
// in the sandboxed reading pane, starring reaches the server, and a delivery shows up after a
// refresh. Screenshots: web/e2e/screenshots/mailbox/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, newPage, shot } from './support/browser.mjs';
import { fixtures, startMailServer } from './support/mailserver.mjs';
import { createFirstAdmin, sleep, startServer } from './support/server.mjs';

const SUITE = 'mailbox';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };

let mail;
let server;
let browser;

before(async () => {
  mail = await startMailServer();
  mail.seed('user1', fixtures('hebrew'));
  server = await startServer({ args: mail.configArgs });
  await createFirstAdmin(server, ADMIN);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  mail?.stop();
});

async function fillAccount(page, password) {
  await page.getByTestId('mail-email').fill('user1@example.test');
  await page.getByTestId('mail-password').fill(password);
  await page.getByTestId('mail-imap-server').fill('127.0.0.1');
  await page.getByTestId('mail-imap-port').fill(String(mail.ports.imaps));
  await page.getByTestId('mail-smtp-server').fill('127.0.0.1');
  await page.getByTestId('mail-smtp-port').fill(String(mail.ports.submissions));
}

test('connect a mailbox, read Hebrew mail, star it, see new mail', async () => {
  const { page, context, problems } = await newPage(browser);
  await page.goto(`${server.base}/#/login`);
  await page.getByTestId('login-username').fill(ADMIN.username);
  await page.getByTestId('login-password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/#\/inbox/i);

  // No mailbox yet: the inbox says so and leads to settings.
  await page.getByTestId('no-account-empty').waitFor();
  await shot(page, SUITE, '01-no-mailbox');
  await page.getByTestId('no-account-settings').click();
  await page.getByTestId('mail-account-card').waitFor();

  // A wrong password: the IMAP result says which problem it is.
  await fillAccount(page, 'wrong-password');
  await page.getByTestId('mail-test').click();
  const imapResult = page.getByTestId('mail-result-imap');
  await imapResult.waitFor();
  assert.match(await imapResult.innerText(), /סיסמה/);
  await shot(page, SUITE, '02-wrong-password');

  // The right one: saved, then on to the inbox.
  await page.getByTestId('mail-password').fill('pass1');
  await page.getByTestId('mail-save').click();
  await page.waitForURL(/#\/inbox/i, { timeout: 15_000 });
  const rows = page.getByTestId('thread-row');
  await rows.first().waitFor({ timeout: 20_000 });
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid="thread-row"]').length >= 10,
    null,
    { timeout: 20_000 },
  );
  await shot(page, SUITE, '03-inbox');

  // Open a Hebrew mail: the body is in a sandboxed frame without scripts.
  const hebrewRow = rows.filter({ hasText: 'שלום' }).first();
  await hebrewRow.getByTestId('thread-row-open').click();
  const pane = page.getByTestId('reading-pane');
  await pane.waitFor();
  const frame = page.getByTestId('mail-body-frame');
  await frame.waitFor();
  const sandbox = await frame.getAttribute('sandbox');
  assert.ok(sandbox !== null && !sandbox.includes('allow-scripts') && !sandbox.includes('allow-same-origin'), sandbox);
  const subject = await page.getByTestId('reading-subject').innerText();
  assert.match(subject, /[\u0590-\u05FF]/, 'a Hebrew subject');
  await shot(page, SUITE, '04-reading');

  // Star it: the flag reaches the mailbox on the server.
  // The open mail's id (a thread row's data-id is its thread).
  const id = await pane.getAttribute('data-id');
  await hebrewRow.getByTestId('thread-row-star').click();
  const mid = await (async () => {
    const token = await page.evaluate(() => {
      for (const k of Object.keys(localStorage)) {
        const v = localStorage.getItem(k);
        if (v && v.length >= 40 && /^[A-Za-z0-9_-]+$/.test(v)) return v;
        try {
          const o = JSON.parse(v);
          if (o?.token) return o.token;
        } catch {
          /* not JSON */
        }
      }
      return null;
    });
    const res = await fetch(`${server.base}/api/emails/${id}`, { headers: { authorization: token } });
    return (await res.json()).messageId;
  })();
  let flagged = false;
  for (let i = 0; i < 50 && !flagged; i++) {
    const out = mail.doveadm('fetch', '-u', 'user1@example.test', 'flags', 'mailbox', 'INBOX', 'header', 'Message-ID', mid);
    flagged = out.includes('\\Flagged');
    if (!flagged) await sleep(200);
  }
  assert.ok(flagged, 'the star is stored on the IMAP server');

  // New mail arrives (IDLE), and the refresh button shows it.
  await mail.deliver(
    'user1@example.test',
    'From: =?UTF-8?B?16jXldeg15k=?= <roni@sender.test>\nTo: user1@example.test\nSubject: =?UTF-8?B?16TXkteZ16nXlCDXl9eT16nXlA==?=\nMessage-ID: <e2e-new@sender.test>\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\nנתראה מחר\n',
  );
  await sleep(1500);
  await page.getByTestId('mail-refresh').click();
  await rows.filter({ hasText: 'פגישה חדשה' }).first().waitFor({ timeout: 10_000 });
  await shot(page, SUITE, '05-new-mail');

  // The sidebar's inbox badge counts unread mail from the server.
  const badge = await page.getByTestId('sidebar').innerText();
  assert.match(badge, /\d/);

  await context.close();
  const expected = [/status of 422/];
  const unexpected = problems.filter((p) => !expected.some((re) => re.test(p)));
  assert.deepEqual(unexpected, [], 'no console errors, CSP violations or failed requests');
});

test('the settings card and inbox fit a phone screen', async () => {
  const { page, context, problems } = await newPage(browser, { width: 390, height: 844 });
  await page.goto(`${server.base}/#/login`);
  await page.getByTestId('login-username').fill(ADMIN.username);
  await page.getByTestId('login-password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/#\/inbox/i);
  await page.getByTestId('thread-row').first().waitFor({ timeout: 20_000 });
  await shot(page, SUITE, '06-phone-inbox');
  await page.getByTestId('thread-row-open').first().click();
  await page.getByTestId('reading-pane').waitFor();
  await shot(page, SUITE, '07-phone-reading');
  await page.goto(`${server.base}/#/settings`);
  await page.getByTestId('mail-account-row').waitFor();
  await shot(page, SUITE, '08-phone-settings');
  await context.close();
  assert.deepEqual(problems, []);
});
