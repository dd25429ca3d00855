// The mail account card's backup part (spec 001 §2 "save to server", "load from server", the
// master-password modal): what the server keeps (GET /api/settings/backup), the two buttons that
// open the modal — "load" disabled and labelled 'אין הגדרות שמורות' when nothing is kept — and
// the kept backup as a file to download, or a file to restore from.
//
// A restore puts every section of the backup (heHousehold.backup.sections) back on the
// server, so every cached answer of this session is read again. What it left out (a mailbox of another install's household settings, a base URL only an admin sets, a
// forward waiting for confirmation) stays listed under the buttons until the next action.

import { useRef, useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { errorMessage } from '../../api/client';
import type { BackupSectionName } from '../../api/generated';
import { downloadBackup, householdKeys, type BackupInfo, type BackupResponse } from '../../api/household';
import { useToast } from '../../session/Toasts';
import { heHousehold } from '../../i18n/household';
import { formatDateTime } from '../../lib/dates';
import '../../styles/household.css';
import { MasterPasswordDialog, type MasterMode } from './MasterPasswordDialog';

const t = heHousehold.backup;
/** Every section the server can save, by its Hebrew name: a new section without one fails the typecheck. */
const SECTION_NAMES: Readonly<Record<BackupSectionName, string>> = t.sections;

/** A section's Hebrew name; one this build does not know (a newer server) is left out. */
function sectionNames(sections: readonly string[]): string {
  const names: Record<string, string> = SECTION_NAMES;
  return sections.flatMap((s) => (names[s] ? [names[s]] : [])).join(', ');
}

const everySection = Object.values(SECTION_NAMES).join(', ');

export function BackupSection() {
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const { data: info, error, mutate: reloadInfo } = useSWR<BackupInfo>(householdKeys.backup());
  const [mode, setMode] = useState<MasterMode | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [downloading, setDownloading] = useState(false);
  const [notes, setNotes] = useState<readonly string[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);

  const exists = info?.exists === true;
  const none = info?.exists === false;

  function close() {
    setMode(null);
    setFile(null);
  }

  function done(result: BackupResponse) {
    const was = mode;
    close();
    toast.success(result.message);
    setNotes(result.notes);
    if (was === 'save') {
      void reloadInfo({ exists: true, createdAt: result.createdAt, sections: result.sections }, { revalidate: true });
    } else {
      // Mailboxes, AI settings, preferences, training and templates are the backup's now.
      void mutate(() => true);
    }
  }

  async function download() {
    setDownloading(true);
    try {
      await downloadBackup();
    } catch (err) {
      toast.error(`${t.downloadFailed}: ${errorMessage(err)}`);
    } finally {
      setDownloading(false);
    }
  }

  return (
    <section className="backup" aria-labelledby="backup-title" data-testid="backup-section">
      <h3 id="backup-title" className="card__subtitle">
        {t.title}
      </h3>
      <p className="field__hint backup__intro">{t.intro(everySection)}</p>
      {info && (
        <p className="backup__status" data-testid="backup-status" data-exists={info.exists}>
          {exists && info.createdAt ? (
            <>
              <span>{t.savedAt(formatDateTime(info.createdAt))}</span>
              {info.sections.length > 0 && <span className="backup__sections">{t.includes(sectionNames(info.sections))}</span>}
            </>
          ) : (
            t.notYet
          )}
        </p>
      )}
      <div className="form__actions backup__actions">
        <button type="button" className="button" onClick={() => setMode('save')} data-testid="backup-save">
          {t.saveToServer}
        </button>
        <button
          type="button"
          className="button"
          // Unknown until asked; a failed question leaves it to the server to say.
          disabled={none || (!info && !error)}
          onClick={() => setMode('load')}
          data-testid="backup-load"
        >
          {none ? t.none : t.loadFromServer}
        </button>
        <button
          type="button"
          className="button"
          disabled={!exists || downloading}
          onClick={() => void download()}
          data-testid="backup-download"
        >
          {t.download}
        </button>
        <button type="button" className="button" onClick={() => fileInput.current?.click()} data-testid="backup-restore-file">
          {t.restoreFile}
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".mcbk,application/octet-stream"
          className="backup__file"
          aria-label={t.fileInput}
          tabIndex={-1}
          onChange={(e) => {
            const chosen = e.target.files?.[0] ?? null;
            // The same file can be chosen again after a failed attempt.
            e.target.value = '';
            if (!chosen) return;
            setFile(chosen);
            setMode('file');
          }}
          data-testid="backup-file-input"
        />
      </div>
      {notes.length > 0 && (
        <div className="notice notice--warning" role="status" data-testid="backup-notes">
          <p>{t.leftOut}</p>
          <ul>
            {notes.map((n) => (
              <li key={n} dir="auto">
                {n}
              </li>
            ))}
          </ul>
        </div>
      )}
      {mode && <MasterPasswordDialog mode={mode} file={file} hasBackup={exists} onClose={close} onDone={done} />}
    </section>
  );
}
