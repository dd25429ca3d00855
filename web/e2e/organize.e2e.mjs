// Contacts, tasks and rules end to end: the real binary, a real Dovecot + Postfix, headless
// Chromium. One server and one mailbox for the three pages (they share the user's mail):
// - contacts: a suggestion from mail added in one click, a contact made in the form (save waits
//   for name and email), groups as two badges plus +N, Hebrew-aware search (niqqud, final
//   letters), edit, delete after a confirmation, a vCard imported and exported with Hebrew names,
//   the recent mail with a contact; grid, list and phone screenshots;
// - tasks: made in the form, toggled (struck through), the open/done/overdue filters, a task made
//   from a mail in the reading pane that links back to it, and the reminder when it falls due;
// - rules: made in the modal's builder, then a delivered mail is moved to a folder with a label
//   and marked read (checked with doveadm), the activity lists it; an inactive rule does nothing;
//   "run now" shows how many mails match before it applies;
// - labels: a Hebrew label made with a colour in the settings' label manager, applied by a rule
//   (its mapped ASCII keyword on the mail in Dovecot), shown in its colour in the list, the
//   reading pane and the rules page; desktop and phone screenshots.
// Screenshots: web/e2e/screenshots/organize/.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launch, newPage, shot } from './support/browser.mjs';
import { startMailServer } from './support/mailserver.mjs';
import { createFirstAdmin, startServer } from './support/server.mjs';
import { hebrewMail, storedInInbox } from './support/hebrewMail.mjs';
import { connectMailbox, eventually, jsonApi, signIn } from './support/session.mjs';

const SUITE = 'organize';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };
const PHONE = { width: 390, height: 844 };

let mail;
let server;
let browser;
let token;

const api = jsonApi(() => server.base, () => token);

const b64 = (s) => `=?UTF-8?B?${Buffer.from(s).toString('base64')}?=`;

/** The inbox's mail with `subject`, once the sync has stored it. */
const stored = (subject) => storedInInbox(api, subject);

before(async () => {
  mail = await startMailServer();
  server = await startServer({ args: mail.configArgs });
  await createFirstAdmin(server, ADMIN);
  token = (await api('POST', '/api/app/login', { username: ADMIN.username, password: ADMIN.password })).body.token;
  await connectMailbox(api, mail);
  await mail.deliver(
    'user1@example.test',
    hebrewMail({
      from: ['נועה לוי', 'user2@example.test'],
      subject: 'סיכום הפגישה',
      body: 'שלום, מצורף סיכום הפגישה של יום שלישי.',
      id: 'organize-1',
    }),
  );
  await stored('סיכום הפגישה');
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  mail?.stop();
});

const VCARD = [
  'BEGIN:VCARD',
  'VERSION:3.0',
  'FN:אבי ישראלי',
  'N:ישראלי;אבי;;;',
  'EMAIL;TYPE=INTERNET:avi@example.test',
  'TEL;TYPE=CELL:+972-50-1234567',
  'ORG:חברת הדוגמה',
  'CATEGORIES:לקוחות',
  'END:VCARD',
  'BEGIN:VCARD',
  'VERSION:4.0',
  'FN:Ruth Levi',
  'EMAIL:ruth@example.test',
  'END:VCARD',
  '',
].join('\r\n');

test('contacts: suggestions, the form, groups, Hebrew search, edit, delete, vCard, recent mail', async () => {
  const { page, problems } = await newPage(browser);
  await signIn(page, server, ADMIN);
  await page.goto(`${server.base}/#/Contacts`);
  await page.getByTestId('page-ContactsPage').waitFor();
  await page.getByTestId('contacts-empty').waitFor();

  // The sender of the delivered mail is suggested; one click makes them a contact.
  const suggestion = page.getByTestId('suggestion').filter({ hasText: 'user2@example.test' });
  await suggestion.waitFor();
  assert.match(await suggestion.innerText(), /נועה לוי/);
  await shot(page, SUITE, '01-contacts-empty-with-suggestions');
  await suggestion.getByTestId('suggestion-add').click();
  await page.getByTestId('contact-card').filter({ hasText: 'נועה לוי' }).waitFor();

  // The form: save stays disabled until name and email are there.
  await page.getByTestId('contacts-add').click();
  const form = page.getByTestId('contact-form');
  await form.waitFor();
  assert.match(await form.innerText(), /איש קשר חדש/);
  const save = page.getByTestId('contact-form-save');
  assert.equal(await save.isDisabled(), true);
  await page.getByTestId('contact-form-name').fill('משה כֹּהֵן');
  assert.equal(await save.isDisabled(), true, 'no email yet');
  await page.getByTestId('contact-form-email').fill('moshe@example.test');
  await page.getByTestId('contact-form-phone').fill('050-7654321');
  await page.getByTestId('contact-form-company').fill('כהן ובניו');
  await page.getByTestId('contact-form-groups').fill('משפחה, עבודה, שכנים');
  assert.equal(await save.isDisabled(), false);
  await shot(page, SUITE, '02-contact-form');
  await save.click();
  await form.waitFor({ state: 'detached' });
  const moshe = page.getByTestId('contact-card').filter({ hasText: 'moshe@example.test' });
  await moshe.waitFor();
  // Two group badges and +1.
  assert.equal(await moshe.getByTestId('contact-group').count(), 2);
  assert.equal((await moshe.getByTestId('contact-groups-more').innerText()).trim(), '+1');
  assert.equal(await page.getByTestId('contacts-count').getAttribute('data-count'), '2');

  // Search ignores niqqud and final letters: "כהנ" and "כהן" both find "כֹּהֵן".
  for (const q of ['כהן', 'כהנ', 'ובני']) {
    await page.getByTestId('contacts-search').fill(q);
    await eventually(`search ${q}`, async () => (await page.getByTestId('contact-card').count()) === 1);
    assert.match(await page.getByTestId('contact-card').innerText(), /moshe@example\.test/);
  }
  await page.getByTestId('contacts-search').fill('אין כזה');
  await page.getByTestId('contacts-nomatch').waitFor();
  await page.getByTestId('contacts-search').fill('');
  await eventually('both again', async () => (await page.getByTestId('contact-card').count()) === 2);

  // Edit: the modal says so, and the change is kept on the server.
  await moshe.getByTestId('contact-edit').click();
  await form.waitFor();
  assert.match(await form.innerText(), /עריכת איש קשר/);
  await page.getByTestId('contact-form-company').fill('כהן שותפים');
  await page.getByTestId('contact-form-save').click();
  await form.waitFor({ state: 'detached' });
  await eventually('company saved', async () => {
    const list = (await api('GET', '/api/contacts')).body.contacts;
    return list.find((c) => c.email === 'moshe@example.test')?.company === 'כהן שותפים';
  });

  // A vCard with a Hebrew 3.0 card and a 4.0 card.
  const vcf = join(mail.dir, 'contacts.vcf');
  writeFileSync(vcf, VCARD);
  await page.getByTestId('contacts-import-file').setInputFiles(vcf);
  await page.getByTestId('contacts-import-result').filter({ hasText: 'נוספו 2' }).waitFor();
  const avi = page.getByTestId('contact-card').filter({ hasText: 'אבי ישראלי' });
  await avi.waitFor();
  assert.match(await avi.innerText(), /\+972-50-1234567/);
  assert.match(await avi.innerText(), /לקוחות/);

  // Export: Hebrew names come back as they went in.
  const download = page.waitForEvent('download');
  await page.getByTestId('contacts-export').click();
  const file = await (await download).path();
  const exported = readFileSync(file, 'utf8');
  for (const name of ['אבי ישראלי', 'משה כֹּהֵן', 'נועה לוי', 'Ruth Levi']) assert.ok(exported.includes(name), name);
  assert.match(exported, /BEGIN:VCARD/);

  // The recent mail with a contact.
  const noa = page.getByTestId('contact-card').filter({ hasText: 'נועה לוי' });
  await noa.getByTestId('contact-mail').click();
  await page.getByTestId('contact-mail-item').filter({ hasText: 'סיכום הפגישה' }).waitFor();
  await shot(page, SUITE, '03-contact-mail');
  await page.keyboard.press('Escape');

  // Screenshots of the grid and the list, then a phone.
  await page.mouse.move(0, 0);
  await shot(page, SUITE, '04-contacts-grid');
  await page.getByTestId('contacts-view-list').click();
  await page.locator('[data-testid="contacts-list"][data-view="list"]').waitFor();
  await shot(page, SUITE, '05-contacts-list');

  // Delete after a confirmation.
  await page.getByTestId('contact-card').filter({ hasText: 'Ruth Levi' }).getByTestId('contact-delete').click();
  const dialog = page.getByTestId('confirm-dialog');
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /למחוק את Ruth Levi מאנשי הקשר\?/);
  await dialog.getByTestId('confirm-yes').click();
  await page.getByTestId('contact-card').filter({ hasText: 'Ruth Levi' }).waitFor({ state: 'detached' });
  assert.equal((await api('GET', '/api/contacts')).body.contacts.length, 3);

  const phone = await newPage(browser, PHONE);
  await signIn(phone.page, server, ADMIN);
  await phone.page.goto(`${server.base}/#/Contacts`);
  await phone.page.getByTestId('contact-card').first().waitFor();
  await shot(phone.page, SUITE, '06-contacts-phone');
  await assertNoOverflow(phone.page);
  assert.deepEqual(phone.problems, []);
  await phone.context.close();

  assert.deepEqual(problems, []);
  await page.context().close();
});

test('tasks: the form, toggle, filters, a task from a mail, the reminder', async () => {
  const { page, problems } = await newPage(browser);
  await signIn(page, server, ADMIN);
  await page.goto(`${server.base}/#/Tasks`);
  await page.getByTestId('page-TasksPage').waitFor();
  await page.getByTestId('tasks-empty').waitFor();

  // A task past its due date: overdue.
  await page.getByTestId('tasks-add').first().click();
  const form = page.getByTestId('task-form');
  await form.waitFor();
  const save = page.getByTestId('task-form-save');
  assert.equal(await save.isDisabled(), true, 'title required');
  await page.getByTestId('task-form-title').fill('להתקשר לרואה החשבון');
  await page.getByTestId('task-form-priority').selectOption('high');
  await page.getByTestId('task-form-due').fill('2026-01-05T10:00');
  await page.getByTestId('task-form-description').fill('לשאול על הדוח השנתי');
  await shot(page, SUITE, '07-task-form');
  await save.click();
  await form.waitFor({ state: 'detached' });
  const late = page.getByTestId('task-row').filter({ hasText: 'להתקשר לרואה החשבון' });
  await late.getByTestId('task-overdue').waitFor();
  assert.match(await late.getByTestId('task-priority').innerText(), /גבוהה/);

  // A second one, newer: the list is newest first.
  await page.getByTestId('tasks-add').first().click();
  await form.waitFor();
  await page.getByTestId('task-form-title').fill('לשלוח הצעת מחיר');
  await page.getByTestId('task-form-save').click();
  await form.waitFor({ state: 'detached' });
  await eventually('two tasks', async () => (await page.getByTestId('task-row').count()) === 2);
  assert.match(await page.getByTestId('task-row').first().innerText(), /לשלוח הצעת מחיר/);

  // The circle completes it: struck through and dimmed; the filters split them.
  const quote = page.getByTestId('task-row').filter({ hasText: 'לשלוח הצעת מחיר' });
  await quote.getByTestId('task-toggle').click();
  await page.locator('[data-testid="task-row"][data-status="completed"]').filter({ hasText: 'לשלוח הצעת מחיר' }).waitFor();
  const style = await quote.getByTestId('task-title').evaluate((el) => getComputedStyle(el).textDecorationLine);
  assert.match(style, /line-through/);
  /** The titles the list shows now. */
  const titles = async () => (await page.getByTestId('task-title').allInnerTexts()).map((t) => t.trim()).join('|');
  await page.getByTestId('task-filter-done').click();
  await eventually('done filter', async () => (await titles()) === 'לשלוח הצעת מחיר');
  await page.getByTestId('task-filter-overdue').click();
  await eventually('overdue filter', async () => (await titles()) === 'להתקשר לרואה החשבון');
  await page.getByTestId('task-filter-all').click();
  await eventually('all again', async () => (await page.getByTestId('task-row').count()) === 2);
  await page.mouse.move(0, 0);
  await shot(page, SUITE, '08-tasks');

  // From a mail in the reading pane: the form names the mail, the task links back to it.
  await page.goto(`${server.base}/#/inbox`);
  const row = page.getByTestId('thread-row').filter({ hasText: 'סיכום הפגישה' }).first();
  await row.getByTestId('thread-row-open').click();
  await page.getByTestId('reading-pane').waitFor();
  await page.getByTestId('mail-create-task').click();
  await form.waitFor();
  assert.match(await page.getByTestId('task-form-mail').innerText(), /סיכום הפגישה/);
  await shot(page, SUITE, '09-task-from-mail');
  await page.getByTestId('task-form-save').click();
  await form.waitFor({ state: 'detached' });
  await page.goto(`${server.base}/#/Tasks`);
  const fromMail = page.getByTestId('task-row').filter({ hasText: 'סיכום הפגישה' });
  await fromMail.getByTestId('task-mail-link').click();
  await page.getByTestId('reading-pane').filter({ hasText: 'סיכום הפגישה' }).waitFor();

  // The reminder: a task due in a few seconds is announced while the page is open.
  await page.goto(`${server.base}/#/Tasks`);
  await page.getByTestId('task-list').waitFor();
  const soon = new Date(Date.now() + 3_000).toISOString();
  const made = await api('POST', '/api/tasks', { title: 'לצאת לפגישה', due_date: soon });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  await page.getByTestId('toast').filter({ hasText: 'תזכורת: לצאת לפגישה' }).waitFor({ timeout: 45_000 });
  await page.getByTestId('task-row').filter({ hasText: 'לצאת לפגישה' }).getByTestId('task-overdue').waitFor();

  // Delete after a confirmation.
  await page.getByTestId('task-row').filter({ hasText: 'לצאת לפגישה' }).getByTestId('task-delete').click();
  await page.getByTestId('confirm-dialog').getByTestId('confirm-yes').click();
  await page.getByTestId('task-row').filter({ hasText: 'לצאת לפגישה' }).waitFor({ state: 'detached' });

  const phone = await newPage(browser, PHONE);
  await signIn(phone.page, server, ADMIN);
  await phone.page.goto(`${server.base}/#/Tasks`);
  await phone.page.getByTestId('task-row').first().waitFor();
  await shot(phone.page, SUITE, '10-tasks-phone');
  await assertNoOverflow(phone.page);
  assert.deepEqual(phone.problems, []);
  await phone.context.close();

  assert.deepEqual(problems, []);
  await page.context().close();
});

/** The flags of each of user1's messages in `folder` whose Message-ID holds `id` (doveadm). */
function onServer(folder, id) {
  const out = mail.doveadm('-f', 'flow', 'fetch', '-u', 'user1@example.test', 'flags', 'mailbox', folder, 'header', 'message-id', id);
  return out.split('\n').filter((l) => l.startsWith('flags='));
}

test('rules: made in the builder, run on delivered mail, inactive does nothing, run now', async () => {
  mail.doveadm('mailbox', 'create', '-u', 'user1@example.test', 'Invoices');
  await eventually(
    'the new folder listed',
    async () => {
      await api('POST', '/api/sync/refresh');
      return (await api('GET', '/api/folders')).body.folders.some((f) => f.name === 'Invoices');
    },
    60_000,
  );
  const { page, problems } = await newPage(browser);
  await signIn(page, server, ADMIN);
  await page.goto(`${server.base}/#/Rules`);
  await page.getByTestId('page-RulesPage').waitFor();
  await page.getByTestId('rules-empty').waitFor();
  await shot(page, SUITE, '11-rules-empty');

  // The builder: subject contains "חשבונית" → to Invoices, label "invoices", read.
  await page.getByTestId('rules-add').first().click();
  const form = page.getByTestId('rule-form');
  await form.waitFor();
  const save = page.getByTestId('rule-form-save');
  assert.equal(await save.isDisabled(), true);
  await page.getByTestId('rule-form-missing').waitFor();
  await page.getByTestId('rule-form-name').fill('  חשבוניות  ');
  await page.getByTestId('condition-row').first().getByTestId('condition-field').selectOption('subject');
  await page.getByTestId('condition-row').first().getByTestId('condition-value').fill('חֶשְׁבּוֹנִית');
  assert.equal(await save.isDisabled(), true, 'no action yet');
  await page.getByTestId('rule-form-add-action').click();
  const first = page.getByTestId('action-row').nth(0);
  await first.getByTestId('action-kind').selectOption('move_to_folder');
  await eventually('Invoices offered', async () =>
    (await first.getByTestId('action-value').locator('option').allInnerTexts()).some((o) => o.includes('Invoices')),
  );
  await first.getByTestId('action-value').selectOption('Invoices');
  await page.getByTestId('rule-form-add-action').click();
  const second = page.getByTestId('action-row').nth(1);
  await second.getByTestId('action-kind').selectOption('add_label');
  await second.getByTestId('action-value').fill('invoices');
  await page.getByTestId('rule-form-add-action').click();
  await page.getByTestId('action-row').nth(2).getByTestId('action-kind').selectOption('mark_as_read');
  assert.equal(await save.isDisabled(), false);
  await shot(page, SUITE, '12-rule-form');
  await save.click();
  await form.waitFor({ state: 'detached' });
  const row = page.getByTestId('rule-row').filter({ hasText: 'חשבוניות' });
  await row.waitFor();
  assert.equal(await row.getByTestId('rule-active').isChecked(), true, 'new rules are active');
  const saved = (await api('GET', '/api/rules')).body.rules;
  assert.equal(saved.length, 1);
  assert.equal(saved[0].name, 'חשבוניות', 'the name is trimmed');

  // A second rule, switched off: would star everything from the shop.
  const shop = await api('POST', '/api/rules', {
    name: 'החנות',
    conditions: [{ field: 'sender_domain', value: 'shop.example.test' }],
    actions: [{ kind: 'mark_as_starred' }],
  });
  assert.equal(shop.status, 200, JSON.stringify(shop.body));
  await page.reload();
  const shopRow = page.getByTestId('rule-row').filter({ hasText: 'החנות' });
  await shopRow.getByTestId('rule-active').click();
  await eventually('the shop rule off', async () => (await api('GET', '/api/rules')).body.rules.find((r) => r.name === 'החנות')?.is_active === false);

  // A matching mail arrives: moved to Invoices, labelled and read on the server.
  await mail.deliver(
    'user1@example.test',
    hebrewMail({ from: ['החנות', 'orders@shop.example.test'], subject: 'חשבונית מס 1001', body: 'תודה על הקנייה.', id: 'organize-inv-1' }),
  );
  const moved = await eventually('the invoice in Invoices', async () => onServer('Invoices', 'organize-inv-1')[0], 60_000);
  assert.match(moved, /\\Seen/);
  assert.match(moved, /invoices/);
  assert.doesNotMatch(moved, /\\Flagged/, 'the inactive rule did nothing');
  assert.equal(onServer('INBOX', 'organize-inv-1').length, 0);

  // The activity lists it.
  await row.getByTestId('rule-activity').click();
  const activity = page.getByTestId('rule-activity-dialog');
  await activity.getByTestId('rule-activity-item').filter({ hasText: 'חשבונית מס 1001' }).waitFor();
  await shot(page, SUITE, '13-rule-activity');
  await page.keyboard.press('Escape');
  await activity.waitFor({ state: 'detached' });

  // Run now on existing mail: the shop rule, switched on again, says how many match first.
  await shopRow.getByTestId('rule-active').click();
  await eventually('the shop rule on', async () => (await api('GET', '/api/rules')).body.rules.find((r) => r.name === 'החנות')?.is_active === true);
  await mail.deliver(
    'user1@example.test',
    hebrewMail({ from: ['החנות', 'orders@shop.example.test'], subject: 'המבצע של השבוע', body: 'הנחות על הכל.', id: 'organize-sale-1' }),
  );
  const sale = await eventually('the sale starred', async () => onServer('INBOX', 'organize-sale-1').find((m) => /\\Flagged/.test(m)), 60_000);
  assert.ok(sale);
  // The mail from user2, in the inbox since before the rule changed: "run now" finds it.
  const meeting = await stored('סיכום הפגישה');
  await api('PUT', `/api/rules/${(await api('GET', '/api/rules')).body.rules.find((r) => r.name === 'החנות').id}`, {
    name: 'החנות',
    conditions: [{ field: 'from', value: 'user2' }],
    actions: [{ kind: 'set_status', value: 'info' }],
  });
  await page.reload();
  await page.getByTestId('rule-row').filter({ hasText: 'החנות' }).getByTestId('rule-run').click();
  const run = page.getByTestId('rule-run-dialog');
  await run.getByTestId('rule-run-question').waitFor();
  assert.match(await run.getByTestId('rule-run-question').innerText(), /מייל אחד/);
  assert.match(await run.innerText(), /סיכום הפגישה/);
  await shot(page, SUITE, '14-rule-run-preview');
  await run.getByTestId('rule-run-confirm').click();
  await run.getByTestId('rule-run-done').waitFor();
  await eventually('the meeting mail is info', async () => (await api('GET', `/api/emails/${meeting.id}`)).body.status === 'info');
  await run.getByTestId('rule-run-close').click();

  // Delete after a confirmation.
  await page.getByTestId('rule-row').filter({ hasText: 'החנות' }).getByTestId('rule-delete').click();
  await page.getByTestId('confirm-dialog').getByTestId('confirm-yes').click();
  await page.getByTestId('rule-row').filter({ hasText: 'החנות' }).waitFor({ state: 'detached' });
  await page.mouse.move(0, 0);
  await shot(page, SUITE, '15-rules');

  const phone = await newPage(browser, PHONE);
  await signIn(phone.page, server, ADMIN);
  await phone.page.goto(`${server.base}/#/Rules`);
  await phone.page.getByTestId('rule-row').first().waitFor();
  await shot(phone.page, SUITE, '16-rules-phone');
  await assertNoOverflow(phone.page);
  await phone.page.getByTestId('rule-edit').first().click();
  await phone.page.getByTestId('rule-form').waitFor();
  await shot(phone.page, SUITE, '17-rule-form-phone');
  assert.deepEqual(phone.problems, []);
  await phone.context.close();

  assert.deepEqual(problems, []);
  await page.context().close();
});

test('labels: a Hebrew label with a colour, applied by a rule, coloured in the list, the pane and the rules', async () => {
  const GREEN = '#188038';
  const { page, problems } = await newPage(browser);
  await signIn(page, server, ADMIN);
  await page.goto(`${server.base}/#/Settings`);
  const card = page.getByTestId('labels-card');
  await card.waitFor();
  await card.scrollIntoViewIfNeeded();
  await card.getByTestId('label-new-name').fill('עבודה');
  await card.getByTestId('label-new-colors').locator(`[data-color="${GREEN}"]`).click();
  await card.getByTestId('label-new-add').click();
  const labelRow = card.getByTestId('label-row').filter({ has: page.locator('[data-testid="label-row-chip"]', { hasText: 'עבודה' }) });
  await labelRow.waitFor();
  const { labels } = (await api('GET', '/api/labels')).body;
  const work = labels.find((l) => l.name === 'עבודה');
  assert.equal(work.color, GREEN);
  assert.match(work.keyword, /^\$label_[0-9a-f]{10}$/, 'a Hebrew name maps to an ASCII keyword');
  await labelRow.scrollIntoViewIfNeeded();
  await shot(page, SUITE, '18-labels-manager');

  // A rule names the label in Hebrew; the rules page shows it in its colour.
  const rule = await api('POST', '/api/rules', {
    name: 'דוחות עבודה',
    conditions: [{ field: 'subject', value: 'דוח שבועי' }],
    actions: [{ kind: 'add_label', value: 'עבודה' }],
  });
  assert.equal(rule.status, 200, JSON.stringify(rule.body));
  assert.equal(rule.body.actions[0].value, work.keyword);
  await page.goto(`${server.base}/#/Rules`);
  const ruleChip = page.getByTestId('rule-row').filter({ hasText: 'דוחות עבודה' }).getByTestId('rule-label');
  await ruleChip.waitFor();
  assert.equal(await ruleChip.innerText(), 'עבודה');
  assert.equal(await ruleChip.evaluate((el) => getComputedStyle(el).borderTopColor), 'rgb(24, 128, 56)');

  // A matching mail: the keyword on it in the mailbox, the Hebrew name and colour in the list.
  await mail.deliver(
    'user1@example.test',
    hebrewMail({ from: ['המנהלת', 'boss@work.example.test'], subject: 'דוח שבועי', body: 'מצורף הדוח.', id: 'organize-label-1' }),
  );
  const flags = await eventually('the keyword on the server', async () => onServer('INBOX', 'organize-label-1').find((f) => f.includes(work.keyword)), 60_000);
  assert.ok(flags);
  await page.goto(`${server.base}/#/Inbox`);
  const threadRow = page.getByTestId('thread-row').filter({ hasText: 'דוח שבועי' });
  const chip = threadRow.locator(`[data-testid="thread-row-label"][data-label="${work.keyword}"]`);
  await eventually('the label on the row', async () => (await chip.count()) === 1, 60_000);
  assert.equal(await chip.innerText(), 'עבודה');
  assert.equal(await chip.evaluate((el) => getComputedStyle(el).borderTopColor), 'rgb(24, 128, 56)');
  await threadRow.getByTestId('thread-row-open').click();
  const paneLabel = page.getByTestId('reading-label');
  await paneLabel.waitFor();
  assert.equal(await paneLabel.innerText(), 'עבודה');
  assert.equal(await paneLabel.getAttribute('data-color'), GREEN);
  await page.mouse.move(0, 0);
  await shot(page, SUITE, '19-labels-list-and-pane');

  // Phone: the list and the manager, nothing cut off.
  const phone = await newPage(browser, PHONE);
  await signIn(phone.page, server, ADMIN);
  await phone.page.goto(`${server.base}/#/Inbox`);
  await phone.page.getByTestId('thread-row').filter({ hasText: 'דוח שבועי' }).getByTestId('thread-row-label').waitFor();
  await shot(phone.page, SUITE, '20-labels-list-phone');
  await phone.page.goto(`${server.base}/#/Settings`);
  const phoneCard = phone.page.getByTestId('labels-card');
  await phoneCard.getByTestId('label-row').first().waitFor();
  await phoneCard.scrollIntoViewIfNeeded();
  await shot(phone.page, SUITE, '21-labels-manager-phone');
  await assertNoOverflow(phone.page);
  assert.deepEqual(phone.problems, []);
  await phone.context.close();

  assert.deepEqual(problems, []);
  await page.context().close();
});

/** Nothing on the page is wider than the window (a phone layout that fits). */
async function assertNoOverflow(page) {
  const wide = await page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    return [...document.querySelectorAll('main *')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && (r.right > w + 1 || r.left < -1);
      })
      .slice(0, 5)
      .map((el) => `${el.tagName}.${el.className}`);
  });
  assert.deepEqual(wide, []);
}
