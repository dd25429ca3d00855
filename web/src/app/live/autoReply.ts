// The auto-reply monitor's notice (live event `auto_reply` on the system channel): a draft was
// written. The server sends it only when the user's autoReplyNotifications is on, so it is always
// shown: a toast (kept in the bell's log), and the browser's notification as desktopNotifications
// says, as new mail does (newMail.ts).

import type { Preferences } from '../../api/settings';
import { he } from '../../i18n/he';
import type { ToastApi } from '../../session/Toasts';
import { notifyDesktop } from '../../session/desktopNotifications';

export interface AutoReplyNotice {
  from: string;
  fromName?: string;
  subject?: string;
}

export function isAutoReplyNotice(data: unknown): data is AutoReplyNotice {
  const d = data as Partial<AutoReplyNotice> | null;
  return !!d && typeof d === 'object' && typeof d.from === 'string';
}

/** The notice's text: 'נכתבה טיוטת תשובה אוטומטית ל-{name or address}: {subject}'. */
export function autoReplyText(n: AutoReplyNotice): string {
  const who = n.fromName?.trim() || n.from.trim() || he.autoReply.activity.unknownSender;
  const subject = n.subject?.trim() || he.autoReply.activity.noSubject;
  return he.autoReply.written(who, subject);
}

export function announceAutoReply(
  notice: AutoReplyNotice,
  prefs: Pick<Preferences, 'desktopNotifications'>,
  toast: Pick<ToastApi, 'success'>,
): void {
  const text = autoReplyText(notice);
  toast.success(text);
  notifyDesktop(prefs.desktopNotifications, he.autoReply.desktopTitle, text, 'mailclient-auto-reply');
}
