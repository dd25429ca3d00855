// The live reasons `outbox` and `drafts` of `mail_changed`: only the outbox, or the drafts and
// the counts, are re-read (revalidateOutgoing). Every other mail event re-reads the session's
// mail data with revalidateMailData (session/revalidateMail.ts).

import type { ScopedMutator } from 'swr';
import { keys } from '../../api/keys';
import { outgoingKeys } from '../../api/outgoing';

/**
 * `mail_changed` reasons about mail being written rather than mail stored (docs/API.md "Sending,
 * drafts, outbox"): they touch the outbox or the drafts only, so they re-read just those (the
 * stored mail has its own events when the sync sees the result in Sent or Drafts).
 */
export type OutgoingReason = 'outbox' | 'drafts';

export function outgoingReason(data: unknown): OutgoingReason | null {
  const reason = typeof data === 'object' && data !== null ? (data as { reason?: unknown }).reason : undefined;
  return reason === 'outbox' || reason === 'drafts' ? reason : null;
}

export function revalidateOutgoing(mutate: ScopedMutator, reasons: Iterable<OutgoingReason>): Promise<unknown> {
  const jobs: Promise<unknown>[] = [];
  for (const reason of new Set(reasons)) {
    if (reason === 'outbox') {
      jobs.push(mutate(outgoingKeys.outbox()));
    } else {
      // A draft saved or removed changes the drafts count too (spec 000 §4: "drafts recount").
      jobs.push(mutate(outgoingKeys.drafts()), mutate(keys.emailCounts()));
    }
  }
  return Promise.all(jobs);
}
