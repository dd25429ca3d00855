// Lexical's clipboard functions for the editor's chunk (issue 42: that chunk under 80 kB gzip).
// `@lexical/rich-text` imports `@lexical/clipboard` for copy, cut, paste, drag and drop, and with it
// `@lexical/html`: 5 kB of the editor's chunk that typing never needs. The build sends every
// import of `@lexical/clipboard` here (`vite/clipboardAfterEditor.ts`); the real module comes in
// editorLater.ts's chunk, which the editor asks for once it has mounted (`loadEditorLater`), and
// each function here passes its call on to it.
//
// Before that chunk is there (the first moments of an editor on a slow link) each function does
// the plain-text part of its job itself, so nothing a user copies, cuts or pastes is lost: a paste
// inserts the clipboard's text, a copy, a cut or a drag carries the selection's text, a drop is left
// to the browser.

import type * as Clipboard from './editorLater';
import { $getSelection, $isRangeSelection, type BaseSelection, type LexicalEditor, type LexicalNode } from 'lexical';

let loaded: typeof Clipboard | null = null;
let loading: Promise<typeof Clipboard> | null = null;

/**
 * Starts fetching editorLater.ts's chunk (once); resolves when its clipboard is in use. A failed
 * fetch is asked again by the next call (the fallbacks below serve meanwhile).
 */
export function loadEditorLater(): Promise<typeof Clipboard> {
  loading ??= import('./editorLater').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Whether the real module is in use (for tests). */
export function clipboardLoaded(): boolean {
  return loaded !== null;
}

/** Inserts a pasted or dropped DataTransfer; before the module, its plain text. */
export function $insertDataTransferForRichText(data: DataTransfer, selection: BaseSelection, editor: LexicalEditor): void {
  if (loaded) return loaded.$insertDataTransferForRichText(data, selection, editor);
  const text = data.getData('text/plain') || data.getData('text/uri-list');
  if (!text || !$isRangeSelection(selection)) return;
  // As Lexical's module pastes plain text: each line its own paragraph (a last newline adds none).
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  lines.forEach((line, i) => {
    if (i > 0) selection.insertParagraph();
    if (line) selection.insertText(line);
  });
}

/** Inserts nodes made from pasted HTML at the selection; before the module, as they are. */
export function $insertGeneratedNodes(editor: LexicalEditor, nodes: LexicalNode[], selection: BaseSelection): void {
  if (loaded) return loaded.$insertGeneratedNodes(editor, nodes, selection);
  selection.insertNodes(nodes);
}

/** The text position under a point; before the module, none (the caller falls back). */
export function caretFromPoint(x: number, y: number, root: HTMLElement | null): ReturnType<typeof Clipboard.caretFromPoint> {
  return loaded ? loaded.caretFromPoint(x, y, root) : null;
}

/** Handles a drop inside the editor; before the module, leaves it to the browser. */
export function $handleRichTextDrop(event: DragEvent, editor: LexicalEditor): boolean {
  return loaded ? loaded.$handleRichTextDrop(event, editor) : false;
}

/** What a copy of the selection carries; before the module, its text. */
export function $getClipboardDataFromSelection(selection: BaseSelection | null = $getSelection()): Clipboard.LexicalClipboardData {
  if (loaded) return loaded.$getClipboardDataFromSelection(selection);
  return { 'text/plain': selection ? selection.getTextContent() : '' };
}

/** Writes that data to a clipboard or drag DataTransfer. */
export function setLexicalClipboardDataTransfer(data: DataTransfer, content: Clipboard.LexicalClipboardData): void {
  if (loaded) return loaded.setLexicalClipboardDataTransfer(data, content);
  for (const [type, value] of Object.entries(content)) if (value !== undefined) data.setData(type, value);
}

/** Marks a drag as coming from this editor (a drop elsewhere moves rather than copies). */
export function $writeDragSourceToDataTransfer(data: DataTransfer, editor: LexicalEditor): void {
  if (loaded) loaded.$writeDragSourceToDataTransfer(data, editor);
}

/**
 * Copies the selection for a copy or a cut. A browser's clipboard event can only be written while
 * it is dispatched, so before the module its text is written at once; with no event (a command
 * from a menu) the module is awaited and does it.
 */
export async function copyToClipboard(
  editor: LexicalEditor,
  event: ClipboardEvent | null,
  data?: Clipboard.LexicalClipboardData,
): Promise<boolean> {
  if (loaded) return loaded.copyToClipboard(editor, event, data);
  if (event === null) return (await loadEditorLater()).copyToClipboard(editor, null, data);
  const clipboard = event.clipboardData;
  // Lexical runs an update nested in a command's at once, so the event is still being dispatched.
  return new Promise((done) => {
    editor.update(() => {
      const selection = $getSelection();
      if (!clipboard || !selection || (data === undefined && selection.isCollapsed())) return done(false);
      event.preventDefault();
      setLexicalClipboardDataTransfer(clipboard, data ?? $getClipboardDataFromSelection(selection));
      done(true);
    });
  });
}
