// The small dialogs of a folder's menu: a name (create, rename), a place (move under another
// folder or to the top), and the confirmation before a delete, which says how many mails go.

import { useState, type FormEvent } from 'react';
import type { FolderNode } from '../../api/folders';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Modal } from '../../components/Modal';
import { he } from '../../i18n/he';

const t = he.ownFolders;

export function NameDialog({
  title,
  initial = '',
  busy,
  onSave,
  onClose,
}: {
  title: string;
  initial?: string;
  busy: boolean;
  onSave: (name: string) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState(initial);
  function submit(e: FormEvent) {
    e.preventDefault();
    if (name.trim()) onSave(name.trim());
  }
  return (
    <Modal title={title} closeLabel={t.close} onClose={onClose} busy={busy} testId="folder-name-dialog">
      <form className="folder-dialog" onSubmit={submit}>
        <label className="field">
          <span className="field__label">{t.nameLabel}</span>
          <input
            className="input"
            dir="auto"
            value={name}
            maxLength={80}
            data-autofocus
            onChange={(e) => setName(e.target.value)}
            data-testid="folder-name-input"
          />
        </label>
        <div className="dialog__actions">
          <button type="submit" className="button button--primary" disabled={busy || !name.trim()} data-testid="folder-name-save">
            {t.save}
          </button>
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            {t.cancel}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function MoveDialog({
  choices,
  current,
  busy,
  onSave,
  onClose,
}: {
  choices: FolderNode[];
  current: string | null;
  busy: boolean;
  onSave: (parent: string | null) => void;
  onClose: () => void;
}) {
  const [parent, setParent] = useState(current ?? '');
  return (
    <Modal title={t.moveTitle} closeLabel={t.close} onClose={onClose} busy={busy} testId="folder-move-dialog">
      <form
        className="folder-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          onSave(parent || null);
        }}
      >
        <label className="field">
          <span className="field__label">{t.parentLabel}</span>
          <select className="input" value={parent} data-autofocus onChange={(e) => setParent(e.target.value)} data-testid="folder-parent">
            <option value="">{t.top}</option>
            {choices.map((f) => (
              <option key={f.path} value={f.path}>
                {f.fullName}
              </option>
            ))}
          </select>
        </label>
        <div className="dialog__actions">
          <button type="submit" className="button button--primary" disabled={busy} data-testid="folder-move-save">
            {t.save}
          </button>
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            {t.cancel}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function DeleteFolderDialog({
  name,
  mails,
  folders,
  busy,
  onConfirm,
  onCancel,
}: {
  name: string;
  mails: number;
  folders: number;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      title={t.deleteTitle}
      confirmLabel={t.deleteYes}
      cancelLabel={t.deleteNo}
      danger
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p dir="auto" data-testid="folder-delete-question">
        {t.deleteQuestion(name, mails, folders)}
      </p>
    </ConfirmDialog>
  );
}
