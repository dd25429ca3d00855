// Advanced search (spec 001 "Advanced search page", docs/API.md "Search"): a search box for the
// query language, the advanced filter panel, the operators' help, and one page of results at a
// time. What is asked lives in the URL (urlState.ts): the sidebar's box lands here with `?q=`,
// Back returns to the previous search, and a search runs only when the query is not blank or a
// filter is set. The form fields are a draft until the box or the panel is submitted.

import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError, errorMessage } from '../../api/client';
import { SEARCH_PER_PAGE, type SearchParams, type SearchResult } from '../../api/search';
import { EmptyState } from '../../components/EmptyState';
import { SearchIcon } from '../../components/icons';
import { LoadError } from '../../components/LoadError';
import { heSearchPage } from '../../i18n/searchPage';
import { FilterPanel } from './FilterPanel';
import { openResultHref } from './folders';
import { OperatorHelp } from './OperatorHelp';
import { Pager } from './Pager';
import { ResultList } from './ResultList';
import { SearchBox } from './SearchBox';
import { filterCount, withoutFilters } from './urlState';
import { useSearchResults } from './useSearchResults';
import { useSearchUrl } from './useSearchUrl';

const t = heSearchPage;

/** The server's own words for a query it cannot run (400 `bad_query`, `empty_query`); ours otherwise. */
function SearchError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const rejected = error instanceof ApiError && error.status === 400;
  return (
    <LoadError
      message={rejected ? error.message : `${t.failed}: ${errorMessage(error)}`}
      messageDir="auto"
      onRetry={rejected ? undefined : onRetry}
      className="search-error"
      testId="search-error"
      retryTestId="search-retry"
    />
  );
}

export default function SearchPage() {
  const navigate = useNavigate();
  const { params, search, submit, goToPage } = useSearchUrl();
  const results = useSearchResults(params);
  const top = useRef<HTMLDivElement>(null);

  // The fields start from the URL and follow it (Back, the sidebar's box) until edited.
  const [draft, setDraft] = useState<SearchParams>(params);
  const [shown, setShown] = useState(search);
  if (shown !== search) {
    setShown(search);
    setDraft(params);
  }
  const [filtersOpen, setFiltersOpen] = useState(false);

  const patch = useCallback((p: Partial<SearchParams>) => setDraft((d) => ({ ...d, ...p })), []);

  function run(next: SearchParams) {
    setDraft(next);
    // The same search again asks the server again (new mail may have arrived).
    if (!submit(next)) results.retry();
    setFiltersOpen(false);
  }

  function changePage(page: number) {
    goToPage(page);
    top.current?.scrollIntoView?.({ block: 'start' });
  }

  const open = useCallback((r: SearchResult) => navigate(openResultHref(r)), [navigate]);

  let body;
  if (!results.active) {
    body = (
      <>
        <EmptyState testId="search-idle" icon={<SearchIcon />}>
          <p className="empty-state__title">{t.idleTitle}</p>
          <p>{t.idleText}</p>
        </EmptyState>
        <OperatorHelp prominent />
      </>
    );
  } else if (results.failed) {
    body = (
      <>
        <SearchError error={results.error} onRetry={results.retry} />
        <OperatorHelp prominent={false} />
      </>
    );
  } else if (!results.response) {
    body = (
      <p className="card__status search-loading" role="status" data-testid="search-loading">
        {t.loading}
      </p>
    );
  } else {
    const { total, indexing, results: rows } = results.response;
    const perPage = results.response.perPage > 0 ? results.response.perPage : SEARCH_PER_PAGE;
    body = (
      <>
        <p className="search-total" role="status" data-testid="search-total" data-total={total}>
          {t.total(total)}
        </p>
        {indexing && (
          <p className="notice notice--info search-indexing" data-testid="search-indexing">
            {t.indexing}
          </p>
        )}
        {rows.length > 0 ? (
          <ResultList results={rows} onOpen={open} />
        ) : (
          <div className="search-empty" data-testid="search-empty">
            <p className="search-empty__title">{t.empty}</p>
            <p>{t.emptyHint}</p>
          </div>
        )}
        <Pager page={params.page} total={total} perPage={perPage} onPage={changePage} />
        <OperatorHelp prominent={false} />
      </>
    );
  }

  return (
    <section className="page-section search-page" data-testid="page-SearchPage">
      <div className="search-layout" ref={top}>
        <SearchBox value={draft.q} onChange={(q) => patch({ q })} onSubmit={() => run(draft)} />
        <FilterPanel
          draft={draft}
          onChange={patch}
          onApply={() => run(draft)}
          onClear={() => run(withoutFilters(draft))}
          open={filtersOpen}
          onToggle={() => setFiltersOpen((o) => !o)}
          activeCount={filterCount(params)}
        />
        <div className="search-body" aria-busy={results.loading}>
          {body}
        </div>
      </div>
    </section>
  );
}
