// How a preference and its value read in the sync card, the history and the conflicts.

import type { Preferences } from '../../../api/settings';
import { hePreferences } from '../../../i18n/preferences';
import { heSettingsSync } from '../../../i18n/settingsSync';

export function keyLabel(key: string): string {
  return hePreferences.keys[key] ?? key;
}

export function keysLabel(keys: readonly string[]): string {
  return keys.map(keyLabel).join(', ');
}

export function valueLabel(key: string, value: unknown): string {
  if (typeof value === 'boolean') return value ? heSettingsSync.on : heSettingsSync.off;
  if (typeof value === 'number' && key.endsWith('Scale')) return `${Math.round(value * 100)}%`;
  if (key === 'language' && value === 'he') return 'עברית';
  return String(value);
}

export type PreferenceKey = keyof Preferences;
