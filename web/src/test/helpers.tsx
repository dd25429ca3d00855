// Test harness: the real providers around a component, an in-memory router whose current
// location the test can read, a fetch mock that answers by "METHOD /path", and what a test reads
// back (the calls it got, their bodies, the toasts shown).

import { act, render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation, type Location } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { vi } from 'vitest';
import { swrFetcher } from '../api/client';
import { writeStoredAuth } from '../api/session';
import type { User } from '../api/types';
import { AuthProvider } from '../session/AuthProvider';
import { ToastProvider } from '../session/Toasts';

export const DANA: User = {
  id: 1,
  username: 'dana',
  name: 'דנה כהן',
  role: 'admin',
  createdAt: '2026-11-22T10:00:00Z',
};

export function signInAs(user: User = DANA, token = 'tok-1'): void {
  writeStoredAuth({ token, user });
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export type Handler = (init: RequestInit | undefined, url: string) => Response | Promise<Response>;

/** Installs a fetch mock; unknown routes answer 404 in the API's error shape. */
export function mockFetch(routes: Record<string, Handler>) {
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.split('?')[0];
    const h = routes[`${method} ${path}`];
    if (h) return h(init, url);
    return json(404, { success: false, error: 'not_found', message: 'לא נמצא' });
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

export interface Rendered extends RenderResult {
  location: () => Location;
}

/** Renders `ui` inside the app's providers at `route` (a path, or a location with its state). */
export function renderWithProviders(ui: ReactNode, { route = '/' }: { route?: string | Partial<Location> } = {}): Rendered {
  let current: Location | undefined;
  function Probe() {
    current = useLocation();
    return null;
  }
  const utils = render(
    <MemoryRouter initialEntries={[route]}>
      {/* A fresh SWR cache per test so one test's data never answers another's. */}
      <SWRConfig value={{ fetcher: swrFetcher, provider: () => new Map(), dedupingInterval: 0, shouldRetryOnError: false }}>
        <ToastProvider>
          <AuthProvider>
            {ui}
            <Probe />
          </AuthProvider>
        </ToastProvider>
      </SWRConfig>
    </MemoryRouter>,
  );
  return {
    ...utils,
    location: () => {
      if (!current) throw new Error('no location yet');
      return current;
    },
  };
}

export type Fetch = ReturnType<typeof mockFetch>;

/** waitFor options for a lazy page: on a busy machine its chunk can take over a second to load. */
export const LAZY_PAGE = { timeout: 5000 };

/** The calls the fetch mock got for `METHOD /path` (the query string ignored). */
export function calls(fetch: Fetch, method: string, path: string) {
  return fetch.mock.calls.filter(([url, init]) => String(url).split('?')[0] === path && (init?.method ?? 'GET') === method);
}

/** The JSON body one fetch call sent. */
export function bodyOf(call: unknown[]): Record<string, unknown> {
  return JSON.parse(String((call[1] as RequestInit | undefined)?.body)) as Record<string, unknown>;
}

/** The toasts on screen, oldest first: their kind (success, error, …) and text. */
export function toasts(): { kind: string; text: string }[] {
  return Array.from(document.querySelectorAll('[data-testid="toast"]')).map((el) => ({
    kind: /toast--(\w+)/.exec(el.className)?.[1] ?? '',
    text: el.querySelector('.toast__message')?.textContent ?? '',
  }));
}

/** Captured before any test fakes it. */
const realSetTimeout = globalThis.setTimeout;

/**
 * Lets pending work finish without moving a fake clock: promises and real macrotasks (the mocked
 * fetch's body) run, the app's timers do not. RTL's waitFor hangs under a fake setTimeout.
 */
export async function settle(done: () => boolean) {
  for (let i = 0; i < 50 && !done(); i++) {
    await act(() => new Promise<void>((resolve) => realSetTimeout(resolve, 0)));
  }
  if (!done()) throw new Error('never settled');
}
