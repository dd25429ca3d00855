// Replaying the queue once the server answers again (issue 39): oldest first, each action checked
// against the mail as the server has it now (conflict.ts). A conflict or a refusal holds that
// mail's later actions (they were taken after it) until the user settles it; other mail goes on.
// The server gone again midway stops the replay with the rest still queued.

import type { MailState, QueuedAction } from './actions';
import { judge } from './conflict';
import type { ActionQueue } from './queue';

/** The mail on the server now: its state, null when it is no longer there. */
export type LoadMail = (id: string) => Promise<MailState | null | 'unreachable'>;
/** Sends one action: done, the server not reached, or refused with its message. */
export type SendAction = (q: QueuedAction) => Promise<'ok' | 'unreachable' | { failed: string }>;

export async function replay(queue: ActionQueue, load: LoadMail, send: SendAction): Promise<'finished' | 'unreachable'> {
  const held = new Set<string>();
  for (const q of await queue.list()) {
    if (q.state !== 'waiting') {
      held.add(q.emailId);
      continue;
    }
    if (held.has(q.emailId)) continue;
    // A reply saved as a draft is a new draft: there is nothing elsewhere to compare it with.
    if (q.kind === 'draft') {
      if (!(await sendOne(queue, q, send))) return 'unreachable';
      continue;
    }
    const current = await load(q.emailId);
    if (current === 'unreachable') return 'unreachable';
    const verdict = judge(q, current);
    if (verdict === 'done') {
      await queue.remove(q.seq);
      continue;
    }
    if (verdict === 'conflict') {
      await queue.update({ ...q, state: 'conflict', theirs: current });
      held.add(q.emailId);
      continue;
    }
    if (!(await sendOne(queue, q, send))) return 'unreachable';
    if ((await queue.list()).some((x) => x.seq === q.seq)) held.add(q.emailId);
  }
  return 'finished';
}

/** Sends `q` and records the outcome; false when the server could not be reached. */
async function sendOne(queue: ActionQueue, q: QueuedAction, send: SendAction): Promise<boolean> {
  const r = await send(q);
  if (r === 'unreachable') return false;
  if (r === 'ok') await queue.remove(q.seq);
  else await queue.update({ ...q, state: 'failed', message: r.failed });
  return true;
}

/**
 * The user's choice on a conflict or a refusal: `mine` sends the action as it was taken (over
 * the change made elsewhere), `theirs` drops it. Then the rest of the queue goes on.
 */
export async function settle(
  queue: ActionQueue,
  seq: number,
  choice: 'mine' | 'theirs',
  load: LoadMail,
  send: SendAction,
): Promise<'finished' | 'unreachable'> {
  const q = (await queue.list()).find((x) => x.seq === seq);
  if (q) {
    if (choice === 'theirs') await queue.remove(seq);
    else if (!(await sendOne(queue, { ...q, state: 'waiting' }, send))) return 'unreachable';
  }
  return replay(queue, load, send);
}
