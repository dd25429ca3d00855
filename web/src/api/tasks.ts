// Tasks (docs/API.md "Tasks"): typed calls for the tasks page and the reading pane's "create a
// task from this mail". Lists are read through SWR with keys.tasks(filter); after any change every
// /api/tasks key is re-read (isTasksKey): a toggle moves a task between the filters and changes
// the counts every filter shows.

import { api } from './client';
import type { Task, TaskDeleted, TaskInput } from './generated';

export type { Task, TaskDeleted, TaskInput, TaskPriority, TaskStatus, TasksResponse } from './generated';

/** The list's filters, as the server names them (`?filter=`). */
export const TASK_FILTERS = ['all', 'open', 'done', 'overdue'] as const;
export type TaskFilter = (typeof TASK_FILTERS)[number];

/** The priorities, lowest first (the form's select lists them in this order). */
export const TASK_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;

const id = (value: string) => encodeURIComponent(value);

/**
 * `due_date`: the datetime-local input's value as it is (`YYYY-MM-DDTHH:MM`, read by the server in
 * the user's time zone), or '' for none. No `status`: a new task is pending.
 */
export const createTask = (input: TaskInput) => api<Task>('/api/tasks', { method: 'POST', body: input });

/** The fields given replace the task's; without `status` or `email_id` those stay as they are. */
export const updateTask = (taskId: string, input: TaskInput) =>
  api<Task>(`/api/tasks/${id(taskId)}`, { method: 'PUT', body: input });

/** Pending ↔ completed (the row's circle). */
export const toggleTask = (taskId: string) => api<Task>(`/api/tasks/${id(taskId)}/toggle`, { method: 'POST' });

export const deleteTask = (taskId: string) => api<TaskDeleted>(`/api/tasks/${id(taskId)}`, { method: 'DELETE' });
