// The improved body from the AI call goes into the editor (our own origin) as HTML. The server
// builds it as escaped paragraphs, but the text is a language model's: this keeps only plain
// formatting tags and drops every attribute but a link's http(s)/mailto address and `dir`, so
// nothing the model was talked into writing can run. DOMParser documents are inert.

const KEEP = new Set(['P', 'DIV', 'BR', 'B', 'STRONG', 'I', 'EM', 'U', 'UL', 'OL', 'LI', 'A', 'SPAN', 'BLOCKQUOTE']);
const DROP = new Set(['SCRIPT', 'STYLE', 'IFRAME', 'OBJECT', 'EMBED', 'TEMPLATE', 'NOSCRIPT', 'SVG', 'MATH']);
const SAFE_HREF = /^(https?:|mailto:)/i;

function clean(node: Node, doc: Document): Node[] {
  if (node.nodeType === Node.TEXT_NODE) return [doc.createTextNode(node.textContent ?? '')];
  if (node.nodeType !== Node.ELEMENT_NODE) return [];
  const el = node as Element;
  const children = Array.from(el.childNodes).flatMap((c) => clean(c, doc));
  if (DROP.has(el.tagName)) return [];
  // Unknown tags are unwrapped: their text stays.
  if (!KEEP.has(el.tagName)) return children;
  const out = doc.createElement(el.tagName.toLowerCase());
  const dir = el.getAttribute('dir');
  if (dir === 'rtl' || dir === 'ltr' || dir === 'auto') out.setAttribute('dir', dir);
  const href = el.tagName === 'A' ? el.getAttribute('href')?.trim() : undefined;
  if (href && SAFE_HREF.test(href)) out.setAttribute('href', href);
  out.append(...children);
  return [out];
}

/** The AI's HTML, reduced to safe formatting. */
export function safeAiHtml(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const box = doc.createElement('div');
  box.append(...Array.from(doc.body.childNodes).flatMap((c) => clean(c, doc)));
  return box.innerHTML;
}
