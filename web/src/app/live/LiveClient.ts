// The real-time channel (spec 000 §7, §8, §9; docs/API.md "Live updates: /ws"), without React:
// open `ws(s)://<same host>/ws`, authenticate first with the session token, subscribe to the
// channels once the server accepts it, ping every 30 s, and reconnect after an unexpected close
// — 3 s, then 6 s, 12 s, … at most 5 attempts. Close codes 1000 (normal) and 4001 (signed out)
// end the channel for good. An error event marks the connection as failed ("Connection failed").

// A server message is one of the `LiveEvent` union generated from the server's own enum
// (src/live/event.rs), so every event's data is typed here as the server writes it.
import type { LiveChannel, LiveEvent } from '../../api/generated';
import { INITIAL_LIVE_STATE, type LiveState } from '../../session/liveStatus';


/** Spec 000 §9. */
export const LIVE_RECONNECT_BASE_MS = 3000;
export const LIVE_MAX_RECONNECT_ATTEMPTS = 5;
export const LIVE_PING_INTERVAL_MS = 30_000;
/** The channels the app listens to; the server subscribes every channel after auth anyway. */
export const LIVE_CHANNELS: readonly LiveChannel[] = ['mail', 'settings', 'system'];
/** Close codes after which the client does not reconnect. */
export const CLOSE_NORMAL = 1000;
export const CLOSE_UNAUTHORIZED = 4001;

export interface LiveClientOptions {
  url: string;
  token: string;
  channels?: readonly string[];
  onEvent: (event: LiveEvent) => void;
  onStateChange?: (state: LiveState) => void;
  /** Defaults to the global WebSocket (tests stub it). */
  createSocket?: (url: string) => WebSocket;
}

/** `ws://host/ws` on http, `wss://host/ws` on https: the same host as the page. */
export function liveUrl(loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}/ws`;
}

/** Delay before reconnect attempt `attempt` (1-based): 3 s, 6 s, 12 s, 24 s, 48 s. */
export function reconnectDelay(attempt: number): number {
  return LIVE_RECONNECT_BASE_MS * 2 ** Math.max(0, attempt - 1);
}

/**
 * The envelope is checked (a JSON object with a string `type`); its data is the server's, typed
 * by the generated union, and unknown types fall through the handlers' switches untouched.
 */
function parseEvent(raw: unknown): LiveEvent | null {
  if (typeof raw !== 'string') return null;
  try {
    const msg = JSON.parse(raw) as unknown;
    if (typeof msg !== 'object' || msg === null) return null;
    return typeof (msg as { type?: unknown }).type === 'string' ? (msg as LiveEvent) : null;
  } catch {
    return null;
  }
}

// WebSocket.CONNECTING / OPEN, spelled out so a stubbed constructor without the statics works.
const CONNECTING = 0;
const OPEN = 1;

export class LiveClient {
  private readonly options: LiveClientOptions;
  private readonly channels: Set<string>;
  private socket: WebSocket | null = null;
  private authenticated = false;
  private running = false;
  private attempts = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private current: LiveState = INITIAL_LIVE_STATE;

  constructor(options: LiveClientOptions) {
    this.options = options;
    this.channels = new Set(options.channels ?? LIVE_CHANNELS);
  }

  get state(): LiveState {
    return this.current;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.attempts = 0;
    this.connect();
  }

  /** Closes the channel for good (sign-out, unmount). */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.clearTimers();
    this.dropSocket();
    this.setState({ status: 'closed', retryInMs: null });
  }

  /** Reconnects now with a fresh set of attempts (after giving up, or when the browser is back online). */
  retryNow(): void {
    if (!this.running || this.current.status === 'connected' || this.current.unauthorized) return;
    this.clearTimers();
    this.dropSocket();
    this.attempts = 0;
    this.connect();
  }

  subscribe(channel: string): void {
    this.channels.add(channel);
    if (this.authenticated) this.send({ type: 'subscribe', channel });
  }

  unsubscribe(channel: string): void {
    this.channels.delete(channel);
    if (this.authenticated) this.send({ type: 'unsubscribe', channel });
  }

  /** Sends a message if the socket is open; false otherwise. */
  send(message: Record<string, unknown>): boolean {
    const ws = this.socket;
    if (!ws || ws.readyState !== OPEN) return false;
    ws.send(JSON.stringify(message));
    return true;
  }

  private setState(patch: Partial<LiveState>): void {
    this.current = { ...this.current, ...patch };
    this.options.onStateChange?.(this.current);
  }

  private connect(): void {
    this.authenticated = false;
    this.setState({ status: 'connecting', retryInMs: null, attempt: this.attempts });
    let ws: WebSocket;
    try {
      ws = this.options.createSocket
        ? this.options.createSocket(this.options.url)
        : new WebSocket(this.options.url);
    } catch {
      // A malformed URL or a blocked scheme throws at once; treat it like a failed connection.
      this.setState({ error: true });
      this.scheduleReconnect();
      return;
    }
    this.socket = ws;

    ws.onopen = () => {
      if (this.socket !== ws) return;
      // The server wants the token before anything else.
      ws.send(JSON.stringify({ type: 'auth', token: this.options.token }));
    };
    ws.onmessage = (e: MessageEvent) => {
      if (this.socket !== ws) return;
      this.handleMessage(e.data);
    };
    ws.onerror = () => {
      if (this.socket !== ws) return;
      this.setState({ error: true });
    };
    ws.onclose = (e: CloseEvent) => {
      if (this.socket !== ws) return;
      this.socket = null;
      this.authenticated = false;
      this.stopPing();
      if (!this.running) return;
      if (e.code === CLOSE_UNAUTHORIZED) {
        this.running = false;
        this.setState({ status: 'closed', unauthorized: true, retryInMs: null });
      } else if (e.code === CLOSE_NORMAL || this.current.unauthorized) {
        this.running = false;
        this.setState({ status: 'closed', retryInMs: null });
      } else {
        this.scheduleReconnect();
      }
    };
  }

  private handleMessage(raw: unknown): void {
    const event = parseEvent(raw);
    if (!event) return;
    switch (event.type) {
      case 'auth_success':
        this.authenticated = true;
        this.attempts = 0;
        this.setState({ status: 'connected', error: false, attempt: 0, retryInMs: null });
        for (const channel of this.channels) this.send({ type: 'subscribe', channel });
        this.startPing();
        break;
      case 'auth_error':
        // The server closes with 4001 next; whatever code it uses, do not come back.
        this.setState({ unauthorized: true });
        break;
      default:
        break;
    }
    this.options.onEvent(event);
  }

  private scheduleReconnect(): void {
    if (this.attempts >= LIVE_MAX_RECONNECT_ATTEMPTS) {
      this.setState({ status: 'failed', error: true, retryInMs: null });
      return;
    }
    this.attempts += 1;
    const delay = reconnectDelay(this.attempts);
    this.setState({ status: 'reconnecting', attempt: this.attempts, retryInMs: delay });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.running) this.connect();
    }, delay);
  }

  private startPing(): void {
    this.stopPing();
    this.pingTimer = setInterval(() => this.send({ type: 'ping' }), LIVE_PING_INTERVAL_MS);
  }

  private stopPing(): void {
    if (this.pingTimer !== null) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  private clearTimers(): void {
    this.stopPing();
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  /** Detaches and closes the current socket without triggering a reconnect. */
  private dropSocket(): void {
    const ws = this.socket;
    this.socket = null;
    this.authenticated = false;
    if (!ws) return;
    ws.onmessage = null;
    ws.onerror = null;
    ws.onclose = null;
    if (ws.readyState === CONNECTING) {
      // Closing a socket that is still connecting makes browsers log an error; close it as soon
      // as it opens instead.
      ws.onopen = () => ws.close(CLOSE_NORMAL);
    } else {
      ws.onopen = null;
      if (ws.readyState === OPEN) ws.close(CLOSE_NORMAL);
    }
  }
}
