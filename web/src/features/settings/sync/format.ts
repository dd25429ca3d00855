// How a preference and its value read in the sync card, the history and the conflicts.

import type { Preferences } from '../../../api/settings';
import { he } from '../../../i18n/he';

export function keyLabel(key: string): string {
  return he.preferences.keys[key] ?? key;
}

export function keysLabel(keys: readonly string[]): string {
  return keys.map(keyLabel).join(', ');
}

export function valueLabel(key: string, value: unknown): string {
  if (typeof value === 'boolean') return value ? he.settingsSync.on : he.settingsSync.off;
  if (typeof value === 'number' && key.endsWith('Scale')) return `${Math.round(value * 100)}%`;
  if (key === 'language' && value === 'he') return 'עברית';
  return String(value);
}

export type PreferenceKey = keyof Preferences;
