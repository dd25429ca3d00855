// The queue and its replay (issue 39): which requests are queued, the verdict against the mail as
// the server has it now, the order, a conflict holding that mail's later actions and never
// overwriting silently, the server gone midway, the user's choice, and the queue's bound.

import { describe, expect, it } from 'vitest';
import { mail } from '../inbox/testFixtures';
import { MAX_DRAFT_CHARS, actionsOf, stateOf, type Action, type MailState, type QueuedAction } from './actions';
import { judge } from './conflict';
import { memoryKv } from './kv';
import { MAX_QUEUE, MAX_QUEUED_DRAFTS } from './limits';
import { ActionQueue, QueueFullError } from './queue';
import { replay, settle, type LoadMail, type SendAction } from './replay';

const base: MailState = stateOf(mail(1, { status: null, is_read: false, is_starred: false, folder: 'INBOX' }));

function queued(action: Action, over: Partial<QueuedAction> = {}): QueuedAction {
  return { ...action, seq: 1, at: 0, subject: 'נושא', base, state: 'waiting', ...over };
}

const one = (path: string, method: string, body?: unknown) => (actionsOf(path, method, body) ?? [])[0];

describe('actionsOf', () => {
  it('queues the inbox’s own calls and nothing else', () => {
    expect(one('/api/emails/a%2Fb', 'PUT', { is_starred: true })).toEqual({
      kind: 'flags',
      emailId: 'a/b',
      path: '/api/emails/a%2Fb',
      method: 'PUT',
      body: { is_starred: true },
    });
    expect(one('/api/emails/7/status?folder=inbox', 'PUT', { status: 'processed' })).toMatchObject({
      kind: 'status',
      path: '/api/emails/7/status',
      body: { status: 'processed' },
    });
    expect(one('/api/emails/7', 'DELETE')).toMatchObject({ kind: 'delete', method: 'DELETE' });
    expect(one('/api/emails/7/trash', 'POST')).toMatchObject({ kind: 'trash', path: '/api/emails/7/trash' });
    expect(actionsOf('/api/emails/bulk', 'POST', { ids: ['1', '2'], action: 'star' })?.map((a) => a.path)).toEqual([
      '/api/emails/1',
      '/api/emails/2',
    ]);
    const reply = { originalEmail: { id: 7, subject: 'שאלה' }, draftContent: '<p>תודה</p>' };
    expect(one('/api/drafts/save', 'POST', reply)).toMatchObject({ kind: 'draft', emailId: '7', body: reply });
    // Not queued: they fail as they do online.
    expect(actionsOf('/api/drafts/save', 'POST', { ...reply, draftContent: 'x'.repeat(MAX_DRAFT_CHARS) })).toBeNull();
    expect(actionsOf('/api/drafts/save', 'POST', { draftContent: 'x' })).toBeNull();
    expect(actionsOf('/api/emails/bulk', 'POST', { ids: ['1'], action: 'archive' })).toBeNull();
    expect(actionsOf('/api/emails/7', 'PUT', { subject: 'x' })).toBeNull();
    expect(actionsOf('/api/settings/sync', 'PUT', {})).toBeNull();
    expect(actionsOf('/api/emails/auto-archive', 'POST', {})).toBeNull();
  });
});

describe('judge', () => {
  const star = queued(one('/api/emails/1', 'PUT', { is_starred: true }));
  const processed = queued(one('/api/emails/1/status', 'PUT', { status: 'processed' }));

  it('sends what the server still has as it was', () => {
    expect(judge(star, base)).toBe('send');
    // A change elsewhere to what the action does not touch is no conflict.
    expect(judge(star, { ...base, status: 'info', is_read: true })).toBe('send');
  });

  it('has nothing to send when the server already has it as wanted', () => {
    expect(judge(star, { ...base, is_starred: true })).toBe('done');
    expect(judge(processed, { ...base, status: 'processed' })).toBe('done');
  });

  it('calls a different change made elsewhere a conflict', () => {
    expect(judge(processed, { ...base, status: 'needs_reply' })).toBe('conflict');
    const del = queued(one('/api/emails/1', 'DELETE'));
    expect(judge(del, { ...base, folder: 'Archive' })).toBe('conflict');
  });

  it('a mail gone meanwhile: deleting it is done, changing it is a conflict', () => {
    expect(judge(queued(one('/api/emails/1', 'DELETE')), null)).toBe('done');
    expect(judge(processed, null)).toBe('conflict');
  });
});

/** A fake server: each mail's state, the requests sent, and whether it answers. */
interface FakeServer {
  up: boolean;
  sent: string[];
  load: LoadMail;
  send: SendAction;
}

function server(states: Record<string, MailState | null>): FakeServer {
  const sent: string[] = [];
  const s: FakeServer = {
    up: true,
    sent,
    load: async (id) => (s.up ? (states[id] ?? null) : 'unreachable'),
    send: async (q) => {
      if (!s.up) return 'unreachable';
      sent.push(`${q.method} ${q.path} ${JSON.stringify(q.body ?? {})}`);
      return 'ok';
    },
  };
  return s;
}

async function queueOf(actions: Action[]) {
  const q = new ActionQueue(memoryKv());
  await q.add(actions.map((action) => ({ action, base, subject: `נושא ${action.emailId}` })));
  return q;
}

describe('replay', () => {
  it('sends in order; a conflict holds that mail’s later actions, other mail goes on', async () => {
    const q = await queueOf([
      one('/api/emails/1/status', 'PUT', { status: 'processed' }),
      one('/api/emails/2', 'PUT', { is_read: true }),
      one('/api/emails/1', 'PUT', { is_starred: true }),
      one('/api/emails/3', 'DELETE'),
    ]);
    const s = server({ '1': { ...base, status: 'needs_reply' }, '2': base, '3': base });
    expect(await replay(q, s.load, s.send)).toBe('finished');
    expect(s.sent).toEqual(['PUT /api/emails/2 {"is_read":true}', 'DELETE /api/emails/3 {}']);
    const left = await q.list();
    expect(left.map((x) => [x.emailId, x.state])).toEqual([
      ['1', 'conflict'],
      ['1', 'waiting'],
    ]);
    expect(left[0].theirs).toMatchObject({ status: 'needs_reply' });

    // Keep theirs: the status action goes, the held star is checked and sent.
    expect(await settle(q, left[0].seq, 'theirs', s.load, s.send)).toBe('finished');
    expect(s.sent.at(-1)).toBe('PUT /api/emails/1 {"is_starred":true}');
    expect(await q.list()).toEqual([]);
  });

  it('apply mine sends the action over the change made elsewhere', async () => {
    const q = await queueOf([one('/api/emails/1/status', 'PUT', { status: 'processed' })]);
    const s = server({ '1': { ...base, status: 'needs_reply' } });
    await replay(q, s.load, s.send);
    const [conflict] = await q.list();
    expect(s.sent).toEqual([]);
    await settle(q, conflict.seq, 'mine', s.load, s.send);
    expect(s.sent).toEqual(['PUT /api/emails/1/status {"status":"processed"}']);
    expect(await q.list()).toEqual([]);
  });

  it('the server gone midway: the rest stays queued, in order, for the next replay', async () => {
    const q = await queueOf([one('/api/emails/1', 'PUT', { is_read: true }), one('/api/emails/2', 'PUT', { is_read: true })]);
    const s = server({ '1': base, '2': base });
    const send = s.send;
    s.send = async (x) => {
      const r = await send(x);
      s.up = false;
      return r;
    };
    expect(await replay(q, s.load, s.send)).toBe('unreachable');
    expect((await q.list()).map((x) => x.emailId)).toEqual(['2']);
    s.up = true;
    s.send = send;
    expect(await replay(q, s.load, s.send)).toBe('finished');
    expect(s.sent).toEqual(['PUT /api/emails/1 {"is_read":true}', 'PUT /api/emails/2 {"is_read":true}']);
  });

  it('a refusal is kept for the user with the server’s message, not dropped', async () => {
    const q = await queueOf([one('/api/emails/1', 'PUT', { is_read: true })]);
    const s = server({ '1': base });
    await replay(q, s.load, async () => ({ failed: 'אין הרשאה' }));
    expect(await q.list()).toMatchObject([{ state: 'failed', message: 'אין הרשאה' }]);
  });

  it('a reply saved as a draft is sent as it was, whatever happened to its mail', async () => {
    const q = await queueOf([one('/api/drafts/save', 'POST', { originalEmail: { id: '1' }, draftContent: '<p>תודה</p>' })]);
    const s = server({ '1': null });
    expect(await replay(q, s.load, s.send)).toBe('finished');
    expect(s.sent).toEqual(['POST /api/drafts/save {"originalEmail":{"id":"1"},"draftContent":"<p>תודה</p>"}']);
    expect(await q.list()).toEqual([]);
  });

  it('refuses past MAX_QUEUED_DRAFTS drafts', async () => {
    const draft = one('/api/drafts/save', 'POST', { originalEmail: { id: '1' }, draftContent: 'x' });
    const q = await queueOf(Array.from({ length: MAX_QUEUED_DRAFTS }, () => draft));
    await expect(q.add([{ action: draft, base: null, subject: 'x' }])).rejects.toBeInstanceOf(QueueFullError);
  });

  it('refuses past MAX_QUEUE actions rather than dropping older ones', async () => {
    const many = Array.from({ length: MAX_QUEUE }, (_, i) => one(`/api/emails/${i}`, 'PUT', { is_read: true }));
    const q = await queueOf(many);
    await expect(q.add([{ action: many[0], base, subject: 'x' }])).rejects.toBeInstanceOf(QueueFullError);
    expect((await q.list()).length).toBe(MAX_QUEUE);
    // Keys sort numerically: the order survives past 9, 99, ...
    expect((await q.list()).map((x) => x.seq)).toEqual(many.map((_, i) => i + 1));
  });
});
