import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket } from '../../test/fakeWebSocket';
import {
  LIVE_MAX_RECONNECT_ATTEMPTS,
  LIVE_PING_INTERVAL_MS,
  LiveClient,
  liveUrl,
  reconnectDelay,
} from './LiveClient';
import type { LiveEvent } from '../../api/generated';
import type { LiveState } from '../../session/liveStatus';

function makeClient() {
  const events: LiveEvent[] = [];
  const states: LiveState[] = [];
  const client = new LiveClient({
    url: 'ws://mail.test/ws',
    token: 'tok-1',
    onEvent: (e) => events.push(e),
    onStateChange: (s) => states.push(s),
  });
  return { client, events, states };
}

describe('LiveClient', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeWebSocket.reset();
    vi.stubGlobal('WebSocket', FakeWebSocket);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('builds the same-host URL, ws: on http and wss: on https', () => {
    expect(liveUrl({ protocol: 'http:', host: 'mail.example:8080' })).toBe('ws://mail.example:8080/ws');
    expect(liveUrl({ protocol: 'https:', host: 'mail.example' })).toBe('wss://mail.example/ws');
  });

  it('sends the auth message first, then subscribes once accepted', () => {
    const { client, events } = makeClient();
    client.start();
    const ws = FakeWebSocket.last;
    expect(ws.url).toBe('ws://mail.test/ws');
    ws.open();
    expect(ws.sent).toEqual([{ type: 'auth', token: 'tok-1' }]);

    ws.receive({ type: 'auth_success', data: { userId: 1 } });
    expect(ws.sent[0]).toEqual({ type: 'auth', token: 'tok-1' });
    expect(ws.sent.slice(1)).toEqual([
      { type: 'subscribe', channel: 'mail' },
      { type: 'subscribe', channel: 'settings' },
      { type: 'subscribe', channel: 'system' },
    ]);
    expect(client.state.status).toBe('connected');

    ws.receive({ type: 'stats', data: { inbox: 3 } });
    expect(events.map((e) => e.type)).toEqual(['auth_success', 'stats']);
    expect(events[1]).toEqual({ type: 'stats', data: { inbox: 3 } });
    client.stop();
  });

  it('pings every 30 seconds while connected', () => {
    const { client } = makeClient();
    client.start();
    const ws = FakeWebSocket.last;
    ws.accept();
    const pings = () => ws.sent.filter((m) => m.type === 'ping').length;

    vi.advanceTimersByTime(LIVE_PING_INTERVAL_MS - 1);
    expect(pings()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(pings()).toBe(1);
    vi.advanceTimersByTime(LIVE_PING_INTERVAL_MS * 2);
    expect(pings()).toBe(3);
    expect(LIVE_PING_INTERVAL_MS).toBe(30_000);

    // No pings after the socket closed.
    client.stop();
    vi.advanceTimersByTime(LIVE_PING_INTERVAL_MS * 3);
    expect(pings()).toBe(3);
  });

  it('reconnects after 3 s, 6 s, 12 s, 24 s, 48 s and then gives up', () => {
    const { client } = makeClient();
    client.start();
    expect(FakeWebSocket.instances).toHaveLength(1);
    FakeWebSocket.last.fail();

    const expected = [3000, 6000, 12000, 24000, 48000];
    expect(expected.map((_, i) => reconnectDelay(i + 1))).toEqual(expected);
    expected.forEach((delay, i) => {
      expect(client.state).toMatchObject({ status: 'reconnecting', attempt: i + 1, retryInMs: delay, error: true });
      vi.advanceTimersByTime(delay - 1);
      expect(FakeWebSocket.instances).toHaveLength(i + 1);
      vi.advanceTimersByTime(1);
      expect(FakeWebSocket.instances).toHaveLength(i + 2);
      FakeWebSocket.last.fail();
    });

    expect(LIVE_MAX_RECONNECT_ATTEMPTS).toBe(5);
    expect(client.state.status).toBe('failed');
    expect(client.state.error).toBe(true);
    vi.advanceTimersByTime(10 * 60_000);
    expect(FakeWebSocket.instances).toHaveLength(6);
  });

  it('marks an error as a failed connection', () => {
    const { client, states } = makeClient();
    client.start();
    FakeWebSocket.last.error();
    expect(client.state.error).toBe(true);
    expect(states.at(-1)?.error).toBe(true);
    client.stop();
  });

  it('starts the attempts over after a successful authentication', () => {
    const { client } = makeClient();
    client.start();
    FakeWebSocket.last.fail();
    vi.advanceTimersByTime(3000);
    FakeWebSocket.last.fail();
    vi.advanceTimersByTime(6000);
    FakeWebSocket.last.accept();
    expect(client.state).toMatchObject({ status: 'connected', attempt: 0, error: false });

    // Dropped later: the first delay is 3 s again.
    FakeWebSocket.last.serverClose(1006);
    expect(client.state).toMatchObject({ status: 'reconnecting', attempt: 1, retryInMs: 3000 });
    vi.advanceTimersByTime(3000);
    expect(FakeWebSocket.instances).toHaveLength(4);
    client.stop();
  });

  it.each([1000, 4001])('does not reconnect after close code %i', (code) => {
    const { client } = makeClient();
    client.start();
    FakeWebSocket.last.accept();
    FakeWebSocket.last.serverClose(code);
    expect(client.state.status).toBe('closed');
    expect(client.state.unauthorized).toBe(code === 4001);
    vi.advanceTimersByTime(10 * 60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('reconnects after other close codes (server going away)', () => {
    const { client } = makeClient();
    client.start();
    FakeWebSocket.last.accept();
    FakeWebSocket.last.serverClose(1001);
    vi.advanceTimersByTime(3000);
    expect(FakeWebSocket.instances).toHaveLength(2);
    client.stop();
  });

  it('stops for good after auth_error, whatever the close code', () => {
    const { client } = makeClient();
    client.start();
    const ws = FakeWebSocket.last;
    ws.open();
    ws.receive({ type: 'auth_error', data: { message: 'עליך להתחבר תחילה' } });
    ws.serverClose(1006);
    expect(client.state).toMatchObject({ status: 'closed', unauthorized: true });
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('stop() closes with 1000, cancels a pending reconnect and ignores late events', () => {
    const { client, events } = makeClient();
    client.start();
    const first = FakeWebSocket.last;
    first.accept();
    client.stop();
    expect(first.closedWith).toBe(1000);
    first.receive({ type: 'stats', data: {} });
    expect(events.map((e) => e.type)).toEqual(['auth_success']);

    const again = makeClient();
    again.client.start();
    FakeWebSocket.last.fail();
    again.client.stop();
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(2);
    expect(again.client.state.status).toBe('closed');
  });

  it('closes a socket that is still connecting only once it opens', () => {
    const { client } = makeClient();
    client.start();
    const ws = FakeWebSocket.last;
    client.stop();
    expect(ws.closedWith).toBeUndefined();
    ws.open();
    expect(ws.closedWith).toBe(1000);
    expect(ws.sent).toEqual([]);
  });

  it('retryNow() starts over after giving up', () => {
    const { client } = makeClient();
    client.start();
    FakeWebSocket.last.fail();
    for (const delay of [3000, 6000, 12000, 24000, 48000]) {
      vi.advanceTimersByTime(delay);
      FakeWebSocket.last.fail();
    }
    expect(client.state.status).toBe('failed');
    client.retryNow();
    expect(FakeWebSocket.instances).toHaveLength(7);
    FakeWebSocket.last.accept();
    expect(client.state.status).toBe('connected');
    client.stop();
  });

  it('ignores messages that are not JSON objects with a type', () => {
    const { client, events } = makeClient();
    client.start();
    const ws = FakeWebSocket.last;
    ws.accept();
    ws.onmessage?.(new MessageEvent('message', { data: 'not json' }));
    ws.onmessage?.(new MessageEvent('message', { data: '[1,2]' }));
    ws.onmessage?.(new MessageEvent('message', { data: '{"data":1}' }));
    expect(events.map((e) => e.type)).toEqual(['auth_success']);
    client.stop();
  });
});
