// The folders a "move to folder" action can name (GET /api/folders): the mailbox's own names,
// which the server looks up as they are, once each even with several accounts. A folder with a
// known role is shown by its Hebrew name too.

import useSWR from 'swr';
import { keys } from '../../api/keys';
import type { FoldersResponse } from '../../api/types';
import { he } from '../../i18n/he';

export interface FolderChoice {
  /** What the action stores: the folder's name in the mailbox. */
  name: string;
  label: string;
}

const ROLE_TITLES: Record<string, string> = {
  inbox: he.folders.inbox,
  sent: he.folders.sent,
  drafts: he.folders.drafts,
  junk: he.folders.junk,
  trash: he.folders.trash,
  archive: he.folders.Archive,
};

export function folderChoices(data: FoldersResponse | undefined): FolderChoice[] {
  const seen = new Set<string>();
  const out: FolderChoice[] = [];
  for (const f of data?.folders ?? []) {
    if (seen.has(f.name)) continue;
    seen.add(f.name);
    const shown = f.displayName || f.name;
    const title = ROLE_TITLES[f.role.toLowerCase()];
    out.push({ name: f.name, label: title && title !== shown ? `${title} (${shown})` : shown });
  }
  return out;
}

export function useFolders() {
  const res = useSWR<FoldersResponse>(keys.folders());
  return {
    folders: folderChoices(res.data),
    loading: !res.data && res.error === undefined,
    failed: !res.data && res.error !== undefined,
  };
}
