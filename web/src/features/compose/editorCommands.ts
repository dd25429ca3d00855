// The rich-text editor's commands. document.execCommand is deprecated but is still the one way to
// edit a contentEditable with native undo in Chromium; every call is guarded so a browser (or
// jsdom) without it leaves the text untouched instead of throwing.

export type Format = 'bold' | 'italic' | 'underline' | 'bullets' | 'alignRight' | 'alignCenter' | 'alignLeft';

const COMMANDS: Record<Format, string> = {
  bold: 'bold',
  italic: 'italic',
  underline: 'underline',
  bullets: 'insertUnorderedList',
  alignRight: 'justifyRight',
  alignCenter: 'justifyCenter',
  alignLeft: 'justifyLeft',
};

export const FORMATS = Object.keys(COMMANDS) as Format[];

export function exec(command: string, value?: string): boolean {
  if (typeof document.execCommand !== 'function') return false;
  try {
    return document.execCommand(command, false, value);
  } catch {
    return false;
  }
}

export function applyFormat(format: Format): boolean {
  return exec(COMMANDS[format]);
}

/** Whether the selection has this format (for aria-pressed); false when the browser cannot tell. */
export function formatActive(format: Format): boolean {
  if (typeof document.queryCommandState !== 'function') return false;
  try {
    return document.queryCommandState(COMMANDS[format]);
  } catch {
    return false;
  }
}

/** Only web and mail links: a `javascript:` or `data:` link must never enter a mail. */
export function safeLinkUrl(input: string): string | null {
  const raw = input.trim();
  if (!raw) return null;
  // "www.example.com" is what people paste; it means https.
  const withScheme = /^www\./i.test(raw) ? `https://${raw}` : raw;
  if (!/^(https?:\/\/|mailto:)/i.test(withScheme)) return null;
  try {
    const url = new URL(withScheme);
    if (url.protocol === 'mailto:') return url.pathname ? withScheme : null;
    return url.hostname ? url.href : null;
  } catch {
    return null;
  }
}

const BLOCKS = new Set(['P', 'DIV', 'LI', 'UL', 'OL', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'BLOCKQUOTE', 'PRE']);

/** The selection's node when it is inside `root`. */
export function selectionNode(root: HTMLElement): Node | null {
  const sel = document.getSelection();
  const node = sel && sel.rangeCount > 0 ? sel.getRangeAt(0).startContainer : null;
  return node && root.contains(node) ? node : null;
}

/** The block the caret is in (a paragraph, list item...), below the editor root. */
export function currentBlock(root: HTMLElement): HTMLElement | null {
  let node: Node | null = selectionNode(root);
  while (node && node !== root) {
    if (node instanceof HTMLElement && BLOCKS.has(node.tagName)) return node;
    node = node.parentNode;
  }
  return null;
}

/** The direction in force at the caret: the nearest dir attribute, else the editor's. */
export function directionAt(root: HTMLElement): 'rtl' | 'ltr' {
  let node: Node | null = selectionNode(root) ?? root;
  while (node) {
    if (node instanceof HTMLElement) {
      const dir = node.getAttribute('dir');
      if (dir === 'ltr' || dir === 'rtl') return dir;
      if (node === root) break;
    }
    node = node.parentNode;
  }
  return 'rtl';
}

/**
 * Switches the current block between right-to-left and left-to-right. Text typed straight into
 * the editor has no block yet, so it is made one first (the direction belongs to a paragraph,
 * not to the whole mail).
 */
export function toggleBlockDirection(root: HTMLElement): 'rtl' | 'ltr' {
  let block = currentBlock(root);
  if (!block) {
    exec('formatBlock', 'div');
    block = currentBlock(root);
  }
  const next = directionAt(root) === 'rtl' ? 'ltr' : 'rtl';
  (block ?? root).setAttribute('dir', next);
  return next;
}

/** A body with no text and no image is empty, whatever markup (<p><br></p>) the editor left. */
export function isBlankHtml(root: HTMLElement): boolean {
  return !(root.textContent ?? '').trim() && !root.querySelector('img');
}

/** Remembers the selection inside the editor, so a popover can take focus and give it back. */
export function saveSelection(root: HTMLElement): Range | null {
  const sel = document.getSelection();
  if (!sel || sel.rangeCount === 0) return null;
  const range = sel.getRangeAt(0);
  return root.contains(range.commonAncestorContainer) ? range.cloneRange() : null;
}

export function restoreSelection(range: Range | null): void {
  const sel = document.getSelection();
  if (!sel || !range) return;
  sel.removeAllRanges();
  sel.addRange(range);
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Links the selected text to `url`, or inserts the url as a link at the caret when nothing is
 * selected. Falls back to plain DOM edits where execCommand is missing.
 */
export function insertLink(root: HTMLElement, range: Range | null, url: string): void {
  // The selection was saved when the link box opened; the box had the focus since.
  root.focus();
  restoreSelection(range);
  const selected = range && !range.collapsed;
  const done = selected
    ? exec('createLink', url)
    : exec('insertHTML', `<a href="${escapeAttr(url)}">${escapeAttr(url)}</a>`);
  if (done) return;
  const a = document.createElement('a');
  a.href = url;
  if (selected && range) {
    a.appendChild(range.extractContents());
    range.insertNode(a);
  } else {
    a.textContent = url;
    if (range) range.insertNode(a);
    else root.appendChild(a);
  }
}

/**
 * Focuses the editor without losing the user's selection in it (focusing a contentEditable that
 * is not focused may put the caret at its start).
 */
export function focusKeepingSelection(root: HTMLElement): void {
  if (document.activeElement === root) return;
  const range = saveSelection(root);
  root.focus();
  if (range) restoreSelection(range);
}
