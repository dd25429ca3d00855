// The AI card's key (docs/API.md "The key and the provider", spec 001 "AI key"): a password field
// whose value is sent when it loses focus (and by 'שמור מפתח'), then cleared — the server never
// returns the key, so it is never shown again. A status line says whether one is stored, and a
// stored key can be deleted after a confirmation. `keyElsewhere`: the key stored belongs to
// another provider or address than the one in effect (it is bound to them), so one is asked for.

import { useRef, useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { aiKeys, deleteApiKey, storeApiKey, type KeyExists } from '../../api/ai';
import { errorMessage } from '../../api/client';
import { useToast } from '../../session/Toasts';
import { ConfirmDialog, useConfirmation } from '../../components/ConfirmDialog';
import { TextField } from '../../components/Field';
import { heAiSettings } from '../../i18n/aiSettings';

const t = heAiSettings;

/** `keyRequired` of the saved provider; undefined while the provider settings load. */
export function AiKeySection({ keyRequired, keyElsewhere = false }: { keyRequired: boolean | undefined; keyElsewhere?: boolean }) {
  const { mutate } = useSWRConfig();
  const toast = useToast();
  const status = useSWR<KeyExists>(aiKeys.keyExists());
  const [value, setValue] = useState('');
  const [saving, setSaving] = useState(false);
  // Blur and the button's click arrive one after the other: the key goes out once.
  const savingRef = useRef(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = useConfirmation<true>();

  /** Shows the server's answer at once, then re-reads it (and the provider's keyStored). */
  function refresh(exists: boolean) {
    void status.mutate((prev) => ({ household: prev?.household ?? false, exists }), { revalidate: true });
    void mutate(aiKeys.settings());
  }

  async function save() {
    const key = value.trim();
    if (!key || savingRef.current) return;
    savingRef.current = true;
    setSaving(true);
    setError(null);
    try {
      const res = await storeApiKey(key);
      setValue('');
      toast.success(t.keySaved);
      refresh(res?.exists ?? true);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      savingRef.current = false;
      setSaving(false);
    }
  }

  // The dialog closes either way; a failure shows under the field.
  async function remove() {
    try {
      const res = await deleteApiKey();
      toast.success(t.keyDeleted);
      refresh(res?.exists ?? false);
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  const exists = status.data?.exists;
  // No key of their own, but the household's serves them: their AI calls work.
  const household = status.data?.household === true;
  let statusText: string = t.keyChecking;
  if (exists !== undefined) statusText = exists ? t.keyStored : household ? t.keyHousehold : t.keyMissing;
  else if (status.error) statusText = t.keyCheckFailed;

  return (
    <div className="ai-key">
      <h3 className="card__subtitle">{t.keyTitle}</h3>
      <p
        className={`ai-key__status${exists === undefined ? '' : exists ? ' ai-key__status--stored' : ' ai-key__status--missing'}`}
        role="status"
        data-testid="ai-key-status"
        data-exists={exists === undefined ? undefined : String(exists)}
      >
        <span className="ai-key__dot" aria-hidden="true" />
        {statusText}
      </p>
      {keyElsewhere && (
        <p className="field__hint ai-key__elsewhere" data-testid="ai-key-elsewhere">
          {t.keyElsewhere}
        </p>
      )}
      <form
        className="ai-key__row"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <TextField
          id="ai-key-input"
          verbatim
          label={t.keyLabel}
          hint={keyRequired === false ? `${t.keyOptional} ${t.keyHint}` : t.keyHint}
          type="password"
          autoComplete="off"
          placeholder={t.keyPlaceholder}
          disabled={saving}
          value={value}
          onValueChange={setValue}
          onBlur={() => void save()}
        />
        <div className="ai-key__actions">
          <button type="submit" className="button button--primary" disabled={saving || !value.trim()} data-testid="ai-key-save">
            {saving ? t.keySaving : t.keySave}
          </button>
          {exists && (
            <button
              type="button"
              className="button"
              disabled={saving || confirm.busy}
              onClick={() => confirm.ask(true)}
              data-testid="ai-key-delete"
            >
              {t.keyDelete}
            </button>
          )}
        </div>
      </form>
      {error && (
        <p className="notice notice--error" role="alert" data-testid="ai-key-error">
          {error}
        </p>
      )}
      {confirm.item && (
        <ConfirmDialog
          {...confirm.dialog(remove)}
          title={t.keyDeleteTitle}
          confirmLabel={t.keyDeleteYes}
          cancelLabel={t.keyDeleteNo}
          danger
        >
          <p>{t.keyDeleteQuestion}</p>
          {keyRequired !== false && <p>{t.keyDeleteExplain}</p>}
        </ConfirmDialog>
      )}
    </div>
  );
}
