// Whether the server answered the page's last request (issue 39): the API client reports each
// answer and each network failure here, and the "no connection to the server" banner listens.
// One value per page (the server is one); starts as reachable.

type Listener = (reachable: boolean) => void;

let reachable = true;
const listeners = new Set<Listener>();

/** The API client's report: true when any answer came back, false when the request could not reach the server. */
export function reportServerReachable(ok: boolean): void {
  if (ok === reachable) return;
  reachable = ok;
  for (const l of listeners) l(ok);
}

export function isServerReachable(): boolean {
  return reachable;
}

/** Calls `listener` on every change; returns the unsubscribe. */
export function onServerReachable(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
