// The folder's toolbar (spec 000 §2 "Inbox page"): select all on the page, refresh, filter
// (unread, starred, has attachment, or one status incl. urgent), sort (date, sender, subject and
// the order), how many threads are shown, and the keyboard-shortcuts list. Filter and sort are
// the listing options of docs/API.md: the server applies them.

import { useEffect, useRef } from 'react';
import type { ListFilter, ListOptions, ListSort, ListStatus } from '../../api/types';
import { defaultOrder } from '../../api/triage';
import { RefreshIcon } from '../../components/icons';
import { he } from '../../i18n/he';

const t = he.mail;
const ti = he.inbox;

const FLAG_CHOICES: readonly ListFilter[] = ['unread', 'starred', 'attachment'];
const STATUS_CHOICES: readonly ListStatus[] = [
  'needs_reply',
  'urgent',
  'processed',
  'info',
  'spam',
  'suspicious',
  'advertisement',
  'unread',
];
const SORTS: readonly ListSort[] = ['date', 'sender', 'subject'];

/** The filter select's value: '' (all), a flag, or `status:<status>`. */
export function filterValue(options: ListOptions): string {
  if (options.status) return `status:${options.status}`;
  return options.filter?.[0] ?? '';
}

export function withFilterValue(options: ListOptions, value: string): ListOptions {
  const { sort, order } = options;
  if (value.startsWith('status:')) return { sort, order, status: value.slice('status:'.length) as ListStatus };
  if (value) return { sort, order, filter: [value as ListFilter] };
  return { sort, order };
}

export type SelectAllState = 'none' | 'some' | 'all';

export interface ToolbarProps {
  options: ListOptions;
  onOptions: (options: ListOptions) => void;
  refreshing: boolean;
  onRefresh: () => void;
  /** "n of total", when the list has loaded. */
  count: { shown: number; total: number } | null;
  /** Null when there is nothing to select. */
  selectAll: SelectAllState | null;
  onSelectAll: (select: boolean) => void;
  onHelp: () => void;
}

export function Toolbar({ options, onOptions, refreshing, onRefresh, count, selectAll, onSelectAll, onHelp }: ToolbarProps) {
  const selectAllRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (selectAllRef.current) selectAllRef.current.indeterminate = selectAll === 'some';
  }, [selectAll]);

  const sort = options.sort ?? 'date';
  const order = options.order ?? defaultOrder(sort);
  const orderLabel = ti.sort[order];

  return (
    <div className="mail-toolbar" role="toolbar" aria-label={t.toolbarLabel}>
      <div className="mail-toolbar__group">
        {selectAll !== null && (
          <input
            ref={selectAllRef}
            type="checkbox"
            className="mail-toolbar__select-all"
            checked={selectAll === 'all'}
            onChange={(e) => onSelectAll(e.target.checked)}
            aria-label={ti.selectAll}
            title={ti.selectAll}
            data-testid="bulk-select-all"
          />
        )}
        <button
          type="button"
          className="button mail-toolbar__refresh"
          disabled={refreshing}
          onClick={onRefresh}
          data-testid="mail-refresh"
        >
          <RefreshIcon className={refreshing ? 'is-spinning' : undefined} />
          <span className="mail-toolbar__refresh-text">{refreshing ? t.refreshing : t.refresh}</span>
        </button>
        <label className="mail-toolbar__control">
          <span className="visually-hidden">{ti.filter.label}</span>
          <select
            value={filterValue(options)}
            onChange={(e) => onOptions(withFilterValue(options, e.target.value))}
            title={ti.filter.label}
            data-testid="mail-filter"
          >
            <option value="">{ti.filter.all}</option>
            <optgroup label={ti.filter.flags}>
              {FLAG_CHOICES.map((f) => (
                <option key={f} value={f}>
                  {ti.filter[f]}
                </option>
              ))}
            </optgroup>
            <optgroup label={ti.filter.statuses}>
              {STATUS_CHOICES.map((s) => (
                <option key={s} value={`status:${s}`}>
                  {ti.labels[s]}
                </option>
              ))}
            </optgroup>
          </select>
        </label>
        {/* The sort and its direction stay on one line: in a narrow list column the arrow
            wrapped alone to the next row, away from what it turns. */}
        <span className="mail-toolbar__sort" data-testid="mail-sort-group">
          <label className="mail-toolbar__control">
            <span className="mail-toolbar__label">{ti.sort.label}</span>
            <select
              value={sort}
              onChange={(e) => {
                const next = e.target.value as ListSort;
                onOptions({ ...options, sort: next, order: defaultOrder(next) });
              }}
              // Its name also when the phone's one-row toolbar hides the label's text.
              aria-label={ti.sort.label}
              data-testid="mail-sort"
            >
              {SORTS.map((s) => (
                <option key={s} value={s}>
                  {ti.sort[s]}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="icon-button mail-toolbar__order"
            onClick={() => onOptions({ ...options, sort, order: order === 'asc' ? 'desc' : 'asc' })}
            aria-label={`${ti.sort.label}: ${orderLabel}`}
            title={orderLabel}
            data-order={order}
            data-testid="mail-sort-order"
          >
            <span aria-hidden="true">{order === 'asc' ? '↑' : '↓'}</span>
          </button>
        </span>
      </div>
      <div className="mail-toolbar__group">
        {count && count.total > 0 && (
          <span className="mail-toolbar__count" data-testid="mail-count">
            {t.shown(count.shown, count.total)}
          </span>
        )}
        <button
          type="button"
          className="icon-button mail-toolbar__help"
          onClick={onHelp}
          aria-label={ti.shortcuts.open}
          title={ti.shortcuts.open}
          data-testid="shortcuts-button"
        >
          <span aria-hidden="true">?</span>
        </button>
      </div>
    </div>
  );
}
