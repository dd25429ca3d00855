// SWR cache keys. A key is the GET path itself so the shared fetcher needs no lookup table,
// and every screen that reads the same resource shares one cache entry.

import { searchPath, type SearchRequest } from './search';

export const keys = {
  health: () => '/api/health',
  me: () => '/api/app/me',
  setupStatus: () => '/api/setup/status',
  adminUsers: () => '/api/admin/users',
  mailAccounts: () => '/api/auth/accounts',
  emailCounts: () => '/api/emails/counts',
  /** One message; `remote` asks for the body with remote images allowed. */
  email: (id: string, remote = false) =>
    `/api/emails/${encodeURIComponent(id)}${remote ? '?remote=1' : ''}`,
  /** One page of a thread listing (`source` from `folderSource`, `query` from `listQuery`). */
  threadPage: (source: string, page: number, perPage: number, query = '') =>
    `${source}?page=${page}&perPage=${perPage}${query ? `&${query}` : ''}`,
  /**
   * One thread with every mail its listing keeps, newest first (the list carries only the newest):
   * `source` and `query` as for `threadPage`, the thread's id (a root Message-ID) encoded.
   */
  thread: (source: string, threadId: string, query = '') =>
    `${source}/${encodeURIComponent(threadId)}${query ? `?${query}` : ''}`,
  remoteSenders: () => '/api/emails/remote-senders',
  /** The Inbox Zero panel: counters, overdue reminders, auto-archive candidates. */
  inboxZero: () => '/api/emails/inbox-zero',
  /** One page of search results (docs/API.md "Search"); only the fields that are set. */
  search: (request: SearchRequest) => searchPath(request),
  /** The auto-reply card (docs/API.md "Auto-reply"): settings, stats (polled), decisions. */
  autoReplySettings: () => '/api/auto-reply/settings',
  autoReplyStats: () => '/api/auto-reply/stats',
  autoReplyActivity: () => '/api/auto-reply/activity',
} as const;

/** Whether an SWR key is one of the auto-reply card's (re-read after a draft was written). */
export function isAutoReplyKey(key: unknown): boolean {
  return typeof key === 'string' && key.startsWith('/api/auto-reply/');
}

/** Whether an SWR key (plain or a useSWRInfinite one) belongs to the mail data (search results too). */
export function isMailKey(key: unknown): boolean {
  return (
    typeof key === 'string' &&
    (key.includes('/api/emails') || key.includes('/api/threads') || key.includes('/api/search'))
  );
}
