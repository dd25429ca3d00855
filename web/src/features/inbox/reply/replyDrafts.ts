// The reply panel's texts, one per mail (spec 000 §4 "Reply panel": remembered while switching
// mails, cleared on close, send or save-draft). Module-level rather than component state: the
// reading pane remounts for every mail it shows. An entry means "the panel is open for this mail"
// (its text may still be empty), so coming back to a mail shows its panel as it was left.
// The texts belong to one session (token): after another sign-in they read as empty, and the
// first write drops them, so nothing typed by one user is shown to the next.
// Also per mail: whether its reply is being sent or saved (`busy`), so the reading pane's buttons
// (smart reply) know it too, and a pane shown again during the request still shows it locked.

import { useCallback, useSyncExternalStore } from 'react';
import { getToken } from '../../../api/session';
import { listenerSet } from '../../../lib/listeners';

export type ReplyBusy = 'send' | 'save';

let owner: string | null = null;
let texts = new Map<string, string>();
/** A mail whose panel should take the keyboard focus when it next renders (the `r` shortcut). */
let focusFor: string | null = null;
/** Mails whose reply is being sent or saved as a draft. */
let busy = new Map<string, ReplyBusy>();
const { subscribe, emit } = listenerSet();

function read(id: string): string | undefined {
  return owner !== null && owner === getToken() ? texts.get(id) : undefined;
}

function write(change: (next: Map<string, string>) => void) {
  const token = getToken();
  const next = owner === token ? new Map(texts) : new Map<string, string>();
  owner = token;
  change(next);
  texts = next;
  emit();
}

export const replyDrafts = {
  get: read,
  /** Opens the panel for a mail, keeping any text it already has; `focus` asks for the keyboard. */
  open(id: string, { focus = false } = {}) {
    if (focus) focusFor = id;
    write((m) => m.set(id, m.get(id) ?? ''));
  },
  set(id: string, text: string) {
    write((m) => m.set(id, text));
  },
  /** Close, send and save-draft all end with this: the text is gone. */
  clear(id: string) {
    if (read(id) === undefined) return;
    write((m) => m.delete(id));
  },
  /** The reply's send or save in progress, if any. */
  busy: (id: string): ReplyBusy | null => busy.get(id) ?? null,
  setBusy(id: string, state: ReplyBusy | null) {
    const next = new Map(busy);
    if (state) next.set(id, state);
    else next.delete(id);
    busy = next;
    emit();
  },
  /** True once after `open(id, { focus: true })`. */
  takeFocus(id: string): boolean {
    if (focusFor !== id) return false;
    focusFor = null;
    emit();
    return true;
  },
  /** For tests: forget everything. */
  reset() {
    owner = null;
    texts = new Map();
    focusFor = null;
    busy = new Map();
    emit();
  },
};

export interface ReplyDraft {
  /** The panel is open for this mail. */
  isOpen: boolean;
  /** The keyboard was asked for (also when the panel was open already): see takeFocus. */
  wantsFocus: boolean;
  text: string;
  /** Being sent or saved (see replyDrafts.busy). */
  busy: ReplyBusy | null;
  open: () => void;
  setText: (text: string) => void;
  clear: () => void;
}

export function useReplyDraft(id: string): ReplyDraft {
  const text = useSyncExternalStore(subscribe, () => read(id));
  const wantsFocus = useSyncExternalStore(subscribe, () => focusFor === id);
  const state = useSyncExternalStore(subscribe, () => busy.get(id) ?? null);
  return {
    isOpen: text !== undefined,
    wantsFocus,
    text: text ?? '',
    busy: state,
    open: useCallback(() => replyDrafts.open(id), [id]),
    setText: useCallback((value: string) => replyDrafts.set(id, value), [id]),
    clear: useCallback(() => replyDrafts.clear(id), [id]),
  };
}
