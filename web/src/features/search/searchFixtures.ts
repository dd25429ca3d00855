// Fixtures of the search page tests: result rows shaped like the server's (an inbox row plus
// `folderRole` and `snippet`), result pages, and a fake server with the routes the page touches.

import type { SearchResponse, SearchResult, SnippetPart } from '../../api/search';
import type { Email } from '../../api/types';
import { DANA, json, mockFetch } from '../../test/helpers';
import { ACCOUNT, mail } from '../inbox/testFixtures';

export type Fetch = ReturnType<typeof mockFetch>;
export type Handler = Parameters<typeof mockFetch>[0][string];

export function result(
  id: number,
  over: Partial<Email> & { folderRole?: string; folderName?: string; snippet?: SnippetPart[] } = {},
): SearchResult {
  const { folderRole = 'inbox', snippet = [{ text: `גוף ההודעה ${id}`, hit: false }], ...row } = over;
  const { folderName = row.folder ?? 'INBOX', ...rest } = row;
  return { ...mail(id, rest), folderRole, folderName, snippet };
}

export function page(results: SearchResult[], over: Partial<SearchResponse> = {}): SearchResponse {
  return { total: results.length, page: 1, perPage: 20, tookMs: 0.8, indexing: false, results, ...over };
}

export function searchServer(routes: Record<string, Handler> = {}) {
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/auth/accounts': () => json(200, { success: true, accounts: [ACCOUNT] }),
    'GET /api/emails/counts': () => json(200, {}),
    'GET /api/search': () => json(200, page([])),
    ...routes,
  });
}

/** The /api/search calls made so far, as parsed query strings. */
export function searchCalls(fetch: Fetch): URLSearchParams[] {
  return fetch.mock.calls
    .map(([u]) => String(u))
    .filter((u) => u.split('?')[0] === '/api/search')
    .map((u) => new URL(u, 'http://x').searchParams);
}
