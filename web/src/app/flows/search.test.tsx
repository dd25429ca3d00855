// Searching in the whole signed-in app: the sidebar's search box lands on the results, and a
// result opens in the inbox even when the folder's list does not hold it.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { detail, list, solo } from '../../features/inbox/testFixtures';
import { page, result, searchServer } from '../../features/search/searchFixtures';
import { json, LAZY_PAGE, renderWithProviders, signInAs } from '../../test/helpers';
import { AppRoutes } from '../App';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('search in the app', () => {
  it('in the whole app: the sidebar box lands on results, and a result opens in the inbox even when not listed there', async () => {
    signInAs();
    const far = result(77, { subject: 'הודעה ישנה', folderRole: 'archive' });
    searchServer({
      'GET /api/search': () => json(200, page([far])),
      'GET /api/threads/Archive': () => list([solo(1)]),
      'GET /api/emails/77': () => json(200, detail(far)),
      'GET /api/emails/inbox-zero': () => json(200, {}),
    });
    const r = renderWithProviders(<AppRoutes />, { route: '/Inbox' });
    const user = userEvent.setup();
    await user.type(screen.getByTestId('sidebar-search'), 'ישנה{Enter}');
    expect(await screen.findByTestId('page-SearchPage', {}, LAZY_PAGE)).toBeInTheDocument();
    expect(screen.getByTestId('search-input')).toHaveValue('ישנה');
    await user.click(await screen.findByTestId('search-result'));
    await waitFor(() => expect(r.location().pathname).toBe('/Inbox'));
    const pane = await screen.findByTestId('reading-pane');
    expect(await within(pane).findByTestId('reading-subject')).toHaveTextContent('הודעה ישנה');
    expect(new URLSearchParams(r.location().search).get('folder')).toBe('Archive');
  });
});
