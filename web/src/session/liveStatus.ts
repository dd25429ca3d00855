// The live channel's state as the screens see it (the connection pill in the top bar, the settings
// page's sync card): the state `LiveClient` reports, and a context the app shell's LiveUpdates
// provides for the signed-in session. It lives below the features so a screen can show the
// channel's state without importing the shell that runs it.

import { createContext, useContext } from 'react';

export type LiveStatus =
  /** Opening the socket or waiting for `auth_success`. */
  | 'connecting'
  /** Authenticated: events flow. */
  | 'connected'
  /** Closed unexpectedly; the next attempt is scheduled. */
  | 'reconnecting'
  /** Closed and out of attempts: only the 30 s polls keep the screen fresh. */
  | 'failed'
  /** Closed on purpose (1000, 4001 or `stop()`): no reconnect. */
  | 'closed';

export interface LiveState {
  status: LiveStatus;
  /** An error event was seen since the last successful authentication ("Connection failed"). */
  error: boolean;
  /** Reconnect attempts made since the last successful authentication (0 to 5). */
  attempt: number;
  /** Milliseconds until the scheduled reconnect, while `reconnecting`. */
  retryInMs: number | null;
  /** The server refused the token (`auth_error` or close code 4001). */
  unauthorized: boolean;
}

export const INITIAL_LIVE_STATE: LiveState = Object.freeze({
  status: 'connecting',
  error: false,
  attempt: 0,
  retryInMs: null,
  unauthorized: false,
});

export interface LiveStatusValue extends LiveState {
  /** Reconnect now, after the client gave up (or is waiting for its next attempt). */
  retry: () => void;
}

const IDLE: LiveStatusValue = { ...INITIAL_LIVE_STATE, status: 'closed', retry: () => {} };

/** Provided by the shell's LiveUpdates; read with useLiveStatus. */
export const LiveStatusContext = createContext<LiveStatusValue>(IDLE);

/** The channel's state, for an indicator; 'closed' outside a signed-in session. */
export function useLiveStatus(): LiveStatusValue {
  return useContext(LiveStatusContext);
}
