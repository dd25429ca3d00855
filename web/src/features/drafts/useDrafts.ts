// The drafts list (GET /api/drafts), shared by the Pending replies page and the sidebar's count:
// one SWR entry, re-read every 30 s (spec 000 §7, §9: "polled every 30 s for the drafts count")
// and on the live `mail_changed` reason `drafts` (app/live). Spec 001 §7 allows "an array or an
// object with drafts"; both are read the same way.

import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { keys } from '../../api/keys';
import { outgoingKeys, type Draft, type DraftsResponse } from '../../api/outgoing';
import { useAuth } from '../../session/AuthProvider';

export const DRAFTS_POLL_MS = 30_000;

type DraftsData = DraftsResponse | Draft[];

export function draftsOf(data: DraftsData | undefined): Draft[] {
  if (!data) return [];
  return Array.isArray(data) ? data : (data.drafts ?? []);
}

export function draftsTotal(data: DraftsData | undefined): number {
  if (!data) return 0;
  return Array.isArray(data) ? data.length : (data.total ?? draftsOf(data).length);
}

export function useDrafts() {
  const { isAuthenticated } = useAuth();
  const { data, error, isLoading, mutate } = useSWR<DraftsData>(isAuthenticated ? outgoingKeys.drafts() : null, {
    refreshInterval: DRAFTS_POLL_MS,
  });
  return { data, drafts: draftsOf(data), total: draftsTotal(data), error: error as unknown, isLoading, mutate };
}

/**
 * After a change to drafts: drop the ones that are gone at once (`removed`, spec 001 §4: send or
 * delete removes the draft from the list), then re-read the list and the folder counts.
 */
export function useRefreshDrafts() {
  const { mutate } = useSWRConfig();
  return useCallback(
    (removed?: (d: Draft) => boolean) => {
      if (removed) {
        void mutate<DraftsData>(
          outgoingKeys.drafts(),
          (cur) => {
            if (!cur) return cur;
            if (Array.isArray(cur)) return cur.filter((d) => !removed(d));
            const drafts = cur.drafts.filter((d) => !removed(d));
            return { ...cur, drafts, total: Math.max(0, cur.total - (cur.drafts.length - drafts.length)) };
          },
          { revalidate: true },
        );
      } else {
        void mutate(outgoingKeys.drafts());
      }
      void mutate(keys.emailCounts());
    },
    [mutate],
  );
}

