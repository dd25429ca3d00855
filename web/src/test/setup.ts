import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

/**
 * jsdom (and Node) ship a real WebSocket: screens rendered under the signed-in layout open the
 * live channel (app/live), which must never reach the network from a test. This one stays
 * "connecting" forever; the live client's own tests install a scriptable fake instead.
 */
class InertWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readonly url: string;
  readyState = 0;
  onopen: unknown = null;
  onmessage: unknown = null;
  onerror: unknown = null;
  onclose: unknown = null;
  constructor(url: string | URL) {
    this.url = String(url);
  }
  send(): void {}
  close(): void {
    this.readyState = 3;
  }
  addEventListener(): void {}
  removeEventListener(): void {}
}

// Each test starts with an empty browser: no stored session, no scale, no leftover DOM.
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  window.location.hash = '';
  vi.stubGlobal('WebSocket', InertWebSocket);
});

afterEach(() => {
  cleanup();
});

// jsdom has no layout: a Range has no boxes. The compose editor (Lexical) measures the selection
// to scroll it into view.
if (!Range.prototype.getBoundingClientRect) {
  Range.prototype.getBoundingClientRect = () => new DOMRect(0, 0, 0, 0);
  Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
}
