// Folders on the search page: the panel's choices, the Hebrew name of the folder a result is in,
// and the inbox folder that opens it (`/Inbox?folder=<key>&mail=<id>`).

import type { SearchFolder, SearchResult } from '../../api/search';
import { he, type FolderKey } from '../../i18n/he';
import { heSearchPage } from '../../i18n/searchPage';

/** The Hebrew names of the folder roles the server reports (docs/API.md "Search": `folderRole`). */
const ROLE_TITLES: Record<string, string> = {
  inbox: he.folders.inbox,
  sent: he.folders.sent,
  drafts: he.folders.drafts,
  junk: he.folders.junk,
  spam: he.folders.junk,
  trash: he.folders.trash,
  archive: he.folders.Archive,
};

/** A choice of the panel's folder list; a value from the URL it does not offer keeps its own name. */
export function folderChoiceTitle(folder: SearchFolder | string): string {
  if (folder === 'all') return heSearchPage.filters.allFolders;
  return ROLE_TITLES[folder.toLowerCase()] ?? folder;
}

/**
 * The folder a result is in: its role's Hebrew name, or the mailbox's own folder by its plain
 * name (no `INBOX.` prefix, Hebrew decoded).
 */
export function resultFolderTitle(r: Pick<SearchResult, 'folderRole' | 'folder'> & { folderName?: string }): string {
  const role = (r.folderRole ?? '').toLowerCase();
  return ROLE_TITLES[role] ?? (r.folderName || r.folder || '');
}

/**
 * The inbox folder to open a result in. Junk is shown by the sidebar's Spam folder (the server's
 * virtual Spam holds the whole Junk folder); anything without a folder of its own opens under
 * the inbox, whose reading pane shows a mail given by `mail=` even when its list does not hold it.
 */
export function inboxFolderFor(folderRole: string | null | undefined): FolderKey {
  switch ((folderRole ?? '').toLowerCase()) {
    case 'sent':
      return 'sent';
    case 'drafts':
      return 'drafts';
    case 'junk':
    case 'spam':
      return 'Spam';
    case 'trash':
      return 'trash';
    case 'archive':
      return 'Archive';
    default:
      return 'inbox';
  }
}

/** The inbox URL that opens a result. */
export function openResultHref(r: Pick<SearchResult, 'id' | 'folderRole'>): string {
  const params = new URLSearchParams({ folder: inboxFolderFor(r.folderRole), mail: r.id });
  return `/Inbox?${params.toString()}`;
}
