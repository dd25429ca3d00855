// The inbox's keyboard shortcuts (issue 4): j/k next and previous thread, Enter open, r reply
// (opens the quick reply panel), e processed, s star, # delete (with the confirmation), / the
// sidebar's search box, c compose, ? the list of shortcuts (Escape or ? closes it). While the list
// is open only those two work.

import type { Thread } from '../../api/types';
import { useShortcuts, type ShortcutMap } from './useShortcuts';

export interface InboxShortcutActions {
  /** False while a dialog (the delete confirmation) has the keyboard. */
  enabled: boolean;
  helpOpen: boolean;
  setHelpOpen: (open: boolean) => void;
  /** Called before any shortcut runs. */
  onUse: () => void;
  next: () => void;
  previous: () => void;
  openAtCursor: () => void;
  /** The thread the keys act on: the cursor's, else the open one. */
  current: () => Thread | null;
  reply: (thread: Thread) => void;
  processed: (thread: Thread) => void;
  star: (thread: Thread) => void;
  askDelete: (thread: Thread) => void;
  compose: () => void;
}

/** The sidebar's search box (Sidebar.tsx), focused by '/'. */
export function focusSearch(): void {
  const box =
    document.getElementById('sidebar-search-input') ??
    document.querySelector<HTMLElement>('[data-testid="sidebar-search"]');
  box?.focus();
}

export function useInboxShortcuts(a: InboxShortcutActions): void {
  const onThread = (run: (thread: Thread) => void) => () => {
    const th = a.current();
    if (th) run(th);
  };
  const bindings: ShortcutMap = a.helpOpen
    ? { '?': () => a.setHelpOpen(false), Escape: () => a.setHelpOpen(false) }
    : {
        j: a.next,
        k: a.previous,
        Enter: a.openAtCursor,
        r: onThread(a.reply),
        e: onThread(a.processed),
        s: onThread(a.star),
        '#': onThread(a.askDelete),
        '/': focusSearch,
        c: a.compose,
        '?': () => a.setHelpOpen(true),
      };
  const map: ShortcutMap = {};
  for (const [key, run] of Object.entries(bindings)) {
    map[key] = (e) => {
      a.onUse();
      run?.(e);
    };
  }
  useShortcuts(map, a.enabled);
}
