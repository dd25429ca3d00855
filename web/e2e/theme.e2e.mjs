// The dark theme and the compact density end to end: the stylesheets answer to
// <html data-theme="dark"> and <html data-density="compact"> (the settings set them; here the test
// does). Against the real binary and a real Dovecot with Hebrew mail:
// - light, dark, compact-light and compact-dark: the inbox with a mail open, compose, settings,
//   search, smart features and AI training;
// - dark: ticked rows, a thread with a status on, dialogs, the reply panel, a toast, the pending
//   replies with their mail frames, popovers, menus, an empty folder; a phone in dark and compact;
//   the login page.
// Every screen is checked for WCAG contrast: named key texts (rows, reading pane, sidebar, top
// bar, buttons, fields) must be there and pass, and so must every other visible text (4.5:1, 3:1
// for large text; the background found through the ancestors). In dark the page, the panes and a
// plain-text mail's frame are dark while a mail with its own colours keeps its light paper; in
// compact a thread row is shorter, and nowhere does a label spill out of its control or a row's
// text get cut (the measuring is in support/contrast.mjs). Screenshots: web/e2e/screenshots/theme/.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launch, newPage, shot } from './support/browser.mjs';
import { backgroundLuminance, checkContrast, frameColors, overflowing, report, setMode } from './support/contrast.mjs';
import { fixtures, startMailServer } from './support/mailserver.mjs';
import { createFirstAdmin, startServer } from './support/server.mjs';
import { connectMailbox, jsonApi, signIn as signInAs } from './support/session.mjs';

const SUITE = 'theme';
const ADMIN = { name: 'דנה כהן', username: 'dana', password: 'admin-password-1' };

const PLAIN = 'תזכורת: ישיבת צוות ביום ראשון';
const COLORED = 'חשבונית חודשית — מרץ';

let mail;
let server;
let browser;
let token;
const scratch = mkdtempSync(join(tmpdir(), 'mailclient-e2e-theme-'));
const api = jsonApi(() => server.base, () => token);

// Fixed dates (newer than the golden mail), so every run draws the same screens.
function eml({ from = 'מיכל לוי <michal@outside.test>', subject, id, date, extra = '', type = 'text/plain', body }) {
  return [
    `From: ${from}`,
    'To: user1@example.test',
    `Subject: ${subject}`,
    `Message-ID: <${id}@outside.test>`,
    `Date: ${date}`,
    ...(extra ? [extra] : []),
    'MIME-Version: 1.0',
    `Content-Type: ${type}; charset=utf-8`,
    'Content-Transfer-Encoding: 8bit',
    '',
    body,
    '',
  ].join('\r\n');
}

const OWN = {
  plain: eml({
    subject: PLAIN,
    id: 'plain',
    date: 'Sun, 12 Jan 2025 08:30:00 +0200',
    body: [
      'שלום לכולם,',
      '',
      'ישיבת הצוות השבועית תתקיים ביום ראשון בשעה 10:00 בחדר הישיבות בקומה השלישית.',
      'נא להביא את סיכום המשימות של השבוע ואת ההערות על התקציב.',
      '',
      'The agenda is attached to the calendar invite (in English).',
      '',
      '> מה עם ההצעה מהשבוע שעבר?',
      '> נדבר עליה בישיבה.',
      '',
      'תודה,',
      'מיכל',
    ].join('\r\n'),
  }),
  colored: eml({
    from: 'הנהלת חשבונות <billing@outside.test>',
    subject: COLORED,
    id: 'colored',
    date: 'Sat, 11 Jan 2025 16:05:00 +0200',
    type: 'text/html',
    body:
      '<div dir="rtl" style="font-family: Arial, sans-serif">' +
      '<div style="background-color: #0b57d0; color: #ffffff; padding: 12px">חשבונית מס׳ 4521</div>' +
      '<table bgcolor="#ffffff" width="100%"><tr><td style="color: #202124">סכום לתשלום: 1,250 ₪</td></tr>' +
      '<tr><td style="color: #5f6368">מועד אחרון לתשלום: 31/01/2025</td></tr></table>' +
      '<p>תודה שבחרתם בנו.</p></div>',
  }),
  root: eml({ subject: 'תיאום הדרכה', id: 'root', date: 'Thu, 09 Jan 2025 11:00:00 +0200', body: 'מתי נוח לכם?' }),
  reply: eml({
    from: 'אבי מזרחי <avi@outside.test>',
    subject: 'Re: תיאום הדרכה',
    id: 'reply',
    date: 'Fri, 10 Jan 2025 09:40:00 +0200',
    extra: 'In-Reply-To: <root@outside.test>\r\nReferences: <root@outside.test>',
    body: 'יום שלישי מתאים לי.',
  }),
  urgent: eml({ subject: 'דחוף: אישור הזמנה', id: 'urgent', date: 'Wed, 08 Jan 2025 14:20:00 +0200', body: 'נא לאשר עד הצהריים.' }),
};

before(async () => {
  mail = await startMailServer();
  mail.seed('user1', fixtures('hebrew'));
  const own = join(scratch, 'own');
  mkdirSync(own);
  for (const [name, raw] of Object.entries(OWN)) writeFileSync(join(own, `${name}.eml`), raw);
  mail.seed('user1', own);
  // Read and unread rows, a status, a priority and a star, as another client left them.
  const user = ['-u', 'user1@example.test'];
  mail.doveadm('flags', 'add', ...user, '\\Seen', 'mailbox', 'INBOX', 'ALL');
  for (const id of ['plain', 'colored', 'urgent']) {
    mail.doveadm('flags', 'remove', ...user, '\\Seen', 'mailbox', 'INBOX', 'header', 'Message-ID', `<${id}@outside.test>`);
  }
  mail.doveadm('flags', 'add', ...user, '$NeedsReply \\Flagged', 'mailbox', 'INBOX', 'header', 'Message-ID', '<reply@outside.test>');
  mail.doveadm('flags', 'add', ...user, '$Urgent', 'mailbox', 'INBOX', 'header', 'Message-ID', '<urgent@outside.test>');

  server = await startServer({ args: mail.configArgs });
  await createFirstAdmin(server, ADMIN);
  token = (await api('POST', '/api/app/login', { username: ADMIN.username, password: ADMIN.password })).body.token;
  await connectMailbox(api, mail);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  mail?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const MODES = [
  { name: 'light', theme: 'light', density: 'normal' },
  { name: 'dark', theme: 'dark', density: 'normal' },
  { name: 'compact-light', theme: 'light', density: 'compact' },
  { name: 'compact-dark', theme: 'dark', density: 'compact' },
];



const row = (page, text) => page.getByTestId('thread-row').filter({ hasText: text }).first();

async function openMail(page, subject) {
  await row(page, subject).getByTestId('thread-row-open').click();
  await page.getByTestId('reading-subject').filter({ hasText: subject }).waitFor();
  await page.frameLocator('[data-testid="mail-body-frame"]').first().locator('body p, body div').first().waitFor();
}

const INBOX_KEYS = [
  '.thread-row.is-unread .thread-row__sender',
  '.thread-row:not(.is-unread) .thread-row__sender',
  '.thread-row.is-selected .thread-row__subject',
  '.thread-row__subject',
  '.thread-row__preview',
  '.thread-row__date',
  '.thread-row .label-chip',
  '.reading-pane__subject',
  '.reading-pane__name',
  '.reading-pane__fact dt',
  '.nav-item__label',
  '.nav-item.is-active .nav-item__label',
  '.sidebar__section-title',
  '.topbar__title',
  '.compose-button',
  '.mail-toolbar__refresh',
  '.chip-button',
  '.sidebar-search input',
  '.mail-toolbar__control select',
  '.inbox-zero__title',
];

const SCREENS = [
  {
    name: 'compose',
    path: '/#/Compose',
    ready: 'compose-page',
    async fill(page) {
      if ((await page.getByTestId('recipient-chip').count()) === 0) {
        await page.getByTestId('compose-to').fill('user2@example.test');
        await page.getByTestId('compose-to').press('Enter');
        await page.getByTestId('compose-subject').fill('סיכום הישיבה');
        await page.getByTestId('compose-editor').click();
        await page.keyboard.type('שלום, מצורף סיכום הישיבה של היום.');
      }
    },
    keys: [
      '.recipient-row__label',
      '.chip__text',
      '[data-testid="compose-subject"]',
      '[data-testid="compose-editor"]',
      '.field label',
      '.button--primary',
      '.button:not(.button--primary)',
      '.side-card__title',
    ],
  },
  { name: 'settings', path: '/#/Settings', ready: 'account-card', keys: ['.card__title', '.field label', '.field input', '.button'] },
  {
    name: 'search',
    path: `/#/Search?q=${encodeURIComponent('ישיבה')}`,
    ready: 'search-result',
    keys: ['[data-testid="search-input"]', '.search-result__from', '.search-result__subject', '.search-result__snippet', '.search-filters__title', '.field label', '.button--primary'],
  },
  { name: 'smart', path: '/#/SmartFeatures', ready: 'smart-compose-card', keys: ['.topbar__title', '.smart-layout__title', '.card__subtitle', '.smart-mail', '.smart-compose__input'] },
  { name: 'ai-training', path: '/#/AITraining', ready: 'training-general', keys: ['.topbar__title', '.card__title', '.field label', '.field__textarea', '.button--primary'] },
];

test('light, dark and compact: every screen readable, dark is dark, compact is denser', async () => {
  const { page, context, problems } = await newPage(browser);
  await signInAs(page, server, ADMIN);
  await row(page, PLAIN).waitFor();
  await row(page, COLORED).waitFor();
  const rowHeight = {};

  for (const mode of MODES) {
    const label = (screen) => `${mode.name}/${screen}`;
    await page.goto(`${server.base}/#/Inbox`);
    await row(page, PLAIN).waitFor();
    await setMode(page, mode);
    await openMail(page, PLAIN);
    await setMode(page, mode);
    const plain = await frameColors(page, (v) => (mode.theme === 'dark' ? v.bg < 0.2 : v.bg > 0.8));
    await shot(page, SUITE, `${mode.name}-inbox`);
    await checkContrast(page, label('inbox'), INBOX_KEYS);
    // The sort's arrow sits beside its select in the list column, never wrapped below it.
    const sort = await page.evaluate(() => {
      const mid = (sel) => {
        const r = document.querySelector(sel).getBoundingClientRect();
        return r.top + r.height / 2;
      };
      return { select: mid('[data-testid="mail-sort"]'), arrow: mid('[data-testid="mail-sort-order"]') };
    });
    assert.ok(Math.abs(sort.select - sort.arrow) < 4, `${label('inbox')}: the sort arrow is on its select's line (${JSON.stringify(sort)})`);
    assert.deepEqual(await page.evaluate(overflowing), [], `${label('inbox')}: nothing spills out of its control`);

    report.push(`${mode.name}  plain mail frame: bg luminance ${plain.bg.toFixed(3)}, text ≥ ${plain.minRatio}`);
    assert.ok(plain.count > 0 && plain.minRatio >= 4.5, `${mode.name}: the plain mail's text reads (${plain.minRatio})`);

    rowHeight[mode.name] = await page.evaluate(() => {
      const rows = [...document.querySelectorAll('[data-testid="thread-row"]')];
      return Math.max(...rows.map((r) => r.getBoundingClientRect().height));
    });
    // Nothing in a row is cut off or runs into the next line (compact squeezes the most).
    const clipped = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="thread-row"]')].flatMap((r) => {
        const box = r.getBoundingClientRect();
        const lines = [...r.querySelectorAll('.thread-row__top, .thread-row__line, .thread-row__preview')].map((l) => l.getBoundingClientRect());
        const out = [];
        for (const el of r.querySelectorAll('.thread-row__sender, .thread-row__subject, .thread-row__preview, .thread-row__date, .label-chip')) {
          const b = el.getBoundingClientRect();
          if (b.top < box.top - 0.5 || b.bottom > box.bottom + 0.5) out.push(`${el.className} outside its row`);
          if (el.scrollHeight > el.clientHeight + 1) out.push(`${el.className} cut (${el.scrollHeight} > ${el.clientHeight})`);
        }
        // Lines may sit side by side (compact) but never on top of each other.
        for (let i = 0; i < lines.length; i++) {
          for (let j = i + 1; j < lines.length; j++) {
            const [a, b] = [lines[i], lines[j]];
            const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (x > 0.5 && y > 0.5) out.push('row lines overlap');
          }
        }
        return out;
      }),
    );
    assert.deepEqual([...new Set(clipped)], [], `${mode.name}: thread rows`);

    if (mode.theme === 'dark') {
      for (const sel of ['html', '.sidebar', '.topbar', '.page', '.mail-view__list', '.reading-pane']) {
        const L = await page.evaluate(backgroundLuminance, sel);
        report.push(`${mode.name}  background of ${sel}: luminance ${L.toFixed(3)}`);
        assert.ok(L !== null && L < 0.2, `${mode.name}: ${sel} is dark (luminance ${L})`);
      }
      // A plain-text mail has no colours of its own: it follows the theme.
      assert.ok(plain.bg < 0.2, `${mode.name}: the plain mail's frame is dark (${plain.bg})`);
    } else {
      assert.ok(plain.bg > 0.8, `${mode.name}: the plain mail's frame is light (${plain.bg})`);
    }

    // A mail with colours of its own keeps its light paper in both themes, and reads.
    await openMail(page, COLORED);
    await setMode(page, mode);
    const colored = await frameColors(page, (v) => v.bg > 0.8);
    report.push(`${mode.name}  coloured mail frame: bg luminance ${colored.bg.toFixed(3)}, text ≥ ${colored.minRatio}`);
    assert.ok(colored.bg > 0.8, `${mode.name}: a mail with its own colours keeps a light background (${colored.bg})`);
    assert.ok(colored.count > 0 && colored.minRatio >= 4.5, `${mode.name}: the coloured mail reads (${colored.minRatio})`);
    if (mode.density === 'normal') await shot(page, SUITE, `${mode.name}-inbox-colored-mail`);
    await checkContrast(page, label('inbox, coloured mail'), ['.reading-pane__subject', '.reading-pane__name']);

    for (const screen of SCREENS) {
      await page.goto(`${server.base}${screen.path}`);
      await page.getByTestId(screen.ready).first().waitFor();
      await setMode(page, mode);
      if (screen.fill) await screen.fill(page);
      await page.evaluate(() => document.fonts.ready);
      await shot(page, SUITE, `${mode.name}-${screen.name}`);
      await checkContrast(page, label(screen.name), screen.keys);
      assert.deepEqual(await page.evaluate(overflowing), [], `${label(screen.name)}: nothing spills out of its control`);
    }
  }

  report.push(`thread row height: ${Object.entries(rowHeight).map(([k, v]) => `${k} ${v.toFixed(1)}px`).join(', ')}`);
  assert.ok(rowHeight['compact-light'] < rowHeight.light - 4, `compact rows are shorter (${rowHeight['compact-light']} vs ${rowHeight.light})`);
  assert.ok(rowHeight['compact-dark'] < rowHeight.dark - 4, `compact rows are shorter in dark too`);
  assert.deepEqual(problems, [], 'no console errors, CSP violations or failed requests');
  await context.close();
});

test('dark: selections, panels, toasts, dialogs, popovers and menus', async () => {
  const { page, context, problems } = await newPage(browser);
  const dark = MODES[1];
  await signInAs(page, server, ADMIN);
  await row(page, PLAIN).waitFor();
  await setMode(page, dark);
  const step = async (name, keys) => {
    await setMode(page, dark);
    await shot(page, SUITE, `dark-${name}`);
    await checkContrast(page, `dark/${name}`, keys);
    assert.deepEqual(await page.evaluate(overflowing), [], `dark/${name}: nothing spills out of its control`);
  };

  // Ticked rows and the bulk bar; a hovered row.
  await row(page, COLORED).getByTestId('thread-row-select').check();
  await row(page, 'תיאום הדרכה').getByTestId('thread-row-select').check();
  await row(page, 'דחוף').hover();
  await step('bulk', ['.bulk-bar__count', '.bulk-bar .chip-button', '.thread-row.is-checked .thread-row__sender', '.thread-row.is-checked .thread-row__preview']);
  await row(page, COLORED).getByTestId('thread-row-select').uncheck();
  await row(page, 'תיאום הדרכה').getByTestId('thread-row-select').uncheck();

  // The keyboard shortcuts, a modal.
  await page.getByTestId('shortcuts-button').click();
  await page.getByTestId('shortcuts-close').waitFor();
  await step('shortcuts', ['.dialog__title', '.shortcuts-help kbd', '.shortcuts-help__item dd']);
  await page.getByTestId('shortcuts-close').click();

  // A thread of two (the older one folded) with a status on: its chip filled with the accent.
  await row(page, 'תיאום הדרכה').getByTestId('thread-row-open').click();
  await page.getByTestId('reading-subject').filter({ hasText: 'תיאום הדרכה' }).waitFor();
  await page.locator('.chip-button.is-active').first().waitFor();
  await step('thread', ['.chip-button.is-active', '.thread-message__sender', '.thread-message__preview', '.thread-row__count']);

  // Delete asks first: the danger dialog over its backdrop.
  await openMail(page, COLORED);
  await page.getByTestId('mail-delete').click();
  await page.getByTestId('confirm-no').waitFor();
  await step('confirm', ['.dialog__title', '.dialog__body', '.button--danger', '[data-testid="confirm-no"]']);
  await page.getByTestId('confirm-no').click();

  // The reply panel under a plain mail, then saved as a draft: a toast and the pending replies
  // page, whose cards show the draft and the original in their own frames.
  await openMail(page, PLAIN);
  await page.getByTestId('reply-open').click();
  await page.getByTestId('reply-text').fill('תודה, אגיע לישיבה.');
  await step('reply', ['.reply-panel__title', '.reply-panel__label', '.textbox', '.reply-panel .button--primary']);
  await page.getByTestId('reply-save').click();
  await page.waitForURL(/PendingReplies/);
  await page.getByTestId('toast').first().waitFor();
  const card = page.getByTestId('draft-card').first();
  await card.waitFor();
  if ((await card.locator('[data-testid="mail-body-frame"]').count()) === 0) await card.getByTestId('draft-toggle').click();
  await card.locator('[data-testid="mail-body-frame"]').first().waitFor();
  const draftFrame = await frameColors(page, (v) => v.bg < 0.2);
  report.push(`dark  draft frame: bg luminance ${draftFrame.bg.toFixed(3)}, text ≥ ${draftFrame.minRatio}`);
  assert.ok(draftFrame.count > 0 && draftFrame.bg < 0.2 && draftFrame.minRatio >= 4.5, `a plain draft's frame is dark and reads (${JSON.stringify(draftFrame)})`);
  await step('pending-replies', ['.toast__kind', '.toast__message', '.draft-card__subject', '.draft-card__date', '.drafts-header__title']);

  // Popovers: the notifications (the toast left one) and the UI scale menu.
  await page.getByTestId('notification-bell').click();
  await page.locator('.notifications').waitFor();
  await step('notifications', ['.popover__title', '.notification__message', '.notification__time']);
  await page.keyboard.press('Escape');
  await page.getByTestId('scale-button').click();
  await page.locator('.scale-popover').waitFor();
  await step('scale-menu', ['.scale-popover .menu-item']);
  await page.keyboard.press('Escape');

  // An empty folder.
  await page.getByTestId('folder-Spam').click();
  await page.getByTestId('mail-empty').waitFor();
  await step('empty-folder', ['.empty-state__title']);

  // Compose: the templates dialog and the AI menu.
  await page.goto(`${server.base}/#/Compose`);
  await page.getByTestId('compose-page').waitFor();
  await page.getByTestId('templates-open').click();
  await page.getByTestId('templates-modal').waitFor();
  await step('templates', ['.dialog__title', '.template-item__name', '.template-item__subject']);
  await page.keyboard.press('Escape');
  await page.getByTestId('templates-modal').waitFor({ state: 'detached' });
  await page.getByTestId('ai-menu').click();
  await page.getByTestId('ai-menu-list').waitFor();
  await step('ai-menu', ['.ai-menu__list .menu-item']);

  assert.deepEqual(problems, []);
  await context.close();
});

test('phone: dark and compact, the list, a mail and the drawer', async () => {
  const { page, context, problems } = await newPage(browser, { width: 390, height: 844 });
  await signInAs(page, server, ADMIN);
  await row(page, PLAIN).waitFor();
  for (const mode of [MODES[1], MODES[3]]) {
    await setMode(page, mode);
    const check = async (name, keys) => {
      await setMode(page, mode);
      await shot(page, SUITE, `phone-${mode.name}-${name}`);
      await checkContrast(page, `phone-${mode.name}/${name}`, keys);
      assert.deepEqual(await page.evaluate(overflowing), [], `phone-${mode.name}/${name}: nothing spills out of its control`);
    };
    await check('list', ['.thread-row__sender', '.thread-row__subject', '.topbar__title']);
    await openMail(page, PLAIN);
    await frameColors(page, (v) => v.bg < 0.2);
    await check('mail', ['.reading-pane__subject', '.reading-pane__name', '.chip-button']);
    await page.getByTestId('reading-back').click();
    await page.getByTestId('menu-button').click();
    await page.waitForFunction(() => {
      const r = document.querySelector('[data-testid="sidebar"]').getBoundingClientRect();
      return r.right <= window.innerWidth + 1 && r.left >= -1 && r.width > 0;
    });
    await page.waitForTimeout(300); // the slide-in transition
    await check('drawer', ['.nav-item__label', '.compose-button']);
    await page.keyboard.press('Escape');
    await page.getByTestId('sidebar').waitFor({ state: 'hidden' });
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('the login page in dark', async () => {
  const { page, context, problems } = await newPage(browser);
  await page.goto(`${server.base}/#/login`);
  await page.getByTestId('login-submit').waitFor();
  for (const mode of [MODES[0], MODES[1]]) {
    await setMode(page, mode);
    await page.getByTestId('login-username').fill('');
    await shot(page, SUITE, `${mode.name}-login`);
    await checkContrast(page, `${mode.name}/login`, ['.auth-card__title', '.field label', '.field input', '.button--primary']);
    if (mode.theme === 'dark') {
      const L = await page.evaluate(backgroundLuminance, '.auth-card');
      assert.ok(L < 0.2, `the login card is dark (${L})`);
    }
  }
  assert.deepEqual(problems, []);
  await context.close();
});

after(() => {
  // The measured figures, for the record (node --test prints diagnostics with #).
  for (const line of report) console.log(`# ${line}`);
});
