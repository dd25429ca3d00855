// The mail folders (spec 000 §2 "Shared layout" and "Inbox page"). Keys are the spec's folder
// names as they appear in URLs (`/Inbox?folder=Spam`); the virtual folders are capitalised.

import type { FolderCounts } from '../../api/types';
import { he, type FolderKey } from '../../i18n/he';

export interface FolderDef {
  key: FolderKey;
  /** Which field of the server's folder counts feeds this entry's badge. */
  countKey: keyof FolderCounts;
  /** Accent colour for the folder (spec: "each has a Hebrew title and a colour"). */
  color: string;
}

/** Sidebar order, exactly as the spec lists it. */
export const SIDEBAR_FOLDERS: readonly FolderDef[] = [
  { key: 'inbox', countKey: 'inbox', color: '#1a73e8' },
  { key: 'starred', countKey: 'starred', color: '#f29900' },
  { key: 'pending-replies', countKey: 'needsReply', color: '#e37400' },
  { key: 'Archive', countKey: 'processed', color: '#188038' },
  { key: 'Spam', countKey: 'spam', color: '#d93025' },
  { key: 'Promotions', countKey: 'advertisements', color: '#e8710a' },
  { key: 'Updates', countKey: 'info', color: '#1967d2' },
  { key: 'sent', countKey: 'sent', color: '#5f6368' },
  { key: 'drafts', countKey: 'drafts', color: '#5f6368' },
  { key: 'trash', countKey: 'trash', color: '#5f6368' },
];

/** Folders the inbox page can show: the sidebar ones plus junk (the real IMAP spam folder). */
export const INBOX_FOLDERS: readonly FolderKey[] = [
  'inbox',
  'starred',
  'sent',
  'drafts',
  'junk',
  'trash',
  'Archive',
  'Spam',
  'Promotions',
  'Updates',
];

export const DEFAULT_FOLDER: FolderKey = 'inbox';

/** Link target of a sidebar folder entry. */
export function folderHref(key: FolderKey): string {
  return key === 'pending-replies' ? '/PendingReplies?folder=pending-replies' : `/Inbox?folder=${key}`;
}

/** Canonical folder key for a `folder` query value (matched case-insensitively), or null. */
export function normalizeFolder(value: string | null | undefined): FolderKey | null {
  if (!value) return null;
  const lower = value.toLowerCase();
  const all = Object.keys(he.folders) as FolderKey[];
  return all.find((k) => k.toLowerCase() === lower) ?? null;
}

export function folderTitle(key: FolderKey): string {
  return he.folders[key];
}

/**
 * The API listing behind a folder of the inbox page: its threads (docs/API.md "Threads"). The
 * server's virtual Spam already holds the Junk folder too (spam + suspicious anywhere, plus
 * everything in Junk), and its Archive holds the Archive folder plus mail marked processed.
 * Folders the inbox page does not list have none.
 */
export function folderSource(key: FolderKey): string | null {
  switch (key) {
    case 'inbox':
    case 'starred':
    case 'sent':
    case 'drafts':
    case 'junk':
    case 'trash':
    case 'Archive':
    case 'Spam':
    case 'Promotions':
    case 'Updates':
      return `/api/threads/${key}`;
    default:
      return null;
  }
}

/** Folders whose rows name the recipients rather than the sender. */
export function showsRecipients(key: FolderKey): boolean {
  return key === 'sent' || key === 'drafts';
}
