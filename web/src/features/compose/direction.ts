// Which way a line of text reads. dir="auto" decides by the first strong character, so a Hebrew
// subject behind "Re: " would be laid out left-to-right; the reply prefix is skipped here.

const HEBREW_OR_ARABIC = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const LATIN = /[A-Za-z\u00c0-\u024f]/;
const PREFIX = /^\s*((re|fwd?|הע|תשובה)\s*:\s*)+/i;

/** 'rtl' unless the text (after a reply/forward prefix) starts with a left-to-right letter. */
export function subjectDirection(text: string): 'rtl' | 'ltr' {
  const rest = text.replace(PREFIX, '');
  for (const ch of rest) {
    if (HEBREW_OR_ARABIC.test(ch)) return 'rtl';
    if (LATIN.test(ch)) return 'ltr';
  }
  // Nothing telling (empty, digits): the interface's direction.
  return 'rtl';
}
