// A CSS media query as state, following the screen as it changes (a phone turned, a window
// resized). False where the browser has no matchMedia (tests in jsdom: the desktop layout).

import { useEffect, useState } from 'react';

/** The phone breakpoint of the stylesheets (`@media (max-width: 599.98px)`). */
export const PHONE_QUERY = '(max-width: 599.98px)';

/** Whether `query` matches now; re-renders when that changes. */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => typeof window.matchMedia === 'function' && window.matchMedia(query).matches);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return matches;
}
