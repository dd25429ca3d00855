// Recipient chips' rules (spec 000 §5): an address needs an '@' and a '.', and a list holds each
// address once. Typed or pasted text may hold several addresses at once.

import { heCompose } from '../../i18n/compose';
import { addressIn } from './prefill';

/** Splits typed or pasted text on commas, semicolons and whitespace outside <...>. */
export function splitAddresses(text: string): string[] {
  const parts: string[] = [];
  // `Name <a@b.c>` keeps its name's spaces; everything else splits on separators.
  const re = /[^,;<>\s]*<[^<>]*>|[^,;\s]+/g;
  for (const m of text.matchAll(re)) {
    const token = m[0].trim();
    if (token) parts.push(token);
  }
  return parts;
}

/** Why `address` cannot join `list`, or null when it can. */
export function recipientProblem(address: string, list: readonly string[]): string | null {
  const clean = addressIn(address);
  if (!clean) return heCompose.invalidEmail;
  const lower = clean.toLowerCase();
  if (list.some((a) => a.toLowerCase() === lower)) return heCompose.duplicateRecipient;
  return null;
}

export interface AddResult {
  list: string[];
  /** The first problem met; the offending text is kept for the user to fix. */
  error: string | null;
  /** Text that could not be added (invalid), to leave in the input. */
  rest: string;
}

/** Adds every address in `text` that is valid and new; reports the first problem. */
export function addRecipients(text: string, list: readonly string[]): AddResult {
  const next = [...list];
  let error: string | null = null;
  const rejected: string[] = [];
  for (const token of splitAddresses(text)) {
    const problem = recipientProblem(token, next);
    if (problem) {
      error ??= problem;
      // A duplicate is already there: nothing to fix, so it does not stay in the input.
      if (problem !== heCompose.duplicateRecipient) rejected.push(token);
    } else {
      next.push(addressIn(token));
    }
  }
  return { list: next, error, rest: rejected.join(', ') };
}
