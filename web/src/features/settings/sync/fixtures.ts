// A settings server in memory for the web's tests: GET and PUT /api/settings/sync and the
// history, answering like the real one (versions, 409 on a stale base that touches a key
// changed since). Spread its routes into a test's mockFetch table.

import type { SettingsChanged } from '../../../api/generated';
import type { Preferences, SettingsHistoryEntry } from '../../../api/settings';
import { json } from '../../../test/helpers';
import { DEFAULT_PREFERENCES } from './prefs';

export function settingsServer(initial: Partial<Preferences> = {}) {
  const state = {
    version: 0,
    values: { ...DEFAULT_PREFERENCES, ...initial } as Preferences,
    setAt: {} as Record<string, number>,
    history: [] as SettingsHistoryEntry[],
    puts: [] as { settingsUpdate: Partial<Preferences>; settingsType: string; baseVersion: number }[],
  };
  /** Another session's change, as the server would save it. */
  function changeElsewhere(update: Partial<Preferences>, by = 'דנה (Firefox, Android)'): SettingsChanged {
    state.version += 1;
    state.values = { ...state.values, ...update };
    for (const k of Object.keys(update)) state.setAt[k] = state.version;
    state.history.unshift({
      version: state.version,
      changedBy: by,
      settingsUpdate: Object.keys(update),
      settingsType: 'ui',
      timestamp: '2026-11-25T08:00:00Z',
    });
    return {
      changedBy: by,
      settingsUpdate: update,
      settingsType: 'ui',
      timestamp: '2026-11-25T08:00:00Z',
      version: state.version,
    };
  }
  const routes = {
    'GET /api/settings/sync': () => json(200, { success: true, version: state.version, syncedSettings: state.values }),
    'PUT /api/settings/sync': (init: RequestInit | undefined) => {
      const body = JSON.parse(String(init?.body)) as (typeof state.puts)[number];
      state.puts.push(body);
      const clashes = Object.entries(body.settingsUpdate)
        .filter(([k, v]) => (state.setAt[k] ?? 0) > body.baseVersion && state.values[k as keyof Preferences] !== v)
        .map(([k, v]) => ({
          key: k,
          yours: v,
          theirs: state.values[k as keyof Preferences],
          version: state.setAt[k],
          changedBy: 'דנה (Firefox, Android)',
        }));
      if (clashes.length) {
        return json(409, {
          success: false,
          error: 'conflict',
          message: 'ההגדרות שונו במקביל ממקום אחר. בחר אילו ערכים לשמור.',
          conflicts: clashes,
          version: state.version,
          syncedSettings: state.values,
        });
      }
      changeElsewhere(body.settingsUpdate, 'דנה כהן (Chrome, Linux)');
      return json(200, { success: true, version: state.version, syncedSettings: state.values });
    },
    'GET /api/settings/history': (_: RequestInit | undefined, url: string) => {
      const limit = Number(new URL(url, 'http://x').searchParams.get('limit') ?? 20);
      return json(200, { success: true, history: state.history.slice(0, limit) });
    },
  };
  return { state, routes, changeElsewhere };
}
