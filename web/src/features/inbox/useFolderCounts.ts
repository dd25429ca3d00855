import type { FolderCounts } from '../../api/types';

/**
 * Counts for the sidebar badges.
 *
 * For now this returns no counts: there is no mailbox data on the server yet. The counts endpoint
 * (and the `stats` real-time event that updates it, spec 000 §4) arrive with the mailbox-sync work;
 * this hook is then the only thing that changes — the sidebar already renders whatever it returns.
 */
export function useFolderCounts(): FolderCounts {
  return EMPTY;
}

const EMPTY: FolderCounts = Object.freeze({});
