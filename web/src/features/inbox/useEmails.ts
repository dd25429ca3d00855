// One folder's mail, page by page (spec 000 §3 emailsPerPage 50): useSWRInfinite over
// `{source}?page=N&perPage=50`, the total from X-Total-Count. Rows can be patched in place for
// optimistic updates (star, read) and put back if the server refuses.

import { useCallback, useMemo } from 'react';
import useSWRInfinite from 'swr/infinite';
import { keys } from '../../api/keys';
import { fetchEmailPage } from '../../api/mail';
import type { Email, EmailPage } from '../../api/types';

export const PER_PAGE = 50;
/** The list is re-read as often as the folder counts (spec 000 §9). */
export const LIST_POLL_MS = 30_000;

export function useEmails(source: string | null) {
  const getKey = useCallback(
    (index: number, previous: EmailPage | null) => {
      if (!source) return null;
      if (previous && (previous.emails.length === 0 || (index * PER_PAGE >= previous.total))) return null;
      return keys.emailPage(source, index + 1, PER_PAGE);
    },
    [source],
  );

  const swr = useSWRInfinite<EmailPage>(getKey, fetchEmailPage, {
    refreshInterval: LIST_POLL_MS,
    revalidateFirstPage: true,
  });
  const { data: pages, size, setSize, mutate, error, isLoading } = swr;

  // New mail arriving between two page loads shifts rows onto the next page: show each once.
  const emails = useMemo(() => {
    const seen = new Set<string>();
    const out: Email[] = [];
    for (const page of pages ?? []) {
      for (const e of page.emails) {
        if (seen.has(e.id)) continue;
        seen.add(e.id);
        out.push(e);
      }
    }
    return out;
  }, [pages]);

  // The first page is re-read most often, so its total is the freshest.
  const total = pages?.[0]?.total ?? 0;
  const last = pages?.at(-1);
  const hasMore = !!last && last.emails.length > 0 && emails.length < total;
  const loadingMore = !!pages && size > pages.length;

  const loadMore = useCallback(() => void setSize((s) => s + 1), [setSize]);

  /** Changes one row in the cached pages without asking the server. */
  const patch = useCallback(
    (id: string, changes: Partial<Email>) =>
      mutate(
        (current) =>
          current?.map((page) => ({
            ...page,
            emails: page.emails.map((e) => (e.id === id ? { ...e, ...changes } : e)),
          })),
        { revalidate: false },
      ),
    [mutate],
  );

  return {
    emails,
    total,
    hasMore,
    loadingMore,
    loadMore,
    patch,
    /** Re-reads every loaded page. */
    revalidate: () => mutate(),
    error: error as unknown,
    /** A folder without a listing (e.g. pending replies) is simply empty. */
    loaded: !source || pages !== undefined,
    isLoading,
  };
}
