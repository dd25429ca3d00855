// Smart reply (spec 000 §4 "Reply panel", §5): 'תשובה חכמה' asks the server for a reply to a
// stored mail and puts it into that mail's reply panel (replyDrafts), opening it. Module-level like
// replyDrafts: the reading pane remounts for every mail, and a reply still being written must land
// in its own mail's draft when the user has moved on. One request per mail at a time; a result
// that arrives after the session changed (sign-out, another user) is dropped.
// When the generated text replaced text the user had written, the old text is kept so the panel
// can offer it back while the draft still holds exactly the generated text.
// No smart reply starts while the mail's reply is being sent or saved (replyDrafts.busy): its
// result would reopen the panel of a mail just answered.
// The AI template chosen for smart replies (training settings' templates) is remembered for the
// session (token), like the drafts.

import { useCallback, useSyncExternalStore } from 'react';
import { smartReply } from '../../../api/ai';
import { getToken } from '../../../api/session';
import { replyDrafts } from './replyDrafts';
import { listenerSet } from '../../../lib/listeners';

let pending = new Set<string>();
/** Per mail: the text the user had before a smart reply replaced it, and what replaced it. */
let replaced = new Map<string, { previous: string; generated: string }>();
/** The chosen AI template's id ('' = none), and the session it was chosen in. */
let template: { owner: string | null; id: string } = { owner: null, id: '' };
const { subscribe, emit } = listenerSet();

function chosenTemplate(): string {
  return template.owner !== null && template.owner === getToken() ? template.id : '';
}

export const smartReplies = {
  isBusy: (id: string) => pending.has(id),

  /**
   * Generates a reply for mail `id`, following the AI template `templateId` when given. Resolves
   * when done; a call while one runs for the same mail, or while its reply is being sent or saved,
   * does nothing. `onError` gets the failure (the caller shows it).
   */
  async run(id: string, onError: (e: unknown) => void, templateId?: string): Promise<void> {
    if (pending.has(id) || replyDrafts.busy(id) !== null) return;
    const token = getToken();
    pending = new Set(pending).add(id);
    emit();
    try {
      const { reply } = await smartReply({ emailId: id }, templateId ? { templateId } : {});
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

  /** The AI template chosen for smart replies in this session ('' = none). */
  template: chosenTemplate,
  setTemplate(id: string) {
    template = { owner: getToken(), id };
    emit();
  },

  /** For tests: forget everything. */
  reset() {
    pending = new Set();
    replaced = new Map();
    template = { owner: null, id: '' };
    emit();
  },
};

export interface SmartReplyState {
  busy: boolean;
  /** What the last smart reply replaced, if anything (see replacedText). */
  replaced: { previous: string; generated: string } | undefined;
  run: (onError: (e: unknown) => void, templateId?: string) => Promise<void>;
  restore: () => void;
}

export function useSmartReply(id: string): SmartReplyState {
  const busy = useSyncExternalStore(subscribe, () => pending.has(id));
  const entry = useSyncExternalStore(subscribe, () => replaced.get(id));
  return {
    busy,
    replaced: entry,
    run: useCallback(
      (onError: (e: unknown) => void, templateId?: string) => smartReplies.run(id, onError, templateId),
      [id],
    ),
    restore: useCallback(() => smartReplies.restore(id), [id]),
  };
}

/** The AI template chosen for smart replies ('' = none) and a setter; see smartReplies.template. */
export function useSmartReplyTemplate(): [string, (id: string) => void] {
  const id = useSyncExternalStore(subscribe, chosenTemplate);
  return [id, smartReplies.setTemplate];
}
