// Writes dist/sw.js (issue 39): sw/worker.js after a generated `VERSION` (a hash of every file the
// build emits and of the public folder, so a new build is a new cache and an unchanged one keeps
// its cache) and `PRECACHE` (the app shell: index.html, every bundle file, the public files).
// Hand-written rather than Workbox through vite-plugin-pwa: the worker needs ~60 lines (precache,
// old-cache cleanup, network-first page loads, an update on the user's click) and Workbox's build
// tooling would add a large dependency tree for it.

import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/** The worker's file name at the root of the site (its scope is the whole app). */
export const SERVICE_WORKER_FILE = 'sw.js';

/** The service worker for a build whose files are `files` (path → content). */
export function serviceWorkerSource(files: Map<string, string | Uint8Array>): string {
  const hash = createHash('sha256');
  const paths = [...files.keys()].sort();
  for (const path of paths) {
    hash.update(path);
    hash.update(files.get(path) ?? '');
  }
  const worker = readFileSync(resolve(here, 'worker.js'), 'utf8');
  const precache = paths.map((p) => `/${p}`);
  return (
    `const VERSION = ${JSON.stringify(hash.digest('hex').slice(0, 16))};\n` +
    `const PRECACHE = ${JSON.stringify(precache)};\n${worker}`
  );
}

export function serviceWorker(): Plugin {
  let publicDir = '';
  return {
    name: 'mailclient-service-worker',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      publicDir = config.publicDir;
    },
    generateBundle(_options, bundle) {
      const files = new Map<string, string | Uint8Array>();
      for (const [name, out] of Object.entries(bundle)) {
        files.set(name, out.type === 'chunk' ? out.code : out.source);
      }
      for (const name of publicDir ? readdirSync(publicDir) : []) {
        if (name !== SERVICE_WORKER_FILE) files.set(name, readFileSync(resolve(publicDir, name)));
      }
      this.emitFile({ type: 'asset', fileName: SERVICE_WORKER_FILE, source: serviceWorkerSource(files) });
    },
  };
}
