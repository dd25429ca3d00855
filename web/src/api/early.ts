// The first screen's reads, started before React renders (issue 42: the inbox painted on a phone).
// The page a returning user lands on asks for its data only once the shell rendered, the page's
// chunk loaded and the page rendered: its mailboxes, and then its threads, each a round trip after
// the last. Started here from main.tsx, they travel while the scripts run. `apiWithHeaders` takes
// a started read for the same path once (the promise is then forgotten, so a later read of that
// path is a real one); a read nobody took within EARLY_TTL_MS is dropped, so it never stands for
// newer data. A read that failed is simply made again by the caller. An answer that has arrived is
// also kept parsed (`earlyAnswered`), so the page's first render can show it at once as its hooks'
// fallback data instead of rendering empty and again when the read is taken.

import { getToken } from './session';

/** How long a read started early may stand for a caller's (ms). */
export const EARLY_TTL_MS = 10_000;

/** What a read answered: the status, the headers and the body's text. */
export interface EarlyAnswer {
  response: Response;
  text: string;
}

interface Started {
  at: number;
  token: string;
  answer: Promise<EarlyAnswer>;
}

const started = new Map<string, Started>();

/** A 2xx JSON answer of a read started early, parsed, by path. */
interface Answered {
  at: number;
  token: string;
  data: unknown;
  headers: Headers;
}

const answered = new Map<string, Answered>();

/**
 * Starts GETs of `paths` with the stored session's token (none without a session: the page will
 * be the sign-in form). A path already started is not asked twice.
 */
export function startEarly(paths: readonly string[]): void {
  const token = getToken();
  if (!token || typeof fetch !== 'function') return;
  for (const path of paths) {
    if (started.has(path)) continue;
    const answer = fetch(path, {
      headers: { Accept: 'application/json', Authorization: token },
      credentials: 'same-origin',
    }).then(async (response) => ({ response, text: await response.text() }));
    const at = Date.now();
    // Nobody may take it (another page came first): its failure must not be an unhandled one.
    answer
      .then(({ response, text }) => {
        if (!response.ok) return;
        answered.set(path, { at, token, data: JSON.parse(text) as unknown, headers: response.headers });
      })
      .catch(() => undefined);
    started.set(path, { at, token, answer });
  }
}

/** Resolves once every read started early has answered or failed (main.tsx renders then, or sooner). */
export function earlyReadsSettled(): Promise<void> {
  return Promise.allSettled(Array.from(started.values(), (s) => s.answer)).then(() => undefined);
}

/**
 * The parsed answer of the read of `path` started early, if it has arrived, is fresh and was made
 * with `token`: a hook's fallback data for its first render. It is not taken: the hook's own read
 * of the path still takes the started read, so nothing is asked twice.
 */
export function earlyAnswered(path: string, token: string | null): { data: unknown; headers: Headers } | undefined {
  const found = answered.get(path);
  if (!found || token !== found.token || Date.now() - found.at > EARLY_TTL_MS) return undefined;
  return { data: found.data, headers: found.headers };
}

/**
 * The read of `path` started early, if one is there, fresh, and made with the token the caller
 * would send; it is taken (a second call gets nothing).
 */
export function takeEarly(path: string, token: string | null): Promise<EarlyAnswer> | undefined {
  const found = started.get(path);
  if (!found) return undefined;
  started.delete(path);
  if (Date.now() - found.at > EARLY_TTL_MS || token !== found.token) return undefined;
  return found.answer;
}

/** Forgets every read started early (tests; a sign-out needs none: a read answers only its own token). */
export function forgetEarly(): void {
  started.clear();
  answered.clear();
}
