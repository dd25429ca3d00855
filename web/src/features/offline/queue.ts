// The actions taken offline, in the order taken (issue 39), kept in the `queue` store so a reload
// or a closed tab loses none. Bounded (MAX_QUEUE, MAX_QUEUED_DRAFTS of them drafts): past it a new action is refused with a Hebrew
// message rather than dropping an older one.

import type { Kv } from './kv';
import type { Action, MailState, QueuedAction } from './actions';
import { MAX_QUEUE, MAX_QUEUED_DRAFTS } from './limits';

/** The store key of an action: its sequence number, padded so the keys sort in order. */
const keyOf = (seq: number) => String(seq).padStart(12, '0');

export class QueueFullError extends Error {}

export class ActionQueue {
  constructor(
    private readonly kv: Kv,
    private readonly now: () => number = Date.now,
  ) {}

  /** Every queued action, oldest first. */
  list(): Promise<QueuedAction[]> {
    return this.kv.all<QueuedAction>('queue');
  }

  /** Queues the actions (all or none); throws QueueFullError past MAX_QUEUE. */
  async add(actions: { action: Action; base: MailState | null; subject: string }[]): Promise<QueuedAction[]> {
    const queued = await this.list();
    if (queued.length + actions.length > MAX_QUEUE) throw new QueueFullError();
    const drafts = [...queued, ...actions.map((a) => a.action)].filter((a) => a.kind === 'draft').length;
    if (drafts > MAX_QUEUED_DRAFTS) throw new QueueFullError();
    let seq = Math.max(0, (await this.kv.get<number>('meta', 'seq')) ?? 0, ...queued.map((q) => q.seq));
    const out: QueuedAction[] = [];
    for (const { action, base, subject } of actions) {
      seq += 1;
      const q: QueuedAction = { ...action, seq, at: this.now(), subject, base, state: 'waiting' };
      await this.kv.put('queue', keyOf(seq), q);
      out.push(q);
    }
    await this.kv.put('meta', 'seq', seq);
    return out;
  }

  update(q: QueuedAction): Promise<void> {
    return this.kv.put('queue', keyOf(q.seq), q);
  }

  remove(seq: number): Promise<void> {
    return this.kv.del('queue', keyOf(seq));
  }
}
