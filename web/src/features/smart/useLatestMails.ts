// The smart features page's list (docs/API.md "Smart features"): the 10 newest inbox mails,
// GET /api/emails/inbox?perPage=10. The key is a mail key, so the live channel re-reads it.

import useSWR from 'swr';
import type { Email } from '../../api/types';
import { useAuth } from '../../session/AuthProvider';

/** Spec 001 §9 "Smart features list: 10 e-mails". */
export const LATEST_COUNT = 10;

export const latestMailsKey = () => `/api/emails/inbox?perPage=${LATEST_COUNT}`;

export function useLatestMails() {
  const { isAuthenticated } = useAuth();
  const { data, error, mutate } = useSWR<Email[]>(isAuthenticated ? latestMailsKey() : null);
  const mails = Array.isArray(data) ? data.slice(0, LATEST_COUNT) : undefined;
  return {
    mails,
    /** A 2xx without a list counts as a failure too, not as an endless "loading". */
    failed: (error !== undefined && !mails) || (data !== undefined && !mails),
    error: error as unknown,
    mutate,
  };
}
