import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FolderNode, FolderTree, MailboxFolders } from '../../api/folders';
import { bodyOf, calls, DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { MoveToFolder } from './MoveToFolder';
import { OwnFolders } from './OwnFolders';
import { DRAG_TYPE, deleteSize, moveTargets, ownTree, parentChoices } from './tree';

function folder(path: string, over: Partial<FolderNode> = {}): FolderNode {
  const levels = path.replace(/^INBOX\./, '').split('.');
  return {
    accountId: 1,
    path,
    name: levels[levels.length - 1]!,
    fullName: levels.join('/'),
    parent: levels.length > 1 ? path.slice(0, path.lastIndexOf('.')) : null,
    role: '',
    depth: levels.length,
    unread: 0,
    total: 0,
    statusesLocal: false,
    ...over,
  };
}

const INVOICES = folder('INBOX.חשבוניות 2024', { unread: 3, total: 5 });
const OLD = folder('INBOX.חשבוניות 2024.ארכיון', { total: 2 });
const MAILBOX: MailboxFolders = {
  accountId: 1,
  email: 'dana@example.test',
  folders: [
    folder('INBOX', { role: 'inbox', name: 'INBOX', fullName: 'INBOX', parent: null }),
    folder('INBOX.Sent', { role: 'sent', parent: null }),
    INVOICES,
    OLD,
    folder('INBOX.לקוחות'),
  ],
};

afterEach(() => vi.unstubAllGlobals());

describe('the folder tree', () => {
  it('nests own folders under their parents, leaves the special ones out, counts a delete', () => {
    const roots = ownTree(MAILBOX.folders);
    expect(roots.map((r) => r.node.name)).toEqual(['חשבוניות 2024', 'לקוחות']);
    expect(roots[0]!.children.map((c) => c.node.name)).toEqual(['ארכיון']);
    expect(deleteSize(roots[0]!)).toEqual({ folders: 2, mails: 7 });
    expect(moveTargets(MAILBOX).map((f) => f.path)).toEqual(['INBOX', INVOICES.path, OLD.path, 'INBOX.לקוחות']);
    // A folder never goes into itself or a folder inside it.
    expect(parentChoices(MAILBOX, INVOICES.path).map((f) => f.path)).toEqual(['INBOX.לקוחות']);
  });
});

function server(tree: { mailboxes: MailboxFolders[] }) {
  let current: FolderTree = tree;
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/folders/tree': () => json(200, current),
    'POST /api/folders/create': (init) => {
      const body = JSON.parse(String(init?.body));
      const made = folder(`${body.parent ?? 'INBOX'}.${body.name}`);
      current = { mailboxes: [{ ...MAILBOX, folders: [...MAILBOX.folders, made] }] };
      return json(200, current);
    },
    'POST /api/folders/delete': () => json(200, { folders: 2, mails: 7, tree: current }),
    'POST /api/folders/move-mail': (init) => json(200, { moved: JSON.parse(String(init?.body)).ids.length }),
    // A thread read whole (a dragged row carries only its newest mail): three mails.
    'GET /api/threads/inbox/t1': () => json(200, { id: 't1', count: 3, emails: [{ id: '21' }, { id: '22' }, { id: '23' }] }),
  });
}

describe('OwnFolders', () => {
  it('shows the tree with unread counts, collapses, creates inside a folder and asks before a delete', async () => {
    const fetch = server({ mailboxes: [MAILBOX] });
    signInAs(DANA);
    renderWithProviders(<OwnFolders />, { route: '/Inbox' });
    const items = await screen.findAllByTestId('own-folder');
    expect(items.map((i) => i.dataset.name)).toEqual(['חשבוניות 2024', 'ארכיון', 'לקוחות']);
    const invoices = items[0]!;
    expect(within(invoices).getAllByTestId('own-folder-unread')[0]).toHaveTextContent('3');
    expect(within(invoices).getAllByTestId('own-folder-link')[0]).toHaveAttribute(
      'href',
      `/Inbox?box=${encodeURIComponent(INVOICES.path)}`,
    );

    expect(within(invoices).queryByTestId('own-folder-local-statuses')).not.toBeInTheDocument();

    await userEvent.click(within(invoices).getByTestId('own-folder-toggle'));
    expect(screen.getAllByTestId('own-folder').map((i) => i.dataset.name)).toEqual(['חשבוניות 2024', 'לקוחות']);
    await userEvent.click(within(invoices).getByTestId('own-folder-toggle'));

    await userEvent.click(within(invoices).getAllByTestId('own-folder-menu')[0]!);
    await userEvent.click(screen.getByTestId('own-folder-create'));
    await userEvent.type(screen.getByTestId('folder-name-input'), 'ספקים');
    await userEvent.click(screen.getByTestId('folder-name-save'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/folders/create')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'POST', '/api/folders/create')[0]!)).toEqual({ accountId: 1, parent: INVOICES.path, name: 'ספקים' });
    expect(await screen.findByText('התיקייה "ספקים" נוצרה')).toBeInTheDocument();

    await userEvent.click(within(screen.getAllByTestId('own-folder')[0]!).getAllByTestId('own-folder-menu')[0]!);
    await userEvent.click(screen.getByTestId('own-folder-delete'));
    expect(screen.getByTestId('folder-delete-question')).toHaveTextContent(
      'למחוק את התיקייה "חשבוניות 2024" ואת 2 התיקיות שבתוכה? יש בה 7 הודעות',
    );
    await userEvent.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/folders/delete')).toHaveLength(1));
  });

  it('moves mail dropped on a folder', async () => {
    const fetch = server({ mailboxes: [MAILBOX] });
    signInAs(DANA);
    renderWithProviders(<OwnFolders />, { route: '/Inbox' });
    const link = (await screen.findAllByTestId('own-folder-link'))[2]!;
    const data = new Map<string, string>([[DRAG_TYPE, JSON.stringify({ ids: ['11', '12'], partial: null })]]);
    const dataTransfer = { types: [DRAG_TYPE], getData: (k: string) => data.get(k) ?? '', dropEffect: 'none' };
    fireEvent.dragOver(link, { dataTransfer });
    expect(link).toHaveClass('is-drop-target');
    fireEvent.drop(link, { dataTransfer });
    await waitFor(() => expect(calls(fetch, 'POST', '/api/folders/move-mail')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'POST', '/api/folders/move-mail')[0]!)).toEqual({ ids: ['11', '12'], folder: 'INBOX.לקוחות' });
  });

  it('moves the whole of a dragged thread the list holds in part, with the other selected rows', async () => {
    const fetch = server({ mailboxes: [MAILBOX] });
    signInAs(DANA);
    renderWithProviders(<OwnFolders />, { route: '/Inbox' });
    const link = (await screen.findAllByTestId('own-folder-link'))[2]!;
    // Two selected rows: thread t1 (its newest mail 23 of three) and a one-mail thread (11).
    const drag = { ids: ['23', '11'], partial: { source: '/api/threads/inbox', query: '', threadIds: ['t1'] } };
    const data = new Map<string, string>([[DRAG_TYPE, JSON.stringify(drag)]]);
    fireEvent.drop(link, { dataTransfer: { types: [DRAG_TYPE], getData: (k: string) => data.get(k) ?? '' } });
    await waitFor(() => expect(calls(fetch, 'POST', '/api/folders/move-mail')).toHaveLength(1));
    const sent = bodyOf(calls(fetch, 'POST', '/api/folders/move-mail')[0]!) as { ids: string[]; folder: string };
    expect([...sent.ids].sort()).toEqual(['11', '21', '22', '23']);
    expect(sent.folder).toBe('INBOX.לקוחות');
  });

  it('reads no listing but our own API for a drop from elsewhere', async () => {
    const fetch = server({ mailboxes: [MAILBOX] });
    signInAs(DANA);
    renderWithProviders(<OwnFolders />, { route: '/Inbox' });
    const link = (await screen.findAllByTestId('own-folder-link'))[2]!;
    const drag = { ids: ['5'], partial: { source: 'https://evil.example/x', query: '', threadIds: ['t1'] } };
    const data = new Map<string, string>([[DRAG_TYPE, JSON.stringify(drag)]]);
    fireEvent.drop(link, { dataTransfer: { types: [DRAG_TYPE], getData: (k: string) => data.get(k) ?? '' } });
    await waitFor(() => expect(calls(fetch, 'POST', '/api/folders/move-mail')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'POST', '/api/folders/move-mail')[0]!)).toEqual({ ids: ['5'], folder: 'INBOX.לקוחות' });
    expect(fetch.mock.calls.some(([u]) => String(u).includes('evil'))).toBe(false);
  });

  it('marks a folder whose server keeps no statuses', async () => {
    const outlook: MailboxFolders = { ...MAILBOX, folders: [folder('Archive', { statusesLocal: true })] };
    server({ mailboxes: [outlook] });
    signInAs(DANA);
    renderWithProviders(<OwnFolders />, { route: '/Inbox' });
    const [archive] = await screen.findAllByTestId('own-folder');
    const mark = within(archive!).getByTestId('own-folder-local-statuses');
    expect(mark).toHaveAccessibleName(/השרת אינו שומר סטטוסים בתיקייה הזו: הם נשמרים רק ב-mailclient/);
    expect(mark).toHaveAttribute('title', expect.stringContaining('תוכנות דואר אחרות לא יראו אותם'));
  });

  it('groups the folders per mailbox when there are several', async () => {
    const other: MailboxFolders = { accountId: 2, email: 'work@example.test', folders: [folder('Projects', { accountId: 2 })] };
    server({ mailboxes: [MAILBOX, other] });
    signInAs(DANA);
    renderWithProviders(<OwnFolders />, { route: '/Inbox' });
    const groups = await screen.findAllByTestId('own-folders-mailbox');
    expect(groups).toHaveLength(2);
    expect(groups[1]).toHaveTextContent('work@example.test');
    expect(within(groups[1]!).getAllByTestId('own-folder').map((i) => i.dataset.name)).toEqual(['Projects']);
  });
});

describe('MoveToFolder', () => {
  it('offers the inbox and the own folders by plain name and moves the mail', async () => {
    const fetch = server({ mailboxes: [MAILBOX] });
    signInAs(DANA);
    const moved = vi.fn();
    // A thread the list holds in part: its whole mail is read when the folder is chosen.
    const resolve = vi.fn(async () => ['7', '8']);
    renderWithProviders(<MoveToFolder ids={['7']} accountId={1} onMoved={moved} resolve={resolve} />, { route: '/Inbox' });
    await userEvent.click(screen.getByTestId('move-to-folder'));
    const targets = await screen.findAllByTestId('move-target');
    expect(targets.map((t) => t.textContent)).toEqual(['דואר נכנס', 'חשבוניות 2024', 'חשבוניות 2024/ארכיון', 'לקוחות']);
    await userEvent.click(targets[2]!);
    await waitFor(() => expect(moved).toHaveBeenCalledWith(['7', '8']));
    expect(bodyOf(calls(fetch, 'POST', '/api/folders/move-mail')[0]!)).toEqual({ ids: ['7', '8'], folder: OLD.path });
  });
});
