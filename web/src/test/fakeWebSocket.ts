// A scriptable WebSocket for the live channel's tests: every instance is recorded, sent messages
// are parsed, and the test drives open / message / error / close by hand.

export class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static instances: FakeWebSocket[] = [];

  static reset(): void {
    FakeWebSocket.instances = [];
  }

  static get last(): FakeWebSocket {
    const ws = FakeWebSocket.instances.at(-1);
    if (!ws) throw new Error('no socket opened');
    return ws;
  }

  readonly url: string;
  readyState = FakeWebSocket.CONNECTING;
  sent: Record<string, unknown>[] = [];
  closedWith: number | undefined;
  onopen: ((e: Event) => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  onclose: ((e: CloseEvent) => void) | null = null;

  constructor(url: string | URL) {
    this.url = String(url);
    FakeWebSocket.instances.push(this);
  }

  send(data: string): void {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error('send on a socket that is not open');
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }

  close(code = 1000): void {
    this.closedWith = code;
    this.readyState = FakeWebSocket.CLOSED;
  }

  /** Types of the messages sent so far. */
  get sentTypes(): string[] {
    return this.sent.map((m) => String(m.type));
  }

  // ---- driven by the test ----

  open(): void {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.(new Event('open'));
  }

  receive(message: unknown): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }));
  }

  /** Opens and answers the auth message. */
  accept(userId = 1): void {
    this.open();
    this.receive({ type: 'auth_success', data: { userId } });
  }

  error(): void {
    this.onerror?.(new Event('error'));
  }

  serverClose(code: number, reason = ''): void {
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.(new CloseEvent('close', { code, reason, wasClean: code === 1000 }));
  }

  /** A connection that never gets through: error, then close 1006. */
  fail(): void {
    this.error();
    this.serverClose(1006);
  }
}
