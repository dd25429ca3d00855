// Previous / next between pages of results, with "page X of Y"; only when there is more than one.

import { heSearchPage } from '../../i18n/searchPage';

const t = heSearchPage.pager;

export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, perPage)));
}

export function Pager({
  page,
  total,
  perPage,
  onPage,
}: {
  page: number;
  total: number;
  perPage: number;
  onPage: (page: number) => void;
}) {
  if (total <= perPage) return null;
  const pages = pageCount(total, perPage);
  return (
    <nav className="search-pager" aria-label={t.label} data-testid="search-pager">
      <button
        type="button"
        className="button"
        disabled={page <= 1}
        onClick={() => onPage(Math.min(page - 1, pages))}
        data-testid="search-prev"
      >
        {t.prev}
      </button>
      <span className="search-pager__status" aria-live="polite" data-testid="search-page">
        {t.page(page, pages)}
      </span>
      <button
        type="button"
        className="button"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
        data-testid="search-next"
      >
        {t.next}
      </button>
    </nav>
  );
}
