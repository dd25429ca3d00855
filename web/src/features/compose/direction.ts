// Which way a line of text reads. dir="auto" decides by the first strong character, so a Hebrew
// subject behind "Re: " would be laid out left-to-right; the reply prefix is skipped here.

const HEBREW_OR_ARABIC = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
/** Any other letter (Latin, Cyrillic, Greek...) reads left to right. */
const LETTER = /\p{L}/u;
const PREFIX = /^\s*((re|fwd?|הע|תשובה)\s*:\s*)+/i;

/** The direction of the first letter (as dir="auto" decides); null when there is none. */
export function textDirection(text: string): 'rtl' | 'ltr' | null {
  for (const ch of text) {
    if (HEBREW_OR_ARABIC.test(ch)) return 'rtl';
    if (LETTER.test(ch)) return 'ltr';
  }
  return null;
}

/** 'rtl' unless the text (after a reply/forward prefix) starts with a left-to-right letter. */
export function subjectDirection(text: string): 'rtl' | 'ltr' {
  // Nothing telling (empty, digits): the interface's direction.
  return textDirection(text.replace(PREFIX, '')) ?? 'rtl';
}
