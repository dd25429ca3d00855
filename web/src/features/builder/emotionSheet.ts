// Builder's React SDK styles its blocks with Emotion 10, which writes its rules into <style>
// elements it adds to <head>. The app's CSP allows no inline <style> element
// (`style-src-elem 'self'`), so those would be refused and the page would lose its layout.
// This cache keeps Emotion's rules in one constructed stylesheet instead (adopted by the
// document, filled through the CSSOM by our own script: not inline markup), and the entry's
// own CSS (`data.cssCode`) goes into a second one.

import createCache from '@emotion/cache';

type EmotionCache = ReturnType<typeof createCache>;

function adopt(): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  return sheet;
}

function insertInto(sheet: CSSStyleSheet, rule: string) {
  try {
    sheet.insertRule(rule, sheet.cssRules.length);
  } catch {
    // A rule this browser cannot parse (a vendor prefix of another engine): skipped, as
    // Emotion's own speedy mode does.
  }
}

let cache: EmotionCache | null = null;

/** The one Emotion cache of the page-builder page, writing into a constructed stylesheet. */
export function builderEmotionCache(): EmotionCache {
  if (cache) return cache;
  const sheet = adopt();
  const made = createCache({ key: 'bld' });
  made.sheet = {
    insert: (rule: string) => insertInto(sheet, rule),
    flush: () => sheet.replaceSync(''),
  } as unknown as EmotionCache['sheet'];
  cache = made;
  return made;
}

let contentSheet: CSSStyleSheet | null = null;

/**
 * The entry's custom CSS, scoped as the SDK scopes it (`&` is the entry's root element); replaces
 * what the previous entry had.
 */
export function applyContentCss(contentId: string, css: string) {
  contentSheet ??= adopt();
  contentSheet.replaceSync(css.replace(/&/g, `.builder-component-${contentId}`));
}
