// The subscription manager (docs/API.md "Subscriptions"): typed calls for its page. The list is
// read through SWR with keys.subscriptions(); after any action it is re-read (the attempts, the
// blocked mark and the counts change).

import { api } from './client';
import type {
  ArchiveSenderResponse,
  BlockResponse,
  BlockTarget,
  SubscriptionsBulkRequest,
  SubscriptionsBulkResponse,
  UnsubscribeResponse,
} from './generated';

export type {
  BlockTarget,
  Subscription,
  SubscriptionsBulkResponse,
  SubscriptionsResponse,
  SubscriptionVerdict,
  UnsubscribeAttempt,
  UnsubscribeResponse,
} from './generated';

const id = (value: string) => encodeURIComponent(value);

/** One click from the server, else the mailto from the user's mailbox, else links to open. */
export const unsubscribe = (senderId: string) =>
  api<UnsubscribeResponse>(`/api/subscriptions/${id(senderId)}/unsubscribe`, { method: 'POST' });

/** A rule (seen on the rules page) sends the sender's future mail to Promotions or Trash. */
export const blockSender = (senderId: string, to: BlockTarget) =>
  api<BlockResponse>(`/api/subscriptions/${id(senderId)}/block`, { method: 'POST', body: { to } });

/** Every inbox mail from the sender to the archive. */
export const archiveSender = (senderId: string) =>
  api<ArchiveSenderResponse>(`/api/subscriptions/${id(senderId)}/archive`, { method: 'POST' });

/** One action for many senders; each has its own result. */
export const bulkSubscriptions = (body: SubscriptionsBulkRequest) =>
  api<SubscriptionsBulkResponse>('/api/subscriptions/bulk', { method: 'POST', body });
