// The bounds of offline reading (issue 39): how much mail the browser keeps, how large one kept
// answer may be, how many actions wait for the server. The mail count is the user's preference
// `offlineMessages` (the server checks the same range: src/settings/prefs.rs).

/** The preference's default and range; 0 keeps nothing. */
export const OFFLINE_MESSAGES_DEFAULT = 300;
export const OFFLINE_MESSAGES_MAX = 2000;

/** Listings and whole threads kept (each folder page the user opened is one). */
export const MAX_LISTS = 60;
/** One kept mail (its sanitised body and fields as JSON) at most this many characters. */
export const MAX_MAIL_CHARS = 1_000_000;
/** One kept listing at most this many characters. */
export const MAX_LIST_CHARS = 2_000_000;
/** Everything kept together at most this many characters (the oldest goes first). */
export const MAX_TOTAL_CHARS = 80_000_000;
/** Actions taken offline waiting for the server. */
export const MAX_QUEUE = 200;
/** Of them, replies saved as drafts (each carries the mail it quotes). */
export const MAX_QUEUED_DRAFTS = 20;
/** How long the listings stay unchanged before the bodies of their newest mail are fetched ahead. */
export const PREFETCH_AFTER_MS = 2_000;
/** An answer is kept when the browser is idle, and at the latest this long after it came. */
export const KEEP_WITHIN_MS = 1_000;
/** How often, while the server cannot be reached, the page asks whether it is back. */
export const PING_MS = 5_000;

/** The preference as a count to keep: a number in range, else the default. */
export function mailCap(pref: unknown): number {
  return typeof pref === 'number' && Number.isInteger(pref) && pref >= 0 && pref <= OFFLINE_MESSAGES_MAX
    ? pref
    : OFFLINE_MESSAGES_DEFAULT;
}
