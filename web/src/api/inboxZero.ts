// The Inbox Zero calls (docs/API.md "Triage"): the panel's numbers come from SWR over
// `keys.inboxZero()` with the shared fetcher; this is the typed read and the one write.

import { api } from './client';
import { keys } from './keys';
import type { AutoArchiveResponse, InboxZeroResponse } from './types';

export function fetchInboxZero(): Promise<InboxZeroResponse> {
  return api<InboxZeroResponse>(keys.inboxZero());
}

/** Moves the given auto-archive candidates to the Archive folder; ids no longer candidates are skipped. */
export function autoArchive(emailIds: string[]): Promise<AutoArchiveResponse> {
  return api<AutoArchiveResponse>('/api/emails/auto-archive', { method: 'POST', body: { emailIds } });
}
