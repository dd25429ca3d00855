import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FolderNode, MailboxFolders } from '../../api/folders';
import { he } from '../../i18n/he';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { LocalStatusesNote } from './LocalStatusesNote';

function node(path: string, role: string, statusesLocal: boolean): FolderNode {
  return { accountId: 1, path, name: path, fullName: path, parent: null, role, depth: 1, unread: 0, total: 0, statusesLocal };
}

function serve(folders: FolderNode[]) {
  const mailbox: MailboxFolders = { accountId: 1, email: 'dana@example.test', folders };
  mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/folders/tree': () => json(200, { mailboxes: [mailbox] }),
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('the note of a folder whose statuses stay here', () => {
  it('shows over the inbox when the server takes no keywords in INBOX, by its role', async () => {
    signInAs();
    serve([node('INBOX', 'inbox', true), node('Sent Items', 'sent', false)]);
    renderWithProviders(<LocalStatusesNote folder="inbox" />);
    expect(await screen.findByTestId('local-statuses-note')).toHaveTextContent(he.ownFolders.statusesLocal);
  });

  it('says nothing of a folder that keeps keywords, nor of views across folders', async () => {
    signInAs();
    serve([node('INBOX', 'inbox', true), node('Sent Items', 'sent', false), node('ארכיון', '', true)]);
    const { unmount } = renderWithProviders(<LocalStatusesNote folder="sent" />);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('local-statuses-note')).toBeNull();
    unmount();
    renderWithProviders(<LocalStatusesNote folder="starred" />);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('local-statuses-note')).toBeNull();
  });

  it('shows over a folder of the user own by its path', async () => {
    signInAs();
    serve([node('INBOX', 'inbox', false), node('ארכיון', '', true)]);
    renderWithProviders(<LocalStatusesNote folder="inbox" ownPath="ארכיון" />);
    expect(await screen.findByTestId('local-statuses-note')).toBeInTheDocument();
  });
});
