// Re-reading the mail data held in one session's SWR cache: every mail key (`isMailKey`: folder
// and thread lists, open mails, counts) and the Inbox Zero panel. Used by the live channel on
// mail events and by the screens that change many mails at once (a rule run, auto-archive).
//
// SWR's filter form `mutate(key => …)` skips useSWRInfinite entries (`$inf$…`), so the paged
// lists are revalidated here by their own key. `allPages` re-reads every loaded page (what the
// hook's bound `mutate()` does, by setting the same `_i` flag); without it only the first page
// is re-read, which is where new mail lands.

import type { Cache, ScopedMutator } from 'swr';
import { isMailKey, keys } from '../api/keys';

const INFINITE_PREFIX = '$inf$';

export interface RevalidateMailOptions {
  /** Also re-read the folder counts (default true; the live `stats` event writes them itself). */
  counts?: boolean;
  /** Re-read every loaded page of the paged lists, not only the first (default false). */
  allPages?: boolean;
}

/** One open mail (`/api/emails/123`): left alone, see below. */
const MAIL_DETAIL = /^\/api\/emails\/\d+(\?|$)/;

function isMailDataKey(key: unknown, counts: boolean): boolean {
  if (key === keys.inboxZero()) return true;
  if (!isMailKey(key)) return false;
  // A change elsewhere does not change an open mail's body, and the change may be this very
  // mail leaving (deleted, moved to Junk): re-reading it then only earns a 404. The lists
  // carry its flags.
  if (typeof key === 'string' && MAIL_DETAIL.test(key)) return false;
  return counts || key !== keys.emailCounts();
}

export function revalidateMailData(
  cache: Cache,
  mutate: ScopedMutator,
  { counts = true, allPages = false }: RevalidateMailOptions = {},
): Promise<unknown> {
  const jobs: Promise<unknown>[] = [mutate((key) => isMailDataKey(key, counts))];
  for (const key of Array.from(cache.keys())) {
    if (!key.startsWith(INFINITE_PREFIX) || !isMailKey(key.slice(INFINITE_PREFIX.length))) continue;
    if (allPages) {
      const entry = cache.get(key);
      if (entry) cache.set(key, { ...entry, _i: true } as typeof entry);
    }
    jobs.push(mutate(key));
  }
  return Promise.all(jobs);
}
