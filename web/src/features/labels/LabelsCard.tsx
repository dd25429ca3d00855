// The settings page's label manager (docs/API.md "Labels"): the user's labels with their
// colours, renaming, recolouring, deleting, and a new label (any name, Hebrew too, and a colour).
// A label is an IMAP keyword on the mail, so other mail clients see it; the card says so.

import { useId, useState } from 'react';
import { errorMessage } from '../../api/client';
import { createLabel } from '../../api/labels';
import { LoadError } from '../../components/LoadError';
import { heLabels } from '../../i18n/labels';
import '../../styles/labels.css';
import { ColorChoice } from './ColorChoice';
import { LabelRow } from './LabelRow';
import { useLabels } from './useLabels';

const t = heLabels;

export function LabelsCard() {
  const idBase = useId();
  const { data, error, mutate } = useLabels();
  const [name, setName] = useState('');
  const [color, setColor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState('');
  const palette = data?.palette ?? [];
  const chosen = color ?? palette[0] ?? '#1a73e8';

  async function create() {
    setBusy(true);
    setFormError('');
    try {
      await createLabel({ name: name.trim(), color: chosen });
      setName('');
      void mutate();
    } catch (err) {
      setFormError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  let list = null;
  if (data) {
    list = data.labels.length ? (
      <ul className="labels-card__list" data-testid="labels-list">
        {data.labels.map((l) => (
          <LabelRow key={`${l.id}:${l.name}`} label={l} palette={palette} maxName={data.maxName} onChanged={() => void mutate()} />
        ))}
      </ul>
    ) : (
      <p className="card__status">{t.empty}</p>
    );
  } else if (error !== undefined) {
    list = <LoadError message={`${t.loadFailed} ${errorMessage(error)}`} onRetry={() => void mutate()} testId="labels-load-error" />;
  }

  return (
    <section className="card labels-card" aria-labelledby={`${idBase}-title`} data-testid="labels-card">
      <h2 id={`${idBase}-title`} className="card__title">
        {t.title}
      </h2>
      <p className="card__status">{t.intro}</p>
      {list}
      <form
        className="labels-card__new"
        data-testid="label-new"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <label className="visually-hidden" htmlFor={`${idBase}-name`}>
          {t.newName}
        </label>
        <input
          id={`${idBase}-name`}
          type="text"
          dir="auto"
          placeholder={t.newName}
          value={name}
          maxLength={data?.maxName}
          disabled={busy}
          onChange={(e) => setName(e.target.value)}
          data-testid="label-new-name"
        />
        <ColorChoice value={chosen} palette={palette} disabled={busy} onChange={setColor} testId="label-new-colors" />
        <button type="submit" className="button button--primary" disabled={busy || name.trim() === ''} data-testid="label-new-add">
          {t.add}
        </button>
        {formError && (
          <p className="notice notice--error" role="alert" data-testid="label-new-error">
            {formError}
          </p>
        )}
      </form>
    </section>
  );
}
