// The signed-in user's connected mailboxes with their sync status (GET /api/auth/accounts),
// shared by the settings card and the inbox. While any mailbox is connecting or syncing it is
// polled every 5 s so progress shows; otherwise every `idleInterval` ms (0: not at all).

import useSWR from 'swr';
import { earlyAnswered } from '../../api/early';
import { keys } from '../../api/keys';
import { getToken } from '../../api/session';
import type { MailAccountWithSync, MailAccountsResponse } from '../../api/types';
import { useAuth } from '../../session/AuthProvider';

export const BUSY_POLL_MS = 5000;

export function isBusy(account: MailAccountWithSync): boolean {
  const state = account.sync?.state;
  return state === 'connecting' || state === 'syncing';
}

export function accountsOf(data: MailAccountsResponse | undefined): MailAccountWithSync[] | undefined {
  return Array.isArray(data?.accounts) ? data.accounts : undefined;
}

export function useMailAccounts({ idleInterval = 0 }: { idleInterval?: number } = {}) {
  const { isAuthenticated } = useAuth();
  const swr = useSWR<MailAccountsResponse>(isAuthenticated ? keys.mailAccounts() : null, {
    refreshInterval: (data) => (accountsOf(data)?.some(isBusy) ? BUSY_POLL_MS : idleInterval),
    // The answer main.tsx's early read already has: the first render shows the mailboxes.
    fallbackData: earlyAnswered(keys.mailAccounts(), getToken())?.data as MailAccountsResponse | undefined,
  });
  return {
    accounts: accountsOf(swr.data),
    /** A 2xx without a list counts as a failure too, not as an endless "loading". */
    failed: (swr.error !== undefined && !accountsOf(swr.data)) || (swr.data !== undefined && !accountsOf(swr.data)),
    error: swr.error as unknown,
    mutate: swr.mutate,
  };
}
