// One task (spec 001 "Tasks page", §4): the completion circle (pending ↔ completed), the title —
// struck through and dimmed once completed — its priority, the due time with a red 'באיחור' badge
// when it passed while pending, the description, the mail it came from (a link that opens it), and
// edit and delete.

import { memo } from 'react';
import { Link } from 'react-router-dom';
import type { Task } from '../../api/tasks';
import { CheckIcon, ClockIcon, MailIcon, PenIcon, TrashIcon } from '../../components/icons';
import { he } from '../../i18n/he';
import { heTasks } from '../../i18n/tasks';
import { formatDateTime } from '../../lib/dates';
import { openResultHref } from '../search/folders';
import { IconButton } from '../../components/IconButton';

const t = heTasks;

export interface TaskRowProps {
  task: Task;
  busy: boolean;
  onToggle: (task: Task) => void;
  onEdit: (task: Task) => void;
  onDelete: (task: Task) => void;
}

/** Where a linked mail opens: the inbox's reading pane shows a mail given by id even outside its list. */
export function taskMailHref(emailId: string): string {
  return openResultHref({ id: emailId, folderRole: 'inbox' });
}

export const TaskRow = memo(function TaskRow({ task, busy, onToggle, onEdit, onDelete }: TaskRowProps) {
  const done = task.status === 'completed';
  const title = task.title.trim() || t.untitled;
  const classes = ['task-row', 'panel-row', done && 'is-completed', task.overdue && 'is-overdue'].filter(Boolean).join(' ');
  return (
    <li className={classes} data-testid="task-row" data-id={task.id} data-status={task.status}>
      <button
        type="button"
        role="checkbox"
        aria-checked={done}
        className="task-row__circle"
        aria-label={done ? t.markOpen(title) : t.markDone(title)}
        title={done ? t.markOpen(title) : t.markDone(title)}
        disabled={busy}
        onClick={() => onToggle(task)}
        data-testid="task-toggle"
      >
        {done && <CheckIcon />}
      </button>
      <div className="task-row__main">
        <div className="task-row__top">
          <span className="task-row__title" dir="auto" data-testid="task-title">
            {title}
          </span>
          <span
            className={`task-priority task-priority--${task.priority}`}
            title={t.priorityOf(t.priorities[task.priority])}
            data-testid="task-priority"
            data-priority={task.priority}
          >
            {t.priorities[task.priority]}
          </span>
          {task.overdue && (
            <span className="task-overdue pill" data-testid="task-overdue">
              {t.overdue}
            </span>
          )}
        </div>
        {task.description.trim() && (
          <p className="task-row__description clamped-text" dir="auto">
            {task.description}
          </p>
        )}
        {(task.due_date || (done && task.completed_date) || task.email_id) && (
          <div className="task-row__meta">
            {task.due_date && (
              <span className="task-row__due" data-testid="task-due">
                <ClockIcon />
                <span>{t.due(formatDateTime(task.due_date))}</span>
              </span>
            )}
            {done && task.completed_date && (
              <span className="task-row__completed">
                <CheckIcon />
                <span>{t.completedAt(formatDateTime(task.completed_date))}</span>
              </span>
            )}
            {task.email_id && (
              <span className="task-row__mail">
                <MailIcon />
                <span>{t.fromMail}</span>
                <Link
                  to={taskMailHref(task.email_id)}
                  className="task-row__mail-link"
                  aria-label={t.openMail(task.email_subject?.trim() || he.mail.noSubject)}
                  data-testid="task-mail-link"
                >
                  <bdi dir="auto">{task.email_subject?.trim() || he.mail.noSubject}</bdi>
                </Link>
              </span>
            )}
          </div>
        )}
      </div>
      <div className="task-row__actions">
        <IconButton small label={t.editOf(title)} title={t.edit} onClick={() => onEdit(task)} testId="task-edit">
          <PenIcon />
        </IconButton>
        <IconButton
          small
          label={t.deleteOf(title)}
          title={t.delete}
          danger
          onClick={() => onDelete(task)}
          testId="task-delete"
        >
          <TrashIcon />
        </IconButton>
      </div>
    </li>
  );
});
