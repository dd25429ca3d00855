// User preferences (spec 001 §2 side column, §3 settings object): each one shown acts, and
// follows the user to their other sessions. A switch saves at once (optimistically: a failed
// save flips it back with the spec's message). Desktop notifications ask the browser's
// permission when switched on. Hebrew is the only UI language, so it is stated, not offered.

import { useId, useMemo, useState } from 'react';
import type { Preferences } from '../../../api/settings';
import { askDesktopPermission, desktopSupported } from '../../../session/desktopNotifications';
import { SCALE_PRESETS, matchPreset } from '../../../session/scale';
import { Switch } from '../../../components/Switch';
import { hePreferences } from '../../../i18n/preferences';
import { heScale } from '../../../i18n/scale';
import { useSettingsSync } from './SettingsProvider';
import { Card } from '../../../components/Card';

const t = hePreferences;

type BoolKey = {
  [K in keyof Preferences]: Preferences[K] extends boolean ? K : never;
}[keyof Preferences];

const SWITCHES: readonly BoolKey[] = [
  'emailNotifications',
  'desktopNotifications',
  'soundNotifications',
  'autoRead',
  'smartReply',
  'darkMode',
  'compactMode',
  'showPreview',
];

/** The counts offered for offline reading (issue 39), with the current one if set elsewhere. */
export function offlineChoices(current: number): number[] {
  return [...new Set([0, 100, 300, 1000, 2000, current])].sort((a, b) => a - b);
}

/** Every IANA zone the browser knows, with the current one even if it does not. */
export function timeZones(current: string): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  let zones: string[] = [];
  try {
    zones = intl.supportedValuesOf?.('timeZone') ?? [];
  } catch {
    zones = [];
  }
  const all = new Set([...zones, 'Asia/Jerusalem', 'UTC', current]);
  return [...all].sort();
}

export function PreferencesCard() {
  const { prefs, update, loaded } = useSettingsSync();
  const [desktopNote, setDesktopNote] = useState<string | null>(null);
  const zones = useMemo(() => timeZones(prefs.timezone), [prefs.timezone]);
  const ids = useId();
  const preset = matchPreset({ app: prefs.appScale, font: prefs.fontScale, icon: prefs.iconScale });

  async function toggle(key: BoolKey, on: boolean) {
    if (key === 'desktopNotifications' && on) {
      const permission = await askDesktopPermission();
      setDesktopNote(
        permission === 'unsupported' ? t.desktopUnsupported : permission === 'denied' ? t.desktopDenied : null,
      );
    }
    await update({ [key]: on });
  }

  return (
    <Card id={ids} title={t.title} className="preferences-card" testId="preferences-card">
      <p className="muted">{t.hint}</p>
      <ul className="preferences stack-list">
        {SWITCHES.map((key) => (
          <li key={key} className="preference">
            <Switch
              id={`${ids}-${key}`}
              label={t.keys[key]}
              hint={t.descriptions[key]}
              checked={prefs[key]}
              disabled={!loaded}
              onChange={(on) => void toggle(key, on)}
              testId={`pref-${key}`}
            />
            {key === 'desktopNotifications' && (desktopNote || (prefs.desktopNotifications && !desktopSupported())) && (
              <p className="switch__note" role="status" data-testid="pref-desktop-note">
                {desktopNote ?? t.desktopUnsupported}
              </p>
            )}
          </li>
        ))}
        <li className="preference preference--field">
          <span className="switch__label">{t.keys.language}</span>
          <span data-testid="pref-language">{t.languageOnly}</span>
        </li>
        <li className="preference preference--field">
          <label className="switch__label" htmlFor={`${ids}-timezone`}>
            {t.keys.timezone}
          </label>
          <select
            id={`${ids}-timezone`}
            className="select"
            dir="ltr"
            value={prefs.timezone}
            disabled={!loaded}
            onChange={(e) => void update({ timezone: e.target.value })}
            data-testid="pref-timezone"
          >
            {zones.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </li>
        <li className="preference preference--field">
          <label className="switch__label" htmlFor={`${ids}-swipe`} title={t.swipeHint}>
            {t.keys.swipeAction}
          </label>
          <select
            id={`${ids}-swipe`}
            className="select"
            value={prefs.swipeAction}
            disabled={!loaded}
            onChange={(e) => void update({ swipeAction: e.target.value })}
            data-testid="pref-swipeAction"
          >
            {Object.entries(t.swipeChoices).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </li>
        <li className="preference preference--field">
          <label className="switch__label" htmlFor={`${ids}-offline`} title={t.offlineHint}>
            {t.keys.offlineMessages}
          </label>
          <select
            id={`${ids}-offline`}
            className="select"
            value={prefs.offlineMessages}
            disabled={!loaded}
            onChange={(e) => void update({ offlineMessages: Number(e.target.value) })}
            data-testid="pref-offlineMessages"
          >
            {offlineChoices(prefs.offlineMessages).map((n) => (
              <option key={n} value={n}>
                {t.offlineChoice(n)}
              </option>
            ))}
          </select>
        </li>
        <li className="preference preference--field">
          <label className="switch__label" htmlFor={`${ids}-scale`}>
            {t.scale}
          </label>
          <select
            id={`${ids}-scale`}
            className="select"
            value={preset ?? ''}
            disabled={!loaded}
            onChange={(e) => {
              const p = SCALE_PRESETS.find((x) => x.id === e.target.value);
              if (p) void update({ appScale: p.scale.app, fontScale: p.scale.font, iconScale: p.scale.icon });
            }}
            data-testid="pref-scale"
          >
            {preset === null && (
              <option value="" disabled>
                {`${Math.round(prefs.appScale * 100)}% / ${Math.round(prefs.fontScale * 100)}%`}
              </option>
            )}
            {SCALE_PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {heScale.presets[p.id]}
              </option>
            ))}
          </select>
        </li>
      </ul>
    </Card>
  );
}
