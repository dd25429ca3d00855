// What the editor fetches as one chunk once it is editable (`loadEditorLater` in
// clipboardLater.ts): Lexical's clipboard module, with the HTML module only it needs, Dragon
// dictation's support and the toolbar's link box. Typing needs none of them; they were 6 kB gzip
// of the editor's chunk.
// The build sends every other import of `@lexical/clipboard` to clipboardLater.ts
// (`vite/clipboardAfterEditor.ts`); this file's is the real module.

export {
  $getClipboardDataFromSelection,
  $handleRichTextDrop,
  $insertDataTransferForRichText,
  $insertGeneratedNodes,
  $writeDragSourceToDataTransfer,
  caretFromPoint,
  copyToClipboard,
  setLexicalClipboardDataTransfer,
  type LexicalClipboardData,
} from '@lexical/clipboard';
export { registerDragonSupport } from '@lexical/dragon';
export { LinkPopover } from './LinkPopover';
