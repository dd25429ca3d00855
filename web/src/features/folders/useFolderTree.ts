// The folder tree through SWR (re-read on `folders_changed`, `stats` and a mailbox's sync; see
// app/live/LiveUpdates), and the moves of mail into a folder with their toast.

import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import useSWR, { useSWRConfig } from 'swr';
import { errorMessage } from '../../api/client';
import { folderKeys, moveMailToFolder, type FolderNode, type FolderTree } from '../../api/folders';
import { keys } from '../../api/keys';
import { he } from '../../i18n/he';
import { useToast } from '../../session/Toasts';
import { BOX_PARAM, findFolder } from './tree';

export function useFolderTree(enabled = true) {
  const { data, error, mutate } = useSWR<FolderTree>(enabled ? folderKeys.tree() : null);
  return { mailboxes: data?.mailboxes ?? null, error, mutate };
}

/**
 * The folder of the user's own the inbox page shows (`?box=<path>`), with its plain name once
 * the tree is read (its path until then); null on any other folder.
 */
export function useOwnFolder(): { path: string; title: string } | null {
  const [params] = useSearchParams();
  const path = params.get(BOX_PARAM);
  const { mailboxes } = useFolderTree(!!path);
  if (!path) return null;
  return { path, title: (mailboxes && findFolder(mailboxes, path)?.node.fullName) || path };
}

/** Moves mail into a folder; resolves to whether it moved (the toast says so either way). */
export function useMoveMail() {
  const toast = useToast();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (ids: string[], folder: FolderNode): Promise<boolean> => {
      const name = folder.role === 'inbox' ? he.ownFolders.inbox : folder.fullName;
      try {
        const res = await moveMailToFolder({ ids, folder: folder.path });
        toast.success(he.ownFolders.mailMoved(res.moved, name));
        // Every listing and the counts: the mail left one and goes to another.
        void mutate((key) => typeof key === 'string' && (key.startsWith('/api/threads') || key.startsWith('$inf$/api/threads')));
        void mutate(keys.emailCounts());
        void mutate(folderKeys.tree());
        return true;
      } catch (err) {
        toast.error(errorMessage(err));
        return false;
      }
    },
    [mutate, toast],
  );
}
