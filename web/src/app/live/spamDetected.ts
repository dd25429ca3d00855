// The spam notice (live event `spam_detected` on the system channel, issue 18): a new mail was
// judged spam. The server sends it only when the user's notifyOnSpam is on, so it is always
// shown: a warning toast with the server's Hebrew message and the sender and subject (kept in the
// bell's log), and the browser's notification as desktopNotifications says (as autoReply.ts).

import type { SpamNotice } from '../../api/generated';
import type { Preferences } from '../../api/settings';
import { he } from '../../i18n/he';
import type { ToastApi } from '../../session/Toasts';
import { notifyDesktop } from '../../session/desktopNotifications';

/** '{server message}: {name or address} — {subject}'. */
export function spamNoticeText(n: SpamNotice): string {
  const who = n.fromName.trim() || n.from.trim() || he.alerts.unknownSender;
  const subject = n.subject.trim() || he.alerts.noSubject;
  const lead = n.message.trim() || he.alerts.spamTitle;
  return `${lead}: ${who} — ${subject}`;
}

export function announceSpam(
  notice: SpamNotice,
  prefs: Pick<Preferences, 'desktopNotifications'>,
  toast: Pick<ToastApi, 'warning'>,
): void {
  const text = spamNoticeText(notice);
  toast.warning(text);
  notifyDesktop(prefs.desktopNotifications, he.alerts.spamTitle, text, 'mailclient-spam');
}
