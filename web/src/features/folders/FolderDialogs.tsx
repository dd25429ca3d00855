// The small dialogs of a folder's menu: a name (create, rename), a place (move under another
// folder or to the top), and the confirmation before a delete, which says how many mails go.

import { useState, type FormEvent } from 'react';
import type { FolderNode } from '../../api/folders';
import { ConfirmDelete } from '../../components/ConfirmDialog';
import { Modal } from '../../components/Modal';
import { he } from '../../i18n/he';

const t = he.ownFolders;

/** A dialog form's save (submit) and cancel. */
function SaveCancel({
  saveDisabled,
  busy,
  onClose,
  testId,
}: {
  saveDisabled: boolean;
  busy: boolean;
  onClose: () => void;
  testId: string;
}) {
  return (
    <div className="dialog__actions">
      <button type="submit" className="button button--primary" disabled={saveDisabled} data-testid={testId}>
        {t.save}
      </button>
      <button type="button" className="button" onClick={onClose} disabled={busy}>
        {t.cancel}
      </button>
    </div>
  );
}

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
        <SaveCancel saveDisabled={busy || !name.trim()} busy={busy} onClose={onClose} testId="folder-name-save" />
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
        <SaveCancel saveDisabled={busy} busy={busy} onClose={onClose} testId="folder-move-save" />
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
    <ConfirmDelete text={t} busy={busy} onConfirm={onConfirm} onCancel={onCancel}>
      <p dir="auto" data-testid="folder-delete-question">
        {t.deleteQuestion(name, mails, folders)}
      </p>
    </ConfirmDelete>
  );
}
