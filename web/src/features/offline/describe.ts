// A queued action and a mail's state in Hebrew (issue 39), for the conflicts dialog.

import { he, type FolderKey } from '../../i18n/he';
import { heOfflineActions } from '../../i18n/offlineActions';
import type { MailState, QueuedAction } from './actions';

const t = heOfflineActions;

/** What the user did offline, in a few words. */
export function describeAction(q: QueuedAction): string {
  switch (q.kind) {
    case 'flags': {
      const parts: string[] = [];
      if (typeof q.body?.is_read === 'boolean') parts.push(q.body.is_read ? t.actions.read : t.actions.unread);
      if (typeof q.body?.is_starred === 'boolean') parts.push(q.body.is_starred ? t.actions.star : t.actions.unstar);
      return parts.join(', ');
    }
    case 'status': {
      const status = String(q.body?.status ?? '');
      return status === 'none' ? t.actions.noStatus : t.actions.status(t.statusLabel(status));
    }
    case 'delete':
      return t.actions.delete;
    case 'trash':
      return t.actions.trash;
    case 'draft':
      return t.actions.draft;
  }
}

/** A folder's Hebrew name (INBOX: דואר נכנס), or the mailbox's own name for its other folders. */
function folderName(folder: string): string {
  const key = (Object.keys(he.folders) as FolderKey[]).find((k) => k.toLowerCase() === folder.toLowerCase());
  return key ? he.folders[key] : folder;
}

/** The mail as the server has it now, the parts an action depends on. */
export function describeState(s: MailState): string {
  const parts = [s.status ? t.statusLabel(s.status) : t.state.noStatus];
  if (s.priority === 'urgent' || s.priority === 'high') parts.push(t.statusLabel(s.priority));
  parts.push(s.is_read ? t.state.read : t.state.unread);
  if (s.is_starred) parts.push(t.state.starred);
  parts.push(t.state.folder(folderName(s.folder)));
  return parts.join(' · ');
}
