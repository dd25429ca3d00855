// Sends every import of `@lexical/clipboard` that the bundler resolves (Lexical's rich text
// imports it) to `src/features/compose/clipboardLater.ts`, whose functions pass their calls on to
// the real module once editorLater.ts's chunk, fetched when the editor is editable, is there. The
// editor's chunk then carries neither the clipboard module nor the HTML module only it needs
// (issue 42: the editor chunk < 80 kB gzip; `scripts/bundle-budget.mjs` checks it).
// editorLater.ts's own import is left alone: it is the real module.
//
// This matters for the build only. Vitest runs Lexical's packages in Node and the dev server
// pre-bundles them, so there rich text imports the real module itself (the editor works the same,
// with its clipboard from the start); clipboardLater.test.ts calls the fallbacks directly.

import { fileURLToPath } from 'node:url';
import { normalizePath, type Plugin } from 'vite';

/** The file `@lexical/clipboard` imports are sent to. */
const CLIPBOARD_LATER = normalizePath(fileURLToPath(new URL('../src/features/compose/clipboardLater.ts', import.meta.url)));
/** The one file whose import of it is the real module. */
const EDITOR_LATER = normalizePath(fileURLToPath(new URL('../src/features/compose/editorLater.ts', import.meta.url)));

/** The Vite plugin (resolves before Vite's own resolver). */
export function clipboardAfterEditor(): Plugin {
  return {
    name: 'clipboard-after-editor',
    enforce: 'pre',
    apply: 'build',
    resolveId(source, importer) {
      if (source !== '@lexical/clipboard') return null;
      const from = importer ? normalizePath(importer.split('?', 1)[0]) : '';
      return from === EDITOR_LATER ? null : CLIPBOARD_LATER;
    },
  };
}
