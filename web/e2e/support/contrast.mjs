// What the theme suite measures in the page (web/e2e/theme.e2e.mjs): the mode put on <html>, the
// WCAG contrast of every visible text against what is behind it, an element's background
// luminance, the mail frame's colours, and controls whose content spills out of them. The
// functions run in the browser through page.evaluate, so each is self-contained.
import assert from 'node:assert/strict';

/** What checkContrast measured, line by line, for the suite to print at the end. */
export const report = [];

/**
 * Puts the mode on <html> as the settings would, and holds it there: the settings' own code may
 * set these attributes from the stored preferences at any time, and this suite is about the CSS.
 */
export async function setMode(page, { theme, density }) {
  await page.evaluate(
    ([t, d]) => {
      const html = document.documentElement;
      window.__themeHold?.disconnect();
      const apply = () => {
        if (html.dataset.theme !== t) html.dataset.theme = t;
        if (html.dataset.density !== d) html.dataset.density = d;
      };
      apply();
      window.__themeHold = new MutationObserver(apply);
      window.__themeHold.observe(html, { attributes: true, attributeFilter: ['data-theme', 'data-density'] });
    },
    [theme, density],
  );
  // Two frames: the new styles are applied and painted.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * In the page: the WCAG contrast of texts against what is behind them. `keys` are selectors that
 * must each match at least one visible text; every visible text on the page is checked as well.
 * The background is found by walking up to the first opaque background-color, blending the
 * translucent ones (and opacity) on the way.
 */
export function auditContrast(keys) {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const cache = new Map();
  // Any CSS colour to sRGB 0..255 and alpha 0..1, by painting it.
  const rgba = (css) => {
    if (cache.has(css)) return cache.get(css);
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = '#000';
    ctx.fillStyle = css;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
    const v = { r, g, b, a: a / 255 };
    cache.set(css, v);
    return v;
  };
  const over = (top, below) => ({
    r: top.r * top.a + below.r * (1 - top.a),
    g: top.g * top.a + below.g * (1 - top.a),
    b: top.b * top.a + below.b * (1 - top.a),
    a: 1,
  });
  const lum = ({ r, g, b }) => {
    const ch = (c) => {
      c /= 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
  };
  const ratio = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const hex = ({ r, g, b }) => '#' + [r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('');

  // The colour behind `el`: its own and its ancestors' backgrounds, blended from the first opaque one.
  function backdrop(el) {
    const layers = [];
    let fade = 1;
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      const cs = getComputedStyle(n);
      fade *= Number(cs.opacity);
      const c = rgba(cs.backgroundColor);
      if (c.a > 0) layers.push({ ...c, a: c.a * fade });
      if (c.a === 1 && fade === 1) break;
    }
    let bg = { r: 255, g: 255, b: 255, a: 1 }; // the canvas
    for (const l of layers.reverse()) bg = over(l, bg);
    return bg;
  }

  function fadeOf(el) {
    let f = 1;
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) f *= Number(getComputedStyle(n).opacity);
    return f;
  }

  const visible = (el) => {
    if (!el.getClientRects().length) return false;
    const cs = getComputedStyle(el);
    if (cs.visibility !== 'visible' || cs.display === 'none') return false;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    // Text for screen readers only.
    if (el.closest('.visually-hidden, [aria-hidden="true"]')) return false;
    return true;
  };

  const isField = (el) => el.matches('input:not([type=checkbox],[type=radio],[type=range],[type=hidden],[type=file]), select, textarea');

  function measure(el, pseudo) {
    const cs = getComputedStyle(el, pseudo);
    const bg = backdrop(el);
    const c = rgba(cs.color);
    const fg = over({ ...c, a: c.a * fadeOf(el) }, bg);
    const zoom = el.currentCSSZoom ?? 1;
    const px = parseFloat(cs.fontSize) * zoom;
    const bold = Number(cs.fontWeight) >= 700;
    const large = px >= 24 || (px >= 18.66 && bold);
    const need = large ? 3 : 4.5;
    const value = ratio(fg, bg);
    const text = (pseudo ? el.getAttribute('placeholder') : isField(el) ? el.value || el.getAttribute('placeholder') : el.textContent) ?? '';
    return {
      what: `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''}${pseudo ?? ''}`,
      text: text.trim().slice(0, 30),
      fg: hex(fg),
      bg: hex(bg),
      ratio: Math.round(value * 100) / 100,
      need,
      ok: value >= need,
    };
  }

  // Texts a user can read: elements with text of their own, fields (and their placeholders).
  function readable(el) {
    if (!visible(el) || el.closest(':disabled, [aria-disabled="true"]')) return [];
    if (isField(el)) {
      const out = [measure(el)];
      if (!el.value && el.getAttribute('placeholder')) out.push(measure(el, '::placeholder'));
      return out;
    }
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    return own ? [measure(el)] : [];
  }

  const keyResults = keys.map((sel) => {
    const found = [...document.querySelectorAll(sel)].flatMap((el) => {
      if (!visible(el)) return [];
      if (isField(el)) return readable(el);
      // A key may hold its text in a child (a <bdi>, a <span>): measure the ones with text.
      const withText = [el, ...el.querySelectorAll('*')].flatMap(readable);
      return withText;
    });
    return { sel, count: found.length, failed: found.filter((m) => !m.ok), worst: found.sort((a, b) => a.ratio - b.ratio)[0] };
  });
  const all = [...document.querySelectorAll('body *')].flatMap(readable);
  const worst = all.filter((m) => m.need === 4.5).sort((a, b) => a.ratio - b.ratio)[0];
  return { keys: keyResults, failed: all.filter((m) => !m.ok), checked: all.length, worst };
}

/** Relative luminance of an element's effective background (see auditContrast). */
export function backgroundLuminance(sel) {
  const el = document.querySelector(sel);
  if (!el) return null;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d');
  const layers = [];
  for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = getComputedStyle(n).backgroundColor;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
    if (a > 0) layers.push([r, g, b, a / 255]);
    if (a === 255) break;
  }
  let c = [255, 255, 255];
  for (const [r, g, b, a] of layers.reverse()) c = [r * a + c[0] * (1 - a), g * a + c[1] * (1 - a), b * a + c[2] * (1 - a)];
  const ch = (v) => ((v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2]);
}

const known = (m, tolerated) =>
  tolerated.some((k) => k.what === m.what && (k.text ?? m.text) === m.text && (k.bg ?? m.bg) === m.bg);

/** Audits the page in its current mode and asserts: key texts present and readable, and every other text too. */
export async function checkContrast(page, label, keys, tolerated = []) {
  const res = await page.evaluate(auditContrast, keys);
  for (const k of res.keys) {
    report.push(`${label}  ${k.sel}: ${k.worst ? `${k.worst.ratio} (${k.worst.fg} on ${k.worst.bg})` : 'none'}`);
    assert.ok(k.count > 0, `${label}: no visible text for ${k.sel}`);
    assert.deepEqual(k.failed.filter((m) => !known(m, tolerated)), [], `${label}: ${k.sel} below its contrast`);
  }
  if (res.worst) report.push(`${label}  lowest of ${res.checked} texts: ${res.worst.ratio} (${res.worst.what} "${res.worst.text}", ${res.worst.fg} on ${res.worst.bg})`);
  const failed = res.failed.filter((m) => !known(m, tolerated));
  assert.deepEqual(failed, [], `${label}: texts below their contrast (of ${res.checked})`);
  return res;
}

/**
 * The mail frame's colours once its stylesheet is in: body background luminance, and the lowest
 * contrast of its texts against their own nearest background. A theme change reloads the frame,
 * so this waits (up to 5 s) for `settled` to accept the result, then returns the last one.
 */
export async function frameColors(page, settled = () => true) {
  const frame = page.frameLocator('[data-testid="mail-body-frame"]').first();
  const end = Date.now() + 5000;
  for (;;) {
    const v = await frame
      .locator('body')
      .evaluate((body) => {
        const link = document.querySelector('link[rel="stylesheet"]');
        if (!link?.sheet) return null;
        const canvas = document.createElement('canvas');
        canvas.width = canvas.height = 1;
        const ctx = canvas.getContext('2d');
        const px = (css) => {
          ctx.clearRect(0, 0, 1, 1);
          ctx.fillStyle = css;
          ctx.fillRect(0, 0, 1, 1);
          return [...ctx.getImageData(0, 0, 1, 1).data];
        };
        const ch = (v) => ((v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        const lum = ([r, g, b]) => 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
        // The body may be transparent over the html's background (and that over the canvas).
        const bgCss = [body, document.documentElement].map((n) => getComputedStyle(n).backgroundColor).find((c) => px(c)[3] === 255) ?? 'white';
        const texts = [...body.querySelectorAll('*')].filter((n) => [...n.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim()));
        const ratios = texts.map((n) => {
          let b = null;
          for (let m = n; m && m.nodeType === 1 && !b; m = m.parentElement) {
            const c = getComputedStyle(m).backgroundColor;
            if (px(c)[3] === 255) b = c;
          }
          const L1 = lum(px(getComputedStyle(n).color));
          const L2 = lum(px(b ?? bgCss));
          return Math.round(((Math.max(L1, L2) + 0.05) / (Math.min(L1, L2) + 0.05)) * 100) / 100;
        });
        return { bg: lum(px(bgCss)), minRatio: Math.min(...ratios), count: ratios.length };
      })
      .catch(() => null); // the frame is between documents
    if ((v && settled(v)) || Date.now() > end) {
      assert.ok(v, 'the mail frame loaded its stylesheet');
      return v;
    }
    await page.waitForTimeout(100);
  }
}

/**
 * In the page: controls whose content spills out of them (a label wider than its button, text
 * taller than its row) — what a denser layout could break. Ellipsis boxes clip on purpose and
 * do not count; a field's text may scroll sideways.
 */
export function overflowing() {
  const sel = 'button, a.button, .chip-button, .nav-item, .label-chip, .badge, .chip, .menu-item, input, select, textarea';
  return [...document.querySelectorAll(sel)].flatMap((el) => {
    if (!el.getClientRects().length || el.closest('.visually-hidden')) return [];
    const cs = getComputedStyle(el);
    if (cs.visibility !== 'visible') return [];
    const field = el.matches('input, select, textarea');
    const wide = !field && cs.textOverflow !== 'ellipsis' && el.scrollWidth > el.clientWidth + 1;
    const tall = !el.matches('textarea') && el.scrollHeight > el.clientHeight + 1 && cs.overflowY !== 'auto';
    if (!wide && !tall) return [];
    const name = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${(el.textContent || el.value || '').trim().slice(0, 20)}"`;
    return [`${name} ${wide ? `width ${el.scrollWidth} > ${el.clientWidth}` : `height ${el.scrollHeight} > ${el.clientHeight}`}`];
  });
}
