// Shared fixtures of the inbox tests: mail and threads shaped like the server's, list responses
// with X-Total-Count, a fake server with the routes every inbox render touches, and helpers to
// find the calls a test made.

import type { BulkResponse, Email, EmailDetail, MailAccountWithSync, SetStatusResponse, Thread } from '../../api/types';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import type { Preferences } from '../../api/settings';
import { StaticPreferences } from '../settings/sync/SettingsProvider';
import InboxPage from './InboxPage';
import { mailAccount } from '../accounts/accountFixtures';
// The inbox's lazy chunks (MailView), loaded with the fixtures: a test's first find then waits for
// React's lazy step only, not for these modules' first transform on a busy machine.
import './ReadingPane';
import '../spam/SpamTools';
export { bodyOf, calls, toasts } from '../../test/helpers';

export type Fetch = ReturnType<typeof mockFetch>;
export type Handler = Parameters<typeof mockFetch>[0][string];

export const ACCOUNT: MailAccountWithSync = mailAccount();

export function mail(id: number, over: Partial<Email> = {}): Email {
  const date = over.date ?? '2025-03-04T09:15:00Z';
  return {
    id: String(id),
    accountId: 1,
    threadId: `t${id}`,
    messageId: `<m${id}@example.test>`,
    from: `sender${id}@example.test`,
    from_name: `שולח ${id}`,
    to: ['dana@example.test'],
    cc: [],
    subject: `נושא ${id}`,
    preview: `תצוגה מקדימה ${id}`,
    date,
    is_read: true,
    is_starred: false,
    is_answered: false,
    is_draft: false,
    labels: [],
    status: null,
    priority: null,
    lastActivity: date,
    folder: 'INBOX',
    isSpam: false,
    isAdvertisement: false,
    spamScore: null,
    references: [],
    inReplyTo: null,
    originalMessageId: null,
    hasAttachments: false,
    attachments: [],
    size: 1000,
    parsed: true,
    ...over,
  };
}

export function detail(e: Email, over: Partial<EmailDetail> = {}): EmailDetail {
  return {
    ...e,
    body: '<div dir="auto"><p>שלום עולם</p></div>',
    bodyPlain: 'שלום עולם',
    remoteContentBlocked: false,
    ...over,
  };
}

/** A thread as the server groups it: `emails` newest first, the aggregates computed from them. */
export function thread(emails: Email[], over: Partial<Thread> = {}): Thread {
  const newest = emails[0];
  const statuses = [...new Set(emails.map((e) => e.status).filter((s): s is string => !!s))];
  return {
    id: newest.threadId,
    subject: newest.subject,
    hasNoSubject: !newest.subject.trim(),
    count: emails.length,
    lastDate: newest.date,
    isRead: emails.every((e) => e.is_read),
    isStarred: emails.some((e) => e.is_starred),
    labels: statuses,
    status: newest.status,
    priority: newest.priority,
    hasAttachments: emails.some((e) => e.hasAttachments),
    participants: [...new Set(emails.map((e) => e.from_name || e.from))],
    emails,
    ...over,
  };
}

/**
 * A thread as the list carries it: the aggregates of every mail (`count` among them) and only the
 * newest mail; `thread(emails)` is the whole of it, as `GET /api/threads/{folder}/{id}` answers.
 */
export function partial(emails: Email[], over: Partial<Thread> = {}): Thread {
  const whole = thread(emails, over);
  return { ...whole, emails: whole.emails.slice(0, 1) };
}

/** The path of one whole thread of a folder's listing: its id encoded. */
export const threadPath = (folder: string, id: string) => `/api/threads/${folder}/${encodeURIComponent(id)}`;

/** A single-mail thread. */
export const solo = (id: number, over: Partial<Email> = {}) => thread([mail(id, over)]);

/**
 * The answer of PUT /api/emails/{id}/status: where the mail is listed now, the mail as it is now,
 * and its thread as the server computes it after the change (by default the mail on its own).
 */
export function statusAnswer(e: Email, movedTo: string, th: Thread = thread([e])): SetStatusResponse {
  return { success: true, movedTo, email: e, thread: th };
}

/** The answer of POST /api/emails/bulk: every changed mail as it is now. */
export function bulkAnswer(emails: Email[], movedTo: string | null = null, updated = emails.length): BulkResponse {
  return { success: true, updated, movedTo, emails };
}

/** A list response: a JSON array with the total in X-Total-Count, like the server. */
export function list(threads: Thread[], total = threads.length): Response {
  return new Response(JSON.stringify(threads), {
    status: 200,
    headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(total) },
  });
}

/** GET /api/threads/<folder> answering `all` in pages of 50, as `?page=` asks. */
export function paged(all: Thread[]): Handler {
  return (_init, url) => {
    const page = Number(new URL(url, 'http://x').searchParams.get('page'));
    return list(all.slice((page - 1) * 50, page * 50), all.length);
  };
}

export const INBOX_ZERO = {
  needsReply: 0,
  urgent: 0,
  overdue: 0,
  processed: 0,
  reminders: [],
  autoArchive: [],
  autoArchiveCount: 0,
};

export function server(routes: Record<string, Handler>, accounts: MailAccountWithSync[] = [ACCOUNT]) {
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/auth/accounts': () => json(200, { success: true, accounts }),
    'GET /api/emails/counts': () => json(200, { inbox: 3, unread: 2, needsReply: 1, starred: 0 }),
    'GET /api/emails/inbox-zero': () => json(200, INBOX_ZERO),
    ...routes,
  });
}

/** The inbox with the user's preferences (opening a mail marks it read unless told otherwise). */
export function renderInbox(route = '/Inbox?folder=inbox', prefs: Partial<Preferences> = { autoRead: true }) {
  signInAs();
  return renderWithProviders(
    <StaticPreferences prefs={prefs}>
      <InboxPage />
    </StaticPreferences>,
    { route },
  );
}

