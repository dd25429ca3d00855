// Meeting invitations and the agent-access card end to end (issue 41): the real binary, a real
// Dovecot + Postfix, headless Chromium, at desktop (1280×800) and phone (390×844) sizes.
// - Google Calendar's invitation gets its card above the body; accepting with a note sends the
//   iTIP REPLY to the organiser (user2's INBOX on the server) and the card shows the answer;
//   another invitation at the same time shows the conflict; Thunderbird's from London shows both
//   clocks; the cancellation marks the card cancelled;
// - the settings page's agent card: a token made with its scopes, its secret shown once with the
//   Claude Desktop configuration, an agent's call in its log, revoked after a confirmation.
// Screenshots: web/e2e/screenshots/invites/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { launch, newPage, shot } from './support/browser.mjs';
import { fixtures, startMailServer } from './support/mailserver.mjs';
import { createFirstAdmin, startServer } from './support/server.mjs';
import { connectMailbox, eventually, jsonApi, signIn } from './support/session.mjs';

const SUITE = 'invites';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };
const PHONE = { width: 390, height: 844 };

let mail;
let server;
let browser;
let token;

const api = jsonApi(() => server.base, () => token);

const fixture = (name) => readFileSync(fixtures(`invites/${name}`), 'utf8');

/** An invitation written inline (iMIP, 8-bit UTF-8): at the same time as Google's, so a conflict. */
const CONFLICTING = [
  'From: Noa Friedman <user2@example.test>',
  'To: user1@example.test',
  'Subject: =?UTF-8?B?15TXltee16DXlDog16nXmdeX16og16rXp9em15nXkQ==?=',
  'Message-ID: <budget-call-1@example.test>',
  'Date: Fri, 20 Nov 2026 12:00:00 +0000',
  'MIME-Version: 1.0',
  'Content-Type: multipart/alternative; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/plain; charset=UTF-8',
  'Content-Transfer-Encoding: 8bit',
  '',
  'שיחת תקציב',
  '--b1',
  'Content-Type: text/calendar; charset=UTF-8; method=REQUEST',
  'Content-Transfer-Encoding: 8bit',
  '',
  'BEGIN:VCALENDAR',
  'PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN',
  'VERSION:2.0',
  'METHOD:REQUEST',
  'BEGIN:VEVENT',
  'UID:budget-call-1@example.test',
  'DTSTAMP:20261120T120000Z',
  'DTSTART;TZID=Asia/Jerusalem:20270223T143000',
  'DTEND;TZID=Asia/Jerusalem:20270223T153000',
  'SUMMARY:שיחת תקציב',
  'LOCATION:זום',
  'ORGANIZER;CN=Noa Friedman:mailto:user2@example.test',
  'ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:user1@example.test',
  'SEQUENCE:0',
  'END:VEVENT',
  'END:VCALENDAR',
  '--b1--',
  '',
].join('\r\n');

/** The mail with `messageId` in user1's inbox (once synced). */
const inInbox = (messageId) =>
  eventually(`${messageId} in the inbox`, async () => {
    const r = await api('GET', '/api/emails/inbox?perPage=100');
    return (Array.isArray(r.body) ? r.body : []).find((m) => m.messageId === messageId);
  });

/** Opens a mail through the URL and waits for its invitation card. */
async function openCard(page, id) {
  await page.goto(`${server.base}/#/inbox?mail=${id}`);
  const card = page.getByTestId('invite-card');
  await card.waitFor();
  return card;
}

before(async () => {
  mail = await startMailServer();
  server = await startServer({ args: mail.configArgs });
  await createFirstAdmin(server, ADMIN);
  token = (await api('POST', '/api/app/login', { username: ADMIN.username, password: ADMIN.password })).body.token;
  await connectMailbox(api, mail);
  // Hand-written fixtures: the learned spam filter has no say here (it has its own suite).
  const off = await api('POST', '/api/settings/spam-detection', { enabled: false });
  assert.equal(off.status, 200, JSON.stringify(off.body));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  mail?.stop();
});

test('an invitation: the card, an answer to the organiser, a conflict, two clocks, a cancellation', async () => {
  await mail.deliver('user1@example.test', fixture('google-request.eml'));
  await mail.deliver('user1@example.test', fixture('thunderbird-london.eml'));
  const google = await inInbox('calendar-7c1f9a2e-0001@google.com');
  const london = await inInbox('b3f1e2d4-5a6b-7c8d-9e0f-1a2b3c4d5e6f@example.test');

  const { page, problems } = await newPage(browser);
  await signIn(page, server, ADMIN);
  let card = await openCard(page, google.id);
  assert.equal(await card.getByRole('heading').innerText(), 'ישיבת תכנון רבעונית');
  assert.equal(await card.getByTestId('invite-when').innerText(), 'יום שלישי, 23/02/2027, 14:00 עד 15:00');
  assert.match(await card.getByTestId('invite-attendees').innerText(), /טרם ענה\/תה/);
  assert.equal(await card.getAttribute('data-state'), 'active');
  await card.scrollIntoViewIfNeeded();
  await shot(page, SUITE, '01-invitation');

  // Accept with a note: the REPLY reaches the organiser's mailbox.
  await card.getByTestId('invite-add-comment').click();
  await card.getByTestId('invite-comment').fill('אגיע, תודה');
  await card.getByTestId('invite-accepted').click();
  await page.getByTestId('toast').filter({ hasText: 'התשובה נשלחה' }).first().waitFor();
  assert.equal(await card.getByTestId('invite-your-answer').innerText(), 'התשובה שלך: מגיע/ה');
  assert.equal(await card.getByTestId('invite-accepted').getAttribute('aria-pressed'), 'true');
  await card.scrollIntoViewIfNeeded();
  await shot(page, SUITE, '02-accepted');
  const reply = await eventually(
    'the REPLY in user2\'s INBOX',
    () => {
      const out = mail.doveadm('-f', 'flow', 'fetch', '-u', 'user2@example.test', 'text', 'mailbox', 'INBOX');
      return out.includes('METHOD:REPLY') && out;
    },
    60_000,
  );
  assert.match(reply, /PARTSTAT=(3D)?ACCEPTED/);
  assert.match(reply, /text\/calendar; charset="?utf-8"?; method="?REPLY/i);

  // Another invitation at the same time: the conflict with the accepted one.
  await mail.deliver('user1@example.test', CONFLICTING);
  const budget = await inInbox('budget-call-1@example.test');
  card = await openCard(page, budget.id);
  const conflicts = card.getByTestId('invite-conflicts');
  await conflicts.waitFor();
  assert.match(await conflicts.innerText(), /ישיבת תכנון רבעונית/);
  await conflicts.scrollIntoViewIfNeeded();
  await shot(page, SUITE, '03-conflict');

  // From London: the user's clock, and the organiser's.
  card = await openCard(page, london.id);
  assert.equal(await card.getByTestId('invite-when').locator('span').first().innerText(), 'יום חמישי, 14/01/2027, 14:00 עד 15:00');
  assert.match(await card.getByTestId('invite-event-zone').innerText(), /12:00 עד 13:00 \(לפי שעון Europe\/London\)/);
  await card.scrollIntoViewIfNeeded();
  await shot(page, SUITE, '04-two-clocks');

  // On a phone: the card above the body, one column.
  const phone = await newPage(browser, PHONE);
  await signIn(phone.page, server, ADMIN);
  card = await openCard(phone.page, budget.id);
  await card.getByTestId('invite-conflicts').waitFor();
  const box = await card.boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width + 1, `the card fits the phone: ${JSON.stringify(box)}`);
  await card.scrollIntoViewIfNeeded();
  await shot(phone.page, SUITE, '05-phone-invitation');

  // The cancellation: the card of the first mail says so, and offers no answer.
  await mail.deliver('user1@example.test', fixture('google-cancel.eml'));
  await eventually(
    'the invitation cancelled',
    async () => (await api('GET', `/api/invites/${google.id}`)).body.invitation?.state === 'cancelled',
  );
  await page.goto(`${server.base}/#/inbox?mail=${google.id}`);
  await page.reload();
  card = page.getByTestId('invite-card');
  await card.getByTestId('invite-cancelled').waitFor();
  assert.equal(await card.getAttribute('data-state'), 'cancelled');
  assert.equal(await card.getByTestId('invite-accepted').count(), 0);
  await card.scrollIntoViewIfNeeded();
  await shot(page, SUITE, '06-cancelled');

  assert.deepEqual(problems, []);
  assert.deepEqual(phone.problems, []);
  await phone.context.close();
  await page.context().close();
});

test('the agent card: a token with its scopes, its secret once, its call log, revoked', async () => {
  const { page, problems } = await newPage(browser);
  await signIn(page, server, ADMIN);
  await page.goto(`${server.base}/#/Settings`);
  const card = page.getByTestId('mcp-card');
  await card.waitFor();
  await card.scrollIntoViewIfNeeded();
  assert.match(await card.getByTestId('mcp-endpoint').innerText(), /\/mcp$/);
  await card.getByTestId('mcp-name').fill('Claude במחשב הנייד');
  await card.getByTestId('mcp-scope-drafts').check();
  await card.getByTestId('mcp-create').click();
  const secret = await card.getByTestId('mcp-secret').innerText();
  assert.match(secret, /^mcp_[0-9a-f]{64}$/);
  assert.match(await card.getByTestId('mcp-config').innerText(), /mcp-remote/);
  await card.getByTestId('mcp-created').scrollIntoViewIfNeeded();
  await shot(page, SUITE, '08-token-created');
  await card.getByTestId('mcp-created-done').click();
  assert.equal(await card.getByTestId('mcp-secret').count(), 0, 'the secret is shown once');

  // An agent uses it (a plain JSON-RPC call of the 2026-07-28 revision).
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const res = await fetch(`${server.base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${secret}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'list_folder',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: meta, name: 'list_folder', arguments: { folder: 'inbox' } } }),
  });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).result.isError, false);

  await page.reload();
  await card.waitFor();
  const row = card.getByTestId('mcp-token').first();
  await row.scrollIntoViewIfNeeded();
  assert.equal(await row.getByTestId('mcp-token-calls').innerText(), 'קריאה אחת');
  await row.getByTestId('mcp-token-show-calls').click();
  assert.match(await row.getByTestId('mcp-calls').innerText(), /list_folder/);
  await shot(page, SUITE, '09-token-calls');

  const phone = await newPage(browser, PHONE);
  await signIn(phone.page, server, ADMIN);
  await phone.page.goto(`${server.base}/#/Settings`);
  const small = phone.page.getByTestId('mcp-card');
  await small.waitFor();
  await small.getByTestId('mcp-token').first().scrollIntoViewIfNeeded();
  await shot(phone.page, SUITE, '10-phone-tokens');

  await row.getByTestId('mcp-token-revoke').click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'ביטול האסימון' }).click();
  await page.getByTestId('toast').filter({ hasText: 'האסימון בוטל' }).first().waitFor();
  await eventually('listed as revoked', async () => (await row.getAttribute('data-revoked')) === 'true');
  const refused = await fetch(`${server.base}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
  });
  assert.equal(refused.status, 401);
  await shot(page, SUITE, '11-token-revoked');

  assert.deepEqual(problems, []);
  assert.deepEqual(phone.problems, []);
  await phone.context.close();
  await page.context().close();
});
