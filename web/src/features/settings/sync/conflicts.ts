// Conflicts of settings sync (spec 001 §4): a save based on an older version that touched keys
// another session changed since. Each waits for the user's decision: accept mine (send my
// values again), accept theirs (keep what the server has) or merge (per key, mine or theirs).

import type { Preferences, SettingsConflictItem, SettingsConflictResponse } from '../../../api/settings';

export interface PendingConflict {
  /** The same conflict heard twice (the 409 and the `/ws` event) is one. */
  id: string;
  items: SettingsConflictItem[];
  /** The server's version when it was refused: a resolution is based on the latest anyway. */
  version: number;
  /** The refused save's other keys (no conflict on them), sent with any resolution but "theirs". */
  rest: Partial<Preferences>;
}

export type Choice = 'mine' | 'theirs';

export function conflictId(c: Pick<SettingsConflictResponse, 'version' | 'conflicts'>): string {
  const items = [...c.conflicts]
    .sort((a, b) => a.key.localeCompare(b.key))
    .map((i) => `${i.key}=${JSON.stringify(i.yours)}`);
  return `${c.version}:${items.join('&')}`;
}

/**
 * Whether the user must decide (spec 000 §9): some key's value of theirs differs from mine. A
 * refusal where every clash already holds my value (or that names no key) has nothing to choose.
 */
export function needsDecision(c: Pick<SettingsConflictResponse, 'conflicts'>): boolean {
  return c.conflicts.some((i) => JSON.stringify(i.yours) !== JSON.stringify(i.theirs));
}

export function pendingOf(c: SettingsConflictResponse, rest: Partial<Preferences> = {}): PendingConflict {
  return { id: conflictId(c), items: c.conflicts, version: c.version, rest };
}

/** Adds a conflict, or completes the one already queued (the 409 knows `rest`, the event not). */
export function withConflict(queue: PendingConflict[], next: PendingConflict): PendingConflict[] {
  const i = queue.findIndex((c) => c.id === next.id);
  if (i < 0) return [...queue, next];
  const merged = { ...queue[i], rest: { ...queue[i].rest, ...next.rest } };
  return queue.map((c, j) => (j === i ? merged : c));
}

/** What a resolution sends: the keys chosen as mine (all of them for "accept mine"), and the rest. */
export function resolutionUpdate(
  conflict: PendingConflict,
  choices: Record<string, Choice>,
): Partial<Preferences> {
  const out: Record<string, unknown> = { ...conflict.rest };
  for (const item of conflict.items) {
    if ((choices[item.key] ?? 'theirs') === 'mine') out[item.key] = item.yours;
  }
  return out as Partial<Preferences>;
}

export function allChoices(conflict: PendingConflict, choice: Choice): Record<string, Choice> {
  return Object.fromEntries(conflict.items.map((i) => [i.key, choice]));
}
