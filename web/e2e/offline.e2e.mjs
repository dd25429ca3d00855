// Offline reading on a phone (issue 39): the real binary, a real Dovecot + Postfix, headless
// Chromium at 360×740 (touch).
// - the inbox read online keeps its mail in the browser (IndexedDB), bodies of mail never opened
//   too; with the server stopped the shell loads, the kept inbox and a kept mail show, with the
//   Hebrew banner; remote images stay blocked;
// - a status set offline and a reply saved as a draft offline are queued (the banner counts
//   them) and reach Dovecot (the keyword, the draft in Drafts) once the server is back on the same
//   address;
// - a change made elsewhere meanwhile (the browser cut off, the API as another device) is not
//   overwritten: the Hebrew conflicts dialog shows both, and "apply mine" sends it;
// - logging out deletes the browser's copy.
// Screenshots: web/e2e/screenshots/offline/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, newPage, shot } from './support/browser.mjs';
import { eventually, htmlMail, jsonApi, mailIn, signIn, startSignedIn } from './support/session.mjs';

const SUITE = 'offline';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };
const SMALL = { width: 360, height: 740, mobile: true };
const SUBJECTS = ['ארוחת שישי', 'חוזה השכירות', 'אסיפת הורים', 'חשבון החשמל'];

let mail;
let server;
let browser;
let token;

const api = jsonApi(() => server.base, () => token);

before(async () => {
  ({ mail, server, token } = await startSignedIn(ADMIN));
  const off = await api('POST', '/api/settings/spam-detection', { enabled: false });
  assert.equal(off.status, 200, JSON.stringify(off.body));
  for (const [i, subject] of SUBJECTS.entries()) {
    const body = `<p>${subject}: פרטים בפנים.</p><img src="https://tracker.example.test/pixel-${i}.png" alt="">`;
    await mail.deliver('user1@example.test', htmlMail({ subject, messageId: `offline-${i}@example.test`, body }));
    await mailIn(api, 'inbox', `offline-${i}@example.test`);
  }
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  mail?.stop();
});

/** The subject's flags in a Dovecot folder ('' when it has none, null when it is not there). */
function serverFlags(subject, folder = 'INBOX') {
  const out = mail.doveadm('-f', 'flow', 'fetch', '-u', 'user1@example.test', 'flags', 'mailbox', folder, 'subject', subject);
  const line = out.split('\n').find((l) => l.startsWith('flags='));
  return line === undefined ? null : line.slice('flags='.length);
}

/** What the page's IndexedDB holds: the kept answers' keys and the queued actions. */
function kept(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const open = indexedDB.open('mailclient-offline');
        // Not there yet: look, do not create it.
        open.onupgradeneeded = () => open.transaction.abort();
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('responses')) return resolve({ keys: [], queue: 0 });
          const tx = db.transaction(['responses', 'queue'], 'readonly');
          const keys = tx.objectStore('responses').getAllKeys();
          const queue = tx.objectStore('queue').count();
          tx.oncomplete = () => {
            resolve({ keys: keys.result, queue: queue.result });
            db.close();
          };
        };
        open.onerror = () => resolve({ keys: [], queue: 0 });
      }),
  );
}

const rowOf = (page, subject) => page.getByTestId('thread-row').filter({ hasText: subject });

async function openMail(page, subject) {
  await rowOf(page, subject).getByTestId('thread-row-open').click();
  await page.getByTestId('reading-subject').filter({ hasText: subject }).waitFor();
}

/** A signed-in phone tab on the inbox, the service worker in control, the inbox's mail kept. */
async function keptInbox() {
  const tab = await newPage(browser, SMALL);
  const { page } = tab;
  await signIn(page, server, ADMIN);
  await page.getByTestId('inbox-page').waitFor();
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await rowOf(page, SUBJECTS[0]).waitFor();
  // The listing, and every mail's body (fetched after the listing, none opened yet).
  await eventually('the inbox and its bodies kept in IndexedDB', async () => {
    const { keys } = await kept(page);
    return keys.some((k) => k.startsWith('/api/threads/inbox')) && keys.filter((k) => /^\/api\/emails\/[^/]+$/.test(k) && k !== '/api/emails/counts').length >= SUBJECTS.length;
  });
  return tab;
}

test('server stopped: the kept inbox and a kept mail show; a status set offline reaches Dovecot when the server is back', async () => {
  const { page, context } = await keptInbox();
  await server.stop({ keepData: true });
  await page.reload();

  // The shell from the service worker, the mail from IndexedDB, the banner saying so.
  const banner = page.getByTestId('server-offline');
  await banner.waitFor();
  assert.match(await banner.innerText(), /אין חיבור לשרת/);
  // Once the offline layer (a lazy chunk, from the service worker's cache) runs.
  await banner.filter({ hasText: 'מוצג הדואר שנשמר במכשיר' }).waitFor();
  for (const s of SUBJECTS) await rowOf(page, s).waitFor();
  await shot(page, SUITE, '01-offline-inbox-360');

  // A mail never opened online: its body was kept too, remote images still held back.
  await openMail(page, 'חוזה השכירות');
  const body = page.frameLocator('[data-testid="mail-body-frame"]').locator('body');
  await body.filter({ hasText: 'חוזה השכירות: פרטים בפנים' }).waitFor();
  assert.equal(await body.locator('img[src^="https://tracker"]').count(), 0, 'remote images stay blocked offline');
  await shot(page, SUITE, '02-offline-mail-360');

  // Needs reply, offline: shown at once, queued, counted in the banner.
  await page.getByTestId('status-needs_reply').click();
  await page.getByTestId('reading-status').filter({ hasText: 'דורש תשובה' }).waitFor();
  await page.getByTestId('offline-pending').waitFor();
  assert.match(await page.getByTestId('offline-pending').innerText(), /פעולה אחת ממתינה/);
  assert.equal((await kept(page)).queue, 1);
  assert.doesNotMatch(serverFlags('חוזה השכירות') ?? '', /\$NeedsReply/);
  await shot(page, SUITE, '03-offline-queued-360');

  // A reply saved as a draft, offline: kept on the device, said so, queued after the status.
  await page.getByTestId('reply-open').click();
  await page.getByTestId('reply-text').fill('קיבלתי, אחזור אליך מחר.');
  await page.getByTestId('reply-save').click();
  await page.getByTestId('toast').filter({ hasText: 'הטיוטה נשמרה במכשיר' }).first().waitFor();
  await page.getByTestId('offline-pending').filter({ hasText: '2 פעולות ממתינות' }).waitFor();

  // The server back on the same address: the page notices, replays, the keyword reaches Dovecot.
  server = await server.restart();
  await banner.waitFor({ state: 'detached', timeout: 20_000 });
  await eventually('the status set offline in Dovecot', () => /\$NeedsReply/.test(serverFlags('חוזה השכירות') ?? ''));
  await eventually('the reply saved offline in Dovecot’s Drafts', () => /\\Draft/.test(serverFlags('חוזה השכירות', 'Drafts') ?? ''));
  await eventually('the queue empty', async () => (await kept(page)).queue === 0);
  await context.close();
});

test('a change made elsewhere meanwhile is shown, not overwritten: apply mine sends it', async () => {
  const { page, context } = await keptInbox();
  await openMail(page, 'אסיפת הורים');
  // This phone loses the network (the server stays up for the other device).
  await context.setOffline(true);
  await page.getByTestId('status-info').click();
  await page.getByTestId('server-offline').waitFor();
  await page.getByTestId('offline-pending').waitFor();

  // Meanwhile, another device marks it "needs reply".
  const list = await api('GET', '/api/emails/inbox');
  const id = list.body.find((e) => e.subject === 'אסיפת הורים').id;
  const other = await api('PUT', `/api/emails/${encodeURIComponent(id)}/status`, { status: 'needs_reply' });
  assert.equal(other.status, 200, JSON.stringify(other.body));

  await context.setOffline(false);
  const line = page.getByTestId('offline-problems');
  await line.waitFor({ timeout: 20_000 });
  assert.match(await line.innerText(), /השתנה בינתיים במקום אחר/);
  // Not overwritten: the server keeps the other device's status.
  assert.equal((await api('GET', `/api/emails/${encodeURIComponent(id)}`)).body.status, 'needs_reply');
  await page.getByTestId('offline-problems-show').click();
  const item = page.getByTestId('offline-conflict');
  await item.waitFor();
  const text = await item.innerText();
  assert.match(text, /אסיפת הורים/);
  assert.match(text, /סטטוס: מידע/);
  assert.match(text, /בשרת עכשיו: דורש תשובה/);
  await shot(page, SUITE, '04-conflict-360');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the dialog scrolls sideways by ${overflow}px`);

  await page.getByTestId('offline-conflict-mine').click();
  await item.waitFor({ state: 'detached' });
  await eventually('mine applied', async () => (await api('GET', `/api/emails/${encodeURIComponent(id)}`)).body.status === 'info');
  await line.waitFor({ state: 'detached' });
  await context.close();
});

test('logging out deletes what the browser kept', async () => {
  const { page, context } = await newPage(browser, { width: 1280, height: 800 });
  await signIn(page, server, ADMIN);
  await rowOf(page, SUBJECTS[0]).waitFor();
  await eventually('mail kept', async () => (await kept(page)).keys.length > 2);
  await page.getByTestId('logout').click();
  await page.waitForURL(/login/);
  await eventually('the database gone', async () =>
    (await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).every((n) => n !== 'mailclient-offline'),
  );
  await context.close();
});
