// Numbers in the Hebrew strings (he.ts and the section files beside it).

/**
 * One formatter for every count: `toLocaleString` builds a new one on each call, which a list of
 * rows (each with its counts) paid hundreds of times per render on a phone (issue 42).
 */
const COUNTS = new Intl.NumberFormat('he-IL');

/** A count as Hebrew readers write it (thousands separated). */
export const count = (n: number) => COUNTS.format(n);
