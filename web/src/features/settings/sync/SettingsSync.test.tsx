import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderWithProviders, signInAs } from '../../../test/helpers';
import { conflictId, pendingOf, resolutionUpdate, withConflict } from './conflicts';
import { settingsServer } from './fixtures';
import { DEFAULT_PREFERENCES, groupOf, readCachedPreferences, sanitize } from './prefs';
import { PreferencesCard } from './PreferencesCard';
import { SettingsProvider, useSettingsSync, type SettingsSync } from './SettingsProvider';
import { SyncStatusCard } from './SyncStatusCard';

let sync: SettingsSync | null = null;
function Probe() {
  sync = useSettingsSync();
  return null;
}

function renderCards(settings = settingsServer(), extra: Parameters<typeof mockFetch>[0] = {}) {
  signInAs();
  const fetch = mockFetch({ ...settings.routes, ...extra });
  renderWithProviders(
    <SettingsProvider>
      <Probe />
      <SyncStatusCard />
      <PreferencesCard />
    </SettingsProvider>,
  );
  return fetch;
}

const html = document.documentElement;

describe('settings sync', () => {
  beforeEach(() => {
    localStorage.clear();
    sync = null;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    delete html.dataset.theme;
    delete html.dataset.density;
    html.style.cssText = '';
  });

  it("loads the user's preferences, applies them to the page and keeps a copy for the first paint", async () => {
    renderCards(settingsServer({ darkMode: true, compactMode: true, appScale: 1.1 }));
    await waitFor(() => expect(html.dataset.theme).toBe('dark'));
    expect(html.dataset.density).toBe('compact');
    expect(html.style.getPropertyValue('--app-scale')).toBe('1.1');
    expect(await screen.findByTestId('pref-darkMode')).toBeChecked();
    expect(readCachedPreferences().darkMode).toBe(true);
    expect(localStorage.getItem('appScale')).toBe('1.1');
  });

  it('a switch applies at once and saves on the version it knows, with its group', async () => {
    const settings = settingsServer();
    renderCards(settings);
    const dark = await screen.findByTestId('pref-darkMode');
    await waitFor(() => expect(dark).toBeEnabled());
    await userEvent.setup().click(dark);
    expect(html.dataset.theme).toBe('dark');
    await waitFor(() => expect(settings.state.puts).toHaveLength(1));
    expect(settings.state.puts[0]).toEqual({ settingsUpdate: { darkMode: true }, settingsType: 'ui', baseVersion: 0 });
    await waitFor(() => expect(screen.getByTestId('sync-version')).toHaveTextContent('גרסה 1'));
    // The next change is based on version 1.
    await userEvent.setup().click(screen.getByTestId('pref-autoRead'));
    await waitFor(() => expect(settings.state.puts).toHaveLength(2));
    expect(settings.state.puts[1]).toEqual({ settingsUpdate: { autoRead: true }, settingsType: 'general', baseVersion: 1 });
    // The last updates, from the history.
    await waitFor(() => expect(screen.getAllByTestId('sync-recent-item')).toHaveLength(2));
    expect(screen.getAllByTestId('sync-recent-item')[0]).toHaveTextContent('סימון כנקרא בפתיחה');
  });

  it('the offline reading count (issue 39): offered in Hebrew, saved in its group, kept for the offline layer', async () => {
    const settings = settingsServer({ offlineMessages: 450 });
    renderCards(settings);
    const count = await screen.findByTestId('pref-offlineMessages');
    await waitFor(() => expect(count).toBeEnabled());
    // The value set elsewhere stays among the choices; 0 reads "do not keep".
    expect(count).toHaveValue('450');
    expect(within(count).getByRole('option', { name: 'לא לשמור' })).toHaveValue('0');
    await userEvent.setup().selectOptions(count, '1000');
    await waitFor(() => expect(settings.state.puts).toHaveLength(1));
    expect(settings.state.puts[0]).toEqual({ settingsUpdate: { offlineMessages: 1000 }, settingsType: 'general', baseVersion: 0 });
    await waitFor(() => expect(readCachedPreferences().offlineMessages).toBe(1000));
  });

  it('a failed save flips the switch back and says so in Hebrew', async () => {
    const settings = settingsServer();
    renderCards(settings, {
      'PUT /api/settings/sync': () => json(500, { success: false, error: 'internal', message: 'שגיאה בשרת' }),
    });
    const sound = await screen.findByTestId('pref-soundNotifications');
    await waitFor(() => expect(sound).toBeEnabled());
    await userEvent.setup().click(sound);
    expect(await screen.findByText('שגיאה בשמירת ההגדרה, נסה שוב')).toBeInTheDocument();
    await waitFor(() => expect(sound).not.toBeChecked());
    expect(screen.getByTestId('sync-state')).toHaveAttribute('data-state', 'error');
    expect(screen.getByTestId('sync-state')).toHaveTextContent('שגיאה בסנכרון ההגדרות: שגיאה בשרת');
  });

  it('a stale save that clashes queues a conflict; merge sends the chosen values on the new version', async () => {
    const settings = settingsServer();
    renderCards(settings);
    const dark = await screen.findByTestId('pref-darkMode');
    await waitFor(() => expect(dark).toBeEnabled());
    // Another session turns dark mode on; this one has not heard of it.
    settings.changeElsewhere({ darkMode: true });
    const user = userEvent.setup();
    await user.click(screen.getByTestId('pref-compactMode'));
    await waitFor(() => expect(settings.state.puts).toHaveLength(1));
    // compactMode merged (version 2); now this session turns dark mode "on" → it is on; switch it
    // off on a base that predates the other change.
    act(() => {
      settings.state.setAt.darkMode = 3;
      settings.state.version = 3;
    });
    await waitFor(() => expect(dark).toBeChecked());
    await user.click(dark);
    await waitFor(() => expect(screen.getByTestId('sync-state')).toHaveAttribute('data-state', 'conflict'));
    expect(dark).toBeChecked(); // theirs until decided
    const button = screen.getByTestId('sync-conflicts');
    expect(button).toHaveTextContent('(1)');
    await user.click(button);
    const dialog = await screen.findByTestId('settings-conflicts');
    const item = within(dialog).getByTestId('conflict-item');
    expect(item).toHaveAttribute('data-key', 'darkMode');
    expect(item).toHaveTextContent('דנה (Firefox, Android)');
    await user.click(within(item).getByTestId('conflict-mine'));
    await user.click(within(dialog).getByTestId('conflict-merge'));
    await waitFor(() => expect(settings.state.values.darkMode).toBe(false));
    expect(settings.state.puts.at(-1)).toEqual({ settingsUpdate: { darkMode: false }, settingsType: 'ui', baseVersion: 3 });
    await waitFor(() => expect(dark).not.toBeChecked());
    expect(within(dialog).getByTestId('conflicts-none')).toBeInTheDocument();
  });

  it("another session's change applies here; a gap in versions reads everything again", async () => {
    const settings = settingsServer();
    const fetch = renderCards(settings);
    await waitFor(() => expect(sync?.loaded).toBe(true));
    act(() => sync!.remoteChanged(settings.changeElsewhere({ darkMode: true })));
    await waitFor(() => expect(html.dataset.theme).toBe('dark'));
    expect(screen.getByTestId('sync-version')).toHaveTextContent('גרסה 1');
    const reads = () => fetch.mock.calls.filter(([u, i]) => String(u) === '/api/settings/sync' && (i?.method ?? 'GET') === 'GET').length;
    const before = reads();
    settings.changeElsewhere({ compactMode: true });
    act(() => sync!.remoteChanged(settings.changeElsewhere({ smartReply: false })));
    await waitFor(() => expect(reads()).toBe(before + 1));
    await waitFor(() => expect(html.dataset.density).toBe('compact'));
  });

  it('the history lists versions and restores one', async () => {
    const settings = settingsServer();
    settings.changeElsewhere({ darkMode: true });
    settings.changeElsewhere({ darkMode: false });
    const fetch = renderCards(settings, {
      'POST /api/settings/rollback': () =>
        json(200, {
          success: true,
          version: 3,
          syncedSettings: { ...DEFAULT_PREFERENCES, darkMode: true },
          message: 'ההגדרות שוחזרו בהצלחה',
        }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('sync-history'));
    const dialog = await screen.findByTestId('settings-history');
    const entries = await within(dialog).findAllByTestId('history-entry');
    expect(entries.map((e) => e.dataset.version)).toEqual(['2', '1']);
    expect(entries[0]).toHaveTextContent('נוכחית');
    await user.click(within(entries[1]).getByTestId('history-rollback'));
    expect(await screen.findByText('ההגדרות שוחזרו בהצלחה')).toBeInTheDocument();
    const post = fetch.mock.calls.find(([u, i]) => String(u) === '/api/settings/rollback' && i?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ version: 1 });
    await waitFor(() => expect(html.dataset.theme).toBe('dark'));
  });
});

describe('the settings history, page by page', () => {
  it('shows 20 versions, then 20 more at a time, until all 200 kept are reached', async () => {
    const settings = settingsServer();
    for (let i = 0; i < 205; i++) settings.changeElsewhere({ darkMode: i % 2 === 0 });
    // The server keeps 200.
    settings.state.history.length = 200;
    renderCards(settings);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('sync-history'));
    const dialog = await screen.findByTestId('settings-history');
    await waitFor(() => expect(within(dialog).getAllByTestId('history-entry')).toHaveLength(20));
    for (let shown = 40; shown <= 200; shown += 20) {
      await user.click(within(dialog).getByTestId('history-more'));
      await waitFor(() => expect(within(dialog).getAllByTestId('history-entry')).toHaveLength(shown));
    }
    const all = within(dialog).getAllByTestId('history-entry');
    expect(all[199].dataset.version).toBe('6');
    expect(within(dialog).queryByTestId('history-more')).not.toBeInTheDocument();
  });
});

describe('conflicts and preferences, the pure parts', () => {
  const conflict = {
    success: false,
    error: 'conflict',
    message: '',
    version: 4,
    syncedSettings: DEFAULT_PREFERENCES,
    conflicts: [
      { key: 'darkMode', yours: false, theirs: true, version: 3, changedBy: 'x' },
      { key: 'appScale', yours: 1.1, theirs: 0.85, version: 4, changedBy: 'x' },
    ],
  };

  it('one conflict heard twice is queued once, completed with the refused other keys', () => {
    const fromEvent = pendingOf(conflict);
    const from409 = pendingOf({ ...conflict, conflicts: [...conflict.conflicts].reverse() }, { autoRead: true });
    expect(fromEvent.id).toBe(conflictId(conflict));
    const queue = withConflict(withConflict([], fromEvent), from409);
    expect(queue).toHaveLength(1);
    expect(queue[0].rest).toEqual({ autoRead: true });
    expect(resolutionUpdate(queue[0], { darkMode: 'mine' })).toEqual({ autoRead: true, darkMode: false });
    expect(resolutionUpdate(queue[0], { darkMode: 'mine', appScale: 'mine' })).toEqual({
      autoRead: true,
      darkMode: false,
      appScale: 1.1,
    });
  });

  it('groups and storage are checked', () => {
    expect(groupOf({ darkMode: true })).toBe('ui');
    expect(groupOf({ emailNotifications: true, soundNotifications: false })).toBe('notifications');
    expect(groupOf({ darkMode: true, autoRead: true })).toBe('general');
    expect(sanitize({ darkMode: 'yes', autoRead: true, nope: 1 })).toEqual({ ...DEFAULT_PREFERENCES, autoRead: true });
  });
});
