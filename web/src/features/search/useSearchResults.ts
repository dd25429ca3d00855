// One page of results for the search in the URL, through SWR with `keys.search` (a mail key, so
// the live channel re-reads it when mail changes). Nothing is asked while the query is blank and
// no filter is set: the server would only answer `empty_query`.

import useSWR from 'swr';
import { keys } from '../../api/keys';
import { canSearch, timezoneOffset, type SearchParams, type SearchResponse } from '../../api/search';
import { useAuth } from '../../session/AuthProvider';

function isResponse(data: unknown): data is SearchResponse {
  return typeof data === 'object' && data !== null && Array.isArray((data as SearchResponse).results);
}

export function useSearchResults(params: SearchParams) {
  const { isAuthenticated } = useAuth();
  const active = canSearch(params);
  const key = isAuthenticated && active ? keys.search({ ...params, tz: timezoneOffset() }) : null;
  const { data, error, isLoading, isValidating, mutate } = useSWR<SearchResponse>(key, {
    revalidateOnFocus: false,
  });
  const response = isResponse(data) ? data : undefined;
  return {
    /** A search is asked for (the query or a filter is set). */
    active,
    response,
    error: error as unknown,
    /** A 2xx that is not a result page counts as a failure, not as an endless "loading". */
    failed: (error !== undefined && !response) || (data !== undefined && !response),
    loading: active && isLoading && !response,
    refreshing: isValidating && !!response,
    retry: () => void mutate(),
  };
}
