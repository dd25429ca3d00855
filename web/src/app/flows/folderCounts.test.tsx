// The folder counts in the sidebar of the whole signed-in app (spec 000 §2): the server's counts
// as badges, and a failed read only logged, then re-read after a mail is opened.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { settingsServer } from '../../features/settings/sync/fixtures';
import { detail, list, mail, server, thread } from '../../features/inbox/testFixtures';
import { json, renderWithProviders, signInAs } from '../../test/helpers';
import { AppRoutes } from '../App';

describe('folder counts in the sidebar', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the server counts; the inbox badge is needs-reply plus unread', async () => {
    server({
      'GET /api/emails/counts': () =>
        json(200, {
          inbox: 40,
          unread: 5,
          starred: 2,
          needsReply: 3,
          processed: 0,
          spam: 4,
          advertisements: 0,
          info: 1,
          sent: 0,
          drafts: 0,
          trash: 0,
        }),
      'GET /api/threads/inbox': () => list([]),
    });
    signInAs();
    renderWithProviders(<AppRoutes />, { route: '/Inbox' });
    expect(await screen.findByTestId('folder-count-inbox')).toHaveTextContent('8');
    expect(screen.getByTestId('folder-count-pending-replies')).toHaveTextContent('3');
    expect(screen.getByTestId('folder-count-Spam')).toHaveTextContent('4');
    expect(screen.getByTestId('folder-count-starred')).toHaveTextContent('2');
    expect(screen.queryByTestId('folder-count-trash')).not.toBeInTheDocument();
  });

  it('only logs a failure (no toast) and is re-read after a mail is opened', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    let countsCalls = 0;
    const unread = mail(1, { is_read: false });
    server({
      'GET /api/emails/counts': () => {
        countsCalls++;
        return countsCalls === 1
          ? json(500, { success: false, error: 'internal', message: 'שגיאה בשרת' })
          : json(200, { unread: 0, needsReply: 0 });
      },
      'GET /api/threads/inbox': () => list([thread([unread])]),
      'GET /api/emails/1': () => json(200, detail(unread)),
      'PUT /api/emails/1': () => json(200, { success: true, email: { ...unread, is_read: true } }),
      ...settingsServer({ autoRead: true }).routes,
    });
    signInAs();
    renderWithProviders(<AppRoutes />, { route: '/Inbox' });
    await userEvent.setup().click(within((await screen.findAllByTestId('thread-row'))[0]).getByTestId('thread-row-open'));
    await screen.findByTestId('mail-body-frame');
    await waitFor(() => expect(countsCalls).toBeGreaterThanOrEqual(2));
    expect(error).toHaveBeenCalledWith('folder counts', expect.anything());
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
  });
});
