// Snooze, follow-ups and the subscription manager end to end (issue 40): the real binary, a real
// Dovecot + Postfix, headless Chromium, at desktop (1280×800) and phone (390×844) sizes.
// - snooze: a thread snoozed from the reading pane leaves the inbox for the mailbox's Snoozed
//   folder (with its keywords), shows under the sidebar's "snoozed" entry with its time, and a
//   reply delivered to Dovecot brings it back with a notice; another is woken by hand;
// - follow-ups: a sent question is awaited by itself; a shorter wait from the API brings the
//   reminder (a notice), the Inbox Zero panel's line, a nudge draft in the real Drafts folder; an
//   answer delivered to Dovecot clears it;
// - subscriptions: list and bulk senders with their counts; a mailto unsubscribe arrives at
//   Postfix (user3's INBOX); a body's 'הסרה' link is offered, not fetched; archive everything
//   from a sender; block it as a rule the rules page shows.
// Screenshots: web/e2e/screenshots/attention/.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launch, newPage, shot } from './support/browser.mjs';
import { startMailServer } from './support/mailserver.mjs';
import { createFirstAdmin, startServer } from './support/server.mjs';
import { connectMailbox, eventually, htmlMail, jsonApi, mailIn, signIn } from './support/session.mjs';

const SUITE = 'attention';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };
const PHONE = { width: 390, height: 844 };

let mail;
let server;
let browser;
let token;

const api = jsonApi(() => server.base, () => token);

const mailFrom = htmlMail;

/** The mail with `messageId` in `folder` (once synced). */
const inFolder = (folder, messageId) => mailIn(api, folder, messageId);

/** Whether `messageId` is in `folder` now. */
async function isIn(folder, messageId) {
  const r = await api('GET', `/api/emails/${folder}?perPage=100`);
  return (Array.isArray(r.body) ? r.body : []).some((m) => m.messageId === messageId);
}

/** A toast with `text` (the newest of them), waited for. */
const toast = (page, text) => page.getByTestId('toast').filter({ hasText: text }).first().waitFor();

/** The raw headers and bodies of a mailbox on the server, for what other clients see. */
const onServer = (user, mailbox) => mail.doveadm('-f', 'flow', 'fetch', '-u', user, 'flags hdr.subject', 'mailbox', mailbox);

before(async () => {
  mail = await startMailServer();
  // No undo delay: a sent mail is sent at once.
  const config = join(mail.dir, 'attention.toml');
  writeFileSync(config, `${readFileSync(mail.configArgs[1], 'utf8')}\n[compose]\nundo_send_secs = 0\n`);
  server = await startServer({ args: ['--config', config] });
  await createFirstAdmin(server, ADMIN);
  token = (await api('POST', '/api/app/login', { username: ADMIN.username, password: ADMIN.password })).body.token;
  await connectMailbox(api, mail);
  // Hand-written mail: the learned spam filter has no say here (it has its own suite).
  const off = await api('POST', '/api/settings/spam-detection', { enabled: false });
  assert.equal(off.status, 200, JSON.stringify(off.body));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  mail?.stop();
});

test('snooze: out of the inbox to the Snoozed folder, back by a reply with a notice, and by hand', async () => {
  await mail.deliver('user1@example.test', mailFrom({ subject: 'חוזה השכירות', messageId: 'lease-1@example.test', body: '<p>מצורפת טיוטת החוזה. נדבר בשבוע הבא?</p>' }));
  await mail.deliver('user1@example.test', mailFrom({ subject: 'ארוחת שישי', messageId: 'dinner-1@example.test', body: '<p>מי מגיע ביום שישי?</p>' }));
  const lease = await inFolder('inbox', 'lease-1@example.test');
  const dinner = await inFolder('inbox', 'dinner-1@example.test');

  const { page, problems } = await newPage(browser);
  await signIn(page, server, ADMIN);
  await page.goto(`${server.base}/#/inbox?mail=${lease.id}`);
  await page.getByTestId('snooze-button').click();
  const menu = page.getByTestId('snooze-menu');
  await menu.waitFor();
  // Nothing of the menu is cut off by the reading pane, wherever its button landed.
  const paneBox = await page.getByTestId('reading-pane').boundingBox();
  const menuBox = await menu.boundingBox();
  assert.ok(
    menuBox.x >= paneBox.x - 1 && menuBox.x + menuBox.width <= paneBox.x + paneBox.width + 1,
    `the menu ${JSON.stringify(menuBox)} inside the pane ${JSON.stringify(paneBox)}`,
  );
  await shot(page, SUITE, '01-snooze-menu');
  await menu.getByRole('button', { name: /מחר בבוקר/ }).click();
  await toast(page, 'השיחה נדחתה');

  // Gone from the inbox; in the mailbox's Snoozed folder with its keywords, for other clients.
  await eventually('the lease out of the inbox', async () => !(await isIn('inbox', 'lease-1@example.test')));
  const snoozedOnServer = await eventually('the lease in Snoozed on Dovecot', () => {
    const out = onServer('user1@example.test', 'Snoozed');
    return out.includes('$Snoozed') && out;
  });
  assert.match(snoozedOnServer, /חוזה השכירות/);
  const badge = page.getByTestId('folder-count-snoozed');
  await eventually('the sidebar counts it', async () => (await badge.count()) === 1 && (await badge.innerText()) === '1');

  await page.getByTestId('folder-snoozed').click();
  const row = page.getByTestId('snoozed').filter({ hasText: 'חוזה השכירות' });
  await row.waitFor();
  assert.match(await row.innerText(), /יחזור/);
  await shot(page, SUITE, '02-snoozed-page');

  // user2 answers in the thread: it wakes at once, with a notice.
  await mail.deliver(
    'user1@example.test',
    mailFrom({ subject: 'Re: חוזה השכירות', messageId: 'lease-2@example.test', inReplyTo: 'lease-1@example.test', body: '<p>כן, ביום שני מתאים.</p>' }),
  );
  await toast(page, 'הגיעה תשובה בשיחה שנדחתה');
  await eventually('the lease back in the inbox', () => isIn('inbox', 'lease-1@example.test'), 60_000);
  await page.getByTestId('snoozed-empty').waitFor();
  await eventually('the sidebar badge gone', async () => (await badge.count()) === 0);
  await shot(page, SUITE, '03-woken-by-reply');

  // Another, at a chosen time, woken by hand from the page.
  await page.goto(`${server.base}/#/inbox?mail=${dinner.id}`);
  await page.getByTestId('snooze-button').click();
  const later = new Date(Date.now() + 3 * 86_400_000);
  const local = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Jerusalem', dateStyle: 'short', timeStyle: 'short' }).format(later);
  await page.getByTestId('snooze-until').fill(local.replace(' ', 'T'));
  await page.getByTestId('snooze-menu').getByRole('button', { name: 'אישור' }).click();
  await toast(page, 'השיחה נדחתה');
  await eventually('dinner out of the inbox', async () => !(await isIn('inbox', 'dinner-1@example.test')));
  await page.goto(`${server.base}/#/Snoozed`);
  const dinnerRow = page.getByTestId('snoozed').filter({ hasText: 'ארוחת שישי' });
  await dinnerRow.getByRole('button', { name: 'להחזיר עכשיו' }).click();
  await page.getByTestId('snoozed-empty').waitFor();
  await eventually('dinner back in the inbox', () => isIn('inbox', 'dinner-1@example.test'), 60_000);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('follow-ups: a sent question awaited, reminded, nudged, and cleared by an answer', async () => {
  const subject = 'הצעת מחיר לשיפוץ';
  const sent = await api('POST', '/api/emails/send', { to: ['user2@example.test'], subject, body: '<p>שלום, מתי תוכלו להתחיל את העבודה?</p>' });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const mine = await eventually('the question in Sent', async () => {
    const r = await api('GET', '/api/emails/sent?perPage=100');
    return (Array.isArray(r.body) ? r.body : []).find((m) => m.subject === subject);
  });
  const followUp = await eventually('the question awaited', async () => {
    const r = await api('GET', '/api/followups');
    return r.body.awaiting.find((f) => f.subject === subject);
  });
  assert.equal(followUp.source, 'question');

  const { page, problems } = await newPage(browser);
  await signIn(page, server, ADMIN);
  // The sent mail's reading pane says it is awaited, with its time.
  await page.goto(`${server.base}/#/Inbox?folder=sent&mail=${mine.id}`);
  const follow = page.getByTestId('follow-up-button');
  await eventually('the button says it is awaited', async () => (await follow.innerText()) === 'במעקב תשובה');
  assert.equal(await page.getByTestId('snooze-button').count(), 0, 'sent mail is not snoozed');
  await follow.click();
  await page.getByTestId('follow-up-due').waitFor();
  await shot(page, SUITE, '04-follow-up-menu');
  await follow.click();

  // A test clock: the wait ends in three seconds (the API's remindAt), so the reminder comes now.
  const remindAt = new Date(Date.now() + 3_000).toISOString();
  const changed = await api('PUT', `/api/followups/${followUp.id}`, { remindAt });
  assert.equal(changed.status, 200, JSON.stringify(changed.body));
  await page.goto(`${server.base}/#/inbox`);
  await toast(page, `לא התקבלה תשובה להודעה ששלחת: ${subject}`);
  const line = page.getByTestId('iz-awaiting');
  await line.waitFor();
  assert.equal(await line.innerText(), 'הודעה אחת ששלחת לא נענתה בזמן');
  await shot(page, SUITE, '05-inbox-zero-awaiting');

  await line.click();
  const row = page.getByTestId('awaiting').filter({ hasText: subject });
  await row.waitFor();
  assert.match(await row.innerText(), /עבר הזמן/);
  await row.getByRole('button', { name: 'טיוטת תזכורת' }).click();
  await toast(page, 'טיוטת תזכורת נשמרה בטיוטות');
  const draft = await eventually('the nudge in Drafts', async () => {
    const r = await api('GET', '/api/emails/drafts?perPage=100');
    return (Array.isArray(r.body) ? r.body : []).find((m) => m.subject === `Re: ${subject}`);
  });
  assert.deepEqual(draft.to, ['user2@example.test']);
  // In the real Drafts folder, as a draft, for other clients too.
  assert.match(onServer('user1@example.test', 'Drafts'), /\\Draft/);
  await shot(page, SUITE, '06-awaiting-page');

  // user2 answers: no longer awaited.
  await mail.deliver(
    'user1@example.test',
    mailFrom({ subject: `Re: ${subject}`, messageId: 'quote-answer@example.test', inReplyTo: mine.messageId.replace(/^<|>$/g, ''), body: '<p>נוכל להתחיל ביום ראשון.</p>' }),
  );
  await eventually(
    'the answer clears it',
    async () => (await api('GET', '/api/followups')).body.awaiting.every((f) => f.subject !== subject),
    60_000,
  );
  await page.reload();
  await page.getByTestId('awaiting-empty').waitFor();
  assert.equal(await page.getByTestId('iz-awaiting').count(), 0);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('subscriptions: the senders, a mailto unsubscribe at Postfix, a body link offered, archive all, block as a rule', async () => {
  const news = (n) =>
    mailFrom({
      from: 'מועדון הקוראים <club@books.example>',
      subject: `המלצות השבוע ${n}`,
      messageId: `club-${n}@books.example`,
      extra: 'List-Id: <club.books.example>\r\nList-Unsubscribe: <mailto:user3@example.test?subject=unsubscribe-club>\r\nPrecedence: bulk',
      body: `<p>ספרים חדשים לשבוע ${n}</p>`,
    });
  const ad = (n) =>
    mailFrom({
      from: 'מבצעי השבוע <deals@shop.example>',
      subject: `פרסומת: מבצע ${n}`,
      messageId: `deal-${n}@shop.example`,
      extra: 'Precedence: bulk',
      body: `<p>מבצע ${n} על כל המוצרים!</p><p><a href="https://shop.example/remove?u=1">להסרה מרשימת התפוצה</a></p>`,
    });
  for (const raw of [news(1), news(2), news(3), ad(1), ad(2)]) await mail.deliver('user1@example.test', raw);
  await inFolder('inbox', 'club-3@books.example');
  await inFolder('inbox', 'deal-2@shop.example');

  const { page, problems } = await newPage(browser);
  await signIn(page, server, ADMIN);
  await page.goto(`${server.base}/#/Subscriptions`);
  const club = page.locator('[data-testid="subscription"][data-address="club@books.example"]');
  const shop = page.locator('[data-testid="subscription"][data-address="deals@shop.example"]');
  await eventually(
    'both senders listed',
    async () => {
      if ((await club.count()) === 1 && (await shop.count()) === 1) return true;
      await page.reload();
      return false;
    },
    60_000,
  );
  assert.equal(await club.getByTestId('subscription-counts').innerText(), '3 ב-30 יום · 3 ב-90 יום');
  assert.match(await club.innerText(), /הסרה במייל/);
  assert.match(await shop.innerText(), /קישור הסרה במייל/);
  await shot(page, SUITE, '07-subscriptions');

  // The club's mailto: a mail from user1's own mailbox reaches user3 through Postfix.
  await club.getByTestId('subscription-unsubscribe').click();
  await club.getByText('נשלח מתיבת הדואר').waitFor();
  await eventually(
    'the unsubscribe mail at user3',
    () => onServer('user3@example.test', 'INBOX').includes('unsubscribe-club'),
    60_000,
  );
  // Once the outbox has sent it, the attempt is done.
  await eventually('the club left', async () => {
    await page.reload();
    await page.getByTestId('subscription-list').waitFor();
    return (await club.getByText('הוסרת').count()) === 1;
  }, 60_000);

  // The shop's removal link in the body: offered to open, never fetched by the server.
  await shop.getByTestId('subscription-unsubscribe').click();
  const offered = page.getByTestId('subscriptions-open');
  await offered.waitFor();
  assert.match(await offered.innerText(), /shop\.example\/remove/);
  await shot(page, SUITE, '08-link-offered');

  // Everything from the shop to the archive, and future mail to Promotions by a visible rule.
  await shop.getByTestId('subscription-archive').click();
  await eventually('the shop\'s mail archived', async () => !(await isIn('inbox', 'deal-1@shop.example')) && !(await isIn('inbox', 'deal-2@shop.example')), 60_000);
  await inFolder('Archive', 'deal-1@shop.example');
  await shop.getByTestId('subscription-block').click();
  await shop.getByText('חסום').waitFor();
  await page.goto(`${server.base}/#/Rules`);
  await page.getByText('deals@shop.example').first().waitFor();
  await shot(page, SUITE, '09-block-rule');
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('the snoozed and awaiting page and the subscriptions page on a phone', async () => {
  const { page, problems } = await newPage(browser, PHONE);
  await signIn(page, server, ADMIN);
  await page.goto(`${server.base}/#/Subscriptions`);
  await page.getByTestId('subscription-list').waitFor();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `no sideways scroll (${width}px)`);
  await shot(page, SUITE, '10-phone-subscriptions');
  await page.goto(`${server.base}/#/Snoozed`);
  await page.getByTestId('page-SnoozedPage').waitFor();
  await shot(page, SUITE, '11-phone-snoozed');
  assert.deepEqual(problems, []);
  await page.context().close();
});
