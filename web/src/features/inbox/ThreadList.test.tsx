import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/helpers';
import { calls, detail, list, mail, partial, renderInbox, server, solo, thread, threadPath } from './testFixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('thread list', () => {
  const newest = mail(3, { threadId: 'th-1', is_read: false, subject: 'Re: ישיבת צוות', date: '2025-03-06T10:00:00Z' });
  const middle = mail(2, { threadId: 'th-1', subject: 'Re: ישיבת צוות', date: '2025-03-05T10:00:00Z', from_name: 'יוסי' });
  const oldest = mail(1, { threadId: 'th-1', subject: 'ישיבת צוות', date: '2025-03-04T10:00:00Z', hasAttachments: true });
  const conversation = thread([newest, middle, oldest], {
    participants: ['שולח 3', 'יוסי', 'שולח 1'],
    labels: ['urgent', 'needs_reply', 'info'],
  });
  // As the list carries it: the aggregates of all three, the newest mail only.
  const listed = partial([newest, middle, oldest], {
    participants: ['שולח 3', 'יוסי', 'שולח 1'],
    labels: ['urgent', 'needs_reply', 'info'],
  });

  it('shows a thread as one row: people, count, at most 2 Hebrew labels, unread, clip', async () => {
    server({ 'GET /api/threads/inbox': () => list([listed, solo(9)]) });
    renderInbox();
    const [row, single] = await screen.findAllByTestId('thread-row');

    expect(row).toHaveAttribute('data-id', 'th-1');
    expect(row).toHaveAttribute('data-count', '3');
    expect(row).toHaveAttribute('data-read', 'false');
    expect(row).toHaveClass('is-unread');
    expect(within(row).getByTestId('thread-row-sender')).toHaveTextContent('שולח 3, יוסי, שולח 1');
    expect(within(row).getByTestId('thread-row-count')).toHaveTextContent('3');
    expect(within(row).getByTestId('thread-row-subject')).toHaveTextContent('Re: ישיבת צוות');
    expect(within(row).getByTestId('thread-row-attachment')).toBeInTheDocument();
    const labels = within(row).getAllByTestId('thread-row-label');
    expect(labels.map((l) => l.textContent)).toEqual(['דחוף', 'דורש תשובה']);
    expect(labels.map((l) => l.getAttribute('data-label'))).toEqual(['urgent', 'needs_reply']);

    expect(single).toHaveAttribute('data-count', '1');
    expect(within(single).queryByTestId('thread-row-count')).not.toBeInTheDocument();
    expect(within(single).queryByTestId('thread-row-label')).not.toBeInTheDocument();
  });

  it('shows a line of the mail under the subject, and none with the preview preference off', async () => {
    const one = solo(5, { preview: 'שורה ראשונה מתוך המייל' });
    server({ 'GET /api/threads/inbox': () => list([one]) });
    const shown = renderInbox();
    const row = await screen.findByTestId('thread-row');
    expect(row).toHaveTextContent('שורה ראשונה מתוך המייל');
    shown.unmount();

    server({ 'GET /api/threads/inbox': () => list([one]) });
    renderInbox('/Inbox?folder=inbox', { autoRead: true, showPreview: false });
    const bare = await screen.findByTestId('thread-row');
    expect(within(bare).getByTestId('thread-row-subject')).toBeInTheDocument();
    expect(bare).not.toHaveTextContent('שורה ראשונה מתוך המייל');
    expect(bare.querySelector('.thread-row__preview')).toBeNull();
  });

  it("shows a Gmail mail's labels (its label folders, Hebrew readable) on its row", async () => {
    server({ 'GET /api/threads/inbox': () => list([solo(5, { folderLabels: ['Receipts', 'עבודה'] }), solo(6)]) });
    renderInbox();
    const [row, plain] = await screen.findAllByTestId('thread-row');
    const chips = within(row).getAllByTestId('thread-row-folder-label');
    expect(chips.map((c) => c.textContent)).toEqual(['Receipts', 'עבודה']);
    expect(chips[1]).toHaveAttribute('title', 'תווית: עבודה');
    expect(within(plain).queryByTestId('thread-row-folder-label')).toBeNull();
  });

  it('names the recipients in Sent', async () => {
    server({ 'GET /api/threads/sent': () => list([solo(4, { to: ['a@example.test', 'b@example.test'] })]) });
    renderInbox('/Inbox?folder=sent');
    const row = await screen.findByTestId('thread-row');
    expect(within(row).getByTestId('thread-row-sender')).toHaveTextContent('אל: a@example.test, b@example.test');
  });

  it('opens the newest mail expanded, the older ones collapsed and expandable, oldest first', async () => {
    const fetch = server({
      'GET /api/threads/inbox': () => list([listed]),
      [`GET ${threadPath('inbox', 'th-1')}`]: () => json(200, conversation),
      'GET /api/emails/3': () => json(200, detail(newest)),
      'GET /api/emails/1': () => json(200, detail(oldest, { body: '<p dir="auto">ההודעה הראשונה</p>' })),
      'PUT /api/emails/3': () => json(200, { success: true, email: { ...newest, is_read: true } }),
    });
    const r = renderInbox();
    const user = userEvent.setup();
    await user.click(within(await screen.findByTestId('thread-row')).getByTestId('thread-row-open'));

    expect(r.location().search).toContain('mail=3');
    const pane = await screen.findByTestId('reading-pane');
    expect(pane).toHaveAttribute('data-id', '3');
    expect(within(pane).getByTestId('reading-subject')).toHaveTextContent('Re: ישיבת צוות');
    // The list had the newest only: the rest of the thread comes with the whole thread.
    await waitFor(() =>
      expect(within(pane).getAllByTestId('thread-message').map((m) => m.getAttribute('data-id'))).toEqual(['1', '2', '3']),
    );
    const messages = within(pane).getAllByTestId('thread-message');
    expect(messages.map((m) => m.getAttribute('data-expanded'))).toEqual(['false', 'false', 'true']);
    expect(await within(messages[2]).findByTestId('mail-body-frame')).toBeInTheDocument();
    expect(within(messages[0]).queryByTestId('mail-body-frame')).not.toBeInTheDocument();
    // Only the open one was fetched; collapsed ones show what the whole thread has.
    expect(calls(fetch, 'GET', '/api/emails/1')).toHaveLength(0);
    expect(messages[1]).toHaveTextContent('יוסי');

    // The newest was unread: marked read, and the row follows.
    await waitFor(() => expect(calls(fetch, 'PUT', '/api/emails/3')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('thread-row')).toHaveAttribute('data-read', 'true'));

    await user.click(within(messages[0]).getByTestId('thread-message-toggle'));
    const first = within(pane).getAllByTestId('thread-message')[0];
    expect(first).toHaveAttribute('data-expanded', 'true');
    await waitFor(() =>
      expect(within(first).getByTestId('mail-body-frame').getAttribute('srcdoc')).toContain('ההודעה הראשונה'),
    );
    expect(calls(fetch, 'GET', '/api/emails/1')).toHaveLength(1);
  });

  it('a thread the list holds in part: the row from the newest, and opening it reads the whole thread', async () => {
    const root = '<root.7@example.test>';
    const m3 = mail(23, { threadId: root, subject: 'Re: תקציב', is_read: false, date: '2025-03-06T10:00:00Z' });
    const m2 = mail(22, { threadId: root, subject: 'Re: תקציב', from_name: 'רונית', date: '2025-03-05T10:00:00Z' });
    const m1 = mail(21, { threadId: root, subject: 'תקציב', from_name: 'אבי', preview: 'ההצעה הראשונה', date: '2025-03-04T10:00:00Z' });
    let release: () => void = () => {};
    const answered = new Promise<void>((res) => (release = res));
    let read = false;
    const fetch = server({
      'GET /api/threads/inbox': () => list([partial([m3, m2, m1]), solo(9)]),
      [`GET ${threadPath('inbox', root)}`]: async () => {
        await answered;
        return json(200, thread([{ ...m3, is_read: read }, m2, m1]));
      },
      'GET /api/emails/23': () => json(200, detail(m3)),
      'PUT /api/emails/23': () => {
        read = true;
        return json(200, { success: true, email: { ...m3, is_read: true } });
      },
    });
    renderInbox();
    const row = (await screen.findAllByTestId('thread-row'))[0];
    expect(row).toHaveAttribute('data-count', '3');
    expect(row).toHaveTextContent('תצוגה מקדימה 23');
    // The list alone never asks for a whole thread.
    expect(calls(fetch, 'GET', threadPath('inbox', root))).toHaveLength(0);

    await userEvent.setup().click(within(row).getByTestId('thread-row-open'));
    const pane = await screen.findByTestId('reading-pane');
    expect(within(pane).getByTestId('reading-count')).toHaveTextContent('3 הודעות בשיחה');
    expect(within(pane).getByTestId('reading-thread-loading')).toHaveTextContent('טוען את שאר השיחה');
    release();
    await waitFor(() =>
      expect(within(pane).getAllByTestId('thread-message').map((m) => m.dataset.id)).toEqual(['21', '22', '23']),
    );
    expect(within(pane).queryByTestId('reading-thread-loading')).not.toBeInTheDocument();
    const messages = within(pane).getAllByTestId('thread-message');
    expect(messages.map((m) => m.dataset.expanded)).toEqual(['false', 'false', 'true']);
    expect(messages[0]).toHaveTextContent('אבי');
    expect(messages[0]).toHaveTextContent('ההצעה הראשונה');
    // Its id encoded, under the folder's listing, without listing options (none are set).
    expect(calls(fetch, 'GET', threadPath('inbox', root)).map(([u]) => u)).toEqual([
      '/api/threads/inbox/%3Croot.7%40example.test%3E',
    ]);
    // The newest is read on opening; the row is read once the whole thread shows the rest is.
    await waitFor(() => expect(calls(fetch, 'PUT', '/api/emails/23')).toHaveLength(1));
    await waitFor(() => expect(screen.getAllByTestId('thread-row')[0]).toHaveAttribute('data-read', 'true'));
  });

  it('a mail of such a thread other than the newest, opened by URL, shows in its whole thread', async () => {
    const root = '<root.8@example.test>';
    const m2 = mail(32, { threadId: root, date: '2025-03-05T10:00:00Z' });
    const m1 = mail(31, { threadId: root, date: '2025-03-04T10:00:00Z' });
    const fetch = server({
      'GET /api/threads/inbox': () => list([partial([m2, m1]), solo(9)]),
      [`GET ${threadPath('inbox', root)}`]: () => json(200, thread([m2, m1])),
      'GET /api/emails/31': () => json(200, detail(m1)),
    });
    renderInbox('/Inbox?folder=inbox&mail=31');
    const pane = await screen.findByTestId('reading-pane');
    await waitFor(() => expect(within(pane).getAllByTestId('thread-message').map((m) => m.dataset.id)).toEqual(['31', '32']));
    const messages = within(pane).getAllByTestId('thread-message');
    // The mail asked for stays the open one.
    expect(messages.map((m) => m.dataset.expanded)).toEqual(['true', 'false']);
    expect(pane).toHaveAttribute('data-id', '31');
    const row = screen.getAllByTestId('thread-row').find((r) => r.dataset.id === root)!;
    expect(row).toHaveClass('is-selected');
    expect(calls(fetch, 'GET', threadPath('inbox', root))).toHaveLength(1);
  });

  it('opens a mail by URL that is not in the loaded list on its own', async () => {
    const far = mail(77, { subject: 'הודעה ישנה' });
    server({
      'GET /api/threads/inbox': () => list([solo(1)]),
      'GET /api/emails/77': () => json(200, detail(far)),
    });
    renderInbox('/Inbox?folder=inbox&mail=77');
    const pane = await screen.findByTestId('reading-pane');
    expect(await within(pane).findByTestId('reading-subject')).toHaveTextContent('הודעה ישנה');
    expect(within(pane).getAllByTestId('thread-message')).toHaveLength(1);
    expect(within(pane).getByTestId('status-processed')).toBeInTheDocument();
  });

  it('shows the placeholder when nothing is open', async () => {
    server({ 'GET /api/threads/inbox': () => list([solo(1)]) });
    renderInbox();
    expect(await screen.findByTestId('reading-placeholder')).toHaveTextContent('בחר הודעה לקריאה');
  });

  it.each([
    ['Spam', 'אין דואר ספאם. מצוין!'],
    ['Promotions', 'אין קידומי מכירות.'],
    ['Updates', 'אין עדכונים.'],
  ])('says the %s folder is empty in its own words', async (folder, text) => {
    server({ [`GET /api/threads/${folder}`]: () => list([]) });
    renderInbox(`/Inbox?folder=${folder}`);
    const empty = await screen.findByTestId('mail-empty');
    expect(empty).toHaveAttribute('data-folder', folder);
    expect(empty).toHaveTextContent(text);
  });
});
