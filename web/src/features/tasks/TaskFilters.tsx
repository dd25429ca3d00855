// The list's filters (הכל, פתוחות, הושלמו, באיחור), each with how many tasks it holds. The counts
// come from the unfiltered list (`open` and `overdue` come with every answer, the rest from the
// list of all), so they are right whichever filter is shown; unknown ones are left out.

import type { TaskFilter } from '../../api/tasks';
import { TASK_FILTERS } from '../../api/tasks';
import { heTasks } from '../../i18n/tasks';
import { count } from '../../i18n/count';

const t = heTasks;

export type TaskCounts = Partial<Record<TaskFilter, number>>;

export function TaskFilters({ value, counts, onChange }: { value: TaskFilter; counts: TaskCounts; onChange: (f: TaskFilter) => void }) {
  return (
    <div className="task-filters" role="group" aria-label={t.filtersLabel} data-testid="task-filters">
      {TASK_FILTERS.map((f) => {
        const n = counts[f];
        return (
          <button
            key={f}
            type="button"
            className={`task-filter${value === f ? ' is-active' : ''}${f === 'overdue' && n ? ' task-filter--alert' : ''}`}
            aria-pressed={value === f}
            onClick={() => onChange(f)}
            data-testid={`task-filter-${f}`}
            data-count={n}
          >
            <span>{t.filters[f]}</span>
            {n !== undefined && (
              <span className="task-filter__count" data-testid={`task-filter-count-${f}`}>
                {count(n)}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
