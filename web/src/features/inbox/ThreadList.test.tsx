import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/helpers';
import { calls, detail, list, mail, renderInbox, server, solo, thread } from './testFixtures';

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

  it('shows a thread as one row: people, count, at most 2 Hebrew labels, unread, clip', async () => {
    server({ 'GET /api/threads/inbox': () => list([conversation, solo(9)]) });
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

  it('names the recipients in Sent', async () => {
    server({ 'GET /api/threads/sent': () => list([solo(4, { to: ['a@example.test', 'b@example.test'] })]) });
    renderInbox('/Inbox?folder=sent');
    const row = await screen.findByTestId('thread-row');
    expect(within(row).getByTestId('thread-row-sender')).toHaveTextContent('אל: a@example.test, b@example.test');
  });

  it('opens the newest mail expanded, the older ones collapsed and expandable, oldest first', async () => {
    const fetch = server({
      'GET /api/threads/inbox': () => list([conversation]),
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
    const messages = within(pane).getAllByTestId('thread-message');
    expect(messages.map((m) => m.getAttribute('data-id'))).toEqual(['1', '2', '3']);
    expect(messages.map((m) => m.getAttribute('data-expanded'))).toEqual(['false', 'false', 'true']);
    expect(await within(messages[2]).findByTestId('mail-body-frame')).toBeInTheDocument();
    expect(within(messages[0]).queryByTestId('mail-body-frame')).not.toBeInTheDocument();
    // Only the open one was fetched; collapsed ones show what the list already has.
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
