// A task's reminder (live event `task_due` on the system channel, sent once when a pending task's
// due time comes): a toast 'תזכורת: {title}' (kept in the bell's log), and the browser's
// notification as desktopNotifications says, as new mail does (newMail.ts). The caller re-reads
// the tasks lists: the task now counts as overdue.

import type { Preferences } from '../../api/settings';
import { he } from '../../i18n/he';
import type { ToastApi } from '../../session/Toasts';
import { notifyDesktop } from '../../session/desktopNotifications';

export interface TaskDueNotice {
  id: string;
  title: string;
  /** RFC 3339. */
  dueDate?: string | null;
}

export function isTaskDueNotice(data: unknown): data is TaskDueNotice {
  const d = data as Partial<TaskDueNotice> | null;
  return !!d && typeof d === 'object' && typeof d.id === 'string' && typeof d.title === 'string';
}

export function taskDueText(n: TaskDueNotice): string {
  return he.tasks.reminder(n.title.trim() || he.tasks.untitled);
}

export function announceTaskDue(
  notice: TaskDueNotice,
  prefs: Pick<Preferences, 'desktopNotifications'>,
  toast: Pick<ToastApi, 'info'>,
): void {
  const text = taskDueText(notice);
  toast.info(text);
  // One notification per task: a second reminder for it replaces the first.
  notifyDesktop(prefs.desktopNotifications, he.tasks.reminderTitle, text, `mailclient-task-${notice.id}`);
}
