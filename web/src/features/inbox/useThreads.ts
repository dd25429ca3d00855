// One folder's threads, page by page (spec 000 §3 Thread, emailsPerPage 50): useSWRInfinite over
// `/api/threads/{folder}?page=N&perPage=50&<listing options>`, the total from X-Total-Count.
// Mail inside the cached threads can be patched in place (star, read, the server's answer to a
// status change) and put back if the server refuses, a thread can be swapped for the server's
// own, and mail can be dropped from the list when it moved away or was deleted. A thread's
// aggregates (labels, status, priority, …) are the server's: they are never recomputed here, and
// where a local change could alter them the list is re-read.

import { useCallback, useMemo } from 'react';
import useSWRInfinite from 'swr/infinite';
import { keys } from '../../api/keys';
import { fetchThreadPage, listQuery } from '../../api/triage';
import type { Email, ListOptions, Thread, ThreadPage } from '../../api/types';

export const PER_PAGE = 50;
/** The list is re-read as often as the folder counts (spec 000 §9). */
export const LIST_POLL_MS = 30_000;

type Pages = ThreadPage[] | undefined;

/**
 * Applies `change` to each mail of the cached pages. Of a changed thread's own fields only the
 * read and star flags follow at once (read when all its mail is, starred when any is), so a star
 * or a read mail shows before the server answers; the rest stays as the server gave it.
 */
export function mapEmails(pages: Pages, change: (e: Email) => Email): Pages {
  return pages?.map((page) => ({
    ...page,
    threads: page.threads.map((t) => {
      let changed = false;
      const emails = t.emails.map((e) => {
        const next = change(e);
        if (next !== e) changed = true;
        return next;
      });
      if (!changed) return t;
      return { ...t, emails, isRead: emails.every((e) => e.is_read), isStarred: emails.some((e) => e.is_starred) };
    }),
  }));
}

/**
 * Puts the server's `thread` in place of the cached one: the thread with its id, or the one
 * holding `mailId` (the mail the server answered about).
 */
export function replaceThread(pages: Pages, thread: Thread, mailId: string): Pages {
  return pages?.map((page) => {
    if (!page.threads.some((t) => t.id === thread.id || t.emails.some((e) => e.id === mailId))) return page;
    return {
      ...page,
      threads: page.threads.map((t) => (t.id === thread.id || t.emails.some((e) => e.id === mailId) ? thread : t)),
    };
  });
}

/**
 * Drops the given mail; a thread left without mail leaves the list and the total. `partial` says
 * whether a thread kept some of its mail: its aggregates are then stale until the list is re-read.
 */
export function dropEmails(pages: Pages, ids: ReadonlySet<string>): { pages: Pages; partial: boolean } {
  if (!pages) return { pages, partial: false };
  let gone = 0;
  let partial = false;
  const next = pages.map((page) => ({
    ...page,
    threads: page.threads.flatMap((t) => {
      if (!t.emails.some((e) => ids.has(e.id))) return [t];
      const emails = t.emails.filter((e) => !ids.has(e.id));
      if (emails.length === 0) {
        gone++;
        return [];
      }
      partial = true;
      return [{ ...t, emails, count: emails.length }];
    }),
  }));
  return { pages: next.map((page) => ({ ...page, total: Math.max(0, page.total - gone) })), partial };
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

  /** Swaps the thread holding `mailId` for the server's answer (PUT /api/emails/{id}/status). */
  const applyThread = useCallback(
    (thread: Thread, mailId: string) =>
      mutate((current) => replaceThread(current, thread, mailId), { revalidate: false }),
    [mutate],
  );

  /**
   * Takes mail out of the list (moved elsewhere, deleted) at once; when a thread keeps some of
   * its mail, the list is re-read for its aggregates.
   */
  const removeEmails = useCallback(
    async (ids: readonly string[]) => {
      let partial = false;
      await mutate(
        (current) => {
          const out = dropEmails(current, new Set(ids));
          partial ||= out.partial;
          return out.pages;
        },
        { revalidate: false },
      );
      if (partial) void mutate();
    },
    [mutate],
  );

  const revalidate = useCallback(() => mutate(), [mutate]);

  return {
    threads,
    total,
    /** The listing options as the API's query string (a status change asks for its thread). */
    query,
    hasMore,
    loadingMore,
    loadMore,
    patch,
    patchEmails,
    applyThread,
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
