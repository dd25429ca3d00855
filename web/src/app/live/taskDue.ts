// A task's reminder (live event `task_due` on the system channel, sent once when a pending task's
// due time comes): a toast 'תזכורת: {title}' (kept in the bell's log), and the browser's
// notification as desktopNotifications says, as new mail does (newMail.ts). The caller re-reads
// the tasks lists: the task now counts as overdue.

import type { TaskDueNotice } from '../../api/generated';
import type { Preferences } from '../../api/settings';
import { he } from '../../i18n/he';
import type { ToastApi } from '../../session/Toasts';
import { notifyDesktop } from '../../session/desktopNotifications';

export function taskDueText(n: TaskDueNotice): string {
  return he.alerts.taskReminder(n.title.trim() || he.alerts.taskUntitled);
}

export function announceTaskDue(
  notice: TaskDueNotice,
  prefs: Pick<Preferences, 'desktopNotifications'>,
  toast: Pick<ToastApi, 'info'>,
): void {
  const text = taskDueText(notice);
  toast.info(text);
  // One notification per task: a second reminder for it replaces the first.
  notifyDesktop(prefs.desktopNotifications, he.alerts.taskReminderTitle, text, `mailclient-task-${notice.id}`);
}
