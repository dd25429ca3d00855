import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DANA, json, LAZY_PAGE, mockFetch, renderWithProviders, signInAs } from '../test/helpers';
import { settingsServer } from '../features/settings/sync/fixtures';
import { AppRoutes } from './App';

function renderApp(route: string, settings = settingsServer()) {
  signInAs();
  mockFetch({
    ...settings.routes,
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/auth/accounts': () => json(200, { success: true, accounts: [] }),
    'GET /api/emails/counts': () => json(200, {}),
  });
  return renderWithProviders(<AppRoutes />, { route });
}

describe('Layout', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("titles the inbox with the folder's Hebrew name", async () => {
    renderApp('/Inbox?folder=Spam');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('ספאם');
    expect(await screen.findByText('אין עדיין תיבת דואר מחוברת.', {}, LAZY_PAGE)).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
  });

  it('resolves pages by their last path segment', async () => {
    renderApp('/anything/settings');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('הגדרות');
    expect(await screen.findByTestId('page-SettingsPage', {}, LAZY_PAGE)).toBeInTheDocument();
  });

  it.each(['/BuilderPage', '/anything/builder'])('shows the page-builder page for %s', async (route) => {
    signInAs();
    mockFetch({
      ...settingsServer().routes,
      'GET /api/app/me': () => json(200, { success: true, user: DANA }),
      'GET /api/auth/accounts': () => json(200, { success: true, accounts: [] }),
      'GET /api/emails/counts': () => json(200, {}),
      'GET /api/builder/content': () =>
        json(200, { configured: false, apiKey: '', editorUrl: 'https://builder.io/content', urlPath: '/x', entry: null }),
    });
    renderWithProviders(<AppRoutes />, { route });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('עורך חזותי');
    expect(await screen.findByTestId('builder-not-configured', {}, LAZY_PAGE)).toBeInTheDocument();
  });

  it.each([
    ['/Contacts', 'אנשי קשר', 'page-ContactsPage'],
    ['/tasks', 'משימות', 'page-TasksPage'],
    ['/Rules', 'כללים וסינון', 'page-RulesPage'],
  ])('shows the real page for %s', async (route, title, testId) => {
    renderApp(route);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(title);
    expect(await screen.findByTestId(testId, {}, LAZY_PAGE)).toBeInTheDocument();
  });

  it('opens the drawer from the menu button and closes it on Escape, backdrop and navigation', async () => {
    const r = renderApp('/Inbox');
    const user = userEvent.setup();
    const menu = screen.getByRole('button', { name: 'פתיחת תפריט' });
    const shell = () => document.querySelector('.app-shell')!;

    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    expect(shell()).toHaveClass('is-drawer-open');
    await user.keyboard('{Escape}');
    expect(shell()).not.toHaveClass('is-drawer-open');

    await user.click(menu);
    fireEvent.click(screen.getByTestId('drawer-backdrop'));
    expect(shell()).not.toHaveClass('is-drawer-open');

    await user.click(menu);
    await user.click(screen.getByTestId('folder-sent'));
    await waitFor(() => expect(r.location().search).toBe('?folder=sent'));
    expect(shell()).not.toHaveClass('is-drawer-open');
  });

  it('changes the UI scale from the footer popover and keeps it in the preferences', async () => {
    const settings = settingsServer();
    renderApp('/Inbox', settings);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'גודל תצוגה' }));
    expect(screen.getByRole('button', { name: 'רגיל' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'גדול' }));
    expect(screen.getByRole('button', { name: 'גדול' })).toHaveAttribute('aria-pressed', 'true');
    // Saved on the server, so it follows the user; kept here for the next first paint.
    await waitFor(() => expect(settings.state.values.appScale).toBe(1.1));
    expect(settings.state.puts[0]).toMatchObject({
      settingsUpdate: { appScale: 1.1, fontScale: 1.1, iconScale: 1.1 },
      settingsType: 'ui',
      baseVersion: 0,
    });
    await waitFor(() => expect(localStorage.getItem('appScale')).toBe('1.1'));
    expect(document.documentElement.style.getPropertyValue('--font-scale')).toBe('1.1');
    act(() => {
      document.documentElement.style.cssText = '';
    });
  });
});
