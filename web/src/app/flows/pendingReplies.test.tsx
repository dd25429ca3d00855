// The pending-replies page beside the sidebar, as in the layout: the sidebar's entry shows the
// page's drafts total and follows the page when every draft is deleted.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { draft, draftsServer } from '../../features/drafts/draftFixtures';
import PendingRepliesPage from '../../features/drafts/PendingRepliesPage';
import { useFolderCounts } from '../../features/inbox/useFolderCounts';
import { json, renderWithProviders, signInAs } from '../../test/helpers';
import { Sidebar } from '../Sidebar';

afterEach(() => {
  vi.unstubAllGlobals();
});

function WithSidebar() {
  const counts = useFolderCounts();
  return (
    <>
      <Sidebar counts={counts} />
      <PendingRepliesPage />
    </>
  );
}

describe('pending replies beside the sidebar', () => {
  it("the sidebar's entry shows the drafts total and drops it when every draft is deleted", async () => {
    let list = [draft('1'), draft('2'), draft('3')];
    draftsServer(() => list, {
      'DELETE /api/drafts/delete-all': () => {
        list = [];
        return json(200, { success: true, deletedCount: 3 });
      },
    });
    signInAs();
    renderWithProviders(<WithSidebar />, { route: '/PendingReplies' });
    const user = userEvent.setup();
    await screen.findAllByTestId('draft-card');
    const entry = () => screen.getByTestId('folder-pending-replies');
    expect(within(entry()).getByTestId('drafts-count')).toHaveAttribute('data-count', '3');

    await user.click(screen.getByTestId('drafts-delete-all'));
    await user.click(screen.getByTestId('confirm-yes'));
    expect(await screen.findByTestId('drafts-empty')).toBeInTheDocument();
    await waitFor(() => expect(within(entry()).queryByTestId('drafts-count')).not.toBeInTheDocument());
  });
});
