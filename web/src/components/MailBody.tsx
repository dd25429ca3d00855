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

import { useMemo } from 'react';

export const FRAME_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The frame's whole document around the server's body HTML. */
export function frameDocument(bodyHtml: string): string {
  const css = new URL('mail-frame.css', document.baseURI).href;
  return (
    '<!doctype html><html><head><meta charset="utf-8">' +
    '<meta name="referrer" content="no-referrer">' +
    `<link rel="stylesheet" href="${escapeAttr(css)}">` +
    `</head><body>${bodyHtml}</body></html>`
  );
}

export function MailBody({ html, title }: { html: string; title: string }) {
  const srcDoc = useMemo(() => frameDocument(html), [html]);
  return (
    <iframe
      className="mail-body"
      title={title}
      sandbox={FRAME_SANDBOX}
      referrerPolicy="no-referrer"
      srcDoc={srcDoc}
      data-testid="mail-body-frame"
    />
  );
}
