// Pending settings conflicts (spec 001 §4): for each, every clashing key with my value and the
// value another session saved (and who), a choice per key, and the three ways out: accept mine,
// accept theirs, or merge (the choices as made).

import { useState } from 'react';
import { Modal } from '../../../components/Modal';
import { heSettingsSync } from '../../../i18n/settingsSync';
import { type Choice, type PendingConflict, allChoices } from './conflicts';
import { keyLabel, valueLabel } from './format';
import { useSettingsSync } from './SettingsProvider';

const t = heSettingsSync.conflictsDialog;

export function ConflictsDialog({ onClose }: { onClose: () => void }) {
  const sync = useSettingsSync();
  const [busy, setBusy] = useState(false);

  async function run(action: () => Promise<unknown> | void) {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title={t.title} closeLabel={t.close} onClose={onClose} testId="settings-conflicts" busy={busy} wide>
      {sync.conflicts.length === 0 ? (
        <div className="settings-conflict__done">
          <p className="muted" data-testid="conflicts-none">
            {t.none}
          </p>
          {/* The resolved conflict's buttons are gone: focus lands here, so Escape still closes. */}
          <button type="button" className="button" autoFocus onClick={onClose} data-testid="conflicts-close">
            {t.close}
          </button>
        </div>
      ) : (
        <>
          <p>{t.intro}</p>
          {sync.conflicts.map((c) => (
            <ConflictItem
              key={c.id}
              conflict={c}
              busy={busy}
              onMine={() => run(() => sync.resolve(c.id, allChoices(c, 'mine')))}
              onTheirs={() => run(() => sync.acceptTheirs(c.id))}
              onMerge={(choices) => run(() => sync.resolve(c.id, choices))}
            />
          ))}
        </>
      )}
    </Modal>
  );
}

function ConflictItem({
  conflict,
  busy,
  onMine,
  onTheirs,
  onMerge,
}: {
  conflict: PendingConflict;
  busy: boolean;
  onMine: () => void;
  onTheirs: () => void;
  onMerge: (choices: Record<string, Choice>) => void;
}) {
  const [choices, setChoices] = useState<Record<string, Choice>>(() => allChoices(conflict, 'theirs'));
  return (
    <section className="settings-conflict" data-testid="conflict">
      <ul className="settings-conflict__items stack-list">
        {conflict.items.map((item) => (
          <li key={item.key} className="settings-conflict__item" data-testid="conflict-item" data-key={item.key}>
            <strong>{keyLabel(item.key)}</strong>
            <span className="muted" dir="auto">
              {t.changedBy(item.changedBy)}
            </span>
            <fieldset className="settings-conflict__choice">
              <legend className="visually-hidden">{keyLabel(item.key)}</legend>
              {(['mine', 'theirs'] as const).map((side) => (
                <label key={side}>
                  <input
                    type="radio"
                    name={`${conflict.id}-${item.key}`}
                    checked={choices[item.key] === side}
                    disabled={busy}
                    onChange={() => setChoices((c) => ({ ...c, [item.key]: side }))}
                    data-testid={`conflict-${side}`}
                  />
                  {t[side]}: {valueLabel(item.key, side === 'mine' ? item.yours : item.theirs)}
                </label>
              ))}
            </fieldset>
          </li>
        ))}
      </ul>
      <div className="settings-conflict__actions">
        <button type="button" className="button" disabled={busy} onClick={onMine} data-testid="conflict-accept-mine">
          {t.acceptMine}
        </button>
        <button type="button" className="button" disabled={busy} onClick={onTheirs} data-testid="conflict-accept-theirs">
          {t.acceptTheirs}
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={busy}
          onClick={() => onMerge(choices)}
          data-testid="conflict-merge"
        >
          {t.merge}
        </button>
      </div>
    </section>
  );
}
