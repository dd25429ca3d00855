// The search box at the top of the page: the query language (see OperatorHelp), sent with the
// panel's filters by Enter or the search button.

import type { FormEvent } from 'react';
import { SearchIcon } from '../../components/icons';
import { heSearchPage } from '../../i18n/searchPage';

const t = heSearchPage;

export function SearchBox({
  value,
  onChange,
  onSubmit,
}: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
}) {
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    onSubmit();
  }

  return (
    <form className="search-box" role="search" aria-label={t.pageLabel} onSubmit={submit}>
      <label htmlFor="search-input" className="visually-hidden">
        {t.boxLabel}
      </label>
      <span className="search-box__field">
        <SearchIcon className="search-box__icon" />
        <input
          id="search-input"
          className="search-box__input"
          type="search"
          dir="auto"
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          placeholder={t.placeholder}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          data-testid="search-input"
        />
      </span>
      <button type="submit" className="button button--primary search-box__submit" data-testid="search-submit">
        {t.submit}
      </button>
    </form>
  );
}
