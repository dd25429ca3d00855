#!/usr/bin/env node
// The web bundle's budget (issue 42), read from the Vite manifest of web/dist (build.manifest):
// - the inbox's first paint: the entry (index.html's module) and every chunk it imports
//   statically, plus the inbox page's lazy chunk and its static imports, which the route loads
//   on its first render for a signed-in user; gzip of all that JS < 150 kB. CSS is printed
//   beside it, not counted.
// - the compose editor: the chunk named RichEditor (the editor and Lexical; compose imports it,
//   the pending replies page loads it lazily) and any chunk it imports that the entry does not,
//   gzip < 80 kB. What the editor fetches once it is editable (its lazy chunks: the clipboard,
//   Dragon, the link box; editorLater.ts) is printed beside it, not counted.
// Prints the figures and exits 1 over budget. `e2e/inbox.e2e.mjs` checks that the files counted
// here are exactly the scripts Chromium fetches for the inbox.
// Usage: node scripts/bundle-budget.mjs [dist dir]   (gzip level 9, kB = 1000 bytes)

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Budgets in bytes of gzip: issue 42's goals. */
export const BUDGET = { inboxJs: 150_000, editorJs: 80_000 };

/** The manifest keys of the entry, the inbox page and the editor (source paths). */
const ENTRY = 'index.html';
const INBOX = 'src/features/inbox/InboxPage.tsx';
/** The editor's chunk name (Rolldown names a shared chunk after its first module). */
const EDITOR_CHUNK = 'RichEditor';

/** The manifest keys a chunk loads before it runs: itself and its static imports, transitively. */
function staticClosure(manifest, key, into = new Set()) {
  if (into.has(key)) return into;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`the manifest has no chunk ${key}`);
  into.add(key);
  for (const dep of chunk.imports ?? []) staticClosure(manifest, dep, into);
  return into;
}

/** The JS and CSS files (dist-relative) of a set of manifest keys, sorted. */
function filesOf(manifest, keys) {
  const js = new Set();
  const css = new Set();
  for (const key of keys) {
    js.add(manifest[key].file);
    for (const c of manifest[key].css ?? []) css.add(c);
  }
  return { js: [...js].sort(), css: [...css].sort() };
}

/** The files the inbox loads at first paint: the entry's closure and the inbox page's. */
export function inboxFiles(manifest) {
  const keys = staticClosure(manifest, ENTRY);
  staticClosure(manifest, INBOX, keys);
  return filesOf(manifest, keys);
}

/** The JS files the inbox's lazy chunks (the reading pane, fetched once the list has painted; the
 *  Spam folders' tools) add to its first paint: printed, not counted. */
export function inboxLaterFiles(manifest) {
  const first = staticClosure(manifest, INBOX, staticClosure(manifest, ENTRY));
  const later = new Set();
  for (const key of first) {
    if (key === ENTRY) continue;
    for (const lazy of manifest[key].dynamicImports ?? []) staticClosure(manifest, lazy, later);
  }
  return filesOf(manifest, [...later].filter((k) => !first.has(k))).js;
}

/** The manifest key of the editor's chunk, if there is one. */
function editorKey(manifest) {
  return Object.keys(manifest).find((k) => manifest[k].name === EDITOR_CHUNK && !manifest[k].isEntry);
}

/** The JS files loading the editor adds to what the entry has loaded (none without its chunk). */
export function editorFiles(manifest) {
  const editor = editorKey(manifest);
  if (!editor) return [];
  const loaded = staticClosure(manifest, ENTRY);
  const added = [...staticClosure(manifest, editor)].filter((k) => !loaded.has(k));
  return filesOf(manifest, added).js;
}

/** The JS files the editor's lazy chunks add once it is there (none without its chunk). */
export function editorLaterFiles(manifest) {
  const editor = editorKey(manifest);
  if (!editor) return [];
  const first = staticClosure(manifest, editor, staticClosure(manifest, ENTRY));
  const later = new Set();
  for (const lazy of manifest[editor].dynamicImports ?? []) staticClosure(manifest, lazy, later);
  return filesOf(manifest, [...later].filter((k) => !first.has(k))).js;
}

/** The sum of each file's gzip size in bytes. */
function gzipBytes(dist, files) {
  return files.reduce((sum, f) => sum + gzipSync(readFileSync(join(dist, f)), { level: 9 }).length, 0);
}

/** Reads dist's manifest. */
export function readManifest(dist) {
  return JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
}

const kB = (bytes) => `${(bytes / 1000).toFixed(2)} kB`;

function main() {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const dist = resolve(process.argv[2] ?? join(here, '..', 'dist'));
  const manifest = readManifest(dist);
  const inbox = inboxFiles(manifest);
  const editor = editorFiles(manifest);
  const inboxJs = gzipBytes(dist, inbox.js);
  const inboxCss = gzipBytes(dist, inbox.css);
  const editorJs = gzipBytes(dist, editor);
  console.log(`inbox first paint: ${inbox.js.length} JS files, ${kB(inboxJs)} gzip (budget ${kB(BUDGET.inboxJs)})`);
  for (const f of inbox.js) console.log(`  ${f} ${kB(gzipBytes(dist, [f]))}`);
  console.log(`inbox CSS (not counted): ${kB(inboxCss)} gzip in ${inbox.css.join(' ')}`);
  const later = inboxLaterFiles(manifest);
  console.log(`inbox after first paint (not counted): ${kB(gzipBytes(dist, later))} gzip in ${later.join(' ')}`);
  console.log(`compose editor: ${kB(editorJs)} gzip (budget ${kB(BUDGET.editorJs)}) in ${editor.join(' ')}`);
  const editorLater = editorLaterFiles(manifest);
  console.log(`editor once editable (not counted): ${kB(gzipBytes(dist, editorLater))} gzip in ${editorLater.join(' ')}`);
  const over = [];
  if (inboxJs >= BUDGET.inboxJs) over.push(`the inbox's first-paint JS is ${kB(inboxJs)}, over ${kB(BUDGET.inboxJs)}`);
  if (editorJs >= BUDGET.editorJs) over.push(`the editor chunk is ${kB(editorJs)}, over ${kB(BUDGET.editorJs)}`);
  if (editor.length === 0) over.push(`no chunk named ${EDITOR_CHUNK}: the editor is no longer a chunk of its own`);
  for (const o of over) console.error(`bundle budget: ${o}`);
  process.exit(over.length ? 1 : 0);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
