// Settings shared by the household and settings backups (docs/API.md "Global settings" and
// "Settings backups"; spec 001 §2 mail account card and master-password modal, §4, §7): typed
// calls and the SWR keys of what they read.
//
// Global settings: anyone signed in reads them (secrets never come back, only whether they are
// set); only an admin saves them. Backups: the user's settings sealed with a master password,
// kept on the server (one per user), downloadable and restorable from the file.

import { api, apiBlob } from './client';
import type {
  BackupFileRequest,
  BackupRequest,
  BackupResponse,
  GlobalAiTrainingRequest,
  GlobalAiTrainingResponse,
  GlobalEmailRequest,
  GlobalEmailResponse,
  GlobalSaveResponse,
  GlobalSettingsExists,
  MailLoginResponse,
} from './generated';
import { saveBlob } from './mail';

// The server's shapes (GET/POST /api/global-settings/*, /api/settings/backup*).
export type {
  BackupFileRequest,
  BackupInfo,
  BackupRequest,
  BackupResponse,
  GlobalAiTrainingRequest,
  GlobalAiTrainingResponse,
  GlobalEmailRequest,
  GlobalEmailResponse,
  GlobalEmailSettings,
  GlobalSaved,
  GlobalSaveResponse,
  GlobalSettingsExists,
} from './generated';

export const householdKeys = {
  emailExists: () => '/api/global-settings/email/exists',
  email: () => '/api/global-settings/email',
  trainingExists: () => '/api/global-settings/ai-training/exists',
  training: () => '/api/global-settings/ai-training',
  backup: () => '/api/settings/backup',
} as const;

/** Spec 001 §5/§9: the master password has at least 8 characters (as the server counts them). */
export const MASTER_PASSWORD_MIN = 8;

export function masterPasswordLongEnough(password: string): boolean {
  return Array.from(password).length >= MASTER_PASSWORD_MIN;
}

/** The name a downloaded backup is saved under (the server's Content-Disposition says the same). */
export const BACKUP_FILENAME = 'mailclient-settings.mcbk';

// ---- global mail settings ----

export const globalEmailExists = () => api<GlobalSettingsExists>(householdKeys.emailExists());

export const fetchGlobalEmail = () => api<GlobalEmailResponse>(householdKeys.email());

export const saveGlobalEmail = (body: GlobalEmailRequest) =>
  api<GlobalSaveResponse>(householdKeys.email(), { method: 'POST', body });

/**
 * Connects this user's mailbox with the household's settings, on the server (the password never
 * comes here). Answers as the mailbox login: a 422 rejects with an ApiError whose `body` is a
 * ConnectionResult.
 */
export const loadGlobalEmail = () =>
  api<MailLoginResponse>('/api/global-settings/email/load', { method: 'POST' });

// ---- global AI training settings ----

export const fetchGlobalTraining = () => api<GlobalAiTrainingResponse>(householdKeys.training());

export const saveGlobalTraining = (settings: GlobalAiTrainingRequest['settings']) =>
  api<GlobalSaveResponse>(householdKeys.training(), { method: 'POST', body: { settings } });

// ---- backups ----

export const saveBackup = (masterPassword: string) =>
  api<BackupResponse>(householdKeys.backup(), { method: 'POST', body: { masterPassword } satisfies BackupRequest });

export const restoreBackup = (masterPassword: string) =>
  api<BackupResponse>('/api/settings/backup/restore', {
    method: 'POST',
    body: { masterPassword } satisfies BackupRequest,
  });

export const restoreBackupFile = (masterPassword: string, file: string) =>
  api<BackupResponse>('/api/settings/backup/restore-file', {
    method: 'POST',
    body: { masterPassword, file } satisfies BackupFileRequest,
  });

/** Downloads the kept backup (the route needs the Authorization header, so no plain link). */
export async function downloadBackup(): Promise<void> {
  const blob = await apiBlob('/api/settings/backup/download');
  saveBlob(blob, BACKUP_FILENAME);
}

/** A chosen file's bytes as base64 (without the data: URL's prefix). */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.onload = () => {
      const url = String(reader.result ?? '');
      const comma = url.indexOf(',');
      resolve(comma >= 0 ? url.slice(comma + 1) : '');
    };
    reader.readAsDataURL(file);
  });
}
