// The search call (docs/API.md "Search"): GET /api/search with the query language in `q`, the
// advanced panel's fields beside it, and the time zone the dates are read in. The page reads it
// through SWR with `keys.search(request)` (the path itself, so the shared fetcher serves it);
// the key contains `/api/search`, so `isMailKey` covers it and live mail events re-read it.

import { displayZoneOffset } from '../lib/dates';
import { api } from './client';
import type { SearchResponse } from './generated';

/** The folders the advanced panel offers (spec 001 "Advanced search page"); `all` is the default. */
export const SEARCH_FOLDERS = ['all', 'inbox', 'sent', 'drafts', 'junk', 'trash'] as const;
export type SearchFolder = (typeof SEARCH_FOLDERS)[number];

/** Results per page (docs/API.md: `perPage` default 20). */
export const SEARCH_PER_PAGE = 20;

/** What the user asked for: the page's URL state. Empty strings and false mean "not set". */
export interface SearchParams {
  q: string;
  from: string;
  to: string;
  subject: string;
  /** yyyy-mm-dd: on or after that day. */
  after: string;
  /** yyyy-mm-dd: before that day. */
  before: string;
  unread: boolean;
  starred: boolean;
  attachment: boolean;
  /** `all`, one of SEARCH_FOLDERS, or another value the server understands (`archive`, a folder name). */
  folder: string;
  /** From 1. */
  page: number;
}

/** A request: the params plus the offset the dates are read in, in minutes east of UTC. */
export interface SearchRequest extends SearchParams {
  tz: number;
  perPage?: number;
}

// The answer's shapes are the server's.
export type { SearchResponse, SearchResult, SnippetPart } from './generated';

export const EMPTY_SEARCH: SearchParams = {
  q: '',
  from: '',
  to: '',
  subject: '',
  after: '',
  before: '',
  unread: false,
  starred: false,
  attachment: false,
  folder: 'all',
  page: 1,
};

/**
 * The offset from UTC in minutes east of the user's time-zone preference (the zone every date is
 * shown in, lib/dates), not the browser's: a filter's day is the day the user sees.
 */
export function timezoneOffset(at: Date = new Date()): number {
  return displayZoneOffset(at);
}

/** Whether any filter of the panel is set (a folder other than `all` counts). */
export function hasFilters(p: SearchParams): boolean {
  return !!(
    p.from.trim() ||
    p.to.trim() ||
    p.subject.trim() ||
    p.after ||
    p.before ||
    p.unread ||
    p.starred ||
    p.attachment ||
    (p.folder && p.folder !== 'all')
  );
}

/** A search runs only when the query is not blank or some filter is set (spec 001 §5). */
export function canSearch(p: SearchParams): boolean {
  return !!p.q.trim() || hasFilters(p);
}

/** A search's query and filters as parameters: only what is set (folder `all` is left out). */
export function searchParamsOf(p: SearchParams): URLSearchParams {
  const out = new URLSearchParams();
  const text = (name: keyof SearchParams, value: string) => {
    if (value.trim()) out.set(name, value.trim());
  };
  text('q', p.q);
  text('from', p.from);
  text('to', p.to);
  text('subject', p.subject);
  text('after', p.after);
  text('before', p.before);
  if (p.unread) out.set('unread', '1');
  if (p.starred) out.set('starred', '1');
  if (p.attachment) out.set('attachment', '1');
  if (p.folder && p.folder !== 'all') out.set('folder', p.folder);
  return out;
}

/** The query string of GET /api/search: only what is set, then the page, its size and the offset. */
export function searchQueryString(r: SearchRequest): string {
  const qs = searchParamsOf(r);
  qs.set('page', String(Math.max(1, Math.floor(r.page) || 1)));
  qs.set('perPage', String(r.perPage ?? SEARCH_PER_PAGE));
  qs.set('tz', String(r.tz));
  return qs.toString();
}

/** The path (and SWR key) of one search. */
export function searchPath(r: SearchRequest): string {
  return `/api/search?${searchQueryString(r)}`;
}

export function fetchSearch(r: SearchRequest, signal?: AbortSignal): Promise<SearchResponse> {
  return api<SearchResponse>(searchPath(r), { signal });
}
