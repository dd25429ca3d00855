// One folder's threads, page by page (spec 000 §3 Thread, emailsPerPage 50): useSWRInfinite over
// `/api/threads/{folder}?page=N&perPage=50&<listing options>`, the total from X-Total-Count.
// The list carries each thread's aggregates and only its newest mail; the whole thread
// (`/api/threads/{folder}/{threadId}`, keys.thread) is loaded when it is opened (useFullThread) or
// before a thread-wide action (`full`), and kept in the SWR cache beside the pages.
// Mail inside the cached threads can be patched in place (star, read, the server's answer to a
// status change) and put back if the server refuses, a thread can be swapped for the server's
// own, and mail can be dropped from the list when it moved away or was deleted; the whole threads
// in the cache follow. A thread's aggregates (labels, status, priority, …) are the server's: they
// are never recomputed here, and where a local change could alter them the list is re-read.

import { useCallback, useMemo } from 'react';
import { useSWRConfig } from 'swr';
import useSWRInfinite from 'swr/infinite';
import { ApiError } from '../../api/client';
import { keys } from '../../api/keys';
import { earlyAnswered } from '../../api/early';
import { getToken } from '../../api/session';
import { fetchThread, fetchThreadPage, listQuery, threadPageOf } from '../../api/triage';
import type { Email, ListOptions, Thread, ThreadPage } from '../../api/types';
import { PER_PAGE } from './pageSize';
import { isPartial, wholeAgrees } from './threads';

export { PER_PAGE } from './pageSize';
/** The list is re-read as often as the folder counts (spec 000 §9). */
export const LIST_POLL_MS = 30_000;

type Pages = ThreadPage[] | undefined;

/**
 * Every mail of a thread the list holds only in part, when its whole thread is known (after the
 * change being made, for `mapEmails`); undefined when it is not.
 */
export type WholeOf = (t: Thread) => readonly Email[] | undefined;

/**
 * Applies `change` to a thread's mail. Of its own fields only the read and star flags follow at
 * once (read when all its mail is, starred when any is), so a star or a read mail shows before the
 * server answers; the rest stays as the server gave it. Of a thread the list holds in part they
 * are worked out from `all` (its whole mail) when given, otherwise only what the mail at hand
 * proves: an unread one makes it unread, a starred one starred; the server's flags stand for the
 * rest (one mail read says nothing about the others).
 */
export function mapThread(t: Thread, change: (e: Email) => Email, all?: readonly Email[]): Thread {
  let changed = false;
  const emails = t.emails.map((e) => {
    const next = change(e);
    if (next !== e) changed = true;
    return next;
  });
  const known = isPartial(t) ? all : emails;
  let { isRead, isStarred } = t;
  if (known) {
    if (!changed && !isPartial(t)) return t;
    isRead = known.every((e) => e.is_read);
    isStarred = known.some((e) => e.is_starred);
  } else if (changed) {
    if (emails.some((e) => !e.is_read)) isRead = false;
    if (emails.some((e) => e.is_starred)) isStarred = true;
  }
  if (!changed && isRead === t.isRead && isStarred === t.isStarred) return t;
  return { ...t, emails, isRead, isStarred };
}

/** Applies `change` to each mail of the cached pages (see `mapThread`). */
export function mapEmails(pages: Pages, change: (e: Email) => Email, whole?: WholeOf): Pages {
  return pages?.map((page) => ({
    ...page,
    threads: page.threads.map((t) => mapThread(t, change, isPartial(t) ? whole?.(t) : undefined)),
  }));
}

/** Whether the thread holds the mail (among the mail the list has of it, or its whole mail). */
function holds(t: Thread, mailId: string, whole?: WholeOf): boolean {
  return t.emails.some((e) => e.id === mailId) || (isPartial(t) && !!whole?.(t)?.some((e) => e.id === mailId));
}

/**
 * Puts the server's `thread` in place of the cached one: the thread with its id, or the one
 * holding `mailId` (the mail the server answered about).
 */
export function replaceThread(pages: Pages, thread: Thread, mailId: string, whole?: WholeOf): Pages {
  const target = (t: Thread) => t.id === thread.id || holds(t, mailId, whole);
  return pages?.map((page) => {
    if (!page.threads.some(target)) return page;
    return { ...page, threads: page.threads.map((t) => (target(t) ? thread : t)) };
  });
}

/**
 * Drops the given mail; a thread left without mail leaves the list and the total. `partial` says
 * whether the list must be re-read: a thread kept some of its mail (its aggregates are stale), or
 * a thread the list holds in part lost the mail it had here while the rest of it is unknown.
 * Of such a thread `whole` gives every mail when known: it then leaves only when all of it went,
 * and otherwise keeps its newest mail left and the number left. Unknown, its count only drops by
 * the mail seen going, and a row left without mail goes until the re-read says otherwise.
 */
export function dropEmails(
  pages: Pages,
  ids: ReadonlySet<string>,
  whole?: WholeOf,
): { pages: Pages; partial: boolean } {
  if (!pages) return { pages, partial: false };
  let gone = 0;
  let partial = false;
  const hit = (e: Email) => ids.has(e.id);
  const next = pages.map((page) => ({
    ...page,
    threads: page.threads.flatMap((t) => {
      const all = isPartial(t) ? whole?.(t) : t.emails;
      if (!t.emails.some(hit) && !all?.some(hit)) return [t];
      const emails = t.emails.filter((e) => !hit(e));
      if (all) {
        const left = all.filter((e) => !hit(e));
        if (left.length === 0) {
          gone++;
          return [];
        }
        partial = true;
        return [{ ...t, emails: emails.length ? emails : left.slice(0, 1), count: left.length }];
      }
      // Part of a thread whose other mail is not here.
      partial = true;
      if (emails.length === 0) {
        gone++;
        return [];
      }
      return [{ ...t, emails, count: Math.max(emails.length, t.count - (t.emails.length - emails.length)) }];
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

  // The first page main.tsx's early read already has: the first render shows the threads.
  const early = source ? earlyAnswered(keys.threadPage(source, 1, PER_PAGE, query), getToken()) : undefined;
  const swr = useSWRInfinite<ThreadPage>(getKey, fetchThreadPage, {
    refreshInterval: LIST_POLL_MS,
    revalidateFirstPage: true,
    fallbackData: early ? [threadPageOf(early.data, early.headers)] : undefined,
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

  const { cache, mutate: mutateKey } = useSWRConfig();

  /** The cache key of a thread of this listing loaded whole (null for a folder without a listing). */
  const threadKey = useCallback((id: string) => (source ? keys.thread(source, id, query) : null), [source, query]);

  /**
   * The list's thread as it was loaded whole, if that is in the cache and still agrees with the
   * list (as many mails, the list's among them): one read before new mail came is no guide.
   */
  const cachedWhole = useCallback(
    (t: Thread): Thread | undefined => {
      const key = threadKey(t.id);
      const whole = key ? (cache.get(key)?.data as Thread | undefined) : undefined;
      return whole && wholeAgrees(t, whole) ? whole : undefined;
    },
    [cache, threadKey],
  );

  /** Writes whole threads into the cache without a re-read. */
  const putWhole = useCallback(
    (threads: Iterable<Thread>) => {
      for (const th of threads) {
        const key = threadKey(th.id);
        if (key) void mutateKey(key, th, { revalidate: false });
      }
    },
    [mutateKey, threadKey],
  );

  /**
   * A thread loaded whole (useFullThread, `full`) tells the read and star flags of the list's part
   * of it, which mail read or starred here could not.
   */
  const adoptWhole = useCallback(
    (whole: Thread) => {
      const all: WholeOf = (t) => (t.id === whole.id && wholeAgrees(t, whole) ? whole.emails : undefined);
      return mutate((current) => mapEmails(current, (e) => e, all), { revalidate: false });
    },
    [mutate],
  );

  /**
   * The whole of a thread before acting on all of it: the thread itself when the list holds all
   * its mail, otherwise read from the server now (and cached). When its mail left the listing (404)
   * the list is re-read, and the error is the caller's to show.
   */
  const full = useCallback(
    async (thread: Thread): Promise<Thread> => {
      if (!source || !isPartial(thread)) return thread;
      try {
        const whole = await fetchThread(source, thread.id, query);
        putWhole([whole]);
        await adoptWhole(whole);
        return whole;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) void mutate();
        throw err;
      }
    },
    [source, query, putWhole, adoptWhole, mutate],
  );

  /** Changes some mail in the cached pages, and in the threads loaded whole, without asking the server. */
  const patchEmails = useCallback(
    async (ids: readonly string[], change: (e: Email) => Email) => {
      const set = new Set(ids);
      const apply = (e: Email) => (set.has(e.id) ? change(e) : e);
      // A thread loaded whole follows, and gives the read and star flags of the list's part of it.
      const wholes = new Map<string, { before: Thread; after: Thread }>();
      const whole: WholeOf = (t) => {
        let entry = wholes.get(t.id);
        if (!entry) {
          const before = cachedWhole(t);
          if (!before) return undefined;
          entry = { before, after: mapThread(before, apply) };
          wholes.set(t.id, entry);
        }
        return entry.after.emails;
      };
      await mutate((current) => mapEmails(current, apply, whole), { revalidate: false });
      putWhole([...wholes.values()].filter((w) => w.after !== w.before).map((w) => w.after));
    },
    [mutate, cachedWhole, putWhole],
  );

  /** Changes one mail's fields in the cached pages. */
  const patch = useCallback(
    (id: string, changes: Partial<Email>) => patchEmails([id], (e) => ({ ...e, ...changes })),
    [patchEmails],
  );

  /**
   * Swaps the thread holding `mailId` for the server's answer (PUT /api/emails/{id}/status). The
   * thread loaded whole takes it too: as it is when it holds every mail, else its mail and
   * aggregates over the cached whole, which is then read again.
   */
  const applyThread = useCallback(
    async (thread: Thread, mailId: string) => {
      const key = threadKey(thread.id);
      const before = key ? (cache.get(key)?.data as Thread | undefined) : undefined;
      await mutate((current) => replaceThread(current, thread, mailId, (t) => cachedWhole(t)?.emails), {
        revalidate: false,
      });
      if (!key) return;
      if (!isPartial(thread)) {
        void mutateKey(key, thread, { revalidate: false });
      } else if (before) {
        const byId = new Map(thread.emails.map((e) => [e.id, e]));
        void mutateKey(key, { ...thread, emails: before.emails.map((e) => byId.get(e.id) ?? e) }, { revalidate: true });
      }
    },
    [mutate, mutateKey, cache, cachedWhole, threadKey],
  );

  /**
   * Takes mail out of the list (moved elsewhere, deleted) at once, and out of the threads loaded
   * whole; when a thread keeps some of its mail, or the list cannot tell, the list is re-read.
   */
  const removeEmails = useCallback(
    async (ids: readonly string[]) => {
      const set = new Set(ids);
      let partial = false;
      const wholes = new Map<string, Thread>();
      const whole: WholeOf = (t) => {
        const w = cachedWhole(t);
        if (w) wholes.set(t.id, w);
        return w?.emails;
      };
      await mutate(
        (current) => {
          const out = dropEmails(current, set, whole);
          partial ||= out.partial;
          return out.pages;
        },
        { revalidate: false },
      );
      // A whole thread left empty stays as it was: it is no longer listed, nor opened.
      const kept = [...wholes.values()].flatMap((w) => {
        const left = w.emails.filter((e) => !set.has(e.id));
        return left.length > 0 && left.length < w.emails.length ? [{ ...w, emails: left, count: left.length }] : [];
      });
      putWhole(kept);
      if (partial) void mutate();
    },
    [mutate, cachedWhole, putWhole],
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
    full,
    threadKey,
    adoptWhole,
    /** Re-reads every loaded page. */
    revalidate,
    error: error as unknown,
    /** A folder without a listing (e.g. pending replies) is simply empty. */
    loaded: !source || pages !== undefined,
    isLoading,
  };
}

export type ThreadList = ReturnType<typeof useThreads>;
