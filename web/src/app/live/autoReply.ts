// The auto-reply monitor's notice (live event `auto_reply` on the system channel): a draft was
// written. The server sends it only when the user's autoReplyNotifications is on, so it is always
// shown: a toast (kept in the bell's log), and the browser's notification as desktopNotifications
// says, as new mail does (newMail.ts).

import type { AutoReplyNotice } from '../../api/generated';
import type { Preferences } from '../../api/settings';
import { he } from '../../i18n/he';
import type { ToastApi } from '../../session/Toasts';
import { notifyDesktop } from '../../session/desktopNotifications';

/** The notice's text: 'נכתבה טיוטת תשובה אוטומטית ל-{name or address}: {subject}'. */
export function autoReplyText(n: AutoReplyNotice): string {
  const who = n.fromName.trim() || n.from.trim() || he.alerts.unknownSender;
  const subject = n.subject.trim() || he.alerts.noSubject;
  return he.alerts.autoReplyWritten(who, subject);
}

export function announceAutoReply(
  notice: AutoReplyNotice,
  prefs: Pick<Preferences, 'desktopNotifications'>,
  toast: Pick<ToastApi, 'success'>,
): void {
  const text = autoReplyText(notice);
  toast.success(text);
  notifyDesktop(prefs.desktopNotifications, he.alerts.autoReplyTitle, text, 'mailclient-auto-reply');
}
