// The search page keeps what was asked in its URL (`/Search?q=…&from=…&after=yyyy-mm-dd&unread=1
// &folder=sent&page=2`), so the sidebar's box can land on it with `?q=`, a search can be shared or
// bookmarked, and Back returns to the previous one. These read and write that query string.

import { EMPTY_SEARCH, searchParamsOf, type SearchParams } from '../../api/search';

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const HEBREW_DAY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** yyyy-mm-dd for a real calendar day given as yyyy-mm-dd or dd/MM/yyyy; '' for anything else. */
export function normalizeDay(value: string | null | undefined): string {
  const v = value?.trim() ?? '';
  let y: number, m: number, d: number;
  const iso = ISO_DAY.exec(v);
  const hebrew = HEBREW_DAY.exec(v);
  if (iso) {
    [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  } else if (hebrew) {
    [d, m, y] = [Number(hebrew[1]), Number(hebrew[2]), Number(hebrew[3])];
  } else {
    return '';
  }
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return '';
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const flag = (v: string | null) => v === '1' || v === 'true';

/** The search asked for by a URL query string; what is missing or unreadable is "not set". */
export function readSearchParams(params: URLSearchParams): SearchParams {
  const page = Number.parseInt(params.get('page') ?? '', 10);
  return {
    q: params.get('q') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    subject: params.get('subject') ?? '',
    after: normalizeDay(params.get('after')),
    before: normalizeDay(params.get('before')),
    unread: flag(params.get('unread')),
    starred: flag(params.get('starred')),
    attachment: flag(params.get('attachment')),
    folder: params.get('folder')?.trim() || 'all',
    page: Number.isFinite(page) && page > 1 ? page : 1,
  };
}

/** The URL query string of a search: only what is set (page 1 and folder `all` are left out). */
export function writeSearchParams(p: SearchParams): URLSearchParams {
  const out = searchParamsOf(p);
  if (p.page > 1) out.set('page', String(p.page));
  return out;
}

/** The same search without any of the panel's filters (the query stays). */
export function withoutFilters(p: SearchParams): SearchParams {
  return { ...EMPTY_SEARCH, q: p.q };
}

/** How many of the panel's filters are set (shown on the phone's panel toggle). */
export function filterCount(p: SearchParams): number {
  return [
    p.from.trim(),
    p.to.trim(),
    p.subject.trim(),
    p.after,
    p.before,
    p.unread,
    p.starred,
    p.attachment,
    p.folder && p.folder !== 'all',
  ].filter(Boolean).length;
}
