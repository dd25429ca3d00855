// One label in the manager: how it looks, its name (renamed on save), its colour (recoloured at
// once), and deleting it after a confirmation that says what deleting does to the mail.

import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { deleteLabel, updateLabel, type Label } from '../../api/labels';
import { ConfirmDelete } from '../../components/ConfirmDialog';
import { heLabels } from '../../i18n/labels';
import { useToast } from '../../session/Toasts';
import { ColorChoice } from './ColorChoice';
import { LabelChip } from './LabelChip';

const t = heLabels;

export function LabelRow({ label, palette, maxName, onChanged }: { label: Label; palette: readonly string[]; maxName: number; onChanged: () => void }) {
  const toast = useToast();
  const [name, setName] = useState(label.name);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);

  async function save(body: { name?: string; color?: string }) {
    setBusy(true);
    try {
      await updateLabel(label.id, body);
      toast.success(t.savedToast);
      onChanged();
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    try {
      const res = await deleteLabel(label.id);
      toast.success(t.deletedToast(res.unlabelled));
      setConfirming(false);
      onChanged();
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const renamed = name.trim() !== '' && name.trim() !== label.name;
  return (
    <li className="labels-card__row" data-testid="label-row" data-keyword={label.keyword}>
      <LabelChip look={{ keyword: label.keyword, name: label.name, color: label.color, known: true }} testId="label-row-chip" />
      <form
        className="labels-card__row"
        onSubmit={(e) => {
          e.preventDefault();
          if (renamed) void save({ name: name.trim() });
        }}
      >
        <input
          type="text"
          dir="auto"
          aria-label={t.renameLabel(label.name)}
          value={name}
          maxLength={maxName}
          disabled={busy}
          onChange={(e) => setName(e.target.value)}
          data-testid="label-row-name"
        />
        {renamed && (
          <button type="submit" className="button" disabled={busy} data-testid="label-row-rename">
            {t.rename}
          </button>
        )}
      </form>
      <ColorChoice value={label.color} palette={palette} disabled={busy} onChange={(color) => void save({ color })} testId="label-row-colors" />
      <button type="button" className="link-button link-button--danger" disabled={busy} onClick={() => setConfirming(true)} data-testid="label-row-delete">
        {t.delete}
      </button>
      {confirming && (
        <ConfirmDelete text={t} name={label.name} busy={busy} onConfirm={() => void remove()} onCancel={() => setConfirming(false)} />
      )}
    </li>
  );
}
