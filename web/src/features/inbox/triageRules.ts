// The triage rules of spec 000 §4 as plain functions: which status buttons exist, whether a
// mail the server now lists under `movedTo` leaves the folder being viewed, the toast that says
// where it went, and how a status change looks on a mail and its thread before the list is re-read.

import type { Email, StatusChange, Thread } from '../../api/types';
import type { ToastKind } from '../../app/Toasts';
import { he, type FolderKey } from '../../i18n/he';
import { folderTitle, normalizeFolder } from './folders';

/** The status buttons, in the order they are shown (spec 000 §4 "Setting a status"). */
export const STATUS_ACTIONS = ['processed', 'needs_reply', 'info', 'spam', 'advertisement', 'urgent'] as const;
export type StatusAction = (typeof STATUS_ACTIONS)[number];

/** The statuses a mail can have (spec 000 §4), for telling labels that are statuses from IMAP labels. */
const STATUSES = new Set(['needs_reply', 'processed', 'unread', 'info', 'spam', 'suspicious', 'advertisement']);

/** Label order in a thread row: the most urgent first (docs/API.md "Threads"). */
const LABEL_RANK = ['urgent', 'high', 'needs_reply', 'suspicious', 'spam', 'unread', 'info', 'advertisement', 'processed'];

/** Labels per thread row (spec 000 §9). */
export const MAX_LABELS = 2;

/**
 * Whether a mail now listed under `movedTo` leaves the list of `folder`. Starred lists flagged
 * mail whatever its status, and the Junk folder keeps its spam, so neither loses it.
 */
export function leavesFolder(folder: FolderKey, movedTo: string | null | undefined): boolean {
  if (!movedTo || folder === 'starred') return false;
  const to = movedTo.toLowerCase();
  if (to === folder.toLowerCase()) return false;
  if (folder === 'junk' && to === 'spam') return false;
  return true;
}

/** The Hebrew title of the folder the server named, or its own name for a mailbox folder. */
export function movedToTitle(movedTo: string): string {
  const key = normalizeFolder(movedTo);
  return key ? folderTitle(key) : movedTo;
}

/** The move toast's colour: red for Spam, orange for Promotions, green otherwise (spec 000 §4). */
export function moveToastKind(movedTo: string): ToastKind {
  const to = movedTo.toLowerCase();
  if (to === 'spam') return 'error';
  if (to === 'promotions') return 'warning';
  return 'success';
}

/** After a move to Spam or Promotions, a page viewing those folders reloads after 1 s (spec 000 §4, §9). */
export const RELOAD_AFTER_MOVE_MS = 1000;
/** A status change recounts 100 ms later (spec 000 §9). */
export const RECOUNT_AFTER_STATUS_MS = 100;

export function reloadsAfterMove(folder: FolderKey, movedTo: string | null | undefined): boolean {
  const to = movedTo?.toLowerCase();
  return (to === 'spam' || to === 'promotions') && (folder === 'Spam' || folder === 'Promotions');
}

/** Whether a status button shows as pressed for this mail. */
export function hasStatus(e: Pick<Email, 'status' | 'priority'>, action: StatusAction): boolean {
  return action === 'urgent' ? e.priority === 'urgent' : e.status === action;
}

/** Priorities worth showing (spec 000 §4: urgent and high are shown, others are not). */
export function shownPriority(priority: string | null | undefined): 'urgent' | 'high' | null {
  return priority === 'urgent' || priority === 'high' ? priority : null;
}

/**
 * How a status change looks on a mail, the way the server applies it (docs/API.md "Triage"):
 * needs_reply brings priority high, urgent keeps the status (needs_reply when there is none).
 */
export function withStatus(e: Email, change: StatusChange, now = new Date()): Email {
  const lastActivity = now.toISOString();
  switch (change) {
    case 'urgent':
      return { ...e, priority: 'urgent', status: e.status ?? 'needs_reply', lastActivity };
    case 'needs_reply':
      return { ...e, status: 'needs_reply', priority: e.priority === 'urgent' ? 'urgent' : 'high', lastActivity };
    case 'none':
      return { ...e, status: null, priority: null, lastActivity };
    default:
      return { ...e, status: change, lastActivity };
  }
}

function rank(label: string): number {
  const i = LABEL_RANK.indexOf(label);
  return i === -1 ? LABEL_RANK.length : i;
}

/**
 * A thread's aggregate fields recomputed from its mail after a local change: read only when all
 * are read, starred when any is, the newest mail's status and priority, and the statuses present
 * (plus urgent) in the labels beside the IMAP labels the server gave, the most urgent first.
 */
export function refreshThread(t: Thread, emails: Email[]): Thread {
  const newest = emails[0];
  const statuses = new Set<string>();
  for (const e of emails) {
    if (e.status) statuses.add(e.status);
    if (e.priority === 'urgent') statuses.add('urgent');
  }
  const other = t.labels.filter((l) => !STATUSES.has(l) && l !== 'urgent' && l !== 'high');
  const labels = [...[...statuses].sort((a, b) => rank(a) - rank(b)), ...other];
  return {
    ...t,
    emails,
    count: emails.length,
    isRead: emails.every((e) => e.is_read),
    isStarred: emails.some((e) => e.is_starred),
    status: newest?.status ?? null,
    priority: newest?.priority ?? null,
    hasAttachments: emails.some((e) => e.hasAttachments),
    labels,
  };
}

/** A label's Hebrew name (statuses and priorities), or the IMAP label as it is. */
export function labelText(label: string): string {
  return he.inbox.labels[label] ?? label;
}
