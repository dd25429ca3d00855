// Threads and triage (docs/API.md "Listing options", "Threads", "Triage"): thin typed wrappers so
// components never spell a path or a body shape themselves.

import { api, apiWithHeaders } from './client';
import { keys } from './keys';
import type {
  BulkRequest,
  BulkResponse,
  DeleteEmailResponse,
  ListOptions,
  MailPriority,
  RemoteSenderAdded,
  RemoteSenderRemoved,
  SetStatusResponse,
  StatusChange,
  Thread,
  ThreadPage,
  TrashEmailResponse,
} from './types';

/** The server's default order for a sort: newest first by date, A→Z by sender and subject. */
export function defaultOrder(sort: ListOptions['sort']): 'asc' | 'desc' {
  return sort === 'sender' || sort === 'subject' ? 'asc' : 'desc';
}

/**
 * The listing options as a query string (without `?`), leaving out what equals the server's
 * default so the plain listing keeps its plain key: `filter=unread,starred&status=urgent&sort=sender`.
 */
export function listQuery(options: ListOptions = {}): string {
  const q = new URLSearchParams();
  if (options.filter?.length) q.set('filter', options.filter.join(','));
  if (options.status) q.set('status', options.status);
  const sort = options.sort ?? 'date';
  if (sort !== 'date') q.set('sort', sort);
  if (options.order && options.order !== defaultOrder(sort)) q.set('order', options.order);
  // Keep the commas readable (the server splits on them either way).
  return q.toString().replace(/%2C/g, ',');
}

/** One page of threads; the total is the `X-Total-Count` header (the rows if it is missing). */
export async function fetchThreadPage(path: string): Promise<ThreadPage> {
  const { data, headers } = await apiWithHeaders<Thread[]>(path);
  return threadPageOf(data, headers);
}

/** A page of threads from a listing's answer: the threads and the `X-Total-Count` header. */
export function threadPageOf(data: unknown, headers: Headers): ThreadPage {
  const threads = Array.isArray(data) ? (data as Thread[]) : [];
  const header = Number(headers.get('X-Total-Count'));
  return { threads, total: Number.isFinite(header) && headers.has('X-Total-Count') ? header : threads.length };
}

/**
 * One thread with every mail the listing (`source` with its `query`) keeps, newest first: the list
 * carries only each thread's newest mail. A 404 (the listing holds none of its mail any more)
 * rejects with an ApiError whose message is the server's.
 */
export function fetchThread(source: string, threadId: string, query = ''): Promise<Thread> {
  return api<Thread>(keys.thread(source, threadId, query));
}

/** The answer names where the mail is listed now, and gives the mail and its thread after the change. */
/**
 * Sets a mail's status. `listing` names the list on screen (its folder key and listing query), so
 * the answer's `thread` is that thread as this list shows it after the change.
 */
export function setEmailStatus(
  id: string,
  status: StatusChange,
  priority?: MailPriority,
  listing?: { folder: string; query?: string },
): Promise<SetStatusResponse> {
  const params = listing
    ? `?folder=${encodeURIComponent(listing.folder)}${listing.query ? `&${listing.query}` : ''}`
    : '';
  return api<SetStatusResponse>(`${keys.email(id)}/status${params}`, {
    method: 'PUT',
    body: priority ? { status, priority } : { status },
  });
}

/** Hides the mail from this site only; the mailbox keeps it (spec 000 §5). */
export function deleteEmail(id: string): Promise<DeleteEmailResponse> {
  return api<DeleteEmailResponse>(keys.email(id), { method: 'DELETE' });
}

/** Moves the mail to the mailbox's Trash folder. */
export function trashEmail(id: string): Promise<TrashEmailResponse> {
  return api<TrashEmailResponse>(`${keys.email(id)}/trash`, { method: 'POST' });
}

/** The answer gives every changed mail as it is now. */
export function bulkEmails(body: BulkRequest): Promise<BulkResponse> {
  return api<BulkResponse>('/api/emails/bulk', { method: 'POST', body });
}

/** "Always show remote content from this sender". */
export function allowRemoteSender(address: string): Promise<RemoteSenderAdded> {
  return api<RemoteSenderAdded>(keys.remoteSenders(), { method: 'POST', body: { address } });
}

export function revokeRemoteSender(address: string): Promise<RemoteSenderRemoved> {
  return api<RemoteSenderRemoved>(`${keys.remoteSenders()}/${encodeURIComponent(address)}`, { method: 'DELETE' });
}
