// clipboardLater.ts: before editorLater.ts's chunk is there, a paste, a copy or a cut keeps the
// text; once it is, every call goes to Lexical's own clipboard module (which also writes HTML and
// Lexical's JSON). The tests run in order: the first ones before the chunk is loaded.

import { $createParagraphNode, $createTextNode, $getRoot, $getSelection, createEditor, type LexicalEditor } from 'lexical';
import { describe, expect, it, vi } from 'vitest';
import { $getClipboardDataFromSelection, $insertDataTransferForRichText, clipboardLoaded, copyToClipboard, loadEditorLater } from './clipboardLater';

/** A DataTransfer as far as the clipboard functions use one (jsdom has none). */
function transfer(data: Record<string, string> = {}): DataTransfer {
  const items = new Map(Object.entries(data));
  return {
    get types() {
      return [...items.keys()];
    },
    getData: (type: string) => items.get(type) ?? '',
    setData: (type: string, value: string) => void items.set(type, value),
  } as unknown as DataTransfer;
}

/** An editor on a DOM element holding one paragraph, `text`, with [from, to) of it selected. */
function editorWith(text: string, from: number, to: number): LexicalEditor {
  const editor = createEditor({
    namespace: 'clipboard-test',
    onError: (error) => {
      throw error;
    },
  });
  const root = document.createElement('div');
  root.contentEditable = 'true';
  document.body.append(root);
  editor.setRootElement(root);
  editor.update(
    () => {
      const node = $createTextNode(text);
      $getRoot().clear().append($createParagraphNode().append(node));
      node.select(from, to);
    },
    { discrete: true },
  );
  return editor;
}

/** A copy event carrying `data`, as Lexical's rich text hands it on. */
function copyEvent(data: DataTransfer) {
  return { clipboardData: data, preventDefault: vi.fn() };
}

const text = (editor: LexicalEditor) => editor.getEditorState().read(() => $getRoot().getTextContent());

describe('clipboardLater', () => {
  it('before the chunk: a paste inserts the clipboard text, a paragraph a line', () => {
    expect(clipboardLoaded()).toBe(false);
    const editor = editorWith('שלום ', 5, 5);
    editor.update(() => $insertDataTransferForRichText(transfer({ 'text/plain': 'עולם\r\nשורה שנייה\n' }), $getSelection()!, editor), {
      discrete: true,
    });
    expect(editor.getEditorState().read(() => $getRoot().getChildren().map((p) => p.getTextContent()))).toEqual(['שלום עולם', 'שורה שנייה']);
  });

  it('before the chunk: a copy writes the selected text and takes the event', async () => {
    const editor = editorWith('שלום עולם', 0, 4);
    const data = transfer();
    const event = copyEvent(data);
    expect(await copyToClipboard(editor, event as unknown as ClipboardEvent)).toBe(true);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(data.types).toEqual(['text/plain']);
    expect(data.getData('text/plain')).toBe('שלום');
    expect(editor.getEditorState().read(() => $getClipboardDataFromSelection())).toEqual({ 'text/plain': 'שלום' });
  });

  it('before the chunk: nothing selected, nothing copied and the event left to the browser', async () => {
    const editor = editorWith('שלום', 2, 2);
    const event = copyEvent(transfer());
    expect(await copyToClipboard(editor, event as unknown as ClipboardEvent)).toBe(false);
    expect(event.preventDefault).not.toHaveBeenCalled();
  });

  it("after the chunk: Lexical's module copies HTML and its own JSON too", async () => {
    await loadEditorLater();
    expect(clipboardLoaded()).toBe(true);
    const editor = editorWith('שלום עולם', 5, 9);
    const data = transfer();
    expect(await copyToClipboard(editor, copyEvent(data) as unknown as ClipboardEvent)).toBe(true);
    expect(data.getData('text/plain')).toBe('עולם');
    expect(data.getData('text/html')).toContain('עולם');
    expect(JSON.parse(data.getData('application/x-lexical-editor')).namespace).toBe('clipboard-test');

    // And a paste of that JSON goes through Lexical's importer.
    const target = editorWith('', 0, 0);
    target.update(() => $insertDataTransferForRichText(data, $getSelection()!, target), { discrete: true });
    expect(text(target)).toBe('עולם');
  });
});
