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
// The frame carries a Content-Security-Policy of its own (a <meta> first in its head; a policy
// there only narrows the inherited one). The sanitizer is one gate; this is the browser's: while
// remote content is blocked the frame may load nothing from the network at all — images, fonts,
// media, styles, prefetches — but the app's own stylesheet and inline attachments (this origin,
// data:, blob:). When the user shows remote content for this mail (or always for its sender),
// only images are let in, and only for this frame. A URL the sanitizer reads one way and the
// browser another therefore still loads nothing.
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

/**
 * The frame's own policy: nothing from the network but this origin's stylesheet and inline
 * attachments, plus remote images (http, https) when `remoteImages`.
 */
export function framePolicy(origin: string, remoteImages: boolean): string {
  const images = remoteImages ? `${origin} data: blob: https: http:` : `${origin} data: blob:`;
  return [
    "default-src 'none'",
    `img-src ${images}`,
    `style-src ${origin}`,
    "style-src-attr 'unsafe-inline'",
    "font-src 'none'",
    "media-src 'none'",
    "object-src 'none'",
    "frame-src 'none'",
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The frame's whole document around the server's body HTML. */
export function frameDocument(bodyHtml: string, theme: FrameTheme = 'light', remoteImages = false): string {
  const base = new URL(document.baseURI);
  const css = new URL('mail-frame.css', base).href;
  const html = frameTheme(bodyHtml, theme) === 'dark' ? '<html class="dark">' : '<html>';
  return (
    `<!doctype html>${html}<head>` +
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttr(framePolicy(base.origin, remoteImages))}">` +
    '<meta charset="utf-8">' +
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

export interface MailBodyProps {
  html: string;
  title: string;
  /** The user chose to show this mail's remote images (or always its sender's). */
  remoteImages?: boolean;
}

export function MailBody({ html, title, remoteImages = false }: MailBodyProps) {
  const theme = useSyncExternalStore(subscribeTheme, appTheme, () => 'light' as const);
  const srcDoc = useMemo(() => frameDocument(html, theme, remoteImages), [html, theme, remoteImages]);
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
