// The search in the URL: what it asks for now, and the ways to change it. Every change pushes a
// history entry, so Back returns to the previous search (or page of results).

import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { SearchParams } from '../../api/search';
import { readSearchParams, writeSearchParams } from './urlState';

export function useSearchUrl() {
  const [urlParams, setUrlParams] = useSearchParams();
  const search = urlParams.toString();
  const params = useMemo(() => readSearchParams(new URLSearchParams(search)), [search]);

  /** Runs a search: the page starts again from 1. Answers whether the URL changed. */
  const submit = useCallback(
    (next: SearchParams): boolean => {
      const written = writeSearchParams({ ...next, page: 1 });
      if (written.toString() === search) return false;
      setUrlParams(written);
      return true;
    },
    [search, setUrlParams],
  );

  const goToPage = useCallback(
    (page: number) => setUrlParams(writeSearchParams({ ...params, page })),
    [params, setUrlParams],
  );

  return { params, search, submit, goToPage };
}
