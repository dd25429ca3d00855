// The one way the app talks HTTP: a typed fetch wrapper over docs/API.md.
// It adds the session token, parses JSON, turns every failure into an ApiError whose message is
// ready to show (spec 000 §8 "Generic API failure"), and ends the session on a 401.

import { he } from '../i18n/he';
import { reportServerReachable } from '../lib/serverConnection';
import { takeEarly, type EarlyAnswer } from './early';
import { emitUnauthorized, getToken } from './session';

export class ApiError extends Error {
  /** HTTP status; 0 when the server could not be reached at all. */
  readonly status: number;
  /** The server's machine code (`invalid_credentials`, `conflict`, ...) or `network`. */
  readonly code: string | undefined;
  /** Seconds to wait, on 429 `too_many_attempts`. */
  readonly retryAfterSecs: number | undefined;
  /** The parsed error body, for routes that say more than a message (e.g. 422 per-server results). */
  readonly body: unknown;

  constructor(status: number, message: string, code?: string, retryAfterSecs?: number, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.retryAfterSecs = retryAfterSecs;
    this.body = body;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /**
   * Sent as it is instead (a file picked by the user, e.g. a vCard to import): no JSON, and the
   * Content-Type is the file's own or `application/octet-stream`.
   */
  rawBody?: Blob;
  /** Send the session token, and treat a 401 as "signed out". Default true. */
  auth?: boolean;
  /** This token instead of the stored one (sign-out revokes a token already cleared here). */
  token?: string;
  signal?: AbortSignal;
  /** Extra headers (e.g. `x-api-key`: a key typed into a form, sent with that one request). */
  headers?: Record<string, string>;
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

/** Sends the request; a network failure becomes the Hebrew connection message. */
async function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
  const { method = 'GET', body, rawBody, auth = true, signal, token: explicitToken } = options;
  const headers: Record<string, string> = { ...options.headers, Accept: accept };
  if (rawBody !== undefined) headers['Content-Type'] = rawBody.type || 'application/octet-stream';
  else if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (auth) {
    const token = explicitToken ?? getToken();
    if (token) headers.Authorization = token;
  }

  try {
    const response = await fetch(path, {
      method,
      headers,
      body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
      signal,
      credentials: 'same-origin',
    });
    reportServerReachable(true);
    return response;
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    if (isNetworkFailure(e)) {
      reportServerReachable(false);
      throw new ApiError(0, he.errors.network, 'network');
    }
    throw e;
  }
}

/** A body that is not JSON (a proxy's HTML error page, an empty 204) is treated as "no body". */
function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function failure(res: Response, parsed: unknown, auth: boolean): ApiError {
  if (res.status === 401 && auth) emitUnauthorized();
  const b = (parsed ?? {}) as Record<string, unknown>;
  const retry =
    typeof b.retryAfterSecs === 'number'
      ? b.retryAfterSecs
      : Number(res.headers.get('Retry-After')) || undefined;
  return new ApiError(
    res.status,
    pickMessage(parsed) ?? he.errors.server,
    typeof b.error === 'string' ? b.error : undefined,
    retry,
    parsed,
  );
}

/**
 * Offline reading (issue 39, web/src/features/offline/): keeps the mail the server answered and
 * answers from that copy, or queues an action, when the server cannot be reached. Loaded lazily:
 * the client only waits for it on a network failure.
 */
export interface OfflineLayer {
  /**
   * A call the server answered (with JSON): of a GET the layer may keep a copy; another method
   * tells it which kept mail changed.
   */
  answered(path: string, data: unknown, headers: Headers, options: RequestOptions): void;
  /** The server could not be reached: an answer from the browser's copy or the queue, or none. */
  unreachable(path: string, options: RequestOptions): Promise<{ data: unknown; headers: Headers } | undefined>;
}

let offline: Promise<OfflineLayer | null> | null = null;

/** Installs (or, with null, removes) the offline layer for this page. */
export function setOfflineLayer(layer: Promise<OfflineLayer | null> | null): void {
  offline = layer;
}

/**
 * The read main.tsx started before the page asked (api/early.ts), for a plain GET with the
 * session's token; undefined when there is none. Synchronous, so a call without one reaches
 * fetch in the same tick as before.
 */
function earlyRead(path: string, options: RequestOptions): Promise<EarlyAnswer> | undefined {
  const plain =
    (options.method ?? 'GET') === 'GET' &&
    options.body === undefined &&
    options.rawBody === undefined &&
    (options.auth ?? true) &&
    options.token === undefined &&
    options.signal === undefined &&
    options.headers === undefined;
  return plain ? takeEarly(path, getToken()) : undefined;
}

/** A JSON call that also hands back the response headers (e.g. `X-Total-Count` of a list). */
export async function apiWithHeaders<T>(
  path: string,
  options: RequestOptions = {},
): Promise<{ data: T; headers: Headers }> {
  let res: Response;
  let text: string;
  const started = earlyRead(path, options);
  // A read started early that failed is made again here.
  const early = started ? await started.catch(() => undefined) : undefined;
  if (early) {
    reportServerReachable(true);
    ({ response: res, text } = early);
  } else {
    try {
      res = await send(path, options, 'application/json');
    } catch (e) {
      const layer = e instanceof ApiError && e.isNetworkError && offline ? await offline.catch(() => null) : null;
      const kept = layer ? await layer.unreachable(path, options) : undefined;
      if (kept) return { data: kept.data as T, headers: kept.headers };
      throw e;
    }
    text = await res.text().catch(() => '');
  }
  const parsed = parseJson(text);

  if (!res.ok) throw failure(res, parsed, options.auth ?? true);
  if (parsed === undefined && text) {
    // 2xx but not JSON: the request did not reach the API (for example the SPA fallback answered).
    throw new ApiError(res.status, he.errors.server, 'bad_response');
  }
  if (offline) {
    const headers = res.headers;
    void offline.then((layer) => layer?.answered(path, parsed, headers, options)).catch(() => undefined);
  }
  return { data: parsed as T, headers: res.headers };
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiWithHeaders<T>(path, options)).data;
}

/** A file download (attachment, raw message): the bytes as a Blob; errors as for `api`. */
export async function apiBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  const res = await send(path, options, '*/*');
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw failure(res, parseJson(text), options.auth ?? true);
  }
  return res.blob();
}

/** A human message for anything thrown by `api` or elsewhere. */
export function errorMessage(e: unknown, fallback: string = he.errors.server): string {
  if (e instanceof ApiError) return e.message;
  if (isNetworkFailure(e)) return he.errors.network;
  return fallback;
}

/** SWR fetcher: SWR keys are API paths (see keys.ts). */
export const swrFetcher = <T>(path: string): Promise<T> => api<T>(path);
