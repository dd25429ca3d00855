// The one way the app talks HTTP: a typed fetch wrapper over docs/API.md.
// It adds the session token, parses JSON, turns every failure into an ApiError whose message is
// ready to show (spec 000 §8 "Generic API failure"), and ends the session on a 401.

import { he } from '../i18n/he';
import { emitUnauthorized, getToken } from './session';

export class ApiError extends Error {
  /** HTTP status; 0 when the server could not be reached at all. */
  readonly status: number;
  /** The server's machine code (`invalid_credentials`, `conflict`, ...) or `network`. */
  readonly code: string | undefined;
  /** Seconds to wait, on 429 `too_many_attempts`. */
  readonly retryAfterSecs: number | undefined;

  constructor(status: number, message: string, code?: string, retryAfterSecs?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.retryAfterSecs = retryAfterSecs;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Send the session token, and treat a 401 as "signed out". Default true. */
  auth?: boolean;
  signal?: AbortSignal;
}

/** 'Failed to fetch' (Chromium), 'NetworkError…' (Firefox), 'Load failed' (Safari) are all TypeErrors. */
function isNetworkFailure(e: unknown): boolean {
  return e instanceof TypeError;
}

function pickMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.message === 'string' && b.message.trim()) return b.message;
  if (typeof b.error === 'string' && b.error.trim()) return b.error;
  return undefined;
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, auth = true, signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (auth) {
    const token = getToken();
    if (token) headers.Authorization = token;
  }

  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      credentials: 'same-origin',
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    if (isNetworkFailure(e)) throw new ApiError(0, he.errors.network, 'network');
    throw e;
  }

  // A body that is not JSON (a proxy's HTML error page, an empty 204) is treated as "no body".
  let parsed: unknown = undefined;
  const text = await res.text().catch(() => '');
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }

  if (!res.ok) {
    if (res.status === 401 && auth) emitUnauthorized();
    const b = (parsed ?? {}) as Record<string, unknown>;
    const retry =
      typeof b.retryAfterSecs === 'number'
        ? b.retryAfterSecs
        : Number(res.headers.get('Retry-After')) || undefined;
    throw new ApiError(
      res.status,
      pickMessage(parsed) ?? he.errors.server,
      typeof b.error === 'string' ? b.error : undefined,
      retry,
    );
  }

  if (parsed === undefined && text) {
    // 2xx but not JSON: the request did not reach the API (for example the SPA fallback answered).
    throw new ApiError(res.status, he.errors.server, 'bad_response');
  }
  return parsed as T;
}

/** A human message for anything thrown by `api` or elsewhere. */
export function errorMessage(e: unknown, fallback: string = he.errors.server): string {
  if (e instanceof ApiError) return e.message;
  if (isNetworkFailure(e)) return he.errors.network;
  return fallback;
}

/** SWR fetcher: SWR keys are API paths (see keys.ts). */
export const swrFetcher = <T>(path: string): Promise<T> => api<T>(path);
