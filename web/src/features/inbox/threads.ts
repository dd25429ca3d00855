// Small helpers around threads: whether the list holds a thread only in part, a lone mail as a
// thread of one, finding the thread of a mail, every mail id of some threads, how many mails they
// hold, and the Compose link that replies to a mail.

import type { Email, Thread } from '../../api/types';

/**
 * The list carries only a thread's newest mail (`count` says how many it has): the whole thread
 * (keys.thread) is loaded when it is opened or acted on as a whole.
 */
export function isPartial(t: Thread): boolean {
  return t.emails.length < t.count;
}

/**
 * Whether a thread loaded whole still matches the list's part of it: as many mails, the list's
 * among them (one read before new mail came, or some left, is out of date).
 */
export function wholeAgrees(t: Thread, whole: Thread): boolean {
  return whole.emails.length === t.count && t.emails.every((e) => whole.emails.some((w) => w.id === e.id));
}

/** A mail shown on its own (opened by URL outside the loaded list) as a thread of one. */
export function singleMailThread(e: Email): Thread {
  return {
    id: e.threadId || e.messageId || e.id,
    subject: e.subject ?? '',
    hasNoSubject: !e.subject?.trim(),
    count: 1,
    lastDate: e.date,
    isRead: e.is_read,
    isStarred: e.is_starred,
    labels: e.labels ?? [],
    status: e.status,
    priority: e.priority,
    hasAttachments: e.hasAttachments,
    participants: [e.from_name?.trim() || e.from],
    emails: [e],
  };
}

export function threadOfMail(threads: readonly Thread[], mailId: string | null): Thread | null {
  if (!mailId) return null;
  return threads.find((t) => t.emails.some((e) => e.id === mailId)) ?? null;
}

/** Every mail id of the threads as they are given: pass whole threads (useThreads' `full`). */
export function mailIds(threads: readonly Thread[]): string[] {
  return threads.flatMap((t) => t.emails.map((e) => e.id));
}

/** How many mails the threads hold, also those the list carries only in part. */
export function mailCount(threads: readonly Thread[]): number {
  return threads.reduce((n, t) => n + Math.max(t.count, t.emails.length), 0);
}

/**
 * The Compose page's reply link (spec 000 §2 "Compose page": replyTo, replyFrom, replySubject,
 * originalMessageId): the sender's address, their name, the subject, and the mail's Message-ID
 * (its id here when it has none).
 */
export function replyHref(e: Email): string {
  const q = new URLSearchParams();
  q.set('replyTo', e.from ?? '');
  q.set('replyFrom', e.from_name?.trim() || e.from || '');
  q.set('replySubject', e.subject ?? '');
  q.set('originalMessageId', e.messageId || e.id);
  return `/Compose?${q.toString()}`;
}
