// The AI auto-reply end to end against the real binary, a real Dovecot + Postfix and a local
// provider speaking the Anthropic Messages wire format (support/llm.mjs): in the settings page's
// auto-reply card, set the check interval to 6 s (the warning shows), try to turn it on
// without a key (refused with the spec's message, nothing saved), then turn it on with a key typed
// in the card (stored by the server). A personal mail delivered by SMTP gets a draft: the card's
// activity says so, the stats count it, the notification log has it, and the draft waits under
// pending replies with the auto-reply badge, a real \Draft in the mailbox's Drafts. Clearing the
// list (after a confirmation) deletes it there too. Screenshots of the card in light, dark,
// dark + compact and on a phone: web/e2e/screenshots/autoreply/.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launch, newPage, screenshotDir, shot } from './support/browser.mjs';
import { ANSWERS, startLlm } from './support/llm.mjs';
import { startMailServer } from './support/mailserver.mjs';
import { createFirstAdmin, startServer } from './support/server.mjs';
import { connectMailbox, eventually, jsonApi, setMiddayZone, signIn } from './support/session.mjs';

const SUITE = 'autoreply';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };
const KEY = 'sk-ant-e2e-autoreply-0123456789';
const KEY_MISSING = 'חסר מפתח API של AI, הזן מפתח לפני הפעלת המענה האוטומטי';
const SUBJECT = 'שאלה על ההצעה';
const SENDER = 'נועה לוי';

let mail;
let llm;
let server;
let browser;
let token;

const api = jsonApi(() => server.base, () => token);

before(async () => {
  mail = await startMailServer();
  llm = await startLlm();
  // The mail server's config, with the provider at the local stub (as ai.e2e.mjs does).
  const config = join(mail.dir, 'autoreply.toml');
  writeFileSync(
    config,
    `${readFileSync(mail.configArgs[1], 'utf8')}\n[ai]\nbase_url = "${llm.base}"\nmodel = "claude-e2e"\ntimeout_secs = 10\n`,
  );
  server = await startServer({ args: ['--config', config] });
  await createFirstAdmin(server, ADMIN);
  token = (await api('POST', '/api/app/login', { username: ADMIN.username, password: ADMIN.password })).body.token;
  // The stats' "today" in a zone where it is midday: the day cannot turn between the draft and
  // the last check of today's count.
  await setMiddayZone(api);
  await connectMailbox(api, mail);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await llm?.stop();
  mail?.stop();
});

/** Messages in user1's `folder` (doveadm). */
const count = (folder) =>
  Number(/messages=(\d+)/.exec(mail.doveadm('-f', 'flow', 'mailbox', 'status', '-u', 'user1@example.test', 'messages', folder))[1]);

/**
 * The whole card. The app scrolls inside its main area, so a card taller than the window would be
 * cut off: the window is made tall enough for it for the shot, then put back.
 */
async function cardShot(page, name) {
  const card = page.getByTestId('auto-reply-card');
  const size = page.viewportSize();
  const { height } = await card.boundingBox();
  await page.setViewportSize({ width: size.width, height: Math.ceil(height) + 200 });
  await card.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await card.screenshot({ path: join(screenshotDir(SUITE), `${name}.png`) });
  await page.setViewportSize(size);
}

const settingsNow = async () => (await api('GET', '/api/auto-reply/settings')).body;

test('auto-reply: settings in the card, a draft for new mail, the activity, the stats and clearing', async () => {
  const { page, problems } = await newPage(browser);
  await signIn(page, server, ADMIN);
  await page.goto(`${server.base}/#/Settings`);
  const card = page.getByTestId('auto-reply-card');
  await card.waitFor();

  // Right after the supported providers (spec 001 §2).
  const order = await page.locator('section.card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-testid')));
  assert.equal(order[order.indexOf('providers-card') + 1], 'auto-reply-card', order.join(', '));

  // Editable while off: a 6 s check interval, with its warning; work hours stay off.
  const enabled = page.getByTestId('auto-reply-enabled');
  await page.getByTestId('auto-reply-tone').waitFor();
  assert.equal(await enabled.isChecked(), false);
  assert.equal(await page.getByTestId('auto-reply-only-work-hours').isChecked(), false);
  await page.getByTestId('auto-reply-interval').selectOption('0.1');
  await page.getByTestId('auto-reply-interval-warning').waitFor();
  await eventually('the interval saved', async () => (await settingsNow()).autoReplyCheckInterval === 0.1);

  // No key yet: turning it on is refused in the card, and nothing changes on the server.
  const keyField = page.getByTestId('auto-reply-key');
  await keyField.waitFor();
  await enabled.click();
  assert.equal(await page.getByTestId('auto-reply-error').innerText(), KEY_MISSING);
  assert.equal(await enabled.isChecked(), false);
  await shot(page, SUITE, '01-no-key');
  assert.equal((await settingsNow()).autoReplyEnabled, false);

  // With a key typed in the card: on, and the server keeps the key for the monitor.
  await keyField.fill(KEY);
  await enabled.click();
  await eventually('auto-reply on', async () => (await settingsNow()).autoReplyEnabled === true);
  assert.equal((await api('GET', '/api/settings/claude-api-key/exists')).body.exists, true);
  await keyField.waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('auto-reply-error').count(), 0);
  await page.locator('[data-testid="auto-reply-monitoring"][data-on="true"]').waitFor();
  const saved = await settingsNow();
  assert.equal(saved.autoReplyOnlyWorkHours, false);
  assert.equal(saved.autoReplyCheckInterval, 0.1);
  assert.equal(llm.requests.length, 0, 'no mail yet, nothing asked');

  // A personal mail arrives.
  await mail.deliver(
    'user1@example.test',
    [
      `From: =?UTF-8?B?${Buffer.from(SENDER).toString('base64')}?= <user2@example.test>`,
      'To: user1@example.test',
      `Subject: =?UTF-8?B?${Buffer.from(SUBJECT).toString('base64')}?=`,
      `Date: ${new Date().toUTCString()}`,
      'Message-ID: <autoreply-e2e-1@example.test>',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      'שלום, קיבלת את ההצעה ששלחתי? אפשר להיפגש ביום שלישי בעשר?',
      '',
    ].join('\n'),
  );

  // The card hears of the draft: the activity says why, the stats count it.
  const answered = page.getByTestId('auto-reply-activity-item').filter({ hasText: 'נכתבה טיוטת תשובה' });
  await answered.first().waitFor({ timeout: 90_000 });
  assert.match(await answered.first().innerText(), new RegExp(SUBJECT));
  assert.match(await answered.first().innerText(), new RegExp(SENDER));
  await eventually('today count 1', async () => (await page.getByTestId('auto-reply-stat-today').innerText()) === '1');
  await eventually('one draft waiting', async () => (await page.getByTestId('auto-reply-stat-drafts').innerText()) === '1');
  const stats = (await api('GET', '/api/auto-reply/stats')).body;
  assert.equal(stats.todayCount, 1, JSON.stringify(stats));
  assert.equal(stats.remainingToday, stats.maxPerDay - 1);

  // The provider was asked with the stored key and the card's style.
  const asked = llm.requests.find((r) => r.user.includes('אפשר להיפגש ביום שלישי בעשר'));
  assert.ok(asked, `the provider saw the mail: ${llm.requests.map((r) => r.user).join(' | ')}`);
  assert.equal(asked.headers['x-api-key'], KEY);
  assert.match(asked.system, /drafted automatically/);
  assert.match(asked.system, /At most 150 words/);

  // The notice went to the bell's log (the toast may have gone by now).
  await page.getByTestId('notification-bell').click();
  await page.locator('.notification__message').filter({ hasText: `נכתבה טיוטת תשובה אוטומטית ל-${SENDER}: ${SUBJECT}` }).first().waitFor();
  await page.keyboard.press('Escape');
  await page.locator('.notifications').waitFor({ state: 'detached' });

  // Screenshots of the card: light, dark, dark + compact, and a phone.
  await page.mouse.move(0, 0);
  await cardShot(page, '02-card-light');
  await page.getByTestId('pref-darkMode').click();
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await cardShot(page, '03-card-dark');
  await page.getByTestId('pref-compactMode').click();
  await page.waitForFunction(() => document.documentElement.dataset.density === 'compact');
  await cardShot(page, '04-card-dark-compact');
  await page.getByTestId('pref-compactMode').click();
  await page.getByTestId('pref-darkMode').click();
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  const phone = await newPage(browser, { width: 390, height: 844 });
  await signIn(phone.page, server, ADMIN);
  await phone.page.goto(`${server.base}/#/Settings`);
  await phone.page.getByTestId('auto-reply-activity-item').first().waitFor();
  await cardShot(phone.page, '05-card-phone');
  assert.deepEqual(phone.problems, []);
  await phone.context.close();

  // The draft waits under pending replies, marked as an auto-reply, a real \Draft in Drafts.
  await page.goto(`${server.base}/#/PendingReplies`);
  const draft = page.getByTestId('draft-card').filter({ hasText: SUBJECT }).first();
  await draft.waitFor();
  assert.equal(await draft.getByTestId('draft-auto-reply').innerText(), 'תשובה אוטומטית');
  // The provider's answer is the draft's text.
  assert.ok((await draft.innerText()).includes(ANSWERS.reply.split('\n')[0]), await draft.innerText());
  assert.equal(count('Drafts'), 1);
  const listed = (await api('GET', '/api/drafts')).body.drafts;
  assert.equal(listed.filter((d) => d.isAutoReply).length, 1);
  await shot(page, SUITE, '06-pending-replies');

  // Clear the list: a confirmation first, then the draft is gone from the page and the mailbox.
  await page.goto(`${server.base}/#/Settings`);
  const clear = page.getByTestId('auto-reply-clear');
  await clear.scrollIntoViewIfNeeded();
  await eventually('the clear action enabled', async () => clear.isEnabled());
  await clear.click();
  const dialog = page.getByTestId('confirm-dialog');
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /למחוק את טיוטת המענה האוטומטי שעדיין ממתינה\?/);
  await shot(page, SUITE, '07-clear-confirm');
  const cleared = page.waitForResponse((r) => r.url().endsWith('/api/auto-reply/clear'));
  await dialog.getByTestId('confirm-yes').click();
  const answer = await (await cleared).json();
  assert.deepEqual(answer, { success: true, clearedCount: 1 });
  await page.getByTestId('toast').filter({ hasText: 'טיוטה אחת נמחקה' }).first().waitFor();
  await eventually('no auto-reply draft waiting', async () => (await page.getByTestId('auto-reply-stat-drafts').innerText()) === '0');
  await eventually('Drafts empty in the mailbox', () => count('Drafts') === 0);
  // Today's count stays: the draft was written today.
  assert.equal((await page.getByTestId('auto-reply-stat-today').innerText()), '1');

  await page.goto(`${server.base}/#/PendingReplies`);
  await page.getByTestId('drafts-empty').waitFor();
  assert.equal((await api('GET', '/api/drafts')).body.drafts.length, 0);

  assert.deepEqual(problems, []);
  await page.context().close();
});
