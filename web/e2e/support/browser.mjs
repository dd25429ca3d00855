// Headless Debian Chromium through playwright-core (no browser download), with the flags that
// keep it off the closed network. Collects console errors and failed requests, which the tests
// assert are empty: a CSP violation or a broken asset shows up there.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = fileURLToPath(new URL('.', import.meta.url));

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}

/**
 * A page that records problems instead of letting them pass silently. `mobile`: a phone (touch,
 * mobile viewport meta honoured), as the phone suite emulates.
 */
export async function newPage(browser, { width = 1280, height = 800, mobile = false } = {}) {
  const context = await browser.newContext({
    viewport: { width, height },
    ...(mobile ? { isMobile: true, hasTouch: true } : {}),
    locale: 'he-IL',
    timezoneId: 'Asia/Jerusalem',
  });
  const page = await context.newPage();
  const problems = [];
  // A resource that failed to load names itself only in the message's location.
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const where = msg.location()?.url;
    problems.push(`console: ${msg.text()}${where ? ` (${where})` : ''}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  // net::ERR_ABORTED is the page cancelling its own request (it navigated away, or the reading
  // pane's frame went with the mail it showed); a refused, reset or empty answer still counts.
  page.on('requestfailed', (req) => {
    const failure = req.failure()?.errorText ?? '';
    if (failure !== 'net::ERR_ABORTED') problems.push(`requestfailed: ${req.url()} ${failure}`);
  });
  return { page, context, problems };
}

/** Screenshots go to web/e2e/screenshots/<suite>/<name>.png (kept by CI, ignored by git). */
export function screenshotDir(suite) {
  const dir = resolve(here, '..', 'screenshots', suite);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export async function shot(page, suite, name) {
  await page.screenshot({ path: join(screenshotDir(suite), `${name}.png`), fullPage: false });
}
