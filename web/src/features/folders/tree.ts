// The user's own folders as a tree (from the server's flat list, parents first), what a delete
// would remove, where mail can be moved, the URL that opens a folder, and the drag data of mail
// dragged from the list onto a folder.

import type { DragEvent } from 'react';
import type { FolderNode, MailboxFolders } from '../../api/folders';
import { fetchThread } from '../../api/triage';

export interface TreeItem {
  node: FolderNode;
  children: TreeItem[];
}

/** The `?box=` of the inbox page: a folder of the user's own, by its server path. */
export const BOX_PARAM = 'box';

/** The mail dragged from the list: a JSON {@link MailDrag}. */
export const DRAG_TYPE = 'application/x-mailclient-mail';

/** At most this many threads are read whole for one drop (as many as a page of the list). */
const MAX_DRAGGED_THREADS = 100;

/**
 * What a drag of rows from the list carries: the ids of the mail the rows hold, and, for the threads
 * the list holds only in part (a row carries its newest mail), where their whole is read: the
 * listing (its API path and query) and the threads' ids. A drop moves every mail of every dragged
 * thread, as "move to folder" does.
 */
export interface MailDrag {
  ids: string[];
  partial: { source: string; query: string; threadIds: string[] } | null;
}

/** Whether a folder is one of the user's own (no role: not INBOX, Sent, Drafts, Trash, Junk, Archive). */
export function isOwn(node: FolderNode): boolean {
  return node.role === '';
}

/** The own folders of a mailbox as a tree; a folder whose parent is not an own folder is a root. */
export function ownTree(folders: readonly FolderNode[]): TreeItem[] {
  const own = folders.filter(isOwn);
  const items = new Map(own.map((node) => [node.path, { node, children: [] as TreeItem[] }]));
  const roots: TreeItem[] = [];
  for (const node of own) {
    const item = items.get(node.path)!;
    const parent = node.parent ? items.get(node.parent) : undefined;
    (parent ? parent.children : roots).push(item);
  }
  const byName = (a: TreeItem, b: TreeItem) => a.node.name.localeCompare(b.node.name, 'he');
  const sort = (list: TreeItem[]) => {
    list.sort(byName);
    list.forEach((i) => sort(i.children));
  };
  sort(roots);
  return roots;
}

/** How many folders (itself included) and mails a delete of `item` removes. */
export function deleteSize(item: TreeItem): { folders: number; mails: number } {
  return item.children.reduce(
    (acc, child) => {
      const c = deleteSize(child);
      return { folders: acc.folders + c.folders, mails: acc.mails + c.mails };
    },
    { folders: 1, mails: item.node.total },
  );
}

/** Where mail of a mailbox can go: the inbox, then its own folders by full name. */
export function moveTargets(mailbox: MailboxFolders): FolderNode[] {
  const inbox = mailbox.folders.filter((f) => f.role === 'inbox');
  const own = mailbox.folders.filter(isOwn).sort((a, b) => a.fullName.localeCompare(b.fullName, 'he'));
  return [...inbox, ...own];
}

/** Folders a folder may be moved under: own folders that are not itself or inside it. */
export function parentChoices(mailbox: MailboxFolders, path: string, delimiter = '/'): FolderNode[] {
  return mailbox.folders
    .filter(isOwn)
    .filter((f) => f.path !== path && !isInside(f, path, mailbox, delimiter))
    .sort((a, b) => a.fullName.localeCompare(b.fullName, 'he'));
}

function isInside(f: FolderNode, path: string, mailbox: MailboxFolders, _delimiter: string): boolean {
  let parent = f.parent;
  while (parent) {
    if (parent === path) return true;
    parent = mailbox.folders.find((x) => x.path === parent)?.parent ?? null;
  }
  return false;
}

/** The inbox page showing a folder of the user's own. */
export function ownFolderHref(path: string): string {
  return `/Inbox?${BOX_PARAM}=${encodeURIComponent(path)}`;
}

/** Starts a drag of these rows' mail (a desktop drag onto a sidebar folder moves it). */
export function startMailDrag(ev: DragEvent, drag: MailDrag): void {
  ev.dataTransfer.setData(DRAG_TYPE, JSON.stringify(drag));
  ev.dataTransfer.setData('text/plain', drag.ids.join(' '));
  ev.dataTransfer.effectAllowed = 'move';
}

const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');

/** What a drop carries, or null when it carries no mail of ours (or not in our shape). */
export function droppedMail(ev: DragEvent): MailDrag | null {
  const raw = ev.dataTransfer.getData(DRAG_TYPE);
  if (!raw) return null;
  try {
    const drag = JSON.parse(raw) as Partial<MailDrag> | null;
    if (!drag || !isStrings(drag.ids)) return null;
    const p = drag.partial;
    // Only a thread listing of our own API is read (the drop may come from anywhere).
    const partial =
      p && typeof p.source === 'string' && p.source.startsWith('/api/threads/') && typeof p.query === 'string' && isStrings(p.threadIds)
        ? { source: p.source, query: p.query, threadIds: p.threadIds.slice(0, MAX_DRAGGED_THREADS) }
        : null;
    return { ids: drag.ids, partial };
  } catch {
    return null;
  }
}

/**
 * Every mail of a drop: the rows' mail, and the whole of each thread the list held in part (read
 * now). A thread that cannot be read (its mail left the listing) keeps the rows' mail of it.
 */
export async function droppedMailIds(drag: MailDrag): Promise<string[]> {
  const { partial } = drag;
  if (!partial) return drag.ids;
  const wholes = await Promise.all(
    partial.threadIds.map((id) => fetchThread(partial.source, id, partial.query).catch(() => null)),
  );
  const all = new Set(drag.ids);
  for (const whole of wholes) whole?.emails.forEach((e) => all.add(e.id));
  return [...all];
}

/** The mailbox a folder path belongs to in the tree. */
export function findFolder(mailboxes: readonly MailboxFolders[], path: string): { mailbox: MailboxFolders; node: FolderNode } | null {
  for (const mailbox of mailboxes) {
    const node = mailbox.folders.find((f) => f.path === path);
    if (node) return { mailbox, node };
  }
  return null;
}
