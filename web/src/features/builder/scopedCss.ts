// CSS from a Builder entry (its `cssCode`, and the rules Emotion writes for its blocks' styles),
// scoped to the element the entry is shown in. Whoever edits the content writes this CSS, and a
// rule that could match the app's own elements could read them: an attribute selector over a
// password input (`input[value^="a"] { background: url(…a) }`) is a keylogger. So every selector
// is put inside the entry's container, and a selector that could still look outside it is
// dropped: `:has()`, `:host`, and a functional pseudo-class holding a complex selector
// (`.x :is(body input) …` matches by what is outside). `&`, the entry's root in Builder's
// convention, may only begin a selector. Only style rules, inside @media and @supports too, are
// kept: no @import, @font-face (remote fonts), @keyframes (names shared with the app's), @layer or
// @page. The browser parses the CSS (a constructed stylesheet), so what is checked is what it
// understood.

/**
 * Calls `visit` with each character of `s` outside quoted strings and escapes, and whether it is
 * inside an attribute selector's brackets; `visit` returning false stops the walk.
 */
function scan(s: string, visit: (i: number, c: string, inBrackets: boolean) => boolean | void) {
  let quote: string | null = null;
  let brackets = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      continue;
    }
    if (c === '[' || c === ']') {
      brackets = c === '[';
      continue;
    }
    if (visit(i, c, brackets) === false) return;
  }
}

/** Splits a selector list at its top-level commas. */
export function splitSelectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  scan(list, (i, c, inBrackets) => {
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0 && !inBrackets) {
      out.push(list.slice(start, i).trim());
      start = i + 1;
    }
  });
  out.push(list.slice(start).trim());
  return out.filter((s) => s.length > 0);
}

/**
 * Whether `selector`, once prefixed with the container, matches only by what is inside it: no
 * `:has()` or `:host`, no `&` but a leading one, and inside a functional pseudo-class (`:is()`,
 * `:not()`, `:nth-child()`, …) compound selectors only (no combinator, no `of S`).
 */
export function safeSelector(selector: string): boolean {
  const s = selector.trim();
  if (/:has\(|:host|-any\(|:matches\(/i.test(s)) return false;
  if (s.indexOf('&', 1) !== -1) return false;
  const functions: string[] = [];
  let safe = true;
  scan(s, (i, c, inBrackets) => {
    if (inBrackets) return;
    if (c === '(') {
      functions.push(/([\w-]*)$/.exec(s.slice(0, i))?.[1]?.toLowerCase() ?? '');
      return;
    }
    if (c === ')') {
      functions.pop();
      return;
    }
    if (functions.length === 0) return;
    const inNth = functions[functions.length - 1].startsWith('nth-');
    let combinator = c === '>' || c === '~' || (c === '+' && !inNth);
    if (/\s/.test(c)) {
      // Around a comma or a parenthesis, or inside an+b: no combinator. `of` in nth-*() is one.
      const before = s.slice(0, i).trimEnd().slice(-1);
      const after = s.slice(i).trimStart()[0];
      const spacing = before === ',' || after === ',' || before === '(' || after === ')';
      const ofSelector = /^\s*of\b/i.test(s.slice(i)) || /\bof\s*$/i.test(s.slice(0, i));
      combinator = !spacing && (!inNth || ofSelector);
    }
    if (combinator) {
      safe = false;
      return false;
    }
  });
  return safe && functions.length === 0;
}

/**
 * `selector` inside the container `.scope`; `null` when it cannot be kept inside. The container
 * adds no specificity (`:where()`), so the entry's rules and the SDK's weigh against each other
 * as they were written; `&`, the entry's root, weighs a class as Builder's own scoping does.
 */
export function scopeSelector(selector: string, scope: string): string | null {
  const s = selector.trim();
  if (!s || !safeSelector(s)) return null;
  return s.startsWith('&') ? `.${scope}${s.slice(1)}` : `:where(.${scope}) ${s}`;
}

/** The rule texts of a parsed rule list, each kept inside `.scope` (see the module's doc). */
function scopeRules(rules: CSSRuleList, scope: string): string[] {
  const out: string[] = [];
  for (const rule of Array.from(rules)) {
    if (rule instanceof CSSStyleRule) {
      const selectors = splitSelectors(rule.selectorText)
        .map((s) => scopeSelector(s, scope))
        .filter((s): s is string => s !== null);
      if (selectors.length > 0) out.push(`${selectors.join(', ')} { ${rule.style.cssText} }`);
      continue;
    }
    const grouping = rule as CSSRule & { cssRules?: CSSRuleList; media?: MediaList; conditionText?: string };
    const prelude =
      typeof CSSMediaRule !== 'undefined' && rule instanceof CSSMediaRule
        ? `@media ${grouping.media?.mediaText ?? grouping.conditionText ?? ''}`
        : typeof CSSSupportsRule !== 'undefined' && rule instanceof CSSSupportsRule
          ? `@supports ${grouping.conditionText ?? ''}`
          : null;
    if (prelude && grouping.cssRules) {
      const inner = scopeRules(grouping.cssRules, scope);
      if (inner.length > 0) out.push(`${prelude} { ${inner.join(' ')} }`);
    }
  }
  return out;
}

/** `css` parsed by the browser and kept inside `.scope`, as rule texts. */
export function scopeCss(css: string, scope: string): string[] {
  const parsed = new CSSStyleSheet();
  try {
    parsed.replaceSync(css);
  } catch {
    return [];
  }
  return scopeRules(parsed.cssRules, scope);
}
