// Any HTML that enters the compose editor (a paste from a web page, Word or Gmail, an AI answer, a
// template, a draft or outbox mail opened again) is first reduced to the small form the editor
// writes itself:
//   blocks:  <p>, <blockquote>, <ul>/<ol> with <li> (a nested list inside its <li>), each with
//            at most `dir` (rtl/ltr) and `style="text-align:left|center|right"`;
//   inside:  text, <br>, <b>, <i>, <u>, <a href> (http, https, mailto only).
// Everything here is kept by the server's sanitizer (src/mail/sanitize.rs) and by any mail reader.
// Scripts, styles, Word's markup (<o:p>, mso-list bullets, conditional comments), images, forms
// and every other attribute go. Bold/italic/underline written as CSS (Google Docs, Gmail) become
// tags; Google Docs' <b style="font-weight:normal"> wrapper does not make the paste bold. Blocks
// nested in blocks (Gmail's <div dir="ltr"><div>…) become a flat run of paragraphs that inherit
// the outer `dir` and alignment. DOMParser documents are inert: nothing runs while this reads.

const DROP = new Set([
  'SCRIPT', 'STYLE', 'IFRAME', 'FRAME', 'OBJECT', 'EMBED', 'TEMPLATE', 'NOSCRIPT', 'SVG', 'MATH', 'HEAD',
  'TITLE', 'META', 'LINK', 'BASE', 'IMG', 'PICTURE', 'VIDEO', 'AUDIO', 'CANVAS', 'INPUT', 'BUTTON',
  'SELECT', 'TEXTAREA', 'XML', 'HR',
]);

const BLOCK = new Set([
  'P', 'DIV', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'PRE', 'ADDRESS', 'CENTER', 'SECTION', 'ARTICLE',
  'HEADER', 'FOOTER', 'MAIN', 'ASIDE', 'NAV', 'FIGURE', 'FIGCAPTION', 'TABLE', 'THEAD', 'TBODY',
  'TFOOT', 'TR', 'TD', 'TH', 'CAPTION', 'DL', 'DT', 'DD', 'FORM', 'FIELDSET', 'DETAILS', 'SUMMARY',
  'BODY', 'HTML', 'UL', 'OL', 'LI', 'BLOCKQUOTE',
]);

const HEADING = /^H[1-6]$/;
const SAFE_HREF = /^(https?:|mailto:)/i;
/** HTML's collapsible white space (not the no-break space, which is meant). */
const SPACES = /[ \t\n\r\f]+/g;

type Dir = 'rtl' | 'ltr' | null;
type Align = 'left' | 'center' | 'right' | null;
interface Ctx {
  dir: Dir;
  align: Align;
}

function css(el: Element, prop: string): string {
  const style = el.getAttribute('style') ?? '';
  const m = new RegExp(`(?:^|;)\\s*${prop}\\s*:\\s*([^;]+)`, 'i').exec(style);
  return m ? m[1].trim().toLowerCase() : '';
}

function dirOf(el: Element): Dir {
  const dir = (el.getAttribute('dir') ?? css(el, 'direction')).toLowerCase();
  return dir === 'rtl' || dir === 'ltr' ? dir : null;
}

/**
 * The element's alignment, unless it is what its direction gives anyway (right for rtl, left for
 * ltr): the server's frame around a sent mail (and Word's Hebrew paragraphs) say
 * `text-align:right` with `dir="rtl"`, which must not pin every paragraph inside to the right.
 */
function alignOf(el: Element, dir: Dir): Align {
  const align = (css(el, 'text-align') || el.getAttribute('align') || (el.tagName === 'CENTER' ? 'center' : '')).toLowerCase();
  if ((align === 'right' && dir === 'rtl') || (align === 'left' && dir === 'ltr')) return null;
  return align === 'left' || align === 'center' || align === 'right' ? align : null;
}

/** Word's list bullets (`mso-list:Ignore`) and anything hidden are not content. */
function hidden(el: Element): boolean {
  return /mso-list\s*:\s*ignore/i.test(el.getAttribute('style') ?? '') || css(el, 'display') === 'none';
}

const hasBlock = (el: Element) => Array.from(el.querySelectorAll('*')).some((d) => BLOCK.has(d.tagName));

/** The formatting an element gives its text: its tag or its CSS. */
function formatsOf(el: Element): string[] {
  const out: string[] = [];
  const weight = css(el, 'font-weight');
  const bold = weight === 'bold' || weight === 'bolder' || Number(weight) >= 600;
  const tagBold = el.tagName === 'B' || el.tagName === 'STRONG';
  // Google Docs wraps a whole paste in <b style="font-weight:normal">.
  if (bold || (tagBold && weight !== 'normal' && !(Number(weight) > 0 && Number(weight) < 600))) out.push('b');
  if (el.tagName === 'I' || el.tagName === 'EM' || css(el, 'font-style') === 'italic') out.push('i');
  if (el.tagName === 'U' || el.tagName === 'INS' || /underline/.test(css(el, 'text-decoration') + css(el, 'text-decoration-line'))) {
    out.push('u');
  }
  return out;
}

/** Collects the blocks: inline content goes into the paragraph being filled (`run`). */
class Blocks {
  readonly out: HTMLElement[] = [];
  private run: HTMLElement | null = null;
  constructor(private readonly doc: Document) {}

  paragraph(ctx: Ctx): HTMLElement {
    if (!this.run) {
      this.run = this.doc.createElement('p');
      setBlockAttrs(this.run, ctx);
    }
    return this.run;
  }

  hasRun(): boolean {
    return this.run !== null;
  }

  flush() {
    if (this.run) {
      trimEdges(this.run);
      this.out.push(this.run);
    }
    this.run = null;
  }

  push(block: HTMLElement) {
    this.flush();
    this.out.push(block);
  }
}

function setBlockAttrs(el: HTMLElement, ctx: Ctx) {
  if (ctx.dir) el.setAttribute('dir', ctx.dir);
  if (ctx.align) el.setAttribute('style', `text-align:${ctx.align}`);
}

/** Source white space at a block's start and end is not text. */
function trimEdges(block: Element) {
  const texts: Text[] = [];
  const walk = (n: Node) => n.childNodes.forEach((c) => (c.nodeType === Node.TEXT_NODE ? texts.push(c as Text) : walk(c)));
  walk(block);
  const first = texts[0];
  if (first) first.data = first.data.replace(/^ +/, '');
  const last = texts[texts.length - 1];
  if (last) last.data = last.data.replace(/ +$/, '');
  for (const t of texts) if (t.data === '') t.remove();
}

/** An element's inline content, cleaned (blocks inside it are flattened to their text). */
function inline(node: Node, doc: Document, inLink = false): Node[] {
  if (node.nodeType === Node.TEXT_NODE) {
    const text = (node.textContent ?? '').replace(SPACES, ' ');
    return text ? [doc.createTextNode(text)] : [];
  }
  if (node.nodeType !== Node.ELEMENT_NODE) return [];
  const el = node as Element;
  if (DROP.has(el.tagName) || hidden(el)) return [];
  if (el.tagName === 'BR') return [doc.createElement('br')];
  const href = el.tagName === 'A' && !inLink ? el.getAttribute('href')?.trim() : undefined;
  const link = href && SAFE_HREF.test(href) ? href : null;
  let children = Array.from(el.childNodes).flatMap((c) => inline(c, doc, inLink || link !== null));
  for (const tag of formatsOf(el).reverse()) {
    const wrap = doc.createElement(tag);
    wrap.append(...children);
    children = [wrap];
  }
  if (link) {
    const a = doc.createElement('a');
    a.setAttribute('href', link);
    a.append(...children);
    children = [a];
  }
  return children;
}

/** A list and its items; a nested list stays inside the item before it. */
function list(el: Element, ctx: Ctx, doc: Document, top: boolean): HTMLElement {
  const out = doc.createElement(el.tagName === 'OL' ? 'ol' : 'ul');
  if (top) setBlockAttrs(out, { dir: dirOf(el) ?? ctx.dir, align: null });
  let last: HTMLElement | null = null;
  for (const child of Array.from(el.children)) {
    if (DROP.has(child.tagName) || hidden(child)) continue;
    if (child.tagName === 'UL' || child.tagName === 'OL') {
      // <ul><li>a</li><ul>…</ul></ul>: the nested list belongs to the item before it.
      if (!last) {
        last = doc.createElement('li');
        out.append(last);
      }
      last.append(list(child, ctx, doc, false));
      continue;
    }
    const li = doc.createElement('li');
    const align = alignOf(child, dirOf(child) ?? dirOf(el) ?? ctx.dir);
    if (align) li.setAttribute('style', `text-align:${align}`);
    const nested: HTMLElement[] = [];
    const lines: Node[][] = [[]];
    for (const c of Array.from(child.childNodes)) {
      if (c.nodeType === Node.ELEMENT_NODE && ((c as Element).tagName === 'UL' || (c as Element).tagName === 'OL')) {
        nested.push(list(c as Element, ctx, doc, false));
      } else if (c.nodeType === Node.ELEMENT_NODE && BLOCK.has((c as Element).tagName)) {
        // <li><p>text</p></li> (Google Docs, Word): the paragraph's text is the item's.
        lines.push(Array.from(c.childNodes).flatMap((n) => inline(n, doc)), []);
      } else {
        lines[lines.length - 1].push(...inline(c, doc));
      }
    }
    const filled = lines.filter((l) => l.some((n) => (n.textContent ?? '').trim() !== '' || n.nodeName === 'BR'));
    filled.forEach((l, i) => {
      if (i > 0) li.append(doc.createElement('br'));
      li.append(...l);
    });
    trimEdges(li);
    li.append(...nested);
    out.append(li);
    last = li;
  }
  return out;
}

function blocks(parent: Node, ctx: Ctx, out: Blocks, doc: Document) {
  for (const child of Array.from(parent.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) {
      // White space between blocks is source formatting; inside a line it is a space.
      if (out.hasRun() || (child.textContent ?? '').trim() !== '') out.paragraph(ctx).append(...inline(child, doc));
      continue;
    }
    if (child.nodeType !== Node.ELEMENT_NODE) continue;
    const el = child as Element;
    if (DROP.has(el.tagName) || hidden(el)) continue;
    const dir = dirOf(el) ?? ctx.dir;
    const own: Ctx = { dir, align: alignOf(el, dir) ?? ctx.align };
    if (el.tagName === 'UL' || el.tagName === 'OL') {
      out.push(list(el, own, doc, true));
    } else if (el.tagName === 'BLOCKQUOTE') {
      // A quote holds lines: its paragraphs (and list items) are joined with line breaks.
      const inner = new Blocks(doc);
      blocks(el, { dir: null, align: null }, inner, doc);
      inner.flush();
      const q = doc.createElement('blockquote');
      setBlockAttrs(q, own);
      const lines = inner.out.flatMap((b) => (b.tagName === 'P' ? [Array.from(b.childNodes)] : Array.from(b.querySelectorAll('li')).map((li) => Array.from(li.childNodes).filter((n) => n.nodeName !== 'UL' && n.nodeName !== 'OL'))));
      lines.forEach((l, i) => {
        if (i > 0) q.append(doc.createElement('br'));
        q.append(...l);
      });
      if (lines.length) out.push(q);
    } else if (BLOCK.has(el.tagName) || hasBlock(el)) {
      // A block (or an inline wrapper around blocks, as Google Docs' <b>): its own paragraphs.
      out.flush();
      if (HEADING.test(el.tagName)) {
        const b = doc.createElement('b');
        b.append(...Array.from(el.childNodes).flatMap((c) => inline(c, doc)));
        if ((b.textContent ?? '').trim()) out.paragraph(own).append(b);
      } else {
        blocks(el, own, out, doc);
      }
      out.flush();
    } else {
      out.paragraph(ctx).append(...inline(el, doc));
    }
  }
}

/**
 * Style sheets, scripts and `on…` handler attributes taken out of the markup before it is parsed.
 * Nothing in a parsed-only document runs, and the DOM pass drops them anyway, but Chromium checks
 * the page's Content-Security-Policy while parsing and logs a violation for each (a Word paste
 * carries a <style>, a web page onclick=...). Handlers are renamed only inside tags, never in text.
 */
function withoutActiveParts(html: string): string {
  return html
    .replace(/<(style|script)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<[^>]*>/g, (tag) => tag.replace(/(\s)on([a-z]+\s*=)/gi, '$1data-dropped-on$2'));
}

/** The cleaned HTML as DOM (an inert document's): the blocks are the returned element's children. */
export function cleanDom(html: string): HTMLElement {
  const doc = new DOMParser().parseFromString(withoutActiveParts(html), 'text/html');
  const out = new Blocks(doc);
  blocks(doc.body, { dir: null, align: null }, out, doc);
  out.flush();
  const box = doc.createElement('div');
  box.append(...out.out);
  return box;
}

/** The HTML reduced to the editor's own form (see the top of this file). */
export const cleanHtml = (html: string): string => cleanDom(html).innerHTML;
