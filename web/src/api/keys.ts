// SWR cache keys. A key is the GET path itself so the shared fetcher needs no lookup table,
// and every screen that reads the same resource shares one cache entry.

import { searchPath, type SearchRequest } from './search';
import type { TaskFilter } from './tasks';

/** `path?a=1&b=2` with only the parameters that are set. */
function withQuery(path: string, params: Record<string, string>): string {
  const set = Object.entries(params).filter(([, v]) => v !== '');
  return set.length ? `${path}?${new URLSearchParams(set).toString()}` : path;
}

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
  /** The rules page: the rules in the order they run, and what one rule did lately. */
  rules: () => '/api/rules',
  ruleActivity: (id: string) => `/api/rules/${encodeURIComponent(id)}/activity`,
  /** The mailbox's folders (the rules' "move to folder" choices). */
  folders: () => '/api/folders',
  /** The auto-reply card (docs/API.md "Auto-reply"): settings, stats (polled), decisions. */
  autoReplySettings: () => '/api/auto-reply/settings',
  autoReplyStats: () => '/api/auto-reply/stats',
  autoReplyActivity: () => '/api/auto-reply/activity',
  /** The contacts page (docs/API.md "Contacts"): the list as searched and filtered by group. */
  contacts: (search = '', group = '') => withQuery('/api/contacts', { search: search.trim(), group }),
  contactSuggestions: () => '/api/contacts/suggestions',
  /** The 20 newest mails from or to one contact. */
  contactMail: (id: string) => `/api/contacts/${encodeURIComponent(id)}/mail`,
  /** The tasks page (docs/API.md "Tasks"): one filter's list, with the open and overdue counts. */
  tasks: (filter: TaskFilter = 'all') => `/api/tasks?filter=${filter}`,
  /** The subscription manager (docs/API.md "Subscriptions"): the senders and the attempts. */
  subscriptions: () => '/api/subscriptions',
  /** Snooze: the sleeping threads, and the menu's preset times. */
  snoozed: () => '/api/snooze',
  snoozeOptions: () => '/api/snooze/options',
  /** The sent mail awaiting a reply. */
  followUps: () => '/api/followups',
} as const;

/** Whether an SWR key is the contacts page's (re-read after any contact changed). */
export function isContactsKey(key: unknown): boolean {
  return typeof key === 'string' && key.startsWith('/api/contacts');
}

/** Whether an SWR key is a tasks list (re-read after any task changed, or one fell due). */
export function isTasksKey(key: unknown): boolean {
  return typeof key === 'string' && key.startsWith('/api/tasks');
}

/** Whether an SWR key is the snoozed threads' or the awaited sent mail's (re-read after a wake or a reminder). */
export function isAttentionKey(key: unknown): boolean {
  return key === keys.snoozed() || key === keys.followUps();
}

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
