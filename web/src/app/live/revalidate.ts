// Re-reading the mail data held in one session's SWR cache: every mail key (`isMailKey`: folder
// and thread lists, open mails, counts) and the Inbox Zero panel; and, for the live reasons
// `outbox` and `drafts`, only the outbox or the drafts (revalidateOutgoing, at the end).
//
// SWR's filter form `mutate(key => …)` skips useSWRInfinite entries (`$inf$…`), so the paged
// lists are revalidated here by their own key. `allPages` re-reads every loaded page (what the
// hook's bound `mutate()` does, by setting the same `_i` flag); without it only the first page
// is re-read, which is where new mail lands.

import type { Cache, ScopedMutator } from 'swr';
import { isMailKey, keys } from '../../api/keys';
import { outgoingKeys } from '../../api/outgoing';

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

/**
 * `mail_changed` reasons about mail being written rather than mail stored (docs/API.md "Sending,
 * drafts, outbox"): they touch the outbox or the drafts only, so they re-read just those (the
 * stored mail has its own events when the sync sees the result in Sent or Drafts).
 */
export type OutgoingReason = 'outbox' | 'drafts';

export function outgoingReason(data: unknown): OutgoingReason | null {
  const reason = typeof data === 'object' && data !== null ? (data as { reason?: unknown }).reason : undefined;
  return reason === 'outbox' || reason === 'drafts' ? reason : null;
}

export function revalidateOutgoing(mutate: ScopedMutator, reasons: Iterable<OutgoingReason>): Promise<unknown> {
  const jobs: Promise<unknown>[] = [];
  for (const reason of new Set(reasons)) {
    if (reason === 'outbox') {
      jobs.push(mutate(outgoingKeys.outbox()));
    } else {
      // A draft saved or removed changes the drafts count too (spec 000 §4: "drafts recount").
      jobs.push(mutate(outgoingKeys.drafts()), mutate(keys.emailCounts()));
    }
  }
  return Promise.all(jobs);
}
