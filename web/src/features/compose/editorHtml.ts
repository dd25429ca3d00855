// The compose editor's HTML in and out. Lexical holds the mail as its own tree; these functions
// turn the cleaned HTML (cleanHtml.ts) into that tree and the tree back into the same small HTML,
// written here rather than with @lexical/html's export (which wraps every run of text in
// <span style="white-space: pre-wrap">). The rule that makes a draft survive a round trip:
// exportHtml(importHtml(exportHtml(x))) === exportHtml(x) (editorHtml.test.ts).
//
// Direction. In the editor Lexical gives each top-level block dir="auto" unless the block has a
// direction of its own (the toolbar's RTL/LTR switch sets one), so a Hebrew line and an English
// line each read their own way as they are typed. A mail reader may not honour dir="auto"
// (Outlook), so the HTML written out names it: each top-level block gets the direction of its
// first strong letter, or the one set by the switch. On the way in, a block whose `dir` is what
// its text would give anyway goes back to "auto" (it follows the text as it is edited); only a
// direction that differs from the text's (the switch's) stays fixed.

import { $createLinkNode, $isLinkNode, LinkNode } from '@lexical/link';
import { $createListItemNode, $createListNode, $isListItemNode, $isListNode, ListItemNode, ListNode } from '@lexical/list';
import { $createQuoteNode, $isQuoteNode, QuoteNode } from '@lexical/rich-text';
import {
  $createLineBreakNode,
  $createParagraphNode,
  $createTextNode,
  $getRoot,
  $isElementNode,
  $isLineBreakNode,
  $isTextNode,
  IS_BOLD,
  IS_ITALIC,
  IS_UNDERLINE,
  type ElementFormatType,
  type ElementNode,
  type LexicalNode,
} from 'lexical';
import { cleanDom } from './cleanHtml';
import { textDirection } from './direction';

/** The node types the compose editor has (paragraphs, line breaks and text are Lexical's own). */
export const EDITOR_NODES = [QuoteNode, ListNode, ListItemNode, LinkNode];

// ---- HTML → Lexical ----

function $inlineNodes(parent: Node, format: number): LexicalNode[] {
  const out: LexicalNode[] = [];
  for (const child of Array.from(parent.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) {
      const text = child.textContent ?? '';
      if (text) out.push($createTextNode(text).setFormat(format));
      continue;
    }
    if (child.nodeType !== Node.ELEMENT_NODE) continue;
    const el = child as Element;
    switch (el.tagName) {
      case 'BR':
        out.push($createLineBreakNode());
        break;
      case 'B':
        out.push(...$inlineNodes(el, format | IS_BOLD));
        break;
      case 'I':
        out.push(...$inlineNodes(el, format | IS_ITALIC));
        break;
      case 'U':
        out.push(...$inlineNodes(el, format | IS_UNDERLINE));
        break;
      case 'A': {
        const link = $createLinkNode(el.getAttribute('href') ?? '');
        link.append(...$inlineNodes(el, format));
        out.push(link);
        break;
      }
      default:
        out.push(...$inlineNodes(el, format));
    }
  }
  return out;
}

/** A block's content; a trailing <br> ends the line without making one (as in a browser). */
function $fill(node: ElementNode, from: Node) {
  const nodes = $inlineNodes(from, 0);
  if (nodes.length && $isLineBreakNode(nodes[nodes.length - 1])) nodes.pop();
  node.append(...nodes);
}

function $align(node: ElementNode, el: Element) {
  const m = /text-align:(left|center|right)/.exec(el.getAttribute('style') ?? '');
  if (m) node.setFormat(m[1] as ElementFormatType);
}

function $list(el: Element): ListNode {
  const list = $createListNode(el.tagName === 'OL' ? 'number' : 'bullet');
  for (const li of Array.from(el.children)) {
    const item = $createListItemNode();
    $align(item, li);
    const inline = li.cloneNode(true) as Element;
    const nested = Array.from(inline.children).filter((c) => c.tagName === 'UL' || c.tagName === 'OL');
    nested.forEach((n) => n.remove());
    $fill(item, inline);
    list.append(item);
    // Lexical keeps a nested list in an item of its own, after the item it belongs to.
    for (const n of nested) list.append($createListItemNode().append($list(n)));
  }
  return list;
}

/** The top-level nodes for `html` (any HTML: it is cleaned first). */
export function $nodesFromHtml(html: string): LexicalNode[] {
  const out: LexicalNode[] = [];
  for (const el of Array.from(cleanDom(html).children)) {
    let node: ElementNode;
    if (el.tagName === 'UL' || el.tagName === 'OL') {
      node = $list(el);
    } else {
      node = el.tagName === 'BLOCKQUOTE' ? $createQuoteNode() : $createParagraphNode();
      $fill(node, el);
      $align(node, el);
    }
    const dir = el.getAttribute('dir');
    if ((dir === 'rtl' || dir === 'ltr') && dir !== textDirection(el.textContent ?? '')) node.setDirection(dir);
    out.push(node);
  }
  return out;
}

/** Replaces the whole body with `html` (call inside editor.update). */
export function $setHtml(html: string) {
  const root = $getRoot();
  root.clear();
  const nodes = $nodesFromHtml(html);
  root.append(...(nodes.length ? nodes : [$createParagraphNode()]));
}

// ---- Lexical → HTML ----

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\u00a0/g, '&nbsp;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');

/**
 * Spaces the way they were typed: a run of spaces, and a space at a line's start or end, would
 * collapse in HTML, so all but one become no-break spaces.
 */
function keepSpaces(text: string, first: boolean, last: boolean): string {
  let t = text.replace(/ {2,}/g, (run) => ' ' + '\u00a0'.repeat(run.length - 1));
  if (first) t = t.replace(/^ /, '\u00a0');
  if (last) t = t.replace(/ $/, '\u00a0');
  return t;
}

function $inlineHtml(nodes: LexicalNode[]): string {
  return nodes
    .map((node, i) => {
      if ($isLineBreakNode(node)) return '<br>';
      if ($isTextNode(node)) {
        const prev = nodes[i - 1];
        const next = nodes[i + 1];
        let out = escapeText(keepSpaces(node.getTextContent(), !prev || $isLineBreakNode(prev), !next || $isLineBreakNode(next)));
        if (node.hasFormat('underline')) out = `<u>${out}</u>`;
        if (node.hasFormat('italic')) out = `<i>${out}</i>`;
        if (node.hasFormat('bold')) out = `<b>${out}</b>`;
        return out;
      }
      if ($isLinkNode(node)) return `<a href="${escapeAttr(node.getURL())}">${$inlineHtml(node.getChildren())}</a>`;
      if ($isElementNode(node)) return $inlineHtml(node.getChildren());
      return escapeText(node.getTextContent());
    })
    .join('');
}

/** A block's lines; an empty line or a trailing line break needs a <br> to show. */
function $content(nodes: LexicalNode[]): string {
  const html = $inlineHtml(nodes);
  return html === '' || $isLineBreakNode(nodes[nodes.length - 1]) ? `${html}<br>` : html;
}

/** The alignment, unless it is what the direction gives anyway (right for rtl, left for ltr). */
function alignAttr(node: ElementNode, dir: 'rtl' | 'ltr' | null): string {
  const align = node.getFormatType();
  if ((align === 'right' && dir === 'rtl') || (align === 'left' && dir === 'ltr')) return '';
  return align === 'left' || align === 'center' || align === 'right' ? ` style="text-align:${align}"` : '';
}

/** The direction written out: the switch's, else the text's (none for a line without letters). */
export function $blockDirection(node: ElementNode): 'rtl' | 'ltr' | null {
  return node.getDirection() ?? textDirection(node.getTextContent());
}

/** A list; `dir` is written on the top-level one only (nested lists follow it). */
function $listHtml(list: ListNode, dir: 'rtl' | 'ltr' | null, top = false): string {
  const tag = list.getListType() === 'number' ? 'ol' : 'ul';
  const items: { open: string; body: string; nested: string }[] = [];
  for (const item of list.getChildren()) {
    if (!$isListItemNode(item)) continue;
    const children = item.getChildren();
    const lists = children.filter($isListNode);
    const inline = children.filter((c) => !$isListNode(c));
    if (inline.length === 0 && lists.length && items.length) {
      // The item Lexical made to hold a nested list: the list goes into the item before it.
      items[items.length - 1].nested += lists.map((l) => $listHtml(l, dir)).join('');
      continue;
    }
    items.push({ open: `<li${alignAttr(item, dir)}>`, body: $content(inline), nested: lists.map((l) => $listHtml(l, dir)).join('') });
  }
  return `<${tag}${dir && top ? ` dir="${dir}"` : ''}>${items.map((i) => `${i.open}${i.body}${i.nested}</li>`).join('')}</${tag}>`;
}

/** The editor's body as the mail's HTML (call inside editor.read / getEditorState().read). */
export function $exportHtml(): string {
  return $getRoot()
    .getChildren()
    .map((node) => {
      if (!$isElementNode(node)) return `<p>${escapeText(node.getTextContent())}</p>`;
      const dir = $blockDirection(node);
      const dirAttr = dir ? ` dir="${dir}"` : '';
      if ($isListNode(node)) return $listHtml(node, dir, true);
      const tag = $isQuoteNode(node) ? 'blockquote' : 'p';
      return `<${tag}${dirAttr}${alignAttr(node, dir)}>${$content(node.getChildren())}</${tag}>`;
    })
    .join('');
}

/** No text at all (whatever empty paragraphs or list items are there). */
export const $isBlank = () => $getRoot().getTextContent().trim() === '';
