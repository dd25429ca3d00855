// Whether a string looks like a mail address (something@domain.tld, no spaces): the check the
// mail account form and the Google/Microsoft sign-in make before asking the server anything.
// The server decides what an address really is; this only spares it obvious typos.

/** True for `local@domain.tld` with no spaces or second `@` (surrounding spaces ignored). */
export function looksLikeAddress(s: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s.trim());
}
