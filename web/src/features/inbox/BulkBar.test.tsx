import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bodyOf, calls, json, toasts } from '../../test/helpers';
import { bulkAnswer, detail, list, mail, partial, renderInbox, server, solo, thread, threadPath } from './testFixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// A conversation of two the list holds in part (its newest mail), and the whole of it.
const whole = thread([mail(2, { threadId: 'p' }), mail(1, { threadId: 'p' })]);
const pair = partial(whole.emails);
const THREADS = () => [pair, solo(3), solo(4)];
const WHOLE = { [`GET ${threadPath('inbox', 'p')}`]: () => json(200, whole) };

function rowOf(id: string) {
  return screen.getAllByTestId('thread-row').find((r) => r.dataset.id === id)!;
}

describe('bulk actions', () => {
  it('appears once threads are ticked and sets a status on every mail of them', async () => {
    const fetch = server({
      'GET /api/threads/inbox': () => list(THREADS()),
      ...WHOLE,
      'POST /api/emails/bulk': () =>
        json(200, bulkAnswer([mail(2, { threadId: 'p' }), mail(1, { threadId: 'p' }), mail(3)].map((e) => ({ ...e, status: 'processed' })), 'Archive')),
    });
    renderInbox();
    await screen.findAllByTestId('thread-row');
    expect(screen.queryByTestId('bulk-bar')).not.toBeInTheDocument();
    const user = userEvent.setup();

    await user.click(within(rowOf('p')).getByTestId('thread-row-select'));
    await user.click(within(rowOf('t3')).getByTestId('thread-row-select'));
    const bar = screen.getByTestId('bulk-bar');
    expect(bar).toHaveTextContent('2 שיחות נבחרו');
    // Ticking does not open anything.
    expect(screen.queryByTestId('reading-pane')).not.toBeInTheDocument();

    await user.click(within(bar).getByTestId('bulk-status-processed'));
    await waitFor(() => expect(screen.getAllByTestId('thread-row').map((r) => r.dataset.id)).toEqual(['t4']));
    expect(bodyOf(calls(fetch, 'POST', '/api/emails/bulk')[0])).toEqual({
      ids: ['2', '1', '3'],
      action: 'status',
      status: 'processed',
    });
    expect(toasts()).toEqual([{ kind: 'success', text: '3 מיילים הועברו לתיקייה ארכיון' }]);
    expect(screen.queryByTestId('bulk-bar')).not.toBeInTheDocument();
  });

  it('keeps threads the status leaves here: the server\'s rows at once, the labels from a re-read', async () => {
    const four = mail(4);
    const now = { ...four, status: 'needs_reply', priority: 'high' };
    let changed = false;
    let release: () => void = () => {};
    const reread = new Promise<void>((res) => (release = res));
    const fetch = server({
      'GET /api/threads/inbox': async () => {
        if (!changed) return list(THREADS());
        // The re-read after the change waits until the test has looked at the list before it.
        await reread;
        return list([pair, solo(3), thread([now])]);
      },
      'GET /api/emails/4': () => json(200, detail(four)),
      'POST /api/emails/bulk': () => {
        changed = true;
        return json(200, bulkAnswer([now], 'inbox'));
      },
    });
    renderInbox('/Inbox?folder=inbox&mail=4');
    await screen.findAllByTestId('thread-row');
    await screen.findByTestId('mail-body-frame');
    const reads = calls(fetch, 'GET', '/api/threads/inbox').length;
    const user = userEvent.setup();
    await user.click(within(rowOf('t4')).getByTestId('thread-row-select'));
    await user.click(screen.getByTestId('bulk-status-needs_reply'));

    // The open mail shows the server's row before the list is re-read...
    await waitFor(() => expect(screen.getByTestId('reading-status')).toHaveTextContent('דורש תשובה'));
    expect(screen.getByTestId('reading-priority')).toHaveTextContent('עדיפות גבוהה');
    expect(toasts()).toEqual([{ kind: 'success', text: 'מייל אחד עודכן' }]);
    // ...while the thread's labels are not worked out here: they come with the re-read.
    expect(within(rowOf('t4')).queryByTestId('thread-row-label')).not.toBeInTheDocument();
    await waitFor(() => expect(calls(fetch, 'GET', '/api/threads/inbox').length).toBeGreaterThan(reads));
    release();
    await waitFor(() => expect(within(rowOf('t4')).getByTestId('thread-row-label')).toHaveTextContent('דורש תשובה'));
    expect(screen.getAllByTestId('thread-row')).toHaveLength(3);
  });

  it('selects all on the page, and deletes them after the confirmation', async () => {
    const fetch = server({
      'GET /api/threads/inbox': () => list(THREADS()),
      ...WHOLE,
      'POST /api/emails/bulk': () => json(200, bulkAnswer([mail(2, { threadId: 'p' }), mail(1, { threadId: 'p' }), mail(3), mail(4)])),
    });
    renderInbox();
    await screen.findAllByTestId('thread-row');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('bulk-select-all'));
    expect(screen.getAllByTestId('thread-row-select').every((c) => (c as HTMLInputElement).checked)).toBe(true);
    expect(screen.getByTestId('bulk-bar')).toHaveTextContent('3 שיחות נבחרו');

    await user.click(screen.getByTestId('bulk-delete'));
    const dialog = screen.getByTestId('confirm-dialog');
    expect(dialog).toHaveTextContent('למחוק 4 מיילים?');
    expect(dialog).toHaveTextContent('המייל יימחק מהאתר בלבד ולא מתיבת הדואר האמיתית.');
    expect(calls(fetch, 'POST', '/api/emails/bulk')).toHaveLength(0);
    await user.click(within(dialog).getByTestId('confirm-yes'));

    await waitFor(() => expect(screen.queryByTestId('thread-row')).not.toBeInTheDocument());
    expect(bodyOf(calls(fetch, 'POST', '/api/emails/bulk')[0])).toEqual({ ids: ['2', '1', '3', '4'], action: 'delete' });
    expect(toasts()).toEqual([{ kind: 'success', text: '4 מיילים נמחקו מהאתר' }]);
    expect(screen.getByTestId('mail-empty')).toBeInTheDocument();
  });

  it('moves the ticked threads to Trash, and untick all clears the bar', async () => {
    const fetch = server({
      'GET /api/threads/inbox': () => list(THREADS()),
      'POST /api/emails/bulk': () => json(200, bulkAnswer([mail(3, { folder: 'Trash' })], 'trash')),
    });
    renderInbox();
    await screen.findAllByTestId('thread-row');
    const user = userEvent.setup();
    await user.click(within(rowOf('t3')).getByTestId('thread-row-select'));
    await user.click(screen.getByTestId('bulk-trash'));
    await waitFor(() => expect(screen.getAllByTestId('thread-row')).toHaveLength(2));
    expect(bodyOf(calls(fetch, 'POST', '/api/emails/bulk')[0])).toEqual({ ids: ['3'], action: 'trash' });
    expect(toasts()).toEqual([{ kind: 'success', text: 'מייל אחד הועבר לאשפה' }]);

    await user.click(within(rowOf('t4')).getByTestId('thread-row-select'));
    expect(screen.getByTestId('bulk-bar')).toBeInTheDocument();
    await user.click(screen.getByTestId('bulk-select-all'));
    await user.click(screen.getByTestId('bulk-select-all'));
    expect(screen.queryByTestId('bulk-bar')).not.toBeInTheDocument();
  });

  it('says so when the bulk call fails, and keeps the threads', async () => {
    server({
      'GET /api/threads/inbox': () => list(THREADS()),
      'POST /api/emails/bulk': () => json(500, { success: false, error: 'internal', message: 'שגיאה בשרת' }),
    });
    renderInbox();
    await screen.findAllByTestId('thread-row');
    const user = userEvent.setup();
    await user.click(within(rowOf('t3')).getByTestId('thread-row-select'));
    await user.click(screen.getByTestId('bulk-status-spam'));
    await waitFor(() =>
      expect(toasts()).toEqual([{ kind: 'error', text: 'שגיאה בביצוע הפעולה על המיילים שנבחרו: שגיאה בשרת' }]),
    );
    expect(screen.getAllByTestId('thread-row')).toHaveLength(3);
  });
});
