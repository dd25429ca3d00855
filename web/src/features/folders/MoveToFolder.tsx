// "Move to folder" for the reading pane and the bulk bar: a button that opens the list of the
// mailbox's folders (the inbox and the user's own); choosing one moves the mail there.

import { useState } from 'react';
import type { FolderNode } from '../../api/folders';
import { Modal } from '../../components/Modal';
import { he } from '../../i18n/he';
import { moveTargets } from './tree';
import { useFolderTree, useMoveMail } from './useFolderTree';

const t = he.ownFolders;

export function MoveToFolder({
  ids,
  accountId,
  disabled = false,
  className = 'chip-button',
  onMoved,
  resolve,
}: {
  /** The mails to move. */
  ids: string[];
  /** Their mailbox (the folders offered are its); none: the first mailbox. */
  accountId?: number;
  disabled?: boolean;
  className?: string;
  onMoved?: (ids: string[]) => void;
  /** Every mail to move, read when a folder is chosen (the whole of threads the list holds in part). */
  resolve?: () => Promise<string[]>;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const { mailboxes } = useFolderTree();
  const moveMail = useMoveMail();
  const mailbox = mailboxes?.find((m) => m.accountId === accountId) ?? mailboxes?.[0];
  const targets = mailbox ? moveTargets(mailbox) : [];

  async function choose(folder: FolderNode) {
    setBusy(true);
    const all = resolve ? await resolve().catch(() => ids) : ids;
    const moved = await moveMail(all, folder);
    setBusy(false);
    if (moved) {
      setOpen(false);
      onMoved?.(all);
    }
  }

  return (
    <>
      <button type="button" className={className} disabled={disabled || ids.length === 0} onClick={() => setOpen(true)} data-testid="move-to-folder">
        {t.moveMail}
      </button>
      {open && (
        <Modal title={t.moveMailTitle} closeLabel={t.close} onClose={() => setOpen(false)} busy={busy} testId="move-to-folder-dialog">
          {targets.length <= 1 && <p className="muted">{t.noFolders}</p>}
          <ul className="move-targets">
            {targets.map((f) => (
              <li key={f.path}>
                <button
                  type="button"
                  className="move-targets__item"
                  disabled={busy}
                  onClick={() => void choose(f)}
                  data-testid="move-target"
                  data-path={f.path}
                >
                  <bdi dir="auto">{f.role === 'inbox' ? t.inbox : f.fullName}</bdi>
                </button>
              </li>
            ))}
          </ul>
        </Modal>
      )}
    </>
  );
}
