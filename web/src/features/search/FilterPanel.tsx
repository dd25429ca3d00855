// The advanced filter panel (spec 001 "Advanced search page"): sender, recipient, subject, a date
// range, unread / starred / with attachments, and the folder. "Apply" runs the search with the
// box's query; "clear" drops every filter and runs what is left. Beside the results on wide
// screens; on narrow ones it folds behind a toggle that says how many filters are set.

import type { FormEvent } from 'react';
import { SEARCH_FOLDERS, type SearchParams } from '../../api/search';
import { CheckboxField, SelectField, TextField } from '../../components/Field';
import { FilterIcon } from '../../components/icons';
import { heSearchPage } from '../../i18n/searchPage';
import { folderChoiceTitle } from './folders';

const t = heSearchPage.filters;

/** The free-text filters, in the panel's order, with their placeholders. */
const TEXT_FILTERS = [
  ['from', t.namePlaceholder],
  ['to', t.namePlaceholder],
  ['subject', t.subjectPlaceholder],
] as const;
/** The yes/no filters, in the panel's order. */
const FLAG_FILTERS = ['unread', 'starred', 'attachment'] as const;

export interface FilterPanelProps {
  draft: SearchParams;
  onChange: (patch: Partial<SearchParams>) => void;
  onApply: () => void;
  onClear: () => void;
  /** Unfolded on a narrow screen (wide screens always show it). */
  open: boolean;
  onToggle: () => void;
  /** Filters set in the search being shown. */
  activeCount: number;
}

export function FilterPanel({ draft, onChange, onApply, onClear, open, onToggle, activeCount }: FilterPanelProps) {
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    onApply();
  }

  // A folder from the URL that the list does not offer (e.g. `archive`) stays selectable.
  const folders: string[] = [...SEARCH_FOLDERS];
  if (draft.folder && !folders.includes(draft.folder)) folders.push(draft.folder);

  return (
    <aside className={`search-side${open ? ' is-open' : ''}`} aria-labelledby="search-filters-title">
      <button
        type="button"
        className="button search-side__toggle"
        aria-expanded={open}
        aria-controls="search-filters"
        onClick={onToggle}
        data-testid="search-filters-toggle"
      >
        <FilterIcon />
        <span>{t.toggle}</span>
        {activeCount > 0 && (
          <span className="search-side__count" title={t.toggleCount(activeCount)} data-testid="search-filters-count">
            <span aria-hidden="true">{activeCount}</span>
            <span className="visually-hidden">{t.toggleCount(activeCount)}</span>
          </span>
        )}
      </button>

      <form
        id="search-filters"
        className="form search-filters panel"
        onSubmit={submit}
        noValidate
        aria-labelledby="search-filters-title"
        data-testid="search-filters"
      >
        <h2 className="search-filters__title" id="search-filters-title">
          {t.title}
        </h2>
        {TEXT_FILTERS.map(([key, placeholder]) => (
          <TextField
            key={key}
            id={`search-filter-${key}`}
            label={t[key]}
            placeholder={placeholder}
            autoComplete="off"
            value={draft[key]}
            onValueChange={(v) => onChange({ [key]: v })}
          />
        ))}
        <div className="search-filters__dates">
          <TextField
            id="search-filter-after"
            type="date"
            dir="ltr"
            label={t.after}
            max={draft.before || undefined}
            value={draft.after}
            onValueChange={(after) => onChange({ after })}
          />
          <TextField
            id="search-filter-before"
            type="date"
            dir="ltr"
            label={t.before}
            min={draft.after || undefined}
            value={draft.before}
            onValueChange={(before) => onChange({ before })}
          />
        </div>
        <p className="field__hint search-filters__hint">{t.datesHint}</p>
        <fieldset className="search-filters__flags">
          <legend>{t.flags}</legend>
          {FLAG_FILTERS.map((key) => (
            <CheckboxField
              key={key}
              id={`search-filter-${key}`}
              label={t[key]}
              checked={draft[key]}
              onCheckedChange={(v) => onChange({ [key]: v })}
            />
          ))}
        </fieldset>
        <SelectField
          id="search-filter-folder"
          label={t.folder}
          value={draft.folder || 'all'}
          onValueChange={(folder) => onChange({ folder })}
        >
          {folders.map((f) => (
            <option key={f} value={f}>
              {folderChoiceTitle(f)}
            </option>
          ))}
        </SelectField>
        <div className="form__actions search-filters__actions">
          <button type="submit" className="button button--primary" data-testid="search-filters-apply">
            {t.apply}
          </button>
          <button type="button" className="button" onClick={onClear} data-testid="search-filters-clear">
            {t.clear}
          </button>
        </div>
      </form>
    </aside>
  );
}
