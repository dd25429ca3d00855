// Web Push on a phone (issue 39): the real binary, a real Dovecot + Postfix, headless Chromium at
// 360×740, and a push service stand-in on loopback (support/pushservice.mjs: RFC 8030, checks the
// VAPID JWT of RFC 8292 and decrypts the RFC 8291 body with the subscription's own keys).
// - the settings card subscribes this browser (Chromium's PushManager answers with the stand-in's
//   subscription: headless Chromium has no vendor push service) and lists it as this device;
// - a mail delivered to Dovecot produces exactly one push, with its Hebrew sender and subject and
//   a link that opens it; a spam-free inbox mail only (an ad is not pushed);
// - quiet hours hold a mail; ending them sends the one summary;
// - the push service's 410 drops the subscription;
// - the service worker shows a pushed note as a Hebrew right-to-left notification (CDP's
//   ServiceWorker.deliverPushMessage, a real push event), and the worker's "open" reaches the
//   page, which opens the mail.
// Screenshots: web/e2e/screenshots/push/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, newPage, shot } from './support/browser.mjs';
import { startMailServer } from './support/mailserver.mjs';
import { startPushService } from './support/pushservice.mjs';
import { createFirstAdmin, sleep, startServer } from './support/server.mjs';
import { connectMailbox, eventually, htmlMail, jsonApi, mailIn, signIn } from './support/session.mjs';

const SUITE = 'push';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };
const PHONE = { width: 360, height: 740, mobile: true };
const SENDER = 'נועה פרידמן';

let pushService;
let mail;
let server;
let browser;
let token;
let sub;
const api = jsonApi(
  () => server.base,
  () => token,
);

before(async () => {
  pushService = await startPushService();
  mail = await startMailServer({
    config: () => '[push]\nallowed_hosts = []\nallowed_private_networks = ["127.0.0.1/32"]\n',
  });
  server = await startServer({ args: mail.configArgs });
  await createFirstAdmin(server, ADMIN);
  token = (await api('POST', '/api/app/login', { username: ADMIN.username, password: ADMIN.password })).body.token;
  await connectMailbox(api, mail);
  browser = await launch();
  sub = pushService.newSubscription();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  mail?.stop();
  await pushService?.stop();
});

/** The device list as the server keeps it. */
async function devices() {
  const r = await api('GET', '/api/push');
  assert.equal(r.status, 200);
  return r.body.devices;
}

/** Delivers a Hebrew mail to user1 and waits until it is synced; its email id. */
async function deliver(subject, { extra = '' } = {}) {
  const messageId = `push-${Date.now()}.${Math.random().toString(36).slice(2)}@example.test`;
  await mail.deliver(
    'user1@example.test',
    htmlMail({ subject, messageId, body: `<p dir="rtl">${subject}</p>`, from: `${SENDER} <user2@example.test>`, extra }),
  );
  return (await mailIn(api, 'inbox', messageId)).id;
}

/** Chromium's PushManager answering with the stand-in's subscription (what a vendor's service would give). */
function fakePushManager(subscription) {
  return `(() => {
    const s = ${JSON.stringify(subscription)};
    let held = null;
    const make = (key) => ({
      endpoint: s.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: key },
      toJSON: () => ({ endpoint: s.endpoint, expirationTime: null, keys: s.keys }),
      unsubscribe: async () => { held = null; return true; },
    });
    PushManager.prototype.subscribe = async function (options) {
      const key = options.applicationServerKey;
      held = make(key instanceof ArrayBuffer ? key : new Uint8Array(key).buffer);
      return held;
    };
    PushManager.prototype.getSubscription = async function () { return held; };
  })();`;
}

test('the settings card subscribes this phone, and a new mail is pushed once with its Hebrew sender and subject', async () => {
  const { page, context, problems } = await newPage(browser, PHONE);
  await context.grantPermissions(['notifications'], { origin: server.base });
  await context.addInitScript(fakePushManager({ endpoint: sub.endpoint, keys: sub.keys }));
  await signIn(page, server, ADMIN);
  await page.goto(`${server.base}/#/Settings`);
  await page.evaluate(() => navigator.serviceWorker.ready);
  const card = page.getByTestId('push-card');
  await card.scrollIntoViewIfNeeded();
  await card.getByTestId('push-subscribe').click();
  const row = card.getByTestId('push-device');
  await row.waitFor();
  assert.equal(await row.getAttribute('data-mine'), 'true');
  assert.match(await row.textContent(), /המכשיר הזה/);
  await row.scrollIntoViewIfNeeded();
  await shot(page, SUITE, 'settings-card-phone');
  const list = await devices();
  assert.equal(list.length, 1);
  assert.equal(list[0].endpoint, sub.endpoint);

  // Spam detection on (the default): a mail it judges spam is not pushed.
  const spamBefore = (await api('GET', '/api/emails/counts')).body.spam;
  await mail.deliver(
    'user1@example.test',
    htmlMail({
      subject: 'זכית!!! FREE MONEY לחץ כאן עכשיו',
      messageId: 'push-spam@example.test',
      body: '<p>FREE MONEY!!! CLICK HERE NOW http://bit.ly/win-now http://tinyurl.com/free-cash BUY NOW!!!</p>',
      from: 'Winner <winner@lottery-prize.example>',
    }),
  );
  await eventually('judged spam', async () => (await api('GET', '/api/emails/counts')).body.spam > spamBefore);
  await sleep(3000);
  assert.equal(pushService.messages(sub.id).length, 0, 'spam is not pushed');
  // The rest of the suite's mail is plain mail: detection off, as the phone suite does.
  assert.equal((await api('POST', '/api/settings/spam-detection', { enabled: false })).status, 200);

  const id = await deliver('הפגישה ביום שלישי');
  const [first] = await eventually('one push', async () => {
    const got = pushService.messages(sub.id);
    return got.length ? got : null;
  });
  assert.equal(first.note.title, SENDER);
  assert.equal(first.note.body, 'הפגישה ביום שלישי');
  assert.equal(first.note.url, `/#/Inbox?mail=${id}`);
  assert.equal(first.note.tag, 'mail');
  assert.equal(first.headers['content-encoding'], 'aes128gcm');
  assert.equal(first.claims.aud, pushService.url);
  // Exactly one: nothing more comes for the same mail.
  await sleep(4000);
  assert.equal(pushService.messages(sub.id).length, 1, JSON.stringify(pushService.refused(sub.id)));
  assert.deepEqual(pushService.refused(sub.id), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the worker shows a push as a Hebrew right-to-left notification, and its link opens the mail', async () => {
  const { page, context } = await newPage(browser, PHONE);
  await context.grantPermissions(['notifications'], { origin: server.base });
  await signIn(page, server, ADMIN);
  await page.evaluate(() => navigator.serviceWorker.ready);
  const [pushed] = pushService.messages(sub.id);
  const cdp = await context.newCDPSession(page);
  const registration = new Promise((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const r = registrations.find((x) => x.scopeURL.startsWith(server.base) && !x.isDeleted);
      if (r) resolve(r.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: server.base,
    registrationId: await registration,
    data: JSON.stringify(pushed.note),
  });
  const shown = await eventually('the notification', () =>
    page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      const list = await reg.getNotifications();
      return list.length ? list.map((n) => ({ title: n.title, body: n.body, dir: n.dir, lang: n.lang, tag: n.tag, data: n.data })) : null;
    }),
  );
  assert.deepEqual(shown[0], {
    title: SENDER,
    body: 'הפגישה ביום שלישי',
    dir: 'rtl',
    lang: 'he',
    tag: 'mail',
    data: { url: pushed.note.url },
  });
  // What a click does: the worker asks the open window to go to the note's page.
  const [worker] = context.serviceWorkers();
  assert.ok(worker, 'the service worker runs');
  // (Outside a click the worker may not focus a window: the message is sent before that refusal.)
  await worker.evaluate((url) => openApp(appPath(url)).catch(() => 'not focused'), pushed.note.url);
  await page.waitForURL(/mail=/);
  await page.getByTestId('reading-pane').getByText('הפגישה ביום שלישי').first().waitFor();
  await shot(page, SUITE, 'opened-from-notification-phone');
  await context.close();
});

test('quiet hours hold a mail, and their end sends one summary', async () => {
  const [device] = await devices();
  // The user's zone is Jerusalem (the default): a night around the present minute.
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Jerusalem', hour: '2-digit', minute: '2-digit', hour12: false })
    .format(new Date())
    .split(':')
    .map(Number);
  const minute = (parts[0] % 24) * 60 + parts[1];
  const night = { from: (minute + 1440 - 60) % 1440, to: (minute + 60) % 1440 };
  const set = await api('PATCH', `/api/push/devices/${device.id}`, { quiet: { night, shabbat: null } });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  const before = pushService.messages(sub.id).length;
  await deliver('נשלח בשעות השקט');
  await eventually('held on the device', async () => (await devices())[0].held === 1);
  await sleep(3000);
  assert.equal(pushService.messages(sub.id).length, before, 'nothing pushed in quiet hours');

  const bad = await api('PATCH', `/api/push/devices/${device.id}`, { quiet: { night: { from: 1440, to: 0 }, shabbat: null } });
  assert.equal(bad.status, 400);
  assert.match(bad.body.message ?? bad.body.error ?? '', /שעות השקט/);

  const off = await api('PATCH', `/api/push/devices/${device.id}`, { quiet: { night: null, shabbat: null } });
  assert.equal(off.status, 200);
  const summary = await eventually('the summary', async () => pushService.messages(sub.id)[before]);
  assert.equal(summary.note.title, SENDER);
  assert.equal(summary.note.body, 'נשלח בשעות השקט');
  await sleep(2000);
  assert.equal(pushService.messages(sub.id).length, before + 1);
  assert.equal((await devices())[0].held, 0);
});

test("the push service's 410 drops the subscription, and another user cannot touch a device", async () => {
  const [device] = await devices();
  // Another user of the household sees none of it.
  const made = await api('POST', '/api/admin/users', { username: 'eve', name: 'Eve', password: 'eve-password-1', role: 'user' });
  assert.equal(made.status < 300, true, JSON.stringify(made.body));
  let eveToken = null;
  const eve = jsonApi(
    () => server.base,
    () => eveToken,
  );
  eveToken = (await eve('POST', '/api/app/login', { username: 'eve', password: 'eve-password-1' })).body.token;
  assert.deepEqual((await eve('GET', '/api/push')).body.devices, []);
  assert.equal((await eve('PATCH', `/api/push/devices/${device.id}`, { enabled: false })).status, 404);
  assert.equal((await eve('DELETE', `/api/push/devices/${device.id}`)).status, 404);
  assert.equal((await eve('POST', `/api/push/devices/${device.id}/test`)).status, 404);
  // An address the policy refuses is never kept.
  const refused = await api('POST', '/api/push/devices', {
    endpoint: 'https://169.254.169.254/latest/meta-data',
    keys: sub.keys,
    label: 'x',
  });
  assert.equal(refused.status, 400);

  pushService.setStatus(sub.id, 410);
  await deliver('מנוי שפג');
  await eventually('the device dropped', async () => (await devices()).length === 0);
});

test("signing out removes this browser's device, so the next user of the browser gets none of the mail", async () => {
  const other = pushService.newSubscription();
  const { page, context } = await newPage(browser);
  await context.grantPermissions(['notifications'], { origin: server.base });
  await context.addInitScript(fakePushManager({ endpoint: other.endpoint, keys: other.keys }));
  await signIn(page, server, ADMIN);
  await page.goto(`${server.base}/#/Settings`);
  await page.evaluate(() => navigator.serviceWorker.ready);
  const card = page.getByTestId('push-card');
  await card.getByTestId('push-subscribe').click();
  await card.locator('[data-testid="push-device"][data-mine="true"]').waitFor();
  // The quiet hours as the user sees them: the night and the Shabbat preset.
  await card.getByTestId('push-quiet').locator('summary').click();
  await card.getByTestId('push-quiet-shabbat').locator('input[type="checkbox"]').check();
  await card.getByTestId('push-quiet').scrollIntoViewIfNeeded();
  await shot(page, SUITE, 'quiet-hours');
  await card.getByTestId('push-quiet').getByRole('button').click();
  await eventually('the Shabbat preset saved', async () => {
    const d = (await devices()).find((x) => x.endpoint === other.endpoint);
    return d?.quiet.shabbat?.from === 16 * 60 && d.quiet.shabbat.to === 20 * 60;
  });
  await page.getByTestId('logout').click();
  await page.waitForURL(/#\/login/);
  await eventually('the device removed', async () => !(await devices()).some((d) => d.endpoint === other.endpoint));
  await context.close();
});
