// The offline layer (issue 39; loaded lazily once signed in, see OfflineReading.tsx): plugged into
// the API client (api/client.ts `setOfflineLayer`), it keeps the mail the server answers
// (cache.ts), answers from that copy when the server cannot be reached, queues the inbox's actions
// then (actions.ts, queue.ts) with the mail patched locally, asks every PING_MS whether the server
// is back, and replays the queue when it is (replay.ts). After a folder's first page is kept, the
// bodies of its newest mail are fetched one by one (within the user's count), so a mail never
// opened can be read offline too.

import { ApiError, api, type OfflineLayer, type RequestOptions } from '../../api/client';
import { getToken } from '../../api/session';
import type { Email, Thread } from '../../api/types';
import { heOfflineActions } from '../../i18n/offlineActions';
import { whenIdle } from '../../lib/idle';
import { isServerReachable, onServerReachable, reportServerReachable } from '../../lib/serverConnection';
import { actionsOf, applied, stateOf } from './actions';
import { MailCache } from './cache';
import type { Kv } from './kv';
import { KEEP_WITHIN_MS, MAX_LISTS, PING_MS, PREFETCH_AFTER_MS } from './limits';
import { keptAs } from './paths';
import { ActionQueue, QueueFullError } from './queue';
import { replay, settle, type LoadMail, type SendAction } from './replay';
import { offlineState, setOfflineState } from './state';

/** The browser's database, opened by install.ts once this chunk is loaded. */
export { openIdbKv } from './kv';

/** The page's handle on the layer: the client's hooks, the user's choices, and shutting down. */
export interface OfflineHandle extends OfflineLayer {
  settle(seq: number, choice: 'mine' | 'theirs'): Promise<void>;
  /** Stops the timers and closes the database (logout). */
  close(): void;
}

/** One call to the server itself, never answered from the copy. */
async function serverCall(path: string, method: string, body?: unknown): Promise<{ status: number; data: unknown } | 'unreachable'> {
  const token = getToken();
  try {
    const res = await fetch(path, {
      method,
      headers: {
        Accept: 'application/json',
        ...(token ? { Authorization: token } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
    const text = await res.text().catch(() => '');
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = undefined;
    }
    // A proxy's gateway error while the server restarts is not an answer from it.
    if (res.status === 502 || res.status === 503 || res.status === 504) return 'unreachable';
    return { status: res.status, data };
  } catch {
    return 'unreachable';
  }
}

/** The answer a queued request gets at once (the shape its caller expects from the server). */
function answerFor(path: string, method: string, mails: Email[], threadOf: Thread | undefined): unknown {
  const [pathname, query = ''] = path.split('?', 2);
  if (pathname === '/api/drafts/save') {
    return { shouldNavigate: false, success: true, savedInGmail: false, draftId: null, message: heOfflineActions.draftQueued };
  }
  if (pathname === '/api/emails/bulk') return { success: true, updated: mails.length, movedTo: null, emails: mails };
  const email = mails[0];
  if (pathname.endsWith('/trash')) return { success: true, movedTo: 'trash' };
  if (method === 'DELETE') return { success: true, deleted: 1 };
  if (pathname.endsWith('/status')) {
    const folder = new URLSearchParams(query).get('folder') ?? email.folder;
    return { success: true, movedTo: folder, email, thread: threadOf ?? singleThread(email) };
  }
  return { success: true, email };
}

/** The mail a call changed: the id in its path (`/api/emails/<id>/…`) and the ids of its body. */
export function changedIds(path: string, body: unknown): string[] {
  const m = /^\/api\/emails\/([^/?]+)/.exec(path);
  const ids = m ? [decodeURIComponent(m[1])] : [];
  const b = body as { ids?: unknown; emailIds?: unknown } | null | undefined;
  for (const list of [b?.ids, b?.emailIds]) {
    if (Array.isArray(list)) ids.push(...list.filter((x): x is string => typeof x === 'string').slice(0, 1000));
  }
  return ids;
}

/** What a queued draft's entry names when its mail is not kept: the subject the reply carries. */
function draftStandIn(id: string, body: Record<string, unknown> | undefined): Email {
  const original = (body?.originalEmail ?? {}) as { subject?: unknown };
  return { id, subject: typeof original.subject === 'string' ? original.subject : '' } as Email;
}

function singleThread(e: Email): Thread {
  return {
    id: e.threadId,
    subject: e.subject,
    hasNoSubject: !e.subject,
    count: 1,
    lastDate: e.date,
    isRead: e.is_read,
    isStarred: e.is_starred,
    labels: e.status ? [e.status] : [],
    status: e.status,
    priority: e.priority,
    hasAttachments: e.hasAttachments,
    participants: [e.from_name || e.from],
    emails: [e],
  };
}

/**
 * Runs `work` holding the page-wide lock of the queue (Web Locks): two tabs of the app share the
 * database, and must neither number two actions alike nor replay one action twice (a reply saved
 * twice). Without Web Locks (an old browser) it runs as it is.
 */
function oneTabAtATime<T>(work: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  return locks ? (locks.request('mailclient-offline-queue', work) as Promise<T>) : work();
}

/** The layer over `kv` for the signed-in user; `cap` reads the user's offlineMessages. */
export async function createOfflineLayer(kv: Kv, userId: string, cap: () => number): Promise<OfflineHandle> {
  // Another user's copy (a session that expired without logging out) is never shown to this one.
  if ((await kv.get<string>('meta', 'owner')) !== userId) {
    await kv.clear();
    await kv.put('meta', 'owner', userId);
  }
  const cache = new MailCache(kv, cap);
  const queue = new ActionQueue(kv);
  let closed = false;

  const publish = async (sent = false) => {
    const all = await queue.list();
    setOfflineState({
      pending: all.filter((q) => q.state === 'waiting').length,
      problems: all.filter((q) => q.state !== 'waiting'),
      replayed: offlineState().replayed + (sent ? 1 : 0),
    });
  };

  const load: LoadMail = async (id) => {
    const r = await serverCall(`/api/emails/${encodeURIComponent(id)}`, 'GET');
    if (r === 'unreachable' || r.status === 401) return 'unreachable';
    if (r.status === 404) return null;
    if (r.status !== 200 || !r.data) return 'unreachable';
    await cache.remember(`/api/emails/${encodeURIComponent(id)}`, r.data, null);
    return stateOf(r.data as Email);
  };
  const send: SendAction = async (q) => {
    const r = await serverCall(q.path, q.method, q.body);
    if (r === 'unreachable' || r.status === 401) return 'unreachable';
    if (r.status >= 200 && r.status < 300) return 'ok';
    const message = (r.data as { message?: unknown } | undefined)?.message;
    return { failed: typeof message === 'string' ? message : heOfflineActions.refused };
  };

  // One replay at a time; one asked for meanwhile runs after it.
  let replaying: Promise<void> | null = null;
  let again = false;
  const runReplay = (): Promise<void> => {
    if (replaying) {
      again = true;
      return replaying;
    }
    replaying = (async () => {
      do {
        again = false;
        const before = (await queue.list()).length;
        if (before === 0) break;
        await oneTabAtATime(() => replay(queue, load, send));
        await publish((await queue.list()).length < before);
      } while (again && !closed);
    })().finally(() => {
      replaying = null;
    });
    return replaying;
  };

  // While the server is away: ask it every PING_MS; its answer ends the banner and starts the replay.
  let ping: number | undefined;
  const watch = (reachable: boolean) => {
    if (closed) return;
    if (reachable) {
      window.clearInterval(ping);
      ping = undefined;
      void runReplay();
    } else if (ping === undefined) {
      ping = window.setInterval(async () => {
        const r = await serverCall('/api/health', 'GET');
        if (r !== 'unreachable' && r.status === 200) reportServerReachable(true);
      }, PING_MS);
    }
  };
  const stopWatching = onServerReachable(watch);
  watch(isServerReachable());

  // After a folder's first page: its newest mail's bodies, one at a time, within the user's count,
  // once the listings have been quiet for PREFETCH_AFTER_MS; only mail the newest answer of a
  // listing still holds and the page did not change (a moved mail's old id answers 404).
  let prefetching = false;
  let prefetchTimer: number | undefined;
  const changed = new Set<string>();
  const firstPages = new Map<string, Thread[]>();
  const listed = (id: string) => [...firstPages.values()].some((ts) => ts.some((t) => t?.emails?.[0]?.id === id));
  const prefetch = async () => {
    if (prefetching) return;
    prefetching = true;
    try {
      const threads = [...firstPages.values()].flat();
      const newest = threads.flatMap((t) => (t?.emails?.[0] ? [t.emails[0]] : [])).slice(0, cap());
      for (const e of newest) {
        if (closed || !isServerReachable()) break;
        if (changed.has(e.id) || !listed(e.id)) continue;
        if ((await cache.hasMail(e.id)) || !(await cache.wouldKeep(e.date))) continue;
        await api(`/api/emails/${encodeURIComponent(e.id)}`).catch(() => undefined);
      }
    } finally {
      prefetching = false;
    }
  };

  /** Keeps a GET's answer; a folder's first page is then fetched ahead once listings are quiet. */
  const keep = (path: string, data: unknown, total: number | null): Promise<void> =>
    cache.remember(path, data, total).then((kept) => {
      const page = new URLSearchParams(path.split('?', 2)[1] ?? '').get('page');
      // Drafts and Sent hold mail this client writes itself: a re-saved draft or a sent copy the
      // sync replaces changes its id, so their bodies are kept when opened, never fetched ahead.
      const ownWriting = /^\/api\/threads\/(drafts|sent)(\/|\?|$)/i.test(path);
      if (kept && !ownWriting && keptAs(path)?.kind === 'list' && Array.isArray(data) && (page === null || page === '1')) {
        // The newest answer of each first page; fetched ahead once the listings are quiet.
        if (firstPages.size >= MAX_LISTS) firstPages.clear();
        firstPages.set(path, data as Thread[]);
        window.clearTimeout(prefetchTimer);
        prefetchTimer = window.setTimeout(() => void prefetch(), PREFETCH_AFTER_MS);
      }
    });

  // Answers waiting for the browser to be idle before they are kept (`answered`), in the order
  // they came: each one's cancel and its write.
  type Waiting = { cancel: () => void; write: () => Promise<void> };
  const waiting = new Set<Waiting>();
  /** Keeps every waiting answer now, in the order they came (before the copy is read or patched). */
  const keepWaiting = async () => {
    const all = [...waiting];
    waiting.clear();
    for (const w of all) {
      w.cancel();
      await w.write().catch(() => undefined);
    }
  };

  const layer: OfflineHandle = {
    answered(path, data, headers, options) {
      if (closed) return;
      if ((options.method ?? 'GET') !== 'GET') {
        // Changed (moved, deleted, ...) here: never fetched ahead under an id it may no longer have.
        if (changed.size > 10_000) changed.clear();
        for (const id of changedIds(path, options.body)) changed.add(id);
        return;
      }
      const total = headers.has('X-Total-Count') ? Number(headers.get('X-Total-Count')) : null;
      // Kept once the browser is idle: the copy's IndexedDB write (a structured clone of the
      // answer, a transaction, an eviction pass) ran before the render of what was asked for,
      // about a tenth of the JavaScript of a mail's opening on a phone-class CPU (issue 42). A
      // call that finds the server gone keeps what is waiting first (`keepWaiting`).
      const entry: Waiting = {
        cancel: () => undefined,
        write: () => (closed ? Promise.resolve() : keep(path, data, Number.isFinite(total) ? total : null)),
      };
      entry.cancel = whenIdle(
        () => {
          if (waiting.delete(entry)) void entry.write().catch(() => undefined);
        },
        KEEP_WITHIN_MS,
        50,
      );
      waiting.add(entry);
    },
    async unreachable(path: string, options: RequestOptions) {
      if (closed) return undefined;
      await keepWaiting();
      const method = options.method ?? 'GET';
      if (method === 'GET') {
        const hit = await cache.recall(path);
        if (!hit) return undefined;
        const headers = new Headers(hit.total === null ? {} : { 'X-Total-Count': String(hit.total) });
        return { data: hit.data, headers };
      }
      const actions = actionsOf(path, method, options.body);
      if (!actions) return undefined;
      const mails: Email[] = [];
      for (const a of actions) {
        const mail = await cache.findMail(a.emailId);
        if (mail) mails.push(mail);
        // Never kept here: nothing to show it against, so it fails as online (a draft needs none).
        else if (a.kind === 'draft') mails.push(draftStandIn(a.emailId, a.body));
        else return undefined;
      }
      try {
        await oneTabAtATime(() =>
          queue.add(
            actions.map((action, i) => ({
              action,
              base: action.kind === 'draft' ? null : stateOf(mails[i]),
              subject: mails[i].subject,
            })),
          ),
        );
      } catch (e) {
        if (e instanceof QueueFullError) throw new ApiError(0, heOfflineActions.queueFull, 'queue_full');
        throw e;
      }
      const after = actions.map((a, i) => applied(a, mails[i]) ?? mails[i]);
      for (const a of actions) await cache.patchMail(a.emailId, (e) => applied(a, e));
      const thread = await cache.findThread(after[0].id);
      await publish();
      return { data: answerFor(path, method, after, thread), headers: new Headers() };
    },
    async settle(seq, choice) {
      await oneTabAtATime(() => settle(queue, seq, choice, load, send));
      await publish(true);
    },
    close() {
      closed = true;
      for (const w of waiting) w.cancel();
      waiting.clear();
      stopWatching();
      window.clearInterval(ping);
      window.clearTimeout(prefetchTimer);
      kv.close();
    },
  };
  await publish();
  if (isServerReachable()) void runReplay();
  return layer;
}
