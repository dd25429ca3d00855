// The whole of a thread the list holds only in part (the list carries each thread's newest mail):
// loaded when the thread is opened, under keys.thread, so the live updates re-read it with the
// other mail data and the list's patches (useThreads) reach it. A thread the list holds whole is
// simply itself.

import { useEffect } from 'react';
import useSWR from 'swr';
import { ApiError } from '../../api/client';
import type { Thread } from '../../api/types';
import { isPartial, wholeAgrees } from './threads';
import type { ThreadList } from './useThreads';

export interface WholeThread {
  /** The whole thread once loaded; until then, or when the list holds all of it, the list's. */
  thread: Thread | null;
  /** The rest of the thread is on its way. */
  loading: boolean;
  /** Why the rest could not be loaded. */
  error: unknown;
  retry: () => void;
}

export function useFullThread(
  list: Pick<ThreadList, 'threadKey' | 'revalidate' | 'adoptWhole'>,
  thread: Thread | null,
): WholeThread {
  const key = thread && isPartial(thread) ? list.threadKey(thread.id) : null;
  const { revalidate, adoptWhole } = list;
  const { data, error, mutate } = useSWR<Thread>(key, {
    revalidateOnFocus: false,
    // None of its mail is listed any more: the list's re-read takes the row away.
    onError: (err: unknown) => {
      if (err instanceof ApiError && err.status === 404) void revalidate();
    },
  });
  const whole = key ? data : undefined;
  // Its mail tells the row's read and star flags.
  useEffect(() => {
    if (whole) void adoptWhole(whole);
  }, [whole, adoptWhole]);
  // The list says the thread changed since (new mail in it, or some gone): read it again.
  const behind = !!whole && !!thread && !wholeAgrees(thread, whole);
  useEffect(() => {
    if (behind) void mutate();
  }, [behind, mutate]);

  return {
    thread: whole ?? thread,
    loading: !!key && !whole && !error,
    error: key ? error : undefined,
    retry: () => void mutate(),
  };
}
