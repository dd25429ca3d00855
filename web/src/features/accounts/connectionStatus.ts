// What the connection-status card says about one mailbox, from its sync status (GET
// /api/auth/accounts, `sync`): plain functions, no React, so every state is unit-tested.
//
// The sync engine (src/sync/worker.rs) keeps a failure's `error`/`errorKind` until a full pass
// succeeds: after a failure the state is `error` with `nextRetryAt`, then `connecting` again
// while it retries (the error still set), then `syncing`, then `idle` with the error cleared. A
// provider that throttles the mailbox (errorKind `throttled`) is `throttled`, then `connecting`
// again when the wait is over: not a failure, the card says the provider slows the sync down.

import type { SyncStatus } from '../../api/types';
import { formatDateTime, formatTime, isSameDay } from '../../lib/dates';

export type ConnectionKind =
  | 'connected'
  | 'syncing'
  | 'connecting'
  | 'reconnecting'
  | 'authFailed'
  | 'tlsFailed'
  | 'signInNeeded'
  | 'throttled'
  | 'stopped';

/** The dot's colour. */
export type Tone = 'ok' | 'busy' | 'warn' | 'error' | 'off';

export interface ConnectionView {
  kind: ConnectionKind;
  tone: Tone;
  /** After a failure: 'now' while a new attempt is under way, else when it is due (Unix seconds). */
  retry: 'now' | number | null;
  /** The server's message for the failure (shown only while failing). */
  error: string | null;
  /** IMAP IDLE on or off; known only while a session is up (idle or syncing). */
  idle: boolean | null;
  lastSync: number | null;
}

const TONE: Record<ConnectionKind, Tone> = {
  connected: 'ok',
  syncing: 'busy',
  connecting: 'busy',
  reconnecting: 'warn',
  authFailed: 'error',
  tlsFailed: 'error',
  signInNeeded: 'error',
  // The provider slows the sync down: nothing for the user to mend.
  throttled: 'busy',
  stopped: 'off',
};

function view(kind: ConnectionKind, rest: Omit<ConnectionView, 'kind' | 'tone'>): ConnectionView {
  return { kind, tone: TONE[kind], ...rest };
}

export function connectionView(sync: SyncStatus | null | undefined): ConnectionView {
  const base = { retry: null, error: null, idle: null, lastSync: sync?.lastSync ?? null };
  if (!sync) return view('stopped', base);
  if (sync.errorKind === 'throttled' && (sync.state === 'throttled' || sync.state === 'connecting')) {
    // Outlook.com's "NO [THROTTLED]": the server's words say it goes on by itself.
    const retry = sync.state === 'connecting' ? 'now' : (sync.nextRetryAt ?? null);
    return view('throttled', { ...base, retry, error: sync.error || null });
  }
  const failing = sync.state === 'error' || (sync.state === 'connecting' && Boolean(sync.error));
  if (failing && sync.errorKind === 'oauth_sign_in_needed') {
    // A revoked or expired Google/Microsoft sign-in: no retries until the user signs in again.
    return view('signInNeeded', { ...base, error: sync.error || null });
  }
  if (failing) {
    const kind = sync.errorKind === 'auth' ? 'authFailed' : sync.errorKind === 'tls' ? 'tlsFailed' : 'reconnecting';
    const retry = sync.state === 'connecting' ? 'now' : (sync.nextRetryAt ?? null);
    return view(kind, { ...base, retry, error: sync.error || null });
  }
  switch (sync.state) {
    case 'idle':
      return view('connected', { ...base, idle: sync.idle });
    case 'syncing':
      return view('syncing', { ...base, idle: sync.idle });
    case 'connecting':
      return view('connecting', base);
    default:
      return view('stopped', base);
  }
}

/** A retry at most this far away is counted down in seconds; a later one is given as HH:mm. */
export const COUNTDOWN_MAX_SECS = 90;

export type RetryText = { kind: 'now' } | { kind: 'in'; secs: number } | { kind: 'at'; time: string };

/** When the next attempt is, as the card words it; `nowMs` is the browser's clock. */
export function retryText(retry: 'now' | number, nowMs: number): RetryText {
  if (retry === 'now') return { kind: 'now' };
  const secs = Math.ceil(retry - nowMs / 1000);
  if (secs <= 0) return { kind: 'now' };
  if (secs <= COUNTDOWN_MAX_SECS) return { kind: 'in', secs };
  return { kind: 'at', time: formatTime(retry * 1000) };
}

/** The last sync: HH:mm today, dd/MM/yyyy HH:mm before; null when there was none. */
export function lastSyncText(lastSync: number | null, nowMs: number): string | null {
  if (!lastSync) return null;
  const at = lastSync * 1000;
  return isSameDay(at, nowMs) ? formatTime(at) : formatDateTime(at);
}
