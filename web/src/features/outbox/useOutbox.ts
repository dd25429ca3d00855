// The outbox (GET /api/outbox): mail written here and not yet out — in its undo delay, scheduled,
// being sent, or failed and waiting for a retry or the user. One SWR entry for the Pending replies
// page and the sidebar's failure dot, re-read every 30 s and on the live `mail_changed` reason
// `outbox` (app/live/revalidate.ts).

import useSWR from 'swr';
import { outgoingKeys, type OutboxItem, type OutboxResponse } from '../../api/outgoing';
import { useAuth } from '../../session/AuthProvider';

export const OUTBOX_POLL_MS = 30_000;

const NONE: OutboxItem[] = [];

export function useOutbox() {
  const { isAuthenticated } = useAuth();
  const { data, error, mutate } = useSWR<OutboxResponse>(isAuthenticated ? outgoingKeys.outbox() : null, {
    refreshInterval: OUTBOX_POLL_MS,
  });
  return { items: data?.items ?? NONE, error: error as unknown, mutate };
}
