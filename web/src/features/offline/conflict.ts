// Before a queued action is replayed (issue 39): the mail on the server now against the mail as
// it was when the action was taken. Unchanged there: send it. Already as the action wants it:
// nothing to send. Changed there in what the action touches, to something else: a conflict the
// user settles (apply mine / keep theirs); it is never overwritten silently.

import { applied, stateOf, touched, type MailState, type QueuedAction } from './actions';
import type { Email } from '../../api/types';

export type Verdict = 'send' | 'done' | 'conflict';

/** The fields the action depends on: a flags change only the flags it sets. */
function fieldsOf(action: QueuedAction): (keyof MailState)[] {
  return action.kind === 'flags' ? (Object.keys(action.body ?? {}) as (keyof MailState)[]) : touched(action.kind);
}

const same = (a: MailState, b: MailState, fields: (keyof MailState)[]) => fields.every((f) => a[f] === b[f]);

/** What to do with `action` given the mail on the server now (`current` null: it is gone). */
export function judge(action: QueuedAction, current: MailState | null): Verdict {
  if (current === null) return action.kind === 'delete' || action.kind === 'trash' ? 'done' : 'conflict';
  const base = action.base;
  if (base === null) return 'send';
  const fields = fieldsOf(action);
  if (same(current, base, fields)) return 'send';
  if (action.kind === 'flags' || action.kind === 'status') {
    const wanted = applied(action, { ...base } as unknown as Email);
    if (wanted && same(current, stateOf(wanted), fields)) return 'done';
  }
  return 'conflict';
}
