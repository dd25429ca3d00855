// The user's own folders end to end (issue 38): the real binary, a real Dovecot + Postfix,
// headless Chromium. A Hebrew folder made from the sidebar's "+" is on the server (doveadm); a
// mail moved into it from the reading pane and another dragged onto it from the list are moved
// on the server; the folder opens like any folder with both; a rename from its menu renames it
// on the server; the delete asks first, naming how many mails go, and removes it there. Desktop
// and 360×740 phone screenshots under web/e2e/screenshots/folders/. A thread row dragged onto a
// folder moves every mail of the thread (the row carries only its newest); a folder of the
// user's own called Spam opens as itself, not as the virtual Spam folder.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, newPage, shot } from './support/browser.mjs';
import { startMailServer } from './support/mailserver.mjs';
import { createFirstAdmin, startServer } from './support/server.mjs';
import { hebrewMail, storedInInbox } from './support/hebrewMail.mjs';
import { connectMailbox, eventually, jsonApi, signIn } from './support/session.mjs';

const SUITE = 'folders';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };
const PHONE = { width: 360, height: 740 };

let mail;
let server;
let browser;
let token;

const api = jsonApi(() => server.base, () => token);
const stored = (subject) => storedInInbox(api, subject);

/** The user's folders as Dovecot lists them (UTF-8 names). */
const serverFolders = () =>
  mail
    .doveadm('mailbox', 'list', '-u', 'user1@example.test')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

const serverCount = (folder) => {
  const out = mail.doveadm('-f', 'flow', 'mailbox', 'status', '-u', 'user1@example.test', 'messages', folder);
  return Number(/messages=(\d+)/.exec(out)?.[1] ?? -1);
};

before(async () => {
  mail = await startMailServer();
  server = await startServer({ args: mail.configArgs });
  await createFirstAdmin(server, ADMIN);
  token = (await api('POST', '/api/app/login', { username: ADMIN.username, password: ADMIN.password })).body.token;
  await connectMailbox(api, mail);
  for (const [n, subject] of [
    [1, 'חשבונית חשמל ינואר'],
    [2, 'חשבונית חשמל פברואר'],
  ]) {
    const from = ['חברת החשמל', 'bills@example.test'];
    await mail.deliver('user1@example.test', hebrewMail({ from, subject, body: `החשבונית מצורפת (${n}).`, id: `folders-${n}` }));
    await stored(subject);
  }
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  mail?.stop();
});

test('own folders: create from the sidebar, move mail in (pane and drag), open, rename, delete', async () => {
  const { page, problems } = await newPage(browser);
  await signIn(page, server, ADMIN);
  const sidebar = page.getByTestId('own-folders');
  await sidebar.waitFor();

  // Create from the sidebar.
  await page.getByTestId('own-folders-add').click();
  await page.getByTestId('folder-name-input').fill('חשבוניות 2024');
  await page.getByTestId('folder-name-save').click();
  const folder = page.locator('[data-testid="own-folder"][data-name="חשבוניות 2024"]');
  await folder.waitFor();
  assert.ok(serverFolders().includes('חשבוניות 2024'), serverFolders().join(', '));

  // From the reading pane: the January bill.
  await page.getByTestId('thread-row').filter({ hasText: 'חשבונית חשמל ינואר' }).click();
  await page.getByTestId('reading-pane').waitFor();
  await shot(page, SUITE, '01-desktop-sidebar-and-pane');
  await page.getByTestId('reading-pane').getByTestId('move-to-folder').click();
  await page.getByTestId('move-to-folder-dialog').waitFor();
  await shot(page, SUITE, '02-desktop-move-dialog');
  await page.getByTestId('move-target').filter({ hasText: 'חשבוניות 2024' }).click();
  await page.getByTestId('move-to-folder-dialog').waitFor({ state: 'detached' });
  await eventually('the January bill in the folder on the server', async () => serverCount('חשבוניות 2024') === 1);

  // Drag and drop: the February bill onto the folder.
  const feb = page.getByTestId('thread-row').filter({ hasText: 'חשבונית חשמל פברואר' });
  await feb.dragTo(folder.getByTestId('own-folder-link'));
  await eventually('the February bill in the folder on the server', async () => serverCount('חשבוניות 2024') === 2);
  await eventually('the folder counts both', async () => {
    const tree = (await api('GET', '/api/folders/tree')).body;
    return tree.mailboxes[0].folders.find((f) => f.fullName === 'חשבוניות 2024')?.total === 2;
  });

  // Open it: both bills, like any folder.
  await folder.getByTestId('own-folder-link').click();
  await page.getByTestId('page-title').filter({ hasText: 'חשבוניות 2024' }).waitFor();
  assert.equal(await page.getByTestId('folder-inbox').getAttribute('aria-current'), null, 'the inbox is not current');
  await eventually('both bills listed', async () => (await page.getByTestId('thread-row').count()) === 2);
  await folder.getByTestId('own-folder-unread').waitFor();
  await shot(page, SUITE, '03-desktop-folder-open');

  // A folder inside it, from its menu: nested in the tree and on the server.
  await folder.getByTestId('own-folder-menu').click();
  await folder.getByTestId('own-folder-create').click();
  await page.getByTestId('folder-name-input').fill('ארכיון ישן');
  await page.getByTestId('folder-name-save').click();
  await folder.locator('[data-testid="own-folder"][data-name="ארכיון ישן"]').waitFor();
  assert.ok(serverFolders().includes('חשבוניות 2024/ארכיון ישן'), serverFolders().join(', '));
  await shot(page, SUITE, '03b-desktop-nested');

  // Rename from its menu (the folder inside goes along).
  await folder.getByTestId('own-folder-menu').first().click();
  await folder.getByTestId('own-folder-rename').click();
  await page.getByTestId('folder-name-input').fill('חשבוניות 2025');
  await page.getByTestId('folder-name-save').click();
  const renamed = page.locator('[data-testid="own-folder"][data-name="חשבוניות 2025"]');
  await renamed.waitFor();
  // The folder on screen follows its new name.
  await page.getByTestId('page-title').filter({ hasText: 'חשבוניות 2025' }).waitFor();
  await eventually('both bills under the new name', async () => (await page.getByTestId('thread-row').count()) === 2);
  await eventually('renamed on the server', async () => serverFolders().includes('חשבוניות 2025'));
  assert.ok(!serverFolders().includes('חשבוניות 2024'));
  assert.ok(serverFolders().includes('חשבוניות 2025/ארכיון ישן'), serverFolders().join(', '));
  assert.equal(serverCount('חשבוניות 2025'), 2);

  // The phone: the sidebar drawer with the folder, and the folder's list.
  const phone = await newPage(browser, PHONE);
  await signIn(phone.page, server, ADMIN);
  await phone.page.getByTestId('menu-button').click();
  await phone.page.locator('[data-testid="own-folder"][data-name="חשבוניות 2025"]').scrollIntoViewIfNeeded();
  await shot(phone.page, SUITE, '04-phone-sidebar');
  await phone.page.locator('[data-testid="own-folder"][data-name="חשבוניות 2025"]').getByTestId('own-folder-link').first().click();
  await phone.page.getByTestId('page-title').filter({ hasText: 'חשבוניות 2025' }).waitFor();
  await eventually('both bills on the phone', async () => (await phone.page.getByTestId('thread-row').count()) === 2);
  // The drawer closed with the navigation (its slide takes a moment).
  await phone.page.getByTestId('sidebar').waitFor({ state: 'hidden' }).catch(() => {});
  await phone.page.waitForTimeout(400);
  await shot(phone.page, SUITE, '05-phone-folder');
  assert.deepEqual(phone.problems, []);
  await phone.context.close();

  // Delete: asks first and names how many mails go.
  await renamed.getByTestId('own-folder-menu').first().click();
  await renamed.getByTestId('own-folder-delete').click();
  const question = page.getByTestId('folder-delete-question');
  await question.waitFor();
  assert.match(await question.innerText(), /חשבוניות 2025" ואת התיקייה שבתוכה\? יש בה 2 הודעות/);
  await shot(page, SUITE, '06-desktop-delete-confirm');
  await page.getByTestId('confirm-yes').click();
  await renamed.waitFor({ state: 'detached' });
  await eventually('deleted on the server', async () => !serverFolders().includes('חשבוניות 2025'));
  // The deleted folder was on screen: the inbox shows instead.
  await page.getByTestId('page-title').filter({ hasText: 'דואר נכנס' }).waitFor();

  assert.deepEqual(problems, []);
});

test('a thread row dragged onto a folder moves the whole thread; an own folder called Spam opens as itself', async () => {
  // Three mails of one thread: the list shows one row carrying its newest mail.
  const from = ['חנות הספרים', 'books@example.test'];
  const subject = 'הזמנה 555';
  for (const n of [1, 2, 3]) {
    const extra = n === 1 ? [] : [`In-Reply-To: <order-${n - 1}@example.test>`, `References: <order-1@example.test>`];
    await mail.deliver('user1@example.test', hebrewMail({ from, subject: n === 1 ? subject : `Re: ${subject}`, body: `עדכון ${n}`, id: `order-${n}`, extra }));
  }
  await eventually('the thread of three stored', async () => {
    const r = await api('GET', '/api/threads/inbox?perPage=100');
    return (Array.isArray(r.body) ? r.body : []).some((t) => t.count === 3);
  });
  // A folder of the user's own called Spam, at the top (the server's junk folder is Junk).
  const accountId = (await api('GET', '/api/folders/tree')).body.mailboxes[0].accountId;
  assert.equal((await api('POST', '/api/folders/create', { accountId, name: 'Spam' })).status, 200);

  const { page, problems } = await newPage(browser);
  await signIn(page, server, ADMIN);
  const spam = page.locator('[data-testid="own-folder"][data-name="Spam"]');
  await spam.waitFor();
  const row = page.getByTestId('thread-row').filter({ hasText: subject });
  await row.waitFor();
  await row.dragTo(spam.getByTestId('own-folder-link'));
  await eventually('the whole thread in the folder on the server', async () => serverCount('Spam') === 3);
  await eventually('the thread left the inbox', async () => (await row.count()) === 0);

  // Opened, it is that folder (not the virtual Spam): the thread, without the spam tools.
  await spam.getByTestId('own-folder-link').click();
  await page.getByTestId('page-title').filter({ hasText: 'Spam' }).waitFor();
  await eventually('the thread listed in the folder', async () => (await page.getByTestId('thread-row').filter({ hasText: subject }).count()) === 1);
  assert.equal(await page.getByTestId('thread-row').count(), 1);
  await shot(page, SUITE, '07-desktop-thread-dragged-into-spam-folder');
  assert.deepEqual(problems, []);
});
