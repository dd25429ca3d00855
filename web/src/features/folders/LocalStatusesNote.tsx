// Issue 38: a folder whose server takes no keywords (PERMANENTFLAGS without `\*`, as Outlook's
// folders can be) keeps its statuses in mailclient only. The sidebar marks such a folder of the
// user's own and the settings list them; the folder's own list says it too, where the user sets
// the statuses, for the fixed folders (by their role) as for the user's own (by path).

import { he } from '../../i18n/he';
import type { FolderKey } from '../../i18n/he';
import { useFolderTree } from './useFolderTree';

/** The server role of each fixed folder the inbox page lists from one server folder. */
const ROLE_OF: Partial<Record<FolderKey, string>> = {
  inbox: 'inbox',
  sent: 'sent',
  drafts: 'drafts',
  trash: 'trash',
  junk: 'junk',
};

/** The note over the list when the folder's statuses stay here; nothing otherwise. */
export function LocalStatusesNote({ folder, ownPath }: { folder: FolderKey; ownPath?: string }) {
  const role = ownPath ? undefined : ROLE_OF[folder];
  const { mailboxes } = useFolderTree(!!ownPath || !!role);
  const local = (mailboxes ?? []).some((m) =>
    m.folders.some((f) => f.statusesLocal && (ownPath ? f.path === ownPath : f.role === role)),
  );
  if (!local) return null;
  return (
    <p className="notice notice--info mail-view__notice" role="note" data-testid="local-statuses-note">
      {he.ownFolders.statusesLocal}
    </p>
  );
}
