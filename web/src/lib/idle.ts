// Work nobody waits for, run when the browser is idle: after the render and paint at hand, so what
// a tap shows is on screen first (issue 42: a phone-class CPU).

/**
 * Runs `work` once the main thread is idle, at the latest after `timeoutMs`; returns a cancel.
 * Without requestIdleCallback (Safari, jsdom) it runs after `fallbackMs`.
 */
export function whenIdle(work: () => void, timeoutMs: number, fallbackMs: number): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(() => work(), { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = window.setTimeout(work, fallbackMs);
  return () => window.clearTimeout(timer);
}
