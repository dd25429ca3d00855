// Advanced search (spec 001 §2). The sidebar's search box lands here with `?q=`; the query is shown
// back so the user sees it was received. Results arrive with the search index work.

import { useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { SearchIcon } from '../../components/icons';
import { he } from '../../i18n/he';

export default function SearchPage() {
  const [params] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  return (
    <section className="page-section" data-testid="page-SearchPage">
      <EmptyState icon={<SearchIcon />}>
        {q && (
          <p className="empty-state__title" data-testid="search-query">
            {he.empty.searchQuery} <bdi dir="auto">{q}</bdi>
          </p>
        )}
        <p>{he.empty.search}</p>
      </EmptyState>
    </section>
  );
}
