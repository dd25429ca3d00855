// The user's preferences, synced between sessions (docs/API.md "Settings sync"): typed calls and
// the SWR keys of what they read. A 409 is an ApiError whose `body` is the conflict.

import { ApiError, api } from './client';
import type {
  Preferences,
  SettingsConflictResponse,
  SettingsRollbackResponse,
  SettingsSyncResponse,
  SettingsType,
} from './generated';

export type {
  Preferences,
  SettingsChanged,
  SettingsConflictItem,
  SettingsConflictResponse,
  SettingsHistoryEntry,
  SettingsHistoryResponse,
  SettingsRollbackResponse,
  SettingsSyncResponse,
  SettingsType,
} from './generated';

export const settingsKeys = {
  current: () => '/api/settings/sync',
  history: (limit: number) => `/api/settings/history?limit=${limit}`,
} as const;

/** Whether an SWR key is one of the history's (any limit). */
export function isHistoryKey(key: unknown): boolean {
  return typeof key === 'string' && key.startsWith('/api/settings/history');
}

export function saveSettings(
  update: Partial<Preferences>,
  settingsType: SettingsType,
  baseVersion: number,
): Promise<SettingsSyncResponse> {
  return api<SettingsSyncResponse>(settingsKeys.current(), {
    method: 'PUT',
    body: { settingsUpdate: update, settingsType, baseVersion },
  });
}

export function rollbackSettings(version: number): Promise<SettingsRollbackResponse> {
  return api<SettingsRollbackResponse>('/api/settings/rollback', { method: 'POST', body: { version } });
}

/** The conflict of a refused save, when the failure is one. */
export function conflictOf(e: unknown): SettingsConflictResponse | null {
  if (!(e instanceof ApiError) || e.status !== 409) return null;
  const b = e.body as Partial<SettingsConflictResponse> | undefined;
  return b && Array.isArray(b.conflicts) && typeof b.version === 'number' && b.syncedSettings
    ? (b as SettingsConflictResponse)
    : null;
}
