// Numbers in the Hebrew strings (he.ts and the section files beside it).

/** A count as Hebrew readers write it (thousands separated). */
export const count = (n: number) => n.toLocaleString('he-IL');
