// Builder's React SDK styles its blocks with Emotion 10, which writes its rules into <style>
// elements it adds to <head>. The app's CSP allows no inline <style> element
// (`style-src-elem 'self'`), so those would be refused and the page would lose its layout.
// So each shown entry gets its own stylesheets: an Emotion cache that writes into a constructed
// stylesheet (filled through the CSSOM by our own script: not inline markup), and a second one
// for the entry's own CSS (`data.cssCode`). Both hold only rules scoped to the entry's container
// (scopedCss.ts: what whoever edits the content writes must not reach the app's own elements),
// are adopted by the document while the entry is shown, and are removed when it goes.

import createCache from '@emotion/cache';
import { scopeCss } from './scopedCss';

type EmotionCache = ReturnType<typeof createCache>;

/** The stylesheets of one shown entry. */
export interface BuilderSheets {
  /** The class of the element the entry is shown in; every rule is inside it. */
  scope: string;
  /** The Emotion cache of the entry's blocks. */
  cache: EmotionCache;
  /** Replaces the entry's own CSS (`&` is the entry's container, as in Builder). */
  setContentCss: (css: string) => void;
  /** Adopts the sheets (the entry is shown). */
  attach: () => void;
  /** Removes them from the document (the entry is gone). */
  detach: () => void;
}

function insertInto(sheet: CSSStyleSheet, rule: string) {
  try {
    sheet.insertRule(rule, sheet.cssRules.length);
  } catch {
    // A rule this browser cannot parse (a vendor prefix of another engine): skipped, as
    // Emotion's own speedy mode does.
  }
}

function adopted(): CSSStyleSheet[] {
  return document.adoptedStyleSheets ?? [];
}

let entries = 0;

/** New, not yet adopted stylesheets for one entry, under a container class of its own. */
export function createBuilderSheets(): BuilderSheets {
  entries += 1;
  const scope = `bld-entry-${entries}`;
  const blocks = new CSSStyleSheet();
  const content = new CSSStyleSheet();
  // Emotion's key names its classes (`bld-<hash>`); its rules are scoped like the entry's own.
  const cache = createCache({ key: 'bld' });
  cache.sheet = {
    insert: (rule: string) => {
      for (const scoped of scopeCss(rule, scope)) insertInto(blocks, scoped);
    },
    flush: () => blocks.replaceSync(''),
  } as unknown as EmotionCache['sheet'];
  const mine = (s: CSSStyleSheet) => s === blocks || s === content;
  return {
    scope,
    cache,
    setContentCss: (css: string) => content.replaceSync(scopeCss(css, scope).join('\n')),
    attach: () => {
      document.adoptedStyleSheets = [...adopted().filter((s) => !mine(s)), blocks, content];
    },
    detach: () => {
      document.adoptedStyleSheets = adopted().filter((s) => !mine(s));
    },
  };
}
