// The web's layers, checked on the source text (the web's half of tests/architecture.rs):
//
//   i18n < lib < api < components < session < features < app < main.tsx
//
// A module imports only from its own layer or those below it: the shell (app/) wires the
// features, the features use the session layer (toasts, auth, scale, the live channel's state),
// and nothing below the features knows them. No file under features/ imports app/, tests
// included (a test that needs the whole shell lives in app/, e.g. app/flows/). Feature folders
// may show one another's screens, but never in a circle. Tests and their fixtures may reach
// across layers for set-up (a card's test renders the settings page), except into app/.

import { describe, expect, it } from 'vitest';

const SOURCES = import.meta.glob<string>(['./**/*.{ts,tsx}', '!./**/*.d.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

const LAYERS = ['i18n', 'lib', 'api', 'components', 'session', 'features', 'app'] as const;

/** `./features/inbox/x.ts` → `features/inbox/x.ts`. */
const files = Object.keys(SOURCES).map((k) => k.replace(/^\.\//, ''));

/** Tests, their fixtures and the test harness: set-up, not the app's own structure. */
function isTestSupport(file: string): boolean {
  return /\.test\.tsx?$/.test(file) || /fixtures\.tsx?$/i.test(file) || file.startsWith('test/');
}

/** The relative module paths a file imports (static, dynamic and side-effect imports). */
function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) found.push(m[1]);
  return found;
}

/** Joins a relative specifier to the importing file's folder: `features/a/b.ts` + `../../app/x`. */
function resolve(file: string, spec: string): string {
  const parts = file.split('/').slice(0, -1);
  for (const seg of spec.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.') parts.push(seg);
  }
  return parts.join('/');
}

/** The layer a path is in (`main.tsx` and other root files: above the shell). */
function layerOf(path: string): number {
  const top = path.split('/')[0];
  const i = (LAYERS as readonly string[]).indexOf(top);
  return i >= 0 ? i : path.includes('/') ? -1 : LAYERS.length;
}

/** `features/inbox/reply/x.ts` → `inbox`; anything outside features/ → null. */
function featureOf(path: string): string | null {
  const [top, name, ...rest] = path.split('/');
  return top === 'features' && rest.length > 0 ? name : null;
}

/** Every import between two files of the tree: [importer, imported path]. */
const edges: [string, string][] = files.flatMap((file) =>
  importsOf(SOURCES[`./${file}`]).map((spec) => [file, resolve(file, spec)] as [string, string]),
);

describe('web architecture', () => {
  it('reads the tree', () => {
    // Guards the checks below against a glob that silently matches nothing.
    expect(files.length).toBeGreaterThan(200);
    expect(edges.length).toBeGreaterThan(1000);
  });

  it('no file under features/ imports app/ (tests included)', () => {
    const upward = edges.filter(([from, to]) => from.startsWith('features/') && to.startsWith('app/'));
    expect(upward.map(([from, to]) => `${from} -> ${to}`)).toEqual([]);
  });

  it('each module imports only from its own layer or below', () => {
    const wrong = edges.filter(([from, to]) => {
      if (isTestSupport(from)) return false;
      const a = layerOf(from);
      const b = layerOf(to);
      // styles/ (CSS), test/ and the root's own files are not layers.
      return a >= 0 && b >= 0 && b < LAYERS.length && b > a;
    });
    expect(wrong.map(([from, to]) => `${from} -> ${to}`)).toEqual([]);
  });

  it('feature folders import one another without a cycle', () => {
    const graph = new Map<string, Set<string>>();
    for (const [from, to] of edges) {
      if (isTestSupport(from)) continue;
      const a = featureOf(from);
      const b = featureOf(to);
      if (!a || !b || a === b) continue;
      if (!graph.has(a)) graph.set(a, new Set());
      graph.get(a)!.add(b);
    }
    // Depth-first search; a node met again while still on the path closes a cycle.
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (node: string) => {
      state.set(node, 'open');
      path.push(node);
      for (const next of graph.get(node) ?? []) {
        if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].join(' -> '));
        else if (!state.has(next)) visit(next);
      }
      path.pop();
      state.set(node, 'done');
    };
    for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
    expect(cycles).toEqual([]);
  });
});
