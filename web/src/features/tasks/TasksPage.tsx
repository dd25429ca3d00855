// The tasks page (spec 001 "Tasks page", §4, §5): a header with what is open and overdue and the
// add button, the filters with their counts, and the list, newest first as the server orders it.
// The circle toggles a task (the answer is written into the list at once, then every tasks key is
// re-read: the task may leave the filter shown, and the counts change). The filter is in the URL
// (`?filter=open`), so Back and a bookmark keep it.
//
// Spec 001 §8 has task save and delete failures "logged only"; here they are shown: a failed save
// in the form (which stays open), a failed toggle or delete in a toast.

import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import useSWR, { useSWRConfig } from 'swr';
import { errorMessage } from '../../api/client';
import { isTasksKey, keys } from '../../api/keys';
import { deleteTask, TASK_FILTERS, toggleTask, type Task, type TaskFilter, type TasksResponse } from '../../api/tasks';
import { useToast } from '../../session/Toasts';
import { ConfirmDelete, useConfirmation } from '../../components/ConfirmDialog';
import { EmptyState, NoMatch } from '../../components/EmptyState';
import { TasksIcon } from '../../components/icons';
import { heTasks } from '../../i18n/tasks';
import '../../styles/tasks.css';
import { TaskFilters, type TaskCounts } from './TaskFilters';
import { TaskForm } from './TaskForm';
import { TaskRow } from './TaskRow';
import { LoadState, RefreshFailed } from '../../components/LoadState';
import { AddButton, ListHeader } from '../../components/ListHeader';

const t = heTasks;

function readFilter(value: string | null): TaskFilter {
  return TASK_FILTERS.find((f) => f === value) ?? 'all';
}

export default function TasksPage() {
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const [params, setParams] = useSearchParams();
  const filter = readFilter(params.get('filter'));
  // The unfiltered list gives the counts; with the "all" filter it is the list itself (one request).
  const all = useSWR<TasksResponse>(keys.tasks('all'));
  const list = useSWR<TasksResponse>(keys.tasks(filter), { keepPreviousData: true });
  const [editing, setEditing] = useState<Task | 'new' | null>(null);
  const deletion = useConfirmation<Task>();
  const [toggling, setToggling] = useState<ReadonlySet<string>>(() => new Set());

  const refresh = useCallback(() => void mutate(isTasksKey), [mutate]);
  const setFilter = (f: TaskFilter) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (f === 'all') next.delete('filter');
        else next.set('filter', f);
        return next;
      },
      { replace: true },
    );

  const { mutate: mutateList } = list;
  const toggle = useCallback(
    async (task: Task) => {
      setToggling((s) => new Set(s).add(task.id));
      try {
        const updated = await toggleTask(task.id);
        await mutateList((d) => d && { ...d, tasks: d.tasks.map((x) => (x.id === updated.id ? updated : x)) }, {
          revalidate: false,
        });
      } catch (err) {
        toast.error(`${t.toggleFailed}: ${errorMessage(err)}`);
      } finally {
        setToggling((s) => {
          const next = new Set(s);
          next.delete(task.id);
          return next;
        });
        refresh();
      }
    },
    [mutateList, refresh, toast],
  );
  const onToggle = useCallback((task: Task) => void toggle(task), [toggle]);
  const onEdit = useCallback((task: Task) => setEditing(task), []);
  const onDelete = deletion.ask;

  function saved(_task: Task, created: boolean) {
    setEditing(null);
    toast.success(created ? t.created : t.updated);
    refresh();
  }

  async function remove(task: Task) {
    try {
      await deleteTask(task.id);
      toast.success(t.deleted);
    } catch (err) {
      toast.error(`${t.deleteFailed}: ${errorMessage(err)}`);
    } finally {
      refresh();
    }
  }

  const totals = list.data ?? all.data;
  const counts: TaskCounts = {
    all: all.data?.tasks.length,
    open: totals?.open,
    done: all.data ? all.data.tasks.length - all.data.open : undefined,
    overdue: totals?.overdue,
  };

  const add = <AddButton label={t.add} onClick={() => setEditing('new')} testId="tasks-add" />;

  const data = list.data;
  let content;
  if (!data) {
    content = <LoadState of={list} text={t} testIds={{ error: 'tasks-error', retry: 'tasks-retry', loading: 'tasks-loading' }} />;
  } else if (data.tasks.length === 0 && filter === 'all') {
    content = (
      <EmptyState testId="tasks-empty" icon={<TasksIcon />} action={add}>
        <p className="empty-state__title">{t.empty}</p>
        <p>{t.emptyHint}</p>
      </EmptyState>
    );
  } else if (data.tasks.length === 0) {
    const showAll = () => setFilter('all');
    content = <NoMatch text={t.emptyFiltered[filter]} actionLabel={t.showAll} onAction={showAll} testId="tasks-empty-filter" />;
  } else {
    content = (
      <ul className="task-list panel" aria-label={t.listLabel} data-testid="task-list">
        {data.tasks.map((task) => (
          <TaskRow
            key={task.id}
            task={task}
            busy={toggling.has(task.id)}
            onToggle={onToggle}
            onEdit={onEdit}
            onDelete={onDelete}
          />
        ))}
      </ul>
    );
  }

  return (
    <section className="page-section list-page tasks-page" data-testid="page-TasksPage" aria-labelledby="tasks-title">
      <ListHeader titleId="tasks-title" title={t.pageLabel} count={totals && { text: t.summary(totals.open, totals.overdue), testId: 'tasks-summary' }}>
        {add}
      </ListHeader>
      <TaskFilters value={filter} counts={counts} onChange={setFilter} />
      {list.error && data && <RefreshFailed error={list.error} text={t} />}
      {content}

      {editing && (
        <TaskForm task={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={saved} />
      )}
      {deletion.item && (
        <ConfirmDelete text={t} name={deletion.item.title} {...deletion.dialog(remove)} />
      )}
    </section>
  );
}
