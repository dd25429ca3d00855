// Plain text ⇄ mail HTML for the places that edit a reply as text (the reply panel, a draft in
// edit mode), and the short text previews of the Pending replies page.
//
// textToHtml mirrors the server's `sanitize::text_to_html`: escaped, one <p dir="auto"> per
// blank-line block, single line breaks as <br>, so a reply reads the same whichever side made it.
// htmlToText goes back through DOMParser, whose documents are inert: no script runs and no image
// or stylesheet is fetched, so mail HTML can be read safely outside the sandboxed frame.

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/**
 * Plain text as paragraphs. `dirAuto` (the default) gives each paragraph its own direction, as the
 * server does for mail; the compose editor passes false, since its direction switch sets `dir` on
 * the blocks itself.
 */
export function textToHtml(text: string, { dirAuto = true }: { dirAuto?: boolean } = {}): string {
  const open = dirAuto ? '<p dir="auto">' : '<p>';
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((para) => para.replace(/^\n+|\n+$/g, ''))
    .filter((para) => para.trim() !== '')
    .map((para) => `${open}${escapeHtml(para).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** Elements after which the text starts a new paragraph (blank line) or a new line. */
const PARAGRAPHS = new Set(['P', 'BLOCKQUOTE', 'PRE', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'UL', 'OL', 'TABLE', 'HR']);
const LINES = new Set(['DIV', 'LI', 'TR', 'SECTION', 'ARTICLE', 'HEADER', 'FOOTER', 'DT', 'DD']);
const SKIP = new Set(['SCRIPT', 'STYLE', 'HEAD', 'TITLE', 'TEMPLATE', 'NOSCRIPT']);

export function htmlToText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  let out = '';
  // A block boundary needs `n` line breaks after what came before, not `n` more: adjacent blocks
  // (</div><div>) share one boundary. A <br> always adds its own (an empty <div><br></div> line).
  const breakTo = (n: number) => {
    if (!out) return;
    out = out.replace(/[ \t]+$/, '');
    const have = /\n*$/.exec(out)?.[0].length ?? 0;
    if (have < n) out += '\n'.repeat(n - have);
  };
  const walk = (node: Node, pre: boolean) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = node.textContent ?? '';
      // Outside <pre>, source line breaks and runs of spaces are one space, as a browser shows them.
      out += pre ? text : text.replace(/\s+/g, ' ');
      return;
    }
    if (!(node instanceof Element) || SKIP.has(node.tagName)) return;
    if (node.tagName === 'BR') {
      out += '\n';
      return;
    }
    const block = PARAGRAPHS.has(node.tagName) ? 2 : LINES.has(node.tagName) ? 1 : 0;
    if (block) breakTo(block);
    for (const child of Array.from(node.childNodes)) walk(child, pre || node.tagName === 'PRE');
    if (block) breakTo(block);
  };
  walk(doc.body, false);
  return out
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The first `max` characters of a mail's text on one line (spec 000 §9: draft preview 200). */
export function previewText(html: string, max = 200): string {
  const flat = htmlToText(html).replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : flat;
}

/**
 * Spec 000 §5 / 001 §5: draft or body text that arrived base64-encoded is decoded only when it is
 * valid base64 and the result looks like HTML (has angle brackets); anything else is kept as is.
 */
export function decodeBase64Html(s: string): string {
  const compact = s.replace(/\s+/g, '');
  if (compact.length < 8 || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return s;
  try {
    const bytes = Uint8Array.from(atob(compact), (c) => c.charCodeAt(0));
    const decoded = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return decoded.includes('<') && decoded.includes('>') ? decoded : s;
  } catch {
    return s;
  }
}

/** Spec 000 §5: the reply subject gets 'Re: ' only when it does not already start with it. */
export function replySubject(subject: string | null | undefined): string {
  const s = (subject ?? '').trim();
  return /^re:/i.test(s) ? s : `Re: ${s}`;
}
