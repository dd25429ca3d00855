// Draws the installable app's PNG icons from public/favicon.svg with headless Chromium (the
// browser the E2E tests use; no image tool needed): `node scripts/icons.mjs`, run again when the
// favicon changes; the PNGs are checked in under public/ (the manifest and index.html name them).
// - icon-192.png, icon-512.png: the favicon as it is ("any": the rounded square on transparency);
// - icon-maskable-512.png: full-bleed blue with the envelope inside the 80% safe zone, which
//   Android may crop to a circle or a squircle;
// - apple-touch-icon.png (180): opaque and square (iOS rounds the corners itself).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const publicDir = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', 'public');
const favicon = readFileSync(resolve(publicDir, 'favicon.svg'), 'utf8');
const BLUE = favicon.match(/fill="(#[0-9a-f]{6})"/i)?.[1] ?? '#1a73e8';
// The envelope alone (the favicon without its rounded background), in the favicon's 32×32 box.
const envelope = favicon.replace(/<svg[^>]*>/, '').replace('</svg>', '').replace(/<rect[^>]*\/>/, '');

/** A square full-bleed icon whose envelope fills `inner` of the width (centred). */
function fullBleed(inner) {
  const scale = inner;
  const offset = (32 - 32 * scale) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BLUE}"/>` +
    `<g transform="translate(${offset} ${offset}) scale(${scale})">${envelope}</g></svg>`;
}

const ICONS = [
  { file: 'icon-192.png', size: 192, svg: favicon },
  { file: 'icon-512.png', size: 512, svg: favicon },
  { file: 'icon-maskable-512.png', size: 512, svg: fullBleed(0.7) },
  { file: 'apple-touch-icon.png', size: 180, svg: fullBleed(0.85) },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  for (const { file, size, svg } of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const sized = svg.replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(`<html><body style="margin:0;background:transparent">${sized}</body></html>`);
    await page.screenshot({ path: resolve(publicDir, file), omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
    await page.close();
    console.log(`public/${file} (${size}×${size})`);
  }
} finally {
  await browser.close();
}
