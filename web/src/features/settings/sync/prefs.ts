// The user's preferences on this device: the spec's defaults, a copy in localStorage so the
// first paint already has the user's theme, density and scale (the server's copy follows a
// moment later), and applying them to the page: attributes on <html> that the stylesheets read,
// the UI scale's custom properties, and the time zone dates are shown in.

import type { Preferences, SettingsType } from '../../../api/settings';
import { applyScale, saveScale } from '../../../session/scale';
import { setDisplayTimeZone } from '../../../lib/dates';
import { applyThemeColor } from '../../pwa/themeColor';

/** Spec 001 §3 (the scales as the "normal" preset); the server holds the same. */
export const DEFAULT_PREFERENCES: Readonly<Preferences> = Object.freeze({
  emailNotifications: true,
  desktopNotifications: true,
  soundNotifications: false,
  autoRead: false,
  smartReply: true,
  darkMode: false,
  language: 'he',
  timezone: 'Asia/Jerusalem',
  appScale: 0.85,
  fontScale: 0.9,
  iconScale: 0.9,
  compactMode: false,
  showPreview: true,
  followUpDays: 3,
  swipeAction: 'archive',
  offlineMessages: 300,
});

const CACHE_KEY = 'mailclient.preferences';

/** The group each key's change is sent as (spec 001 §3: general, notifications, ui). */
export const KEY_GROUP: Record<keyof Preferences, SettingsType> = {
  emailNotifications: 'notifications',
  desktopNotifications: 'notifications',
  soundNotifications: 'notifications',
  autoRead: 'general',
  smartReply: 'general',
  language: 'general',
  timezone: 'general',
  darkMode: 'ui',
  compactMode: 'ui',
  showPreview: 'ui',
  appScale: 'ui',
  fontScale: 'ui',
  iconScale: 'ui',
  followUpDays: 'general',
  swipeAction: 'ui',
  offlineMessages: 'general',
};

/** The group of a change: its keys' group when they share one, else general. */
export function groupOf(update: Partial<Preferences>): SettingsType {
  const groups = new Set(Object.keys(update).map((k) => KEY_GROUP[k as keyof Preferences] ?? 'general'));
  return groups.size === 1 ? [...groups][0] : 'general';
}

/** Only the known keys with values of the default's type (storage may hold anything). */
export function sanitize(raw: unknown): Preferences {
  const out: Preferences = { ...DEFAULT_PREFERENCES };
  if (typeof raw !== 'object' || raw === null) return out;
  const r = raw as Record<string, unknown>;
  for (const key of Object.keys(DEFAULT_PREFERENCES) as (keyof Preferences)[]) {
    const v = r[key];
    if (typeof v === typeof DEFAULT_PREFERENCES[key]) (out as unknown as Record<string, unknown>)[key] = v;
  }
  return out;
}

export function readCachedPreferences(): Preferences {
  try {
    const raw = localStorage.getItem(CACHE_KEY);
    return sanitize(raw ? JSON.parse(raw) : null);
  } catch {
    return { ...DEFAULT_PREFERENCES };
  }
}

export function cachePreferences(p: Preferences): void {
  try {
    localStorage.setItem(CACHE_KEY, JSON.stringify(p));
    saveScale({ app: p.appScale, font: p.fontScale, icon: p.iconScale });
  } catch {
    /* storage unavailable: the preferences still apply to this tab */
  }
}

/** Puts the preferences into effect on this page. */
export function applyPreferences(p: Preferences, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = p.darkMode ? 'dark' : 'light';
  applyThemeColor(p.darkMode);
  root.dataset.density = p.compactMode ? 'compact' : 'normal';
  applyScale({ app: p.appScale, font: p.fontScale, icon: p.iconScale }, root);
  setDisplayTimeZone(p.timezone);
}
