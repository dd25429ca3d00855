// The page table (spec 000 §2, spec 001 §2). Routing is hash based and forgiving: the page is the
// LAST path segment, matched case-insensitively, and anything unknown falls back to the inbox —
// so old bookmarks like #/inbox, #/INBOX or #/app/Inbox all land somewhere sensible.

import { he } from '../i18n/he';

export const PAGES = [
  'Inbox',
  'PendingReplies',
  'Compose',
  'Search',
  'Contacts',
  'Tasks',
  'Subscriptions',
  'Snoozed',
  'Rules',
  'SmartFeatures',
  'AITraining',
  'Settings',
  'BuilderPage',
] as const;

export type PageName = (typeof PAGES)[number];

// Only pages with a working screen are listed (no placeholders). /builder is a second name of the
// page-builder page (spec 001 §2); it shows the entry of /builder-demo (see features/builder).
const BY_LOWER: Record<string, PageName> = {
  ...Object.fromEntries(PAGES.map((p) => [p.toLowerCase(), p] as const)),
  builder: 'BuilderPage',
};

/** The first page of the list; where unknown names and `/` go. */
export const DEFAULT_PAGE: PageName = 'Inbox';

export function resolvePage(pathname: string): PageName {
  const segments = pathname.split('/').filter(Boolean);
  const last = segments.at(-1);
  if (!last) return DEFAULT_PAGE;
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    /* a malformed escape is just an unknown name */
  }
  return BY_LOWER[name.toLowerCase()] ?? DEFAULT_PAGE;
}

/** Path of a page, for links: the canonical spelling from the spec's route table. */
export function pagePath(page: PageName): string {
  return `/${page}`;
}

export function pageTitle(page: PageName): string {
  return he.pages[page];
}
