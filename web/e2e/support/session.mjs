// What the suites that drive a signed-in user share: a JSON client for the real binary, polling
// until a condition holds, signing in through the login page, and connecting the private mail
// server's user1 mailbox (then waiting for its first sync).
import assert from 'node:assert/strict';
import { startMailServer } from './mailserver.mjs';
import { createFirstAdmin, sleep, startServer } from './server.mjs';

/**
 * `api(method, path, body)` → `{status, body}` against `base()`, with `token()` when it has one
 * (both read at call time: a suite starts its server and signs in after defining its client).
 */
export function jsonApi(base, token) {
  return async (method, path, body) => {
    const t = token();
    const res = await fetch(`${base()}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(t ? { authorization: t } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
}

/** Polls `check` until it returns something truthy (and returns that), or fails after `timeout`. */
export async function eventually(what, check, timeout = 30_000) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await sleep(200);
  }
}

/**
 * A zone without summer time whose local time is now between 12:00 and 12:59 (`Etc/GMT-N` is
 * UTC+N). A suite that checks what happened "today" in the user's zone sets it as the user's
 * time zone first: that day's midnight is then eleven hours away or more, whenever the suite runs
 * (in Asia/Jerusalem, a run at 21:59 UTC in winter crosses into the next day part way through).
 */
export function middayZone(now = new Date()) {
  const east = 12 - now.getUTCHours();
  if (east === 0) return 'Etc/GMT';
  return east > 0 ? `Etc/GMT-${east}` : `Etc/GMT+${-east}`;
}

/** Sets the signed-in user's time zone to `middayZone()` (over the settings sync API); returns it. */
export async function setMiddayZone(api) {
  const zone = middayZone();
  const current = await api('GET', '/api/settings/sync');
  assert.equal(current.status, 200, JSON.stringify(current.body));
  const put = await api('PUT', '/api/settings/sync', {
    settingsUpdate: { timezone: zone },
    settingsType: 'general',
    baseVersion: current.body.version,
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.equal(put.body.syncedSettings.timezone, zone);
  return zone;
}

export async function signIn(page, server, { username, password }) {
  await page.goto(`${server.base}/#/login`);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/#\/inbox/i);
}

/** Connects user1 of `mail` over IMAPS/SMTPS and waits until its first sync is done. */
export async function connectMailbox(api, mail) {
  const connected = await api('POST', '/api/auth/login', {
    email_address: 'user1@example.test',
    password: 'pass1',
    imap_server: '127.0.0.1',
    imap_port: mail.ports.imaps,
    imap_ssl: true,
    smtp_server: '127.0.0.1',
    smtp_port: mail.ports.submissions,
    smtp_ssl: true,
  });
  assert.equal(connected.status, 200, JSON.stringify(connected.body));
  await eventually(
    'the initial sync',
    async () => {
      const s = (await api('GET', '/api/auth/accounts')).body.accounts[0].sync;
      return s?.initialSyncDone && s.state === 'idle';
    },
    120_000,
  );
}

/** A plain Hebrew mail from user2 to user1 (8-bit UTF-8 HTML), optionally answering `inReplyTo`. */
export function htmlMail({ subject, messageId, body, inReplyTo, from = 'Noa Friedman <user2@example.test>', extra = '' }) {
  return [
    `From: ${from}`,
    'To: user1@example.test',
    `Subject: ${subject}`,
    `Message-ID: <${messageId}>`,
    ...(inReplyTo ? [`In-Reply-To: <${inReplyTo}>`, `References: <${inReplyTo}>`] : []),
    `Date: ${new Date().toUTCString().replace('GMT', '+0000')}`,
    ...(extra ? [extra] : []),
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=UTF-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    body,
    '',
  ].join('\r\n');
}

/** The mail with `messageId` in `folder`, waited for (once synced). */
export function mailIn(api, folder, messageId) {
  return eventually(`${messageId} in ${folder}`, async () => {
    const r = await api('GET', `/api/emails/${folder}?perPage=100`);
    return (Array.isArray(r.body) ? r.body : []).find((m) => m.messageId === messageId);
  });
}

/**
 * A private Dovecot + Postfix and the binary with `admin` as its first admin, signed in over the
 * API with user1's mailbox connected and synced: `{ mail, server, token }`.
 */
export async function startSignedIn(admin, { args } = {}) {
  const mail = await startMailServer();
  const server = await startServer({ args: args ?? mail.configArgs });
  await createFirstAdmin(server, admin);
  const login = jsonApi(() => server.base, () => null);
  const token = (await login('POST', '/api/app/login', { username: admin.username, password: admin.password })).body.token;
  await connectMailbox(jsonApi(() => server.base, () => token), mail);
  return { mail, server, token };
}
