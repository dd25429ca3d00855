// The user's own folders (docs/API.md "Folders"): the tree of every mailbox's folders with plain
// names and counts, and the changes made on the mail server (create, rename or move, delete), and
// moving mail into a folder. Every change answers with the tree (the delete with what it removed).

import { api } from './client';
import type {
  CreateFolder,
  DeleteFolder,
  FolderDeleted,
  FolderTree,
  MailMoved,
  MoveMail,
  RenameFolder,
} from './generated';

export type { FolderDeleted, FolderNode, FolderTree, MailMoved, MailboxFolders } from './generated';

export const folderKeys = {
  tree: () => '/api/folders/tree',
};

export const createFolder = (body: CreateFolder) =>
  api<FolderTree>('/api/folders/create', { method: 'POST', body });

/** Renames and/or moves (re-parents) a folder; the folders inside it go along. */
export const renameFolder = (body: RenameFolder) =>
  api<FolderTree>('/api/folders/rename', { method: 'POST', body });

/** Deletes a folder, the folders inside it and their mail, on the server. */
export const deleteFolder = (body: DeleteFolder) =>
  api<FolderDeleted>('/api/folders/delete', { method: 'POST', body });

/** Moves mail (ids) into a folder of its mailbox (`INBOX` takes it back to the inbox). */
export const moveMailToFolder = (body: MoveMail) =>
  api<MailMoved>('/api/folders/move-mail', { method: 'POST', body });

/**
 * How the API names one folder by its server path and nothing else (docs/API.md): a folder of the
 * user's own called "Sent", "Spam" or "Archive" is itself, never the fixed folder of that name.
 */
export const ownFolderKey = (path: string) => `box:${path}`;

/** The listing of a folder by its server path (as any folder: threads, statuses, moves). */
export const folderThreadsPath = (path: string) => `/api/threads/${encodeURIComponent(ownFolderKey(path))}`;
