// Sends every import of `@lexical/clipboard` (Lexical's rich text imports it) to
// `src/features/compose/clipboardLater.ts`, whose functions pass their calls on to the real module
// once editorLater.ts's chunk, fetched when the editor is editable, is there. The editor's chunk
// then carries neither the clipboard module nor the HTML module only it needs (issue 42: the
// editor chunk < 80 kB gzip). editorLater.ts's own import is left alone: it is the real module.

import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** The file `@lexical/clipboard` imports are sent to. */
const CLIPBOARD_LATER = fileURLToPath(new URL('../src/features/compose/clipboardLater.ts', import.meta.url));
/** The one file whose import of it is the real module. */
const EDITOR_LATER = fileURLToPath(new URL('../src/features/compose/editorLater.ts', import.meta.url));

/** The Vite plugin (resolves before Vite's own resolver). */
export function clipboardAfterEditor(): Plugin {
  return {
    name: 'clipboard-after-editor',
    enforce: 'pre',
    resolveId(source, importer) {
      return source === '@lexical/clipboard' && importer !== EDITOR_LATER ? CLIPBOARD_LATER : null;
    },
  };
}
