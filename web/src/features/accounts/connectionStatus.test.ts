import { describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../api/types';
import { connectionView, lastSyncText, retryText } from './connectionStatus';
import { IDLE_SYNC } from './accountFixtures';

const BASE: SyncStatus = IDLE_SYNC;

const sync = (over: Partial<SyncStatus>): SyncStatus => ({ ...BASE, ...over });

describe('connectionView', () => {
  it('is "stopped" without a sync task', () => {
    expect(connectionView(null)).toMatchObject({ kind: 'stopped', tone: 'off', idle: null, retry: null });
  });

  it('is connected when idle, and knows IDLE only while a session is up', () => {
    expect(connectionView(sync({ state: 'idle', idle: true }))).toMatchObject({ kind: 'connected', tone: 'ok', idle: true });
    expect(connectionView(sync({ state: 'idle', idle: false }))).toMatchObject({ kind: 'connected', idle: false });
    expect(connectionView(sync({ state: 'syncing', idle: true }))).toMatchObject({ kind: 'syncing', tone: 'busy', idle: true });
    expect(connectionView(sync({ state: 'connecting', idle: true }))).toMatchObject({ kind: 'connecting', idle: null });
  });

  it('names an auth or TLS failure, and anything else as reconnecting, with the message and next try', () => {
    const failure = { state: 'error', error: 'השרת לא הגיב', nextRetryAt: 1_700_000_100 };
    expect(connectionView(sync({ ...failure, errorKind: 'auth' }))).toMatchObject({
      kind: 'authFailed',
      tone: 'error',
      error: 'השרת לא הגיב',
      retry: 1_700_000_100,
      idle: null,
    });
    expect(connectionView(sync({ ...failure, errorKind: 'tls' }))).toMatchObject({ kind: 'tlsFailed', tone: 'error' });
    expect(connectionView(sync({ ...failure, errorKind: 'timeout' }))).toMatchObject({ kind: 'reconnecting', tone: 'warn' });
    expect(connectionView(sync({ ...failure, errorKind: null }))).toMatchObject({ kind: 'reconnecting' });
  });

  it('says a revoked OAuth sign-in needs the user, with no retry', () => {
    const v = connectionView(
      sync({ state: 'error', error: 'יש להתחבר מחדש', errorKind: 'oauth_sign_in_needed', nextRetryAt: null }),
    );
    expect(v).toMatchObject({ kind: 'signInNeeded', tone: 'error', error: 'יש להתחבר מחדש', retry: null });
  });

  it('treats "connecting" with the failure still kept as a retry under way', () => {
    const v = connectionView(sync({ state: 'connecting', error: 'x', errorKind: 'unreachable', nextRetryAt: 5 }));
    expect(v).toMatchObject({ kind: 'reconnecting', retry: 'now', error: 'x' });
  });

  it('says a throttling provider slows the sync down, not that something failed', () => {
    const throttled = { error: 'ספק הדואר מאט זמנית את הסנכרון', errorKind: 'throttled', nextRetryAt: 1_700_000_200 };
    expect(connectionView(sync({ ...throttled, state: 'throttled' }))).toMatchObject({
      kind: 'throttled',
      tone: 'busy',
      retry: 1_700_000_200,
      error: 'ספק הדואר מאט זמנית את הסנכרון',
    });
    // The wait is over and it tries again: still the provider's slowing down, not a failure.
    expect(connectionView(sync({ ...throttled, state: 'connecting' }))).toMatchObject({ kind: 'throttled', retry: 'now' });
    // Back and syncing: nothing of it is left.
    expect(connectionView(sync({ ...throttled, state: 'syncing' }))).toMatchObject({ kind: 'syncing', error: null });
  });

  it('does not show a kept error once the session is back and syncing', () => {
    const v = connectionView(sync({ state: 'syncing', error: 'old', errorKind: 'auth' }));
    expect(v).toMatchObject({ kind: 'syncing', error: null, retry: null });
  });
});

describe('retryText', () => {
  const now = 1_700_000_000_000;
  it('counts down in seconds up to 90 s, then gives the time', () => {
    expect(retryText(1_700_000_030, now)).toEqual({ kind: 'in', secs: 30 });
    expect(retryText(1_700_000_090, now)).toEqual({ kind: 'in', secs: 90 });
    const later = retryText(1_700_000_091, now);
    expect(later.kind).toBe('at');
    expect(later).toMatchObject({ time: expect.stringMatching(/^\d\d:\d\d$/) });
  });

  it('says "now" when the time has come or an attempt is under way', () => {
    expect(retryText(1_700_000_000, now)).toEqual({ kind: 'now' });
    expect(retryText(1_699_999_000, now)).toEqual({ kind: 'now' });
    expect(retryText('now', now)).toEqual({ kind: 'now' });
  });

  it('rounds a part second up (never "in 0 s")', () => {
    expect(retryText(1_700_000_001, now - 200)).toEqual({ kind: 'in', secs: 2 });
  });
});

describe('lastSyncText', () => {
  it('is HH:mm today and the full date before; null without a sync', () => {
    const now = new Date(2026, 10, 30, 15, 0).getTime();
    expect(lastSyncText(new Date(2026, 10, 30, 8, 5).getTime() / 1000, now)).toBe('08:05');
    expect(lastSyncText(new Date(2026, 10, 29, 23, 59).getTime() / 1000, now)).toBe('29/11/2026 23:59');
    expect(lastSyncText(null, now)).toBeNull();
  });
});
