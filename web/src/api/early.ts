// The first screen's reads, started before React renders (issue 42: the inbox painted on a phone).
// The page a returning user lands on asks for its data only once the shell rendered, the page's
// chunk loaded and the page rendered: its mailboxes, and then its threads, each a round trip after
// the last. Started here from main.tsx, they travel while the scripts run. `apiWithHeaders` takes
// a started read for the same path once (the promise is then forgotten, so a later read of that
// path is a real one); a read nobody took within EARLY_TTL_MS is dropped, so it never stands for
// newer data. A read that failed is simply made again by the caller.

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
    // Nobody may take it (another page came first): its failure must not be an unhandled one.
    answer.catch(() => undefined);
    started.set(path, { at: Date.now(), token, answer });
  }
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
}
