import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Email } from '../../api/types';
import { AppRoutes } from '../App';
import { json, renderWithProviders, signInAs } from '../../test/helpers';
import type { Handler } from '../../features/inbox/testFixtures';
import {
  bodyOf,
  bulkAnswer,
  calls,
  detail,
  list,
  mail,
  partial,
  renderInbox,
  server,
  solo,
  statusAnswer,
  thread,
  threadPath,
  toasts,
} from '../../features/inbox/testFixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A status answer: where the mail is listed now, its row with the new status, and its thread. */
function moved(e: Email, movedTo: string, over: Partial<Email> = {}): Handler {
  return () => json(200, statusAnswer({ ...e, ...over }, movedTo));
}

/** The index of a call among every fetch the test made, to tell which came first. */
function callIndex(fetch: ReturnType<typeof server>, method: string, path: string): number {
  return fetch.mock.calls.findIndex(
    ([url, init]) => String(url).split('?')[0] === path && (init?.method ?? 'GET') === method,
  );
}

describe('setting a status', () => {
  it.each([
    ['spam', 'Spam', 'error', 'המייל הועבר לתיקייה ספאם'],
    ['advertisement', 'Promotions', 'warning', 'המייל הועבר לתיקייה קידומי מכירות'],
    ['processed', 'Archive', 'success', 'המייל הועבר לתיקייה ארכיון'],
    ['info', 'Updates', 'success', 'המייל הועבר לתיקייה עדכונים'],
  ])('%s: the thread leaves the inbox, the pane closes, the toast is %s', async (status, movedTo, kind, text) => {
    const e = mail(1);
    const fetch = server({
      'GET /api/threads/inbox': () => list([thread([e]), solo(2)]),
      'GET /api/emails/1': () => json(200, detail(e)),
      'PUT /api/emails/1/status': moved(e, movedTo, { status }),
    });
    const r = renderInbox('/Inbox?folder=inbox&mail=1');
    await screen.findByTestId('mail-body-frame');
    await userEvent.setup().click(screen.getByTestId(`status-${status}`));

    await waitFor(() => expect(screen.getAllByTestId('thread-row').map((x) => x.dataset.id)).toEqual(['t2']));
    expect(bodyOf(calls(fetch, 'PUT', '/api/emails/1/status')[0])).toEqual({ status });
    await waitFor(() => expect(screen.queryByTestId('reading-pane')).not.toBeInTheDocument());
    // The pane goes when the thread leaves the list; the address follows a render later (under
    // load, after the assertion above).
    await waitFor(() => expect(r.location().search).toBe('?folder=inbox'));
    expect(toasts()).toEqual([{ kind, text }]);
  });

  it('stays in place when the mail is still listed here, with the new status and priority', async () => {
    const e = mail(1, { is_read: true });
    let counts = 0;
    server({
      'GET /api/threads/inbox': () => list([thread([e])]),
      'GET /api/emails/1': () => json(200, detail(e)),
      'GET /api/emails/counts': () => {
        counts++;
        return json(200, { needsReply: counts, unread: 0 });
      },
      'PUT /api/emails/1/status': moved(e, 'inbox', { status: 'needs_reply', priority: 'high' }),
    });
    // The whole app, so the sidebar's counts are there to be re-read.
    signInAs();
    renderWithProviders(<AppRoutes />, { route: '/Inbox?folder=inbox&mail=1' });
    await screen.findByTestId('mail-body-frame');
    await waitFor(() => expect(counts).toBeGreaterThan(0));
    expect(screen.getByTestId('status-needs_reply')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByTestId('reading-status')).not.toBeInTheDocument();
    const countsBefore = counts;

    await userEvent.setup().click(screen.getByTestId('status-needs_reply'));

    await waitFor(() => expect(screen.getByTestId('status-needs_reply')).toHaveAttribute('aria-pressed', 'true'));
    expect(screen.getByTestId('reading-status')).toHaveTextContent('דורש תשובה');
    expect(screen.getByTestId('reading-priority')).toHaveTextContent('עדיפות גבוהה');
    const row = screen.getByTestId('thread-row');
    expect(within(row).getByTestId('thread-row-label')).toHaveTextContent('דורש תשובה');
    expect(screen.getByTestId('reading-pane')).toBeInTheDocument();
    expect(toasts()).toEqual([]);
    // The counts are re-read 100 ms after a status change.
    await waitFor(() => expect(counts).toBeGreaterThan(countsBefore));
  });

  it('urgent keeps the status and shows the priority; low priorities are not shown', async () => {
    const e = mail(1, { status: 'info', priority: 'low' });
    server({
      'GET /api/threads/Updates': () => list([thread([e])]),
      'GET /api/emails/1': () => json(200, detail(e)),
      'PUT /api/emails/1/status': moved(e, 'Updates', { priority: 'urgent' }),
    });
    renderInbox('/Inbox?folder=Updates&mail=1');
    await screen.findByTestId('mail-body-frame');
    expect(screen.getByTestId('reading-status')).toHaveTextContent('מידע');
    expect(screen.queryByTestId('reading-priority')).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByTestId('status-urgent'));
    await waitFor(() => expect(screen.getByTestId('reading-priority')).toHaveTextContent('דחוף'));
    expect(screen.getByTestId('status-urgent')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('status-info')).toHaveAttribute('aria-pressed', 'true');
  });

  it('never removes from Starred', async () => {
    const e = mail(1, { is_starred: true });
    server({
      'GET /api/threads/starred': () => list([thread([e])]),
      'GET /api/emails/1': () => json(200, detail(e)),
      'PUT /api/emails/1/status': moved(e, 'Spam', { status: 'spam' }),
    });
    renderInbox('/Inbox?folder=starred&mail=1');
    await screen.findByTestId('mail-body-frame');
    await userEvent.setup().click(screen.getByTestId('status-spam'));
    await waitFor(() => expect(screen.getByTestId('status-spam')).toHaveAttribute('aria-pressed', 'true'));
    expect(screen.getByTestId('thread-row')).toBeInTheDocument();
    expect(screen.getByTestId('reading-pane')).toBeInTheDocument();
  });

  it('sets the status of the whole thread: the rest in one bulk call, then the open mail', async () => {
    const newer = mail(2, { threadId: 'x' });
    const older = mail(1, { threadId: 'x' });
    const fetch = server({
      // The list carries the newest mail; the rest is the whole thread's.
      'GET /api/threads/inbox': () => list([partial([newer, older])]),
      [`GET ${threadPath('inbox', 'x')}`]: () => json(200, thread([newer, older])),
      'GET /api/emails/2': () => json(200, detail(newer)),
      'PUT /api/emails/2/status': moved(newer, 'Archive', { status: 'processed' }),
      'POST /api/emails/bulk': () => json(200, bulkAnswer([{ ...older, status: 'processed' }], 'Archive')),
    });
    renderInbox('/Inbox?folder=inbox&mail=2');
    await screen.findByTestId('mail-body-frame');
    await userEvent.setup().click(screen.getByTestId('status-processed'));
    await waitFor(() => expect(screen.queryByTestId('thread-row')).not.toBeInTheDocument());
    expect(bodyOf(calls(fetch, 'POST', '/api/emails/bulk')[0])).toEqual({ ids: ['1'], action: 'status', status: 'processed' });
    // The whole thread was read before acting on it.
    expect(callIndex(fetch, 'GET', threadPath('inbox', 'x'))).toBeLessThan(callIndex(fetch, 'POST', '/api/emails/bulk'));
    // The open mail's call comes last, so the thread in its answer has every change in it.
    expect(callIndex(fetch, 'POST', '/api/emails/bulk')).toBeLessThan(callIndex(fetch, 'PUT', '/api/emails/2/status'));
    // The status call names the list on screen, so the thread it answers is this list's.
    const put = fetch.mock.calls[callIndex(fetch, 'PUT', '/api/emails/2/status')];
    expect(String(put[0])).toContain('?folder=inbox');
    expect(screen.getByTestId('mail-empty')).toBeInTheDocument();
    expect(toasts()).toEqual([{ kind: 'success', text: 'המייל הועבר לתיקייה ארכיון' }]);
  });

  it('shows the thread the server answers with when it stays, not one worked out here', async () => {
    const newer = mail(2, { threadId: 'x' });
    const older = mail(1, { threadId: 'x' });
    const changed = (e: typeof newer) => ({ ...e, status: 'needs_reply', priority: 'high' });
    // Mail 3 reached the thread since the list was read: unread, with the mailbox label "work".
    const arrived = mail(3, { threadId: 'x', is_read: false, labels: ['work'], date: '2025-03-05T09:15:00Z' });
    const answer = thread([arrived, changed(newer), changed(older)], { labels: ['needs_reply', 'work'] });
    const fetch = server({
      'GET /api/threads/inbox': () => list([partial([newer, older]), solo(9)]),
      [`GET ${threadPath('inbox', 'x')}`]: () => json(200, thread([newer, older])),
      'GET /api/emails/2': () => json(200, detail(newer)),
      'POST /api/emails/bulk': () => json(200, bulkAnswer([changed(older)], 'inbox')),
      'PUT /api/emails/2/status': () => json(200, statusAnswer(changed(newer), 'inbox', answer)),
    });
    renderInbox('/Inbox?folder=inbox&mail=2');
    await screen.findAllByTestId('thread-row');
    await screen.findByTestId('mail-body-frame');
    await waitFor(() => expect(screen.getAllByTestId('thread-message').map((m) => m.dataset.id)).toEqual(['1', '2']));
    const row = () => screen.getAllByTestId('thread-row').find((r) => r.dataset.id === 'x')!;
    expect(row()).toHaveAttribute('data-count', '2');
    expect(row()).toHaveAttribute('data-read', 'true');

    await userEvent.setup().click(screen.getByTestId('status-needs_reply'));

    await waitFor(() => expect(row()).toHaveAttribute('data-count', '3'));
    expect(within(row()).getAllByTestId('thread-row-label').map((l) => l.dataset.label)).toEqual(['needs_reply', 'work']);
    expect(row()).toHaveAttribute('data-read', 'false');
    expect(screen.getAllByTestId('thread-row').map((r) => r.dataset.id)).toEqual(['x', 't9']);
    // The pane shows the server's thread too: the open mail with its new status, and mail 3.
    expect(screen.getByTestId('status-needs_reply')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('reading-priority')).toHaveTextContent('עדיפות גבוהה');
    expect(screen.getAllByTestId('thread-message').map((m) => m.dataset.id)).toEqual(['1', '2', '3']);
    expect(callIndex(fetch, 'POST', '/api/emails/bulk')).toBeLessThan(callIndex(fetch, 'PUT', '/api/emails/2/status'));
    expect(toasts()).toEqual([]);
  });

  it('on a thread the list holds in part, the status reaches every mail and the pane shows the answer', async () => {
    const root = '<plan@example.test>';
    const m3 = mail(3, { threadId: root });
    const m2 = mail(2, { threadId: root });
    const m1 = mail(1, { threadId: root });
    const now = (e: Email) => ({ ...e, status: 'needs_reply', priority: 'high' });
    // The server answers with the list's shape: aggregates of all three, the newest only.
    const answer = partial([now(m3), now(m2), now(m1)], { labels: ['needs_reply'] });
    const fetch = server({
      'GET /api/threads/inbox': () => list([partial([m3, m2, m1]), solo(9)]),
      [`GET ${threadPath('inbox', root)}`]: () => json(200, thread([m3, m2, m1])),
      'GET /api/emails/3': () => json(200, detail(m3)),
      'POST /api/emails/bulk': () => json(200, bulkAnswer([now(m2), now(m1)], 'inbox')),
      'PUT /api/emails/3/status': () => json(200, statusAnswer(now(m3), 'inbox', answer)),
    });
    renderInbox('/Inbox?folder=inbox&mail=3');
    await screen.findByTestId('mail-body-frame');
    await waitFor(() => expect(screen.getAllByTestId('thread-message')).toHaveLength(3));
    await userEvent.setup().click(screen.getByTestId('status-needs_reply'));

    await waitFor(() => expect(calls(fetch, 'PUT', '/api/emails/3/status')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'POST', '/api/emails/bulk')[0])).toEqual({ ids: ['2', '1'], action: 'status', status: 'needs_reply' });
    await waitFor(() => expect(screen.getByTestId('status-needs_reply')).toHaveAttribute('aria-pressed', 'true'));
    const row = screen.getAllByTestId('thread-row').find((r) => r.dataset.id === root)!;
    expect(within(row).getByTestId('thread-row-label')).toHaveTextContent('דורש תשובה');
    expect(row).toHaveAttribute('data-count', '3');
    // The pane keeps the whole conversation.
    expect(screen.getAllByTestId('thread-message').map((m) => m.dataset.id)).toEqual(['1', '2', '3']);
    expect(toasts()).toEqual([]);
  });

  it('a mail opened outside the list takes the server\'s row', async () => {
    const far = mail(77, { subject: 'הודעה ישנה' });
    server({
      'GET /api/threads/inbox': () => list([solo(1)]),
      'GET /api/emails/77': () => json(200, detail(far)),
      'PUT /api/emails/77/status': moved(far, 'inbox', { status: 'needs_reply', priority: 'high' }),
    });
    renderInbox('/Inbox?folder=inbox&mail=77');
    await screen.findByTestId('mail-body-frame');
    expect(screen.queryByTestId('reading-status')).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByTestId('status-needs_reply'));
    await waitFor(() => expect(screen.getByTestId('reading-status')).toHaveTextContent('דורש תשובה'));
    expect(screen.getByTestId('reading-priority')).toHaveTextContent('עדיפות גבוהה');
    // The list is not touched by a thread it does not hold.
    expect(screen.getAllByTestId('thread-row').map((r) => r.dataset.id)).toEqual(['t1']);
  });

  it('reloads Promotions 1 s after a move to Spam', async () => {
    const e = mail(1, { status: 'advertisement' });
    const fetch = server({
      'GET /api/threads/Promotions': () => list([thread([e]), solo(2)]),
      'GET /api/emails/1': () => json(200, detail(e)),
      'PUT /api/emails/1/status': moved(e, 'Spam', { status: 'spam' }),
    });
    renderInbox('/Inbox?folder=Promotions&mail=1');
    await screen.findByTestId('mail-body-frame');
    const before = calls(fetch, 'GET', '/api/threads/Promotions').length;
    await userEvent.setup().click(screen.getByTestId('status-spam'));
    await waitFor(() => expect(toasts()).toEqual([{ kind: 'error', text: 'המייל הועבר לתיקייה ספאם' }]));
    // Not at once...
    expect(calls(fetch, 'GET', '/api/threads/Promotions')).toHaveLength(before);
    // ...but after a second.
    await waitFor(() => expect(calls(fetch, 'GET', '/api/threads/Promotions').length).toBeGreaterThan(before), {
      timeout: 2500,
    });
  });

  it('says so in Hebrew when the server refuses, and the thread stays', async () => {
    const e = mail(1);
    server({
      'GET /api/threads/inbox': () => list([thread([e])]),
      'GET /api/emails/1': () => json(200, detail(e)),
      'PUT /api/emails/1/status': () => json(400, { success: false, error: 'bad_request', message: 'סטטוס לא תקין' }),
    });
    renderInbox('/Inbox?folder=inbox&mail=1');
    await screen.findByTestId('mail-body-frame');
    await userEvent.setup().click(screen.getByTestId('status-info'));
    await waitFor(() => expect(toasts()).toEqual([{ kind: 'error', text: 'שגיאה בעדכון הסטטוס: סטטוס לא תקין' }]));
    expect(screen.getByTestId('thread-row')).toBeInTheDocument();
  });
});

describe('deleting and moving to Trash', () => {
  it('deletes only after the confirmation that the mailbox keeps it', async () => {
    const e = mail(1);
    const fetch = server({
      'GET /api/threads/inbox': () => list([thread([e]), solo(2)]),
      'GET /api/emails/1': () => json(200, detail(e)),
      'DELETE /api/emails/1': () => json(200, { success: true, deleted: 1 }),
    });
    renderInbox('/Inbox?folder=inbox&mail=1');
    await screen.findByTestId('mail-body-frame');
    const user = userEvent.setup();

    await user.click(screen.getByTestId('mail-delete'));
    const dialog = screen.getByTestId('confirm-dialog');
    expect(dialog).toHaveTextContent('המייל יימחק מהאתר בלבד ולא מתיבת הדואר האמיתית.');
    await user.click(within(dialog).getByTestId('confirm-no'));
    expect(screen.queryByTestId('confirm-dialog')).not.toBeInTheDocument();
    expect(calls(fetch, 'DELETE', '/api/emails/1')).toHaveLength(0);

    await user.click(screen.getByTestId('mail-delete'));
    await user.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(screen.getAllByTestId('thread-row').map((x) => x.dataset.id)).toEqual(['t2']));
    expect(calls(fetch, 'DELETE', '/api/emails/1')).toHaveLength(1);
    expect(screen.queryByTestId('confirm-dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('reading-pane')).not.toBeInTheDocument());
    expect(toasts()).toEqual([{ kind: 'success', text: 'המייל נמחק מהאתר' }]);
  });

  it('deletes every mail of a thread the list holds in part, after saying how many', async () => {
    const m3 = mail(3, { threadId: 'x', subject: 'סיכום' });
    const m2 = mail(2, { threadId: 'x' });
    const m1 = mail(1, { threadId: 'x' });
    const fetch = server({
      'GET /api/threads/inbox': () => list([partial([m3, m2, m1]), solo(9)]),
      [`GET ${threadPath('inbox', 'x')}`]: () => json(200, thread([m3, m2, m1])),
      'GET /api/emails/3': () => json(200, detail(m3)),
      'POST /api/emails/bulk': () => json(200, bulkAnswer([m3, m2, m1])),
    });
    renderInbox('/Inbox?folder=inbox&mail=3');
    await screen.findByTestId('mail-body-frame');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('mail-delete'));
    expect(screen.getByTestId('confirm-dialog')).toHaveTextContent('למחוק את השיחה "סיכום" (3 מיילים)?');
    await user.click(screen.getByTestId('confirm-yes'));

    await waitFor(() => expect(screen.getAllByTestId('thread-row').map((x) => x.dataset.id)).toEqual(['t9']));
    expect(bodyOf(calls(fetch, 'POST', '/api/emails/bulk')[0])).toEqual({ ids: ['3', '2', '1'], action: 'delete' });
    expect(calls(fetch, 'DELETE', '/api/emails/3')).toHaveLength(0);
    await waitFor(() => expect(screen.queryByTestId('reading-pane')).not.toBeInTheDocument());
    expect(toasts()).toEqual([{ kind: 'success', text: '3 מיילים נמחקו מהאתר' }]);
  });

  it('shows the spec error when deleting fails, and keeps the mail', async () => {
    const e = mail(1);
    server({
      'GET /api/threads/inbox': () => list([thread([e])]),
      'GET /api/emails/1': () => json(200, detail(e)),
      'DELETE /api/emails/1': () => json(500, { success: false, error: 'internal', message: 'שגיאה בשרת' }),
    });
    renderInbox('/Inbox?folder=inbox&mail=1');
    await screen.findByTestId('mail-body-frame');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('mail-delete'));
    await user.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(toasts()).toEqual([{ kind: 'error', text: 'שגיאה במחיקת המייל: שגיאה בשרת' }]));
    expect(screen.getByTestId('thread-row')).toBeInTheDocument();
  });

  it('moves to Trash on the server, and offers no Trash inside Trash', async () => {
    const e = mail(1);
    const fetch = server({
      'GET /api/threads/inbox': () => list([thread([e])]),
      'GET /api/threads/trash': () => list([solo(5)]),
      'GET /api/emails/1': () => json(200, detail(e)),
      'GET /api/emails/5': () => json(200, detail(mail(5))),
      'POST /api/emails/1/trash': () => json(200, { success: true, movedTo: 'trash' }),
    });
    const r = renderInbox('/Inbox?folder=inbox&mail=1');
    await screen.findByTestId('mail-body-frame');
    await userEvent.setup().click(screen.getByTestId('mail-trash'));
    await waitFor(() => expect(screen.queryByTestId('thread-row')).not.toBeInTheDocument());
    expect(calls(fetch, 'POST', '/api/emails/1/trash')).toHaveLength(1);
    expect(toasts()).toEqual([{ kind: 'success', text: 'המייל הועבר לאשפה' }]);
    r.unmount();

    renderInbox('/Inbox?folder=trash&mail=5');
    await screen.findByTestId('mail-body-frame');
    expect(screen.getByTestId('mail-delete')).toBeInTheDocument();
    expect(screen.queryByTestId('mail-trash')).not.toBeInTheDocument();
  });
});

describe('remote content per sender', () => {
  it('allows a sender always, notes it, and revokes it', async () => {
    const e = mail(1);
    let allowed = false;
    const fetch = server({
      'GET /api/threads/inbox': () => list([thread([e])]),
      'GET /api/emails/1': () =>
        json(
          200,
          allowed
            ? detail(e, { body: '<p><img src="https://img.example/x.png"></p>', remoteAllowedForSender: true })
            : detail(e, { body: '<p>[תמונה]</p>', remoteContentBlocked: true }),
        ),
      'POST /api/emails/remote-senders': () => {
        allowed = true;
        return json(200, { success: true });
      },
      'DELETE /api/emails/remote-senders/sender1%40example.test': () => {
        allowed = false;
        return json(200, { success: true });
      },
    });
    renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('remote-sender-allow'));
    expect(bodyOf(calls(fetch, 'POST', '/api/emails/remote-senders')[0])).toEqual({ address: 'sender1@example.test' });
    expect(await screen.findByTestId('remote-sender-note')).toHaveTextContent('תמונות חיצוניות מוצגות תמיד מהשולח הזה');
    expect(screen.getByTestId('mail-body-frame').getAttribute('srcdoc')).toContain('https://img.example/x.png');
    expect(screen.queryByTestId('remote-blocked')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('remote-sender-revoke'));
    expect(await screen.findByTestId('remote-blocked')).toBeInTheDocument();
    expect(calls(fetch, 'DELETE', '/api/emails/remote-senders/sender1%40example.test')).toHaveLength(1);
    expect(screen.queryByTestId('remote-sender-note')).not.toBeInTheDocument();
  });
});
