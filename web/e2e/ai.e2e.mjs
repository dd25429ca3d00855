// AI help end to end (issue 6) against the real binary, a real Dovecot + Postfix and a local
// provider speaking the Anthropic Messages wire format (support/llm.mjs): store a key in the
// settings, tune the AI-training settings, generate a smart reply into the reading pane's panel,
// generate a subject and improve a body on the compose page, and use the smart features page
// (summary, three replies into compose, smart compose, insights from the real mail).
// Screenshots: web/e2e/screenshots/ai/.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launch, newPage, shot } from './support/browser.mjs';
import { ANSWERS, startLlm } from './support/llm.mjs';
import { startMailServer } from './support/mailserver.mjs';
import { createFirstAdmin, startServer } from './support/server.mjs';
import { connectMailbox, eventually, jsonApi, signIn as signInAs } from './support/session.mjs';

const SUITE = 'ai';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };
const KEY = 'sk-ant-e2e-0123456789abcdef';

let mail;
let llm;
let server;
let browser;
let token;

const api = jsonApi(() => server.base, () => token);

before(async () => {
  mail = await startMailServer();
  await mail.deliver(
    'user1@example.test',
    [
      'From: =?UTF-8?B?16DXldei15Q=?= <user2@example.test>',
      'To: user1@example.test',
      'Subject: =?UTF-8?B?16rXmdeQ15XXnSDXpNeS15nXqdeU?=',
      'Message-ID: <ai-plan-1@example.test>',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      'אפשר להיפגש ביום שלישי בעשר?',
      '',
    ].join('\n'),
  );
  llm = await startLlm();
  const config = join(mail.dir, 'ai.toml');
  writeFileSync(
    config,
    `${readFileSync(mail.configArgs[1], 'utf8')}\n[ai]\nbase_url = "${llm.base}"\nmodel = "claude-e2e"\ntimeout_secs = 10\n`,
  );
  server = await startServer({ args: ['--config', config] });
  await createFirstAdmin(server, ADMIN);
  token = (await api('POST', '/api/app/login', { username: ADMIN.username, password: ADMIN.password })).body.token;
  await connectMailbox(api, mail);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await llm?.stop();
  mail?.stop();
});

const threadRow = (page, text) => page.getByTestId('thread-row').filter({ hasText: text }).first();

test('key, training, smart reply, compose AI menu and the smart features page', async () => {
  const { page, problems } = await newPage(browser);
  await signInAs(page, server, ADMIN);

  // Settings: no key yet; store one. It is never shown again and the provider has not been asked.
  await page.goto(`${server.base}/#/Settings`);
  const status = page.getByTestId('ai-key-status');
  // The status says "checking…" until the server answered.
  const known = await eventually('the key status', async () => status.getAttribute('data-exists'));
  assert.equal(known, 'false');
  await page.getByTestId('ai-key-input').fill(KEY);
  await page.getByTestId('ai-key-save').click();
  await eventually('the key stored', async () => (await status.getAttribute('data-exists')) === 'true');
  assert.equal(await page.getByTestId('ai-key-input').inputValue(), '');
  assert.equal(llm.requests.length, 0);
  await page.getByTestId('ai-key-status').scrollIntoViewIfNeeded();
  await shot(page, SUITE, '01-settings-key');

  // AI training: a friendly tone, saved to the server; the success message goes away.
  await page.goto(`${server.base}/#/AITraining`);
  await page.getByTestId('training-tone').selectOption('friendly');
  await page.getByTestId('training-max-length').fill('300');
  await page.getByTestId('training-save').click();
  await page.getByTestId('training-saved').waitFor();
  await shot(page, SUITE, '02-training');
  const saved = (await api('GET', '/api/settings/ai-training')).body;
  assert.equal(saved.tone, 'friendly');
  assert.equal(saved.maxLength, 300);
  await page.getByTestId('training-saved').waitFor({ state: 'detached', timeout: 6_000 });

  // Smart reply in the reading pane: the generated text lands in the reply panel.
  await page.goto(`${server.base}/#/Inbox`);
  await threadRow(page, 'תיאום פגישה').getByTestId('thread-row-open').click();
  await page.getByTestId('reading-pane').waitFor();
  // With one of the AI-training templates: its instructions go with the request.
  await page.getByTestId('smart-reply-template').selectOption('concise');
  await page.getByTestId('smart-reply').click();
  const replyText = page.getByTestId('reply-text');
  await eventually('the smart reply in the panel', async () => (await replyText.inputValue()).includes('יום שלישי בעשר מתאים לי'));
  const asked = llm.last();
  assert.equal(asked.path, '/v1/messages');
  assert.equal(asked.headers['x-api-key'], KEY);
  assert.equal(asked.headers['anthropic-version'], '2023-06-01');
  assert.equal(asked.body.model, 'claude-e2e');
  assert.match(asked.system, /Write the reply in Hebrew \(עברית\)/);
  assert.match(asked.system, /friendly/);
  assert.match(asked.system, /At most 300 words/);
  assert.match(asked.user, /אפשר להיפגש ביום שלישי בעשר\?/);
  assert.match(asked.system, /The user's instructions for this reply: כתוב תשובה קצרה של עד שלושה משפטים/);
  await shot(page, SUITE, '03-smart-reply');

  // Compose: generate a subject from the body, then improve the body in the friendly style.
  await page.goto(`${server.base}/#/Compose`);
  await page.getByTestId('compose-page').waitFor();
  const askedBefore = llm.requests.length;
  await page.getByTestId('ai-menu').click();
  await page.getByTestId('ai-generate-subject').click();
  await page.getByTestId('compose-error').filter({ hasText: 'יש לכתוב קודם את תוכן המייל' }).first().waitFor();
  assert.equal(llm.requests.length, askedBefore, 'an empty body asks nothing');
  await page.getByTestId('compose-editor').click();
  await page.keyboard.type('רציתי לשאול אם אפשר להיפגש ביום שלישי');
  await page.getByTestId('ai-menu').click();
  await page.getByTestId('ai-generate-subject').click();
  await eventually('the generated subject', async () => (await page.getByTestId('compose-subject').inputValue()) === ANSWERS.subject);
  assert.match(llm.last().user, /רציתי לשאול אם אפשר להיפגש ביום שלישי/);
  await page.getByTestId('ai-menu').click();
  await page.getByTestId('ai-improve-friendly').click();
  await eventually('the improved body', async () => (await page.getByTestId('compose-editor').innerText()).includes('אשמח לקבוע פגישה ביום שלישי'));
  assert.match(llm.last().system, /friendly, warm tone/);
  // The improved text is the editor's own paragraphs, each with its direction.
  assert.deepEqual(
    await page.getByTestId('compose-editor').evaluate((el) => Array.from(el.children).map((c) => getComputedStyle(c).direction)),
    ['rtl', 'rtl', 'rtl'],
  );
  await shot(page, SUITE, '04-compose-ai');
  // Undo the improvement: the body as it was typed, and the offer is gone.
  await page.getByTestId('ai-undo-improve').click();
  await eventually('the body back', async () => (await page.getByTestId('compose-editor').innerText()).trim() === 'רציתי לשאול אם אפשר להיפגש ביום שלישי');
  await page.getByTestId('ai-improved').waitFor({ state: 'detached' });
  // Improved again, then taken back with Ctrl+Z (the editor's own undo) instead.
  await page.getByTestId('ai-menu').click();
  await page.getByTestId('ai-improve-friendly').click();
  await eventually('improved again', async () => (await page.getByTestId('compose-editor').innerText()).includes('אשמח לקבוע פגישה ביום שלישי'));
  await page.getByTestId('compose-editor').click();
  await page.keyboard.press('Control+z');
  await eventually('Ctrl+Z undid it', async () => (await page.getByTestId('compose-editor').innerText()).trim() === 'רציתי לשאול אם אפשר להיפגש ביום שלישי');
  // An edit of the user's: the improvement is theirs, no undo offer is left.
  await page.getByTestId('ai-improved').waitFor({ state: 'detached' });

  // Smart features: the latest mail, a real summary, three replies, one opens compose.
  await page.goto(`${server.base}/#/SmartFeatures`);
  const item = page.getByTestId('smart-mail-item').filter({ hasText: 'תיאום פגישה' }).first();
  await item.click();
  await page.getByTestId('smart-summarize').click();
  await page.getByTestId('smart-summary').filter({ hasText: ANSWERS.summary.summary }).waitFor();
  assert.equal(await page.getByTestId('smart-sentiment').getAttribute('data-value'), 'positive');
  assert.equal(await page.getByTestId('smart-priority').getAttribute('data-value'), 'high');
  await page.getByTestId('smart-replies-generate').click();
  await eventually('three replies', async () => (await page.getByTestId('smart-reply-option').count()) === 3);
  const insights = page.getByTestId('smart-insights');
  await insights.waitFor();
  assert.match(await page.getByTestId('smart-insight-received').innerText(), /מייל אחד/);
  assert.doesNotMatch(await insights.innerText(), /85%/);
  await shot(page, SUITE, '05-smart-features');

  await page.getByTestId('smart-reply-option').first().click();
  await page.getByTestId('compose-page').waitFor();
  await eventually('the suggestion in the editor', async () => (await page.getByTestId('compose-editor').innerText()).includes(ANSWERS.replies[0].text));
  assert.equal(await page.getByTestId('compose-subject').inputValue(), 'Re: תיאום פגישה');
  assert.equal(await page.getByTestId('recipient-chip').first().getAttribute('data-email'), 'user2@example.test');
  await shot(page, SUITE, '06-reply-in-compose');

  // Smart compose: a short description becomes a mail body in compose.
  await page.goto(`${server.base}/#/SmartFeatures`);
  await page.getByTestId('smart-compose-input').fill('בקש מהצוות לשלוח דוחות עד יום חמישי');
  await page.getByTestId('smart-compose-submit').click();
  await page.getByTestId('compose-page').waitFor();
  await eventually('the composed body', async () => (await page.getByTestId('compose-editor').innerText()).includes('נא לשלוח את הדוחות עד יום חמישי'));
  assert.match(llm.last().user, /בקש מהצוות לשלוח דוחות עד יום חמישי/);

  // The phone layout of the smart features page.
  const phone = await newPage(browser, { width: 390, height: 844 });
  await signInAs(phone.page, server, ADMIN);
  await phone.page.goto(`${server.base}/#/SmartFeatures`);
  await phone.page.getByTestId('smart-mail-item').first().waitFor();
  await shot(phone.page, SUITE, '07-smart-phone');
  await phone.context.close();

  // The key went to the provider only: never to the page.
  const settings = await api('GET', '/api/settings/ai');
  assert.ok(!JSON.stringify(settings.body).includes(KEY));
  assert.deepEqual(problems, []);
});
