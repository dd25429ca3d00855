// What the offline status line and the conflicts dialog show (issue 39): how many actions wait
// for the server and which need the user's choice. One value per page, set by the offline layer;
// kept apart from it so the shell's small status line does not load the layer's code.

import type { QueuedAction } from './actions';

export interface OfflineState {
  /** The layer runs: the browser keeps mail and queues actions. */
  active: boolean;
  /** Actions waiting to be sent. */
  pending: number;
  /** Conflicts and refusals, oldest first. */
  problems: QueuedAction[];
  /** Counts replays that sent something (the page then re-reads the mail). */
  replayed: number;
}

type Listener = (s: OfflineState) => void;

let state: OfflineState = { active: false, pending: 0, problems: [], replayed: 0 };
const listeners = new Set<Listener>();

export function offlineState(): OfflineState {
  return state;
}

export function setOfflineState(next: Partial<OfflineState>): void {
  state = { ...state, ...next };
  for (const l of listeners) l(state);
}

/** Calls `listener` on every change; returns the unsubscribe. */
export function onOfflineState(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
