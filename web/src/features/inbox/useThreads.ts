// One folder's threads, page by page (spec 000 §3 Thread, emailsPerPage 50): useSWRInfinite over
// `/api/threads/{folder}?page=N&perPage=50&<listing options>`, the total from X-Total-Count.
// Mail inside the cached threads can be patched in place (star, read, status) and put back if the
// server refuses, and mail can be dropped from the list when it moved away or was deleted.

import { useCallback, useMemo } from 'react';
import useSWRInfinite from 'swr/infinite';
import { keys } from '../../api/keys';
import { fetchThreadPage, listQuery } from '../../api/triage';
import type { Email, ListOptions, Thread, ThreadPage } from '../../api/types';
import { refreshThread } from './triageRules';

export const PER_PAGE = 50;
/** The list is re-read as often as the folder counts (spec 000 §9). */
export const LIST_POLL_MS = 30_000;

type Pages = ThreadPage[] | undefined;

/** Applies `change` to each mail of the cached pages; threads whose mail changed are recomputed. */
function mapEmails(pages: Pages, change: (e: Email) => Email): Pages {
  return pages?.map((page) => ({
    ...page,
    threads: page.threads.map((t) => {
      let changed = false;
      const emails = t.emails.map((e) => {
        const next = change(e);
        if (next !== e) changed = true;
        return next;
      });
      return changed ? refreshThread(t, emails) : t;
    }),
  }));
}

/** Drops the given mail; a thread left without mail leaves the list and the total. */
function dropEmails(pages: Pages, ids: ReadonlySet<string>): Pages {
  if (!pages) return pages;
  let gone = 0;
  const next = pages.map((page) => ({
    ...page,
    threads: page.threads.flatMap((t) => {
      if (!t.emails.some((e) => ids.has(e.id))) return [t];
      const emails = t.emails.filter((e) => !ids.has(e.id));
      if (emails.length === 0) {
        gone++;
        return [];
      }
      return [refreshThread(t, emails)];
    }),
  }));
  return next.map((page) => ({ ...page, total: Math.max(0, page.total - gone) }));
}

export function useThreads(source: string | null, options: ListOptions = {}) {
  const query = listQuery(options);
  const getKey = useCallback(
    (index: number, previous: ThreadPage | null) => {
      if (!source) return null;
      if (previous && (previous.threads.length === 0 || index * PER_PAGE >= previous.total)) return null;
      return keys.threadPage(source, index + 1, PER_PAGE, query);
    },
    [source, query],
  );

  const swr = useSWRInfinite<ThreadPage>(getKey, fetchThreadPage, {
    refreshInterval: LIST_POLL_MS,
    revalidateFirstPage: true,
  });
  const { data: pages, size, setSize, mutate, error, isLoading } = swr;

  // New mail arriving between two page loads shifts threads onto the next page: show each once.
  const threads = useMemo(() => {
    const seen = new Set<string>();
    const out: Thread[] = [];
    for (const page of pages ?? []) {
      for (const t of page.threads) {
        if (seen.has(t.id)) continue;
        seen.add(t.id);
        out.push(t);
      }
    }
    return out;
  }, [pages]);

  // The first page is re-read most often, so its total is the freshest.
  const total = pages?.[0]?.total ?? 0;
  const last = pages?.at(-1);
  const hasMore = !!last && last.threads.length > 0 && threads.length < total;
  const loadingMore = !!pages && size > pages.length;

  const loadMore = useCallback(() => void setSize((s) => s + 1), [setSize]);

  /** Changes some mail in the cached pages without asking the server. */
  const patchEmails = useCallback(
    (ids: readonly string[], change: (e: Email) => Email) => {
      const set = new Set(ids);
      return mutate((current) => mapEmails(current, (e) => (set.has(e.id) ? change(e) : e)), { revalidate: false });
    },
    [mutate],
  );

  /** Changes one mail's fields in the cached pages. */
  const patch = useCallback(
    (id: string, changes: Partial<Email>) => patchEmails([id], (e) => ({ ...e, ...changes })),
    [patchEmails],
  );

  /** Takes mail out of the list (moved elsewhere, deleted) without asking the server. */
  const removeEmails = useCallback(
    (ids: readonly string[]) => mutate((current) => dropEmails(current, new Set(ids)), { revalidate: false }),
    [mutate],
  );

  const revalidate = useCallback(() => mutate(), [mutate]);

  return {
    threads,
    total,
    hasMore,
    loadingMore,
    loadMore,
    patch,
    patchEmails,
    removeEmails,
    /** Re-reads every loaded page. */
    revalidate,
    error: error as unknown,
    /** A folder without a listing (e.g. pending replies) is simply empty. */
    loaded: !source || pages !== undefined,
    isLoading,
  };
}

export type ThreadList = ReturnType<typeof useThreads>;
