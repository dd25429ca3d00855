import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SettingsConflictResponse } from '../../../api/settings';
import { mockFetch, renderWithProviders, signInAs } from '../../../test/helpers';
import { CONFLICT_TOAST_MS, ConflictAlerts } from './ConflictAlerts';
import { settingsServer } from './fixtures';
import { DEFAULT_PREFERENCES } from './prefs';
import { SettingsProvider, useSettingsSync, type SettingsSync } from './SettingsProvider';

let sync: SettingsSync | null = null;
function Probe() {
  sync = useSettingsSync();
  return null;
}

/** Any page but the settings page: the provider, the alerts, no settings cards. */
function renderElsewhere() {
  signInAs();
  const settings = settingsServer();
  mockFetch({ ...settings.routes });
  renderWithProviders(
    <SettingsProvider>
      <Probe />
      <ConflictAlerts />
    </SettingsProvider>,
  );
}

function lostRace(theirs: number): SettingsConflictResponse {
  return {
    success: false,
    error: 'conflict',
    message: 'ההגדרות שונו במקביל ממקום אחר. בחר אילו ערכים לשמור.',
    conflicts: [{ key: 'appScale', yours: 1.1, theirs, version: 4, changedBy: 'דנה (Firefox, Android)' }],
    version: 4,
    syncedSettings: { ...DEFAULT_PREFERENCES, appScale: theirs },
  };
}

describe('settings conflicts away from the settings page', () => {
  beforeEach(() => {
    localStorage.clear();
    sync = null;
  });
  afterEach(() => vi.unstubAllGlobals());

  it("shows 'settings conflict' with 'resolve now', which opens the conflicts dialog", async () => {
    renderElsewhere();
    await waitFor(() => expect(sync?.loaded).toBe(true));
    act(() => sync!.remoteConflict(lostRace(0.85)));
    const toast = await screen.findByTestId('settings-conflict-toast');
    expect(toast).toHaveTextContent('התנגשות בהגדרות');
    expect(toast.closest('[data-testid="toast"]')).toHaveClass('toast--error');
    // The same conflict heard again (the 409 and the /ws event) is announced once.
    act(() => sync!.remoteConflict(lostRace(0.85)));
    expect(screen.getAllByTestId('settings-conflict-toast')).toHaveLength(1);
    await userEvent.setup().click(within(toast).getByRole('button', { name: 'לפתרון עכשיו' }));
    const dialog = await screen.findByTestId('settings-conflicts');
    expect(dialog).toHaveTextContent('שונה על ידי דנה (Firefox, Android)');
    expect(screen.queryByTestId('settings-conflict-toast')).not.toBeInTheDocument();
    expect(CONFLICT_TOAST_MS).toBe(10_000);
  });

  it("says 'settings rejected' as a warning when there is nothing to decide", async () => {
    renderElsewhere();
    await waitFor(() => expect(sync?.loaded).toBe(true));
    act(() => sync!.remoteConflict(lostRace(1.1)));
    const warning = await screen.findByText(/ההגדרות נדחו/);
    expect(warning.closest('[data-testid="toast"]')).toHaveClass('toast--warning');
    expect(sync!.conflicts).toHaveLength(0);
    expect(screen.queryByTestId('settings-conflict-toast')).not.toBeInTheDocument();
  });
});
