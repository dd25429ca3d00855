// The compose editor (Lexical, issue 21) typed in a real Chromium against the real binary and a real
// Dovecot + Postfix: a Hebrew and an English paragraph each read their own way, the RTL/LTR switch,
// bold/italic/underline, lists, a quote, a link through the link box, undo/redo, a paste from Word
// and from Gmail cleaned to the tags the server keeps; the mail is scheduled, opened again from the
// outbox (the HTML comes back unchanged, also after a new edit), then sent, and the HTML part that
// reaches the recipient has each paragraph with its `dir`. Screenshots: e2e/screenshots/editor/.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launch, newPage, shot } from './support/browser.mjs';
import { startMailServer } from './support/mailserver.mjs';
import { createFirstAdmin, startServer } from './support/server.mjs';
import { connectMailbox, eventually, jsonApi, signIn as signInAs } from './support/session.mjs';

const SUITE = 'editor';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };
const SUBJECT = 'בדיקת העורך';

let mail;
let server;
let browser;
let token;

const api = jsonApi(() => server.base, () => token);

before(async () => {
  mail = await startMailServer();
  const config = join(mail.dir, 'editor.toml');
  writeFileSync(config, `${readFileSync(mail.configArgs[1], 'utf8')}\n[compose]\nundo_send_secs = 1\n`);
  server = await startServer({ args: ['--config', config] });
  await createFirstAdmin(server, ADMIN);
  token = (await api('POST', '/api/app/login', { username: ADMIN.username, password: ADMIN.password })).body.token;
  await connectMailbox(api, mail);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  mail?.stop();
});

/** The decoded text/html part of a raw MIME message (base64 or quoted-printable). */
function htmlPart(raw) {
  const m = /Content-Type:\s*text\/html[^]*?\r?\n\r?\n/i.exec(raw);
  assert.ok(m, 'an HTML part');
  const head = m[0];
  const rest = raw.slice(m.index + head.length);
  const body = rest.split(/\r?\n--/)[0];
  if (/Content-Transfer-Encoding:\s*base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/Content-Transfer-Encoding:\s*quoted-printable/i.test(head)) {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

const editor = (page) => page.getByTestId('compose-editor');
/** The direction each top-level block of the editor is laid out in. */
const layoutDirections = (page) => editor(page).evaluate((el) => Array.from(el.children).map((c) => getComputedStyle(c).direction));

/** A paste as the browser delivers it, with these types (MIME type → text) on the clipboard. */
async function pasteData(page, types) {
  await editor(page).evaluate((el, entries) => {
    const data = new DataTransfer();
    for (const [type, value] of entries) data.setData(type, value);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, Object.entries(types));
}

/** A paste with HTML and plain text on the clipboard. */
const paste = (page, html, text) => pasteData(page, { 'text/html': html, 'text/plain': text });

async function outboxBody() {
  const items = (await api('GET', '/api/outbox')).body.items;
  assert.equal(items.length, 1, JSON.stringify(items));
  return { id: items[0].id, body: items[0].mail.body };
}

async function schedule(page) {
  await page.getByTestId('compose-schedule-open').click();
  // Tomorrow at 09:00, at least nine hours on: "in one hour" zeroes the minutes, so at hh:59 it
  // is due within the minute and the send worker may take the item before the next edit.
  await page.getByTestId('schedule-quick-tomorrow').click();
  await page.getByTestId('schedule-confirm').click();
  // Done when compose has closed: the URL alone may still be the one of the last save.
  await page.getByTestId('compose-page').waitFor({ state: 'detached' });
  assert.match(page.url(), /folder=drafts/);
}

/** Opens the outbox item in compose and waits for its body. */
async function reopen(page, id) {
  await page.goto(`${server.base}/#/Compose?outboxId=${encodeURIComponent(id)}`);
  await page.getByTestId('compose-page').waitFor();
  await editor(page).locator('blockquote').waitFor();
  // With its recipient and subject there, compose puts the caret in the body (at its start).
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'compose-editor');
  // Lexical takes a selection change that follows its own (the focus) within a moment for an echo
  // of it; a person's first key comes later than a script's.
  await page.waitForTimeout(300);
}

const WORD =
  '<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style>p.MsoNormal{margin:0}</style></head><body lang=HE>' +
  '<!--StartFragment--><p class=MsoNormal dir=RTL style="text-align:right;direction:rtl"><b><span style="font-family:Arial">מוורד</span></b>' +
  '<span> עם עיצוב<o:p></o:p></span></p><!--EndFragment--></body></html>';
const GMAIL =
  '<div dir="ltr"><div>From <font color="#ff0000">Gmail</font> <a href="https://example.com/x" target="_blank" onclick="evil()">link</a></div>' +
  '<img src="https://tracker.example/p.gif"><script>alert(1)</script></div>';

test('the compose editor: directions, formats, lists, quote, link, undo, paste, round trip and the sent HTML', async () => {
  const { page, problems } = await newPage(browser);
  await signInAs(page, server, ADMIN);
  // The editor is in its own chunk: the inbox never loads it, compose does.
  await page.getByTestId('inbox-page').waitFor();
  await page.waitForLoadState('networkidle');
  const scripts = () => page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name).filter((n) => n.endsWith('.js')));
  assert.ok(!(await scripts()).some((n) => /RichEditor-/.test(n)), (await scripts()).join(' '));
  await page.goto(`${server.base}/#/Compose`);
  await page.getByTestId('compose-page').waitFor();
  assert.ok((await scripts()).some((n) => /RichEditor-/.test(n)));
  await page.getByTestId('compose-to').fill('user2@example.test');
  await page.getByTestId('compose-to').press('Enter');
  await page.getByTestId('compose-subject').fill(SUBJECT);
  await shot(page, SUITE, '01-empty');

  // A Hebrew and an English paragraph: each reads its own way, the editor stays right-to-left.
  await editor(page).click();
  await page.keyboard.type('שלום לכולם, this is mixed');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Hello everyone, שלום');
  assert.deepEqual(await layoutDirections(page), ['rtl', 'ltr']);

  // Bold, italic, underline from the toolbar, each on and off.
  await page.keyboard.press('Enter');
  for (const [fmt, word] of [
    ['fmt-bold', 'מודגש'],
    ['fmt-italic', 'נטוי'],
    ['fmt-underline', 'קו'],
  ]) {
    await page.getByTestId(fmt).click();
    assert.equal(await page.getByTestId(fmt).getAttribute('aria-pressed'), 'true');
    await page.keyboard.type(word);
    await page.getByTestId(fmt).click();
    await page.keyboard.type(' ');
  }

  // A bulleted list (Enter on an empty item leaves it), a numbered one, a quote.
  await page.keyboard.press('Enter');
  await page.getByTestId('fmt-bullets').click();
  await page.keyboard.type('פריט ראשון');
  await page.keyboard.press('Enter');
  await page.keyboard.type('פריט שני');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.getByTestId('fmt-numbers').click();
  await page.keyboard.type('first');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.getByTestId('fmt-quote').click();
  assert.equal(await page.getByTestId('fmt-quote').getAttribute('aria-pressed'), 'true');
  await page.keyboard.type('ציטוט מהמייל הקודם');
  await page.keyboard.press('Enter');
  // Out of the quote: a new plain paragraph.
  assert.equal(await page.getByTestId('fmt-quote').getAttribute('aria-pressed'), 'false');

  // A link over selected text, through the link box (a javascript: link is refused).
  await page.keyboard.type('האתר שלנו');
  await page.keyboard.press('Shift+Home');
  await page.getByTestId('fmt-link').click();
  await page.getByTestId('link-url').fill('javascript:alert(1)');
  await page.getByTestId('link-apply').click();
  await page.getByTestId('link-popover').filter({ hasText: 'הקישור חייב להתחיל' }).waitFor();
  await page.getByTestId('link-url').fill('https://example.com/he');
  await shot(page, SUITE, '02-link-box');
  await page.getByTestId('link-url').press('Enter');
  await page.getByTestId('link-popover').waitFor({ state: 'detached' });
  assert.equal(await editor(page).locator('a').getAttribute('href'), 'https://example.com/he');
  // The editor has the focus back, the caret after the link.
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'compose-editor');

  // The direction switch: this Hebrew line is laid out left to right.
  await page.keyboard.press('Enter');
  await page.keyboard.type('שורה משמאל לימין');
  await page.getByTestId('fmt-dir').click();
  assert.equal(await page.getByTestId('fmt-dir').getAttribute('aria-pressed'), 'true');
  assert.equal((await layoutDirections(page)).at(-1), 'ltr');

  // Undo and redo: the last words go and come back (the toolbar and Ctrl+Z).
  await page.keyboard.type(' נוסף');
  const withExtra = await editor(page).innerText();
  await page.getByTestId('fmt-undo').click();
  assert.ok(!(await editor(page).innerText()).includes('נוסף'), 'undo took the words back');
  await page.getByTestId('fmt-redo').click();
  assert.equal(await editor(page).innerText(), withExtra);
  await page.keyboard.press('Control+z');
  assert.ok(!(await editor(page).innerText()).includes('נוסף'));

  // Pastes from Word and from Gmail: clean paragraphs with their direction, nothing else.
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await paste(page, WORD, 'מוורד עם עיצוב');
  await page.keyboard.press('Enter');
  await paste(page, GMAIL, 'From Gmail link');
  assert.equal(await editor(page).locator('img, script, font, [onclick], [style*="color"]').count(), 0);
  await shot(page, SUITE, '03-formatted');

  // Scheduled: the outbox holds the editor's HTML, through the server's sanitizer (which gives
  // links target/rel and writes CSS its own way; it keeps every tag and `dir` the editor wrote).
  await schedule(page);
  const saved = await outboxBody();
  const LINK = 'target="_blank" rel="noopener noreferrer nofollow"';
  const expected =
    '<p dir="rtl">שלום לכולם, this is mixed</p>' +
    '<p dir="ltr">Hello everyone, שלום</p>' +
    '<p dir="rtl"><b>מודגש</b> <i>נטוי</i> <u>קו</u>&nbsp;</p>' +
    '<ul dir="rtl"><li>פריט ראשון</li><li>פריט שני</li></ul>' +
    '<ol dir="ltr"><li>first</li></ol>' +
    '<blockquote dir="rtl">ציטוט מהמייל הקודם</blockquote>' +
    `<p dir="rtl"><a href="https://example.com/he" ${LINK}>האתר שלנו</a></p>` +
    '<p dir="ltr">שורה משמאל לימין</p>' +
    '<p dir="rtl"><b>מוורד</b> עם עיצוב</p>' +
    `<p dir="ltr">From Gmail <a href="https://example.com/x" ${LINK}>link</a></p>`;
  assert.equal(saved.body, expected);

  // Opened again from the outbox: the same HTML without an edit, and only the new line after one.
  await reopen(page, saved.id);
  assert.deepEqual(await layoutDirections(page), ['rtl', 'ltr', 'rtl', 'rtl', 'ltr', 'rtl', 'rtl', 'ltr', 'rtl', 'ltr']);
  await shot(page, SUITE, '04-reopened');
  await schedule(page);
  assert.equal((await outboxBody()).body, expected, 'reloaded and saved again: unchanged');

  await reopen(page, saved.id);
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('בברכה, דנה');
  await schedule(page);
  assert.equal((await outboxBody()).body, `${expected}<p dir="rtl">בברכה, דנה</p>`, 'edited: only the new line changed');

  // Sent: the recipient's HTML part carries each paragraph's direction inside the server's frame.
  await reopen(page, saved.id);
  await page.getByTestId('compose-send').click();
  await page.getByTestId('compose-page').waitFor({ state: 'detached' });
  assert.match(page.url(), /folder=sent/);
  const raw = await eventually('the mail at user2', () => {
    const out = mail.doveadm('-f', 'pager', 'fetch', '-u', 'user2@example.test', 'text', 'mailbox', 'INBOX', 'subject', SUBJECT);
    return out.includes('Content-Type') ? out : null;
  });
  const html = htmlPart(raw);
  assert.match(html, /<body dir="rtl">/);
  assert.ok(html.includes(`${expected}<p dir="rtl">בברכה, דנה</p>`), html);

  // A draft in the mailbox's Drafts, edited on the pending replies page in the same editor: saved
  // again without a change it is the same HTML; after an edit only the edit differs.
  await page.goto(`${server.base}/#/Compose`);
  await page.getByTestId('compose-to').fill('user2@example.test');
  await page.getByTestId('compose-to').press('Enter');
  await page.getByTestId('compose-subject').fill('טיוטה מעוצבת');
  await editor(page).click();
  await page.keyboard.type('שורה ');
  await page.getByTestId('fmt-bold').click();
  await page.keyboard.type('מודגשת');
  await page.getByTestId('fmt-bold').click();
  await page.keyboard.press('Enter');
  await page.keyboard.type('An English line');
  await page.keyboard.press('Enter');
  await page.getByTestId('fmt-bullets').click();
  await page.keyboard.type('פריט');
  await page.getByTestId('compose-save-draft').click();
  await page.getByTestId('compose-page').waitFor({ state: 'detached' });
  const draftHtml = async () => {
    const drafts = (await api('GET', '/api/drafts')).body.drafts.filter((d) => d.subject === 'טיוטה מעוצבת');
    return drafts.length === 1 ? drafts[0].draftContent : null;
  };
  const first = await eventually('the draft in Drafts', draftHtml);
  const body = '<p dir="rtl">שורה <b>מודגשת</b></p><p dir="ltr">An English line</p><ul dir="rtl"><li>פריט</li></ul>';
  assert.ok(first.includes(body), first);
  await page.goto(`${server.base}/#/PendingReplies`);
  const card = page.getByTestId('draft-card').filter({ hasText: 'טיוטה מעוצבת' });
  const edit = async () => {
    if ((await card.getByTestId('draft-edit').count()) === 0) await card.getByTestId('draft-toggle').click();
    await card.getByTestId('draft-edit').click();
    await card.getByTestId('draft-text').locator('ul').waitFor();
  };
  await edit();
  assert.equal(await card.getByTestId('draft-text').locator('strong, b').innerText(), 'מודגשת');
  await shot(page, SUITE, '05-draft-edit');
  const updated = page.getByTestId('toast').filter({ hasText: 'הטיוטה עודכנה בהצלחה' });
  await card.getByTestId('draft-save').click();
  await updated.first().waitFor();
  await card.getByTestId('draft-text').waitFor({ state: 'detached' });
  // Saving replaces the IMAP message; its HTML is the same as before, byte for byte.
  assert.equal(await eventually('the draft saved again', draftHtml), first);
  await edit();
  await card.getByTestId('draft-text').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' נוסף');
  await card.getByTestId('draft-save').click();
  await card.getByTestId('draft-text').waitFor({ state: 'detached' });
  const edited = await eventually('the edited draft', async () => ((await draftHtml())?.includes('פריט נוסף') ? draftHtml() : null));
  assert.ok(edited.includes(body.replace('<li>פריט</li>', '<li>פריט נוסף</li>')), edited);

  // The phone layout: the toolbar wraps, nothing cut off.
  const phone = await newPage(browser, { width: 375, height: 740 });
  await signInAs(phone.page, server, ADMIN);
  await phone.page.goto(`${server.base}/#/Compose`);
  await editor(phone.page).click();
  await phone.page.keyboard.type('שלום מהטלפון');
  await shot(phone.page, SUITE, '06-phone');
  const box = await phone.page.locator('.editor-toolbar').boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= 375, `toolbar inside the screen: ${JSON.stringify(box)}`);

  // Copy and paste inside the editor. Lexical's clipboard module comes in a chunk of its own once
  // the editor is there (clipboardLater.ts); with it a copy carries HTML and Lexical's JSON, and a
  // paste of that JSON gives back the paragraph. Then a plain-text paste of two lines.
  const area = editor(phone.page);
  await area.press('Control+a');
  const copied = await phone.page.waitForFunction(() => {
    const data = new DataTransfer();
    const el = document.querySelector('[data-testid="compose-editor"]');
    el.dispatchEvent(new ClipboardEvent('copy', { clipboardData: data, bubbles: true, cancelable: true }));
    const json = data.getData('application/x-lexical-editor');
    return json && { json, html: data.getData('text/html'), text: data.getData('text/plain') };
  });
  const clip = await copied.jsonValue();
  assert.equal(clip.text, 'שלום מהטלפון');
  assert.match(clip.html, /שלום מהטלפון/);
  // Each copy above is an update of Lexical's, which writes its selection (all) back to the page:
  // the caret is moved only once they are done, and Enter waits for Lexical to take it.
  await phone.page.waitForTimeout(300);
  await area.press('End');
  await phone.page.waitForFunction(() => getSelection()?.isCollapsed);
  await phone.page.waitForTimeout(300);
  await area.press('Enter');
  await pasteData(phone.page, { 'text/plain': clip.text, 'text/html': clip.html, 'application/x-lexical-editor': clip.json });
  await area.press('Enter');
  await pasteData(phone.page, { 'text/plain': 'שורה א\nשורה ב' });
  assert.deepEqual(await area.locator('p').allInnerTexts(), ['שלום מהטלפון', 'שלום מהטלפון', 'שורה א', 'שורה ב']);
  assert.deepEqual(phone.problems, []);
  await phone.context.close();

  assert.deepEqual(problems, []);
});
