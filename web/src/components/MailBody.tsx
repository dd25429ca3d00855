// The body of a mail in a sandboxed frame (DESIGN.md: "rendered in a sandboxed frame"), wherever a
// mail is shown (the inbox's reading pane, the pending replies' draft and original). The HTML
// is already sanitized on the server; the frame is the second wall: no scripts, and an opaque
// origin (no allow-same-origin), so nothing in a mail can reach the app, its storage or its token.
// Links open in a new tab (the server sets target=_blank), which allow-popups permits.
//
// The frame's document inherits the app's Content-Security-Policy (style-src 'self'), so its base
// style is a same-origin stylesheet (public/mail-frame.css) rather than an inline <style>.
// Its height is fixed by the layout and the frame scrolls: its content cannot be measured
// from outside an opaque origin.
//
// Dark theme: the frame cannot see <html data-theme>, so the theme goes into its document as a
// class. A mail that paints colours of its own (or carries images, which may be drawn for white)
// keeps its light paper look even then; only a mail without any (plain text, bare HTML) turns
// dark, so no mail's own colours ever land on a background they were not made for.

import { useMemo, useSyncExternalStore } from 'react';

export const FRAME_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export type FrameTheme = 'light' | 'dark';

/**
 * Whether the (server-sanitized) body sets a colour or a background anywhere, or shows an image.
 * Attribute values never hold a raw `"` and text never holds a raw `<` after sanitizing, so this
 * cannot be fooled into a false "no"; a false "yes" only keeps the light look.
 */
export function hasOwnColors(bodyHtml: string): boolean {
  return /\s(?:bgcolor|color|background)\s*=|\sstyle\s*=\s*"[^"]*(?:color|background)|<img\b/i.test(bodyHtml);
}

/** The theme the frame's document takes: dark only for a dark app and a mail without colours. */
export function frameTheme(bodyHtml: string, theme: FrameTheme = 'light'): FrameTheme {
  return theme === 'dark' && !hasOwnColors(bodyHtml) ? 'dark' : 'light';
}

/** The frame's whole document around the server's body HTML. */
export function frameDocument(bodyHtml: string, theme: FrameTheme = 'light'): string {
  const css = new URL('mail-frame.css', document.baseURI).href;
  const html = frameTheme(bodyHtml, theme) === 'dark' ? '<html class="dark">' : '<html>';
  return (
    `<!doctype html>${html}<head><meta charset="utf-8">` +
    '<meta name="referrer" content="no-referrer">' +
    `<link rel="stylesheet" href="${escapeAttr(css)}">` +
    `</head><body>${bodyHtml}</body></html>`
  );
}

// The app's theme as the settings set it on <html data-theme>, followed as it changes.
function subscribeTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}

function appTheme(): FrameTheme {
  return document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

export function MailBody({ html, title }: { html: string; title: string }) {
  const theme = useSyncExternalStore(subscribeTheme, appTheme, () => 'light' as const);
  const srcDoc = useMemo(() => frameDocument(html, theme), [html, theme]);
  const dark = frameTheme(html, theme) === 'dark';
  return (
    <iframe
      className={dark ? 'mail-body mail-body--dark' : 'mail-body'}
      title={title}
      sandbox={FRAME_SANDBOX}
      referrerPolicy="no-referrer"
      srcDoc={srcDoc}
      data-testid="mail-body-frame"
    />
  );
}
