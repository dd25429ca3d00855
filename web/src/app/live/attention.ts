// The attention notices (issue 40), sent once by the server on the system channel:
// - `snooze_woke`: a snoozed thread is back in the inbox (its time came, or a reply woke it);
// - `follow_up_due`: a sent mail's wait ran out with no answer;
// - `send_failed`: a scheduled mail could not be sent at its time (an error toast).
// Each is a toast (kept in the bell's log) worded as "{server's message}: {subject}", and the
// browser's notification as desktopNotifications says. The caller re-reads the mail lists and the
// snoozed / awaiting lists.

import type { FollowUpDueNotice, SendFailedNotice, SnoozeWokeNotice } from '../../api/generated';
import type { Preferences } from '../../api/settings';
import { he } from '../../i18n/he';
import { heSnooze } from '../../i18n/snooze';
import type { ToastApi } from '../../session/Toasts';
import { notifyDesktop } from '../../session/desktopNotifications';

/** "{message}: {subject}", the subject's placeholder when it has none. */
function worded(message: string, subject: string): string {
  return `${message}: ${subject.trim() || he.mail.noSubject}`;
}

/** The toast's text for a woken thread. */
export function snoozeWokeText(n: SnoozeWokeNotice): string {
  return worded(n.message, n.subject);
}

/** The toast's text for a sent mail still unanswered. */
export function followUpDueText(n: FollowUpDueNotice): string {
  return worded(n.message, n.subject);
}

type Prefs = Pick<Preferences, 'desktopNotifications'>;

/** Announces a woken thread; a woken-by-hand one (the user's own click) is not announced. */
export function announceSnoozeWoke(notice: SnoozeWokeNotice, prefs: Prefs, toast: Pick<ToastApi, 'info'>): boolean {
  if (notice.by === 'user') return false;
  const text = snoozeWokeText(notice);
  toast.info(text);
  notifyDesktop(prefs.desktopNotifications, heSnooze.wokeTitle, text, `mailclient-snooze-${notice.id}`);
  return true;
}

/** Announces a follow-up whose time came. */
export function announceFollowUpDue(notice: FollowUpDueNotice, prefs: Prefs, toast: Pick<ToastApi, 'info'>): void {
  const text = followUpDueText(notice);
  toast.info(text);
  notifyDesktop(prefs.desktopNotifications, heSnooze.dueTitle, text, `mailclient-followup-${notice.id}`);
}

/** Announces a scheduled mail that failed at its time (the outbox on the pending-replies page has it). */
export function announceSendFailed(notice: SendFailedNotice, prefs: Prefs, toast: Pick<ToastApi, 'error'>): void {
  const text = worded(notice.message, notice.subject);
  toast.error(text);
  notifyDesktop(prefs.desktopNotifications, he.alerts.sendFailedTitle, text, `mailclient-send-failed-${notice.id}`);
}
