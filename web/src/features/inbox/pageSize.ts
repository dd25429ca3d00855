// The inbox list's page size (spec 000 §3 Thread, emailsPerPage 50), in a module of its own so the
// reads started before the first render (app/firstReads.ts) ask for exactly the page the list will.

/** Threads per page of a folder's listing. */
export const PER_PAGE = 50;
