// The master-password modal (spec 001 §2, §5): saving the settings to the server, loading them
// from there, or restoring them from a downloaded file, each sealed with a password only the user
// knows. Below 8 characters the confirm button is disabled and Enter does nothing; the server's
// Hebrew error (a wrong password: nothing changed) shows inside the modal, which stays open; on
// success it hands the server's answer back and the caller closes it.

import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client';
import {
  fileToBase64,
  masterPasswordLongEnough,
  restoreBackup,
  restoreBackupFile,
  saveBackup,
  type BackupResponse,
} from '../../api/household';
import { TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { heHousehold } from '../../i18n/household';
import '../../styles/household.css';

const t = heHousehold.master;

export type MasterMode = 'save' | 'load' | 'file';

const TITLE: Record<MasterMode, string> = { save: t.saveTitle, load: t.loadTitle, file: t.fileTitle };
const CONFIRM: Record<MasterMode, string> = { save: t.save, load: t.load, file: t.restore };

export function MasterPasswordDialog({
  mode,
  file,
  hasBackup,
  onClose,
  onDone,
}: {
  mode: MasterMode;
  /** The chosen backup file, for `file`. */
  file?: File | null;
  /** A backup is already kept on the server (saving replaces it). */
  hasBackup?: boolean;
  onClose: () => void;
  onDone: (result: BackupResponse) => void;
}) {
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const explainId = useId();
  const ready = masterPasswordLongEnough(password) && (mode !== 'file' || Boolean(file));

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    // Spec 001 §5: below 8 characters Enter is ignored, as the button is disabled.
    if (!ready || busy) return;
    setBusy(true);
    setError(null);
    try {
      let result: BackupResponse;
      if (mode === 'save') result = await saveBackup(password);
      else if (mode === 'load') result = await restoreBackup(password);
      else {
        let content: string;
        try {
          content = await fileToBase64(file!);
        } catch {
          setError(heHousehold.backup.fileReadFailed);
          return;
        }
        result = await restoreBackupFile(password, content);
      }
      onDone(result);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title={TITLE[mode]} closeLabel={t.close} onClose={onClose} testId="master-dialog" busy={busy}>
      <form className="master-form" onSubmit={(e) => void onSubmit(e)} noValidate data-mode={mode}>
        <div id={explainId} className="master-form__explain">
          {mode === 'save' ? (
            <>
              <p>{t.saveExplain}</p>
              {hasBackup && <p>{t.saveReplaces}</p>}
            </>
          ) : (
            <p>{t.loadExplain}</p>
          )}
          {mode === 'file' && file && (
            <p className="master-form__file" data-testid="master-file">
              {t.file} <bdi dir="auto">{file.name}</bdi>
            </p>
          )}
        </div>
        <TextField
          id="master-password"
          label={t.password}
          hint={t.passwordHint}
          type="password"
          dir="ltr"
          autoComplete={mode === 'save' ? 'new-password' : 'current-password'}
          data-autofocus
          aria-invalid={error ? true : undefined}
          disabled={busy}
          value={password}
          onValueChange={(v) => {
            setPassword(v);
            setError(null);
          }}
        />
        {error && (
          <p className="notice notice--error" role="alert" data-testid="master-error">
            {error}
          </p>
        )}
        <div className="dialog__actions">
          <button type="submit" className="button button--primary" disabled={!ready || busy} data-testid="master-confirm">
            {busy ? t.working : CONFIRM[mode]}
          </button>
          <button type="button" className="button" onClick={onClose} disabled={busy} data-testid="master-cancel">
            {t.cancel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
