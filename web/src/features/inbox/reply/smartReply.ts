// Smart reply (spec 000 §4 "Reply panel", §5): 'תשובה חכמה' asks the server for a reply to a
// stored mail and puts it into that mail's reply panel (replyDrafts), opening it. Module-level like
// replyDrafts: the reading pane remounts for every mail, and a reply still being written must land
// in its own mail's draft when the user has moved on. One request per mail at a time; a result
// that arrives after the session changed (sign-out, another user) is dropped.
// When the generated text replaced text the user had written, the old text is kept so the panel
// can offer it back while the draft still holds exactly the generated text.

import { useCallback, useSyncExternalStore } from 'react';
import { smartReply } from '../../../api/ai';
import { getToken } from '../../../api/session';
import { replyDrafts } from './replyDrafts';

type Listener = () => void;

let pending = new Set<string>();
/** Per mail: the text the user had before a smart reply replaced it, and what replaced it. */
let replaced = new Map<string, { previous: string; generated: string }>();
const listeners = new Set<Listener>();

function emit() {
  for (const l of [...listeners]) l();
}

function subscribe(l: Listener): () => void {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
}

export const smartReplies = {
  isBusy: (id: string) => pending.has(id),

  /**
   * Generates a reply for mail `id`. Resolves when done; a call while one runs for the same mail
   * does nothing. `onError` gets the failure (the caller shows it).
   */
  async run(id: string, onError: (e: unknown) => void): Promise<void> {
    if (pending.has(id)) return;
    const token = getToken();
    pending = new Set(pending).add(id);
    emit();
    try {
      const { reply } = await smartReply({ emailId: id });
      if (getToken() !== token) return;
      const previous = replyDrafts.get(id) ?? '';
      const next = new Map(replaced);
      if (previous.trim() && previous !== reply) next.set(id, { previous, generated: reply });
      else next.delete(id);
      replaced = next;
      replyDrafts.open(id, { focus: true });
      replyDrafts.set(id, reply);
    } catch (e) {
      if (getToken() === token) onError(e);
    } finally {
      pending = new Set(pending);
      pending.delete(id);
      emit();
    }
  },

  /** The text a smart reply replaced, while the draft still holds the generated text. */
  replacedText(id: string): string | null {
    const entry = replaced.get(id);
    return entry && replyDrafts.get(id) === entry.generated ? entry.previous : null;
  },

  /** Puts the user's own text back in place of the generated one. */
  restore(id: string) {
    const previous = smartReplies.replacedText(id);
    const next = new Map(replaced);
    next.delete(id);
    replaced = next;
    emit();
    if (previous !== null) replyDrafts.set(id, previous);
  },

  /** For tests: forget everything. */
  reset() {
    pending = new Set();
    replaced = new Map();
    emit();
  },
};

export interface SmartReplyState {
  busy: boolean;
  /** What the last smart reply replaced, if anything (see replacedText). */
  replaced: { previous: string; generated: string } | undefined;
  run: (onError: (e: unknown) => void) => Promise<void>;
  restore: () => void;
}

export function useSmartReply(id: string): SmartReplyState {
  const busy = useSyncExternalStore(subscribe, () => pending.has(id));
  const entry = useSyncExternalStore(subscribe, () => replaced.get(id));
  return {
    busy,
    replaced: entry,
    run: useCallback((onError: (e: unknown) => void) => smartReplies.run(id, onError), [id]),
    restore: useCallback(() => smartReplies.restore(id), [id]),
  };
}
