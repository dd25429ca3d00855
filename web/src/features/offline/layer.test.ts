// The offline layer through the API client's seam (issue 39): a listing read online is answered
// from the copy when the server is gone (with its total), a status change then is queued and
// answered at once as the server would, the copy shows it, and once the server answers again
// the queued request reaches it; a change made elsewhere meanwhile is held as a conflict.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, apiWithHeaders, setOfflineLayer } from '../../api/client';
import { detail, mail, thread } from '../inbox/testFixtures';
import { reportServerReachable } from '../../lib/serverConnection';
import { json, signInAs } from '../../test/helpers';
import { memoryKv } from './kv';
import { createOfflineLayer, type OfflineHandle } from './layer';
import { KEEP_WITHIN_MS } from './limits';
import { offlineState } from './state';

const LIST = '/api/threads/inbox?page=1&perPage=50';

let handle: OfflineHandle | null = null;
afterEach(() => {
  handle?.close();
  handle = null;
  setOfflineLayer(null);
  reportServerReachable(true);
});

/** A server whose mail `1` has `status`, that can be switched off (fetch then throws as Chromium's does). */
function fakeServer() {
  const s = { up: true, status: null as string | null, requests: [] as string[] };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      if (!s.up) throw new TypeError('Failed to fetch');
      s.requests.push(`${method} ${input}${init?.body ? ` ${init.body}` : ''}`);
      const m = mail(1, { status: s.status });
      if (input === LIST) return new Response(JSON.stringify([thread([m])]), { headers: { 'X-Total-Count': '9' } });
      if (input === '/api/emails/1' && method === 'GET') return json(200, detail(m));
      if (input === '/api/health') return json(200, { status: 'ok' });
      if (input.startsWith('/api/emails/1/status') && method === 'PUT') {
        s.status = JSON.parse(String(init?.body)).status;
        return json(200, { success: true });
      }
      return json(404, { message: 'לא נמצא' });
    }),
  );
  return s;
}

async function install() {
  signInAs();
  const layer = createOfflineLayer(memoryKv(), '1', () => 300);
  setOfflineLayer(layer);
  handle = await layer;
}

/** Waits for the layer's background writes (remember, replay). */
async function until(done: () => boolean | Promise<boolean>) {
  for (let i = 0; i < 500 && !(await done()); i++) await new Promise((r) => setTimeout(r, 10));
  expect(await done()).toBe(true);
}

describe('offline layer', () => {
  it('answers from the copy offline, queues a status change, and replays it when the server is back', async () => {
    const s = fakeServer();
    await install();
    await apiWithHeaders(LIST);
    await api('/api/emails/1');

    s.up = false;
    // The copy answers: the listing with its total, the mail.
    await until(async () => (await apiWithHeaders(LIST).catch(() => null)) !== null);
    const offline = await apiWithHeaders<unknown[]>(LIST);
    expect(offline.headers.get('X-Total-Count')).toBe('9');
    expect(await api<{ id: string }>('/api/emails/1')).toMatchObject({ id: '1' });
    // Not kept: fails as before.
    await expect(api('/api/contacts')).rejects.toMatchObject({ status: 0 });

    const answer = await api<{ movedTo: string; email: { status: string } }>('/api/emails/1/status?folder=inbox', {
      method: 'PUT',
      body: { status: 'processed' },
    });
    expect(answer).toMatchObject({ movedTo: 'inbox', email: { status: 'processed' } });
    expect(offlineState().pending).toBe(1);
    // A reload offline shows what the user did.
    expect(await api('/api/emails/1')).toMatchObject({ status: 'processed' });

    s.up = true;
    reportServerReachable(true);
    await until(() => offlineState().pending === 0);
    expect(s.requests).toContain('PUT /api/emails/1/status {"status":"processed"}');
    expect(s.status).toBe('processed');
  });

  it('a change made elsewhere meanwhile is held for the user, not overwritten', async () => {
    const s = fakeServer();
    await install();
    await api('/api/emails/1');
    // The server gone at once, before the browser was idle: the answer waiting to be kept is kept
    // first, so the mail can be acted on and the action's patch is not overwritten by it.
    s.up = false;
    await api('/api/emails/1/status', { method: 'PUT', body: { status: 'processed' } });
    expect(await api('/api/emails/1')).toMatchObject({ status: 'processed' });
    s.status = 'needs_reply'; // another device, meanwhile
    s.up = true;
    reportServerReachable(true);
    await until(() => offlineState().problems.length === 1);
    expect(offlineState().problems[0]).toMatchObject({ state: 'conflict', theirs: { status: 'needs_reply' } });
    expect(s.requests.filter((r) => r.startsWith('PUT'))).toEqual([]);
    expect(s.status).toBe('needs_reply');

    await handle?.settle(offlineState().problems[0].seq, 'mine');
    expect(s.status).toBe('processed');
    expect(offlineState().problems).toEqual([]);
  });

  it('fetches the bodies of a folder’s first page ahead, but not of mail changed meanwhile', async () => {
    const s = fakeServer();
    await install();
    const page = [thread([mail(1)]), thread([mail(2)]), thread([mail(3)]), thread([mail(4)])];
    handle?.answered(LIST, page, new Headers({ 'X-Total-Count': '4' }), {});
    // The page archived mail 3 (its id may be gone now); another device moved mail 2 (the
    // listing's next answer lacks it).
    handle?.answered('/api/emails/bulk', { success: true }, new Headers(), { method: 'POST', body: { ids: ['3'], action: 'archive' } });
    handle?.answered(LIST, [page[0], page[2], page[3]], new Headers({ 'X-Total-Count': '3' }), {});
    const fetched = () => s.requests.filter((r) => r.startsWith('GET /api/emails/'));
    await until(() => fetched().length >= 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(fetched()).toEqual(['GET /api/emails/1', 'GET /api/emails/4']);
  });

  it('an answer waiting for the browser to be idle is not kept once the layer is closed', async () => {
    fakeServer();
    const kv = memoryKv();
    const first = await createOfflineLayer(kv, '1', () => 300);
    first.answered('/api/emails/1', detail(mail(1)), new Headers(), {});
    first.close();
    const second = await createOfflineLayer(kv, '2', () => 300);
    // Past the moment the first layer would have kept it.
    await new Promise((r) => setTimeout(r, KEEP_WITHIN_MS + 200));
    expect(await kv.all('responses')).toEqual([]);
    second.close();
  });

  it('another user’s copy is never shown', async () => {
    fakeServer();
    const kv = memoryKv();
    const first = await createOfflineLayer(kv, '1', () => 300);
    first.answered('/api/emails/1', detail(mail(1)), new Headers(), {});
    await until(async () => (await kv.all('responses')).length === 1);
    first.close();
    const second = await createOfflineLayer(kv, '2', () => 300);
    expect(await kv.all('responses')).toEqual([]);
    second.close();
  });
});
