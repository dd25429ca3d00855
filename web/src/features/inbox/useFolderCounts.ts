// Counts for the sidebar badges (spec 000 §3 "Folder counts", §4, §9): GET /api/emails/counts,
// polled every 30 s while signed in. The inbox badge is needs-reply plus unread; the server's
// spam count already includes suspicious mail. Failures are only logged (spec 000 §8): the badges
// keep their last known values.

import { useMemo } from 'react';
import useSWR from 'swr';
import { keys } from '../../api/keys';
import type { EmailCountsResponse, FolderCounts } from '../../api/types';
import { useAuth } from '../../session/AuthProvider';

export const COUNTS_POLL_MS = 30_000;

const EMPTY: FolderCounts = Object.freeze({});

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function toFolderCounts(c: Partial<EmailCountsResponse> | undefined): FolderCounts {
  if (!c || typeof c !== 'object') return EMPTY;
  const needsReply = num(c.needsReply);
  const unread = num(c.unread);
  return {
    inbox: needsReply === undefined && unread === undefined ? undefined : (needsReply ?? 0) + (unread ?? 0),
    starred: num(c.starred),
    needsReply,
    urgent: num(c.urgent),
    processed: num(c.processed),
    spam: num(c.spam),
    advertisements: num(c.advertisements),
    info: num(c.info),
    sent: num(c.sent),
    drafts: num(c.drafts),
    trash: num(c.trash),
  };
}

export function useFolderCounts(): FolderCounts {
  const { isAuthenticated } = useAuth();
  const { data } = useSWR<EmailCountsResponse>(isAuthenticated ? keys.emailCounts() : null, {
    refreshInterval: COUNTS_POLL_MS,
    onError: (err: unknown) => console.error('folder counts', err),
  });
  return useMemo(() => (data ? toFolderCounts(data) : EMPTY), [data]);
}
