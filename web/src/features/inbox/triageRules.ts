// How triage is presented (spec 000 §4) as plain functions: which status buttons exist, whether a
// mail the server now lists under `movedTo` leaves the folder being viewed, the toast that says
// where it went, and how statuses and priorities are shown. What a status change does to a mail
// and its thread (label order, thread priority) is the server's: the web shows its answers.

import type { Email } from '../../api/types';
import type { ToastKind } from '../../session/Toasts';
import type { FolderKey } from '../../i18n/he';
import { folderTitle, normalizeFolder } from './folders';

/** The status buttons, in the order they are shown (spec 000 §4 "Setting a status"). */
export const STATUS_ACTIONS = ['processed', 'needs_reply', 'info', 'spam', 'advertisement', 'urgent'] as const;
export type StatusAction = (typeof STATUS_ACTIONS)[number];

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
