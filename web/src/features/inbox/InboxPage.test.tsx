import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '../../lib/dates';
import { json } from '../../test/helpers';
import { bodyOf, calls, detail, list, mail, paged, partial, renderInbox, server, solo, thread, threadPath } from './testFixtures';

describe('InboxPage', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('without a connected mailbox offers the way to the settings', async () => {
    const fetch = server({}, []);
    const r = renderInbox();
    const empty = await screen.findByTestId('no-account-empty');
    expect(empty).toHaveTextContent('אין עדיין תיבת דואר מחוברת.');
    expect(calls(fetch, 'GET', '/api/threads/inbox')).toHaveLength(0);
    await userEvent.setup().click(within(empty).getByRole('link', { name: 'מעבר להגדרות' }));
    expect(r.location().pathname).toBe('/Settings');
  });

  it('shows a loading state, then one row per thread of the folder', async () => {
    // A mail of today shows its time: "today" read once, by a clock pinned (Date only) at the
    // day's last second, so midnight cannot fall between making the mail and showing it.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 29, 23, 59, 59));
    const today = new Date(2026, 10, 29, 8, 5);
    const fetch = server({
      'GET /api/threads/inbox': () =>
        list([
          solo(1, { is_read: false, date: today.toISOString(), hasAttachments: true }),
          solo(2, { subject: '', from_name: '', from: 'bare@example.test' }),
          solo(3, { date: '2024-12-31T10:00:00Z' }),
        ]),
    });
    renderInbox();
    expect(screen.getByTestId('mail-loading')).toHaveTextContent('טוען');

    const rows = await screen.findAllByTestId('thread-row');
    expect(rows.map((r) => r.getAttribute('data-id'))).toEqual(['t1', 't2', 't3']);
    const [first, second, third] = rows;
    expect(first).toHaveClass('is-unread');
    expect(first).toHaveAttribute('data-read', 'false');
    expect(second).not.toHaveClass('is-unread');
    expect(second).toHaveAttribute('data-read', 'true');
    expect(within(first).getByTestId('thread-row-sender')).toHaveTextContent('שולח 1');
    // The name keeps its own direction inside a box that keeps the row's (it sits at the row's start).
    expect(within(first).getByTestId('thread-row-sender').querySelector('bdi')).toHaveAttribute('dir', 'auto');
    expect(within(first).getByTestId('thread-row-sender')).not.toHaveAttribute('dir');
    expect(within(first).getByTestId('thread-row-subject')).toHaveTextContent('נושא 1');
    expect(first).toHaveTextContent('תצוגה מקדימה 1');
    expect(within(first).getByRole('time')).toHaveTextContent('08:05');
    expect(within(first).getByTestId('thread-row-attachment')).toBeInTheDocument();
    expect(within(second).queryByTestId('thread-row-attachment')).not.toBeInTheDocument();
    // A single mail shows no count.
    expect(within(first).queryByTestId('thread-row-count')).not.toBeInTheDocument();
    // No sender name: the address; no subject: 'ללא נושא'.
    expect(within(second).getByTestId('thread-row-sender')).toHaveTextContent('bare@example.test');
    expect(within(second).getByTestId('thread-row-subject')).toHaveTextContent('ללא נושא');
    expect(within(third).getByRole('time')).toHaveTextContent(formatDate('2024-12-31T10:00:00Z'));

    const call = calls(fetch, 'GET', '/api/threads/inbox')[0];
    expect(call[0]).toBe('/api/threads/inbox?page=1&perPage=50');
    expect((call[1]?.headers as Record<string, string>).Authorization).toBe('tok-1');
  });

  it('lists the virtual folders from /api/threads/{Folder}', async () => {
    const fetch = server({ 'GET /api/threads/Spam': () => list([solo(9)]) });
    renderInbox('/Inbox?folder=spam');
    expect(await screen.findAllByTestId('thread-row')).toHaveLength(1);
    expect(calls(fetch, 'GET', '/api/threads/Spam')).toHaveLength(1);
  });

  it('says so when a folder is empty', async () => {
    server({ 'GET /api/threads/trash': () => list([]) });
    renderInbox('/Inbox?folder=trash');
    expect(await screen.findByTestId('mail-empty')).toHaveTextContent('האשפה ריקה.');
    expect(screen.queryByTestId('mail-list')).not.toBeInTheDocument();
  });

  it('loads more while X-Total-Count says there is more', async () => {
    const all = Array.from({ length: 60 }, (_, i) => solo(i + 1));
    const fetch = server({
      'GET /api/threads/inbox': paged(all),
    });
    renderInbox();
    await waitFor(() => expect(screen.getAllByTestId('thread-row')).toHaveLength(50));
    expect(screen.getByTestId('mail-count')).toHaveTextContent('50 מתוך 60');
    await userEvent.setup().click(screen.getByTestId('mail-load-more'));
    await waitFor(() => expect(screen.getAllByTestId('thread-row')).toHaveLength(60));
    expect(calls(fetch, 'GET', '/api/threads/inbox').map(([u]) => u)).toContain('/api/threads/inbox?page=2&perPage=50');
    expect(screen.queryByTestId('mail-load-more')).not.toBeInTheDocument();
  });

  it('stars a mail at once and tells the server', async () => {
    let release: () => void = () => {};
    const answered = new Promise<void>((res) => (release = res));
    const fetch = server({
      'GET /api/threads/inbox': () => list([solo(1)]),
      'PUT /api/emails/1': async (init) => {
        await answered;
        return json(200, { success: true, email: { ...mail(1), ...(JSON.parse(String(init?.body)) as object) } });
      },
    });
    renderInbox();
    const star = await screen.findByTestId('thread-row-star');
    expect(star).toHaveAttribute('aria-pressed', 'false');
    await userEvent.setup().click(star);
    // Optimistic: starred before the server answered.
    expect(screen.getByTestId('thread-row-star')).toHaveAttribute('aria-pressed', 'true');
    release();
    await waitFor(() => expect(calls(fetch, 'PUT', '/api/emails/1')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'PUT', '/api/emails/1')[0])).toEqual({ is_starred: true });
    // The star did not open the mail.
    expect(screen.queryByTestId('reading-pane')).not.toBeInTheDocument();
  });

  it('unstars a thread the list holds in part at the mail that is starred, not the newest', async () => {
    const newest = mail(2, { threadId: 'x' });
    const starred = mail(1, { threadId: 'x', is_starred: true });
    const fetch = server({
      'GET /api/threads/inbox': () => list([partial([newest, starred])]),
      [`GET ${threadPath('inbox', 'x')}`]: () => json(200, thread([newest, starred])),
      'PUT /api/emails/1': () => json(200, { success: true, email: { ...starred, is_starred: false } }),
    });
    renderInbox();
    const star = await screen.findByTestId('thread-row-star');
    expect(star).toHaveAttribute('aria-pressed', 'true');
    await userEvent.setup().click(star);
    await waitFor(() => expect(calls(fetch, 'PUT', '/api/emails/1')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'PUT', '/api/emails/1')[0])).toEqual({ is_starred: false });
    expect(calls(fetch, 'PUT', '/api/emails/2')).toHaveLength(0);
    await waitFor(() => expect(screen.getByTestId('thread-row-star')).toHaveAttribute('aria-pressed', 'false'));
  });

  it('puts the star back and shows an error when the server refuses', async () => {
    server({
      'GET /api/threads/inbox': () => list([solo(1, { is_starred: true })]),
      'PUT /api/emails/1': () => json(404, { success: false, error: 'not_found', message: 'המייל לא נמצא' }),
    });
    renderInbox();
    const star = await screen.findByTestId('thread-row-star');
    expect(star).toHaveAttribute('aria-pressed', 'true');
    await userEvent.setup().click(star);
    expect(await screen.findByRole('alert')).toHaveTextContent('לא ניתן לעדכן את הסימון בכוכב: המייל לא נמצא');
    expect(screen.getByTestId('thread-row-star')).toHaveAttribute('aria-pressed', 'true');
  });

  it('opens a mail in a sandboxed frame without scripts or same-origin, and marks it read', async () => {
    const unread = mail(1, { is_read: false, subject: 'חשבונית', to: ['dana@example.test', 'b@example.test'] });
    const fetch = server({
      'GET /api/threads/inbox': () => list([thread([unread]), solo(2)]),
      'GET /api/emails/1': () => json(200, detail(unread)),
      'PUT /api/emails/1': () => json(200, { success: true, email: { ...unread, is_read: true } }),
    });
    const r = renderInbox();
    const row = (await screen.findAllByTestId('thread-row'))[0];
    await userEvent.setup().click(within(row).getByTestId('thread-row-subject'));

    const pane = await screen.findByTestId('reading-pane');
    expect(r.location().search).toContain('mail=1');
    expect(await within(pane).findByTestId('reading-subject')).toHaveTextContent('חשבונית');
    const from = within(pane).getByTestId('reading-from');
    expect(from).toHaveTextContent('שולח 1');
    expect(from.querySelector('bdi')).toHaveTextContent('sender1@example.test');
    expect(within(pane).getByTestId('reading-to').querySelectorAll('bdi')).toHaveLength(2);

    const frame = within(pane).getByTestId('mail-body-frame');
    const sandbox = frame.getAttribute('sandbox') ?? '';
    expect(frame.tagName).toBe('IFRAME');
    expect(sandbox.split(/\s+/).sort()).toEqual(['allow-popups', 'allow-popups-to-escape-sandbox']);
    expect(sandbox).not.toContain('allow-scripts');
    expect(sandbox).not.toContain('allow-same-origin');
    expect(frame.getAttribute('srcdoc')).toContain('<p>שלום עולם</p>');
    expect(frame.getAttribute('srcdoc')).toContain('mail-frame.css');

    await waitFor(() => expect(calls(fetch, 'PUT', '/api/emails/1')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'PUT', '/api/emails/1')[0])).toEqual({ is_read: true });
    await waitFor(() => expect(screen.getAllByTestId('thread-row')[0]).not.toHaveClass('is-unread'));
    expect(screen.getAllByTestId('thread-row')[0]).toHaveClass('is-selected');
  });

  it('with the autoRead preference off, opening leaves the mail unread until marked', async () => {
    const unread = mail(1, { is_read: false, subject: 'חשבונית' });
    const fetch = server({
      'GET /api/threads/inbox': () => list([thread([unread])]),
      'GET /api/emails/1': () => json(200, detail(unread)),
    });
    renderInbox('/Inbox?folder=inbox&mail=1', { autoRead: false });
    await screen.findByTestId('mail-body-frame');
    // Give a mark-read the time it would take.
    await new Promise((r) => setTimeout(r, 300));
    expect(calls(fetch, 'PUT', '/api/emails/1')).toHaveLength(0);
    expect(screen.getAllByTestId('thread-row')[0]).toHaveClass('is-unread');
  });

  it('does not mark a mail read twice, nor one that is read', async () => {
    const fetch = server({
      'GET /api/threads/inbox': () => list([solo(2)]),
      'GET /api/emails/2': () => json(200, detail(mail(2))),
    });
    renderInbox('/Inbox?folder=inbox&mail=2');
    await screen.findByTestId('mail-body-frame');
    expect(calls(fetch, 'PUT', '/api/emails/2')).toHaveLength(0);
  });

  it('keeps remote images blocked until asked, then refetches with ?remote=1', async () => {
    const e = mail(1);
    const fetch = server({
      'GET /api/threads/inbox': () => list([thread([e])]),
      'GET /api/emails/1': (_init, url) =>
        url.endsWith('?remote=1')
          ? json(200, detail(e, { body: '<p><img src="https://img.example/x.png"></p>' }))
          : json(200, detail(e, { body: '<p>[תמונה]</p>', remoteContentBlocked: true })),
    });
    renderInbox('/Inbox?folder=inbox&mail=1');
    expect(await screen.findByTestId('remote-blocked')).toHaveTextContent('תמונות חיצוניות נחסמו להגנה על פרטיותך');
    await userEvent.setup().click(screen.getByTestId('show-remote'));
    await waitFor(() =>
      expect(screen.getByTestId('mail-body-frame').getAttribute('srcdoc')).toContain('https://img.example/x.png'),
    );
    expect(fetch.mock.calls.map(([u]) => u)).toContain('/api/emails/1?remote=1');
    expect(screen.queryByTestId('remote-blocked')).not.toBeInTheDocument();
  });

  it('downloads an attachment with the token, under its own name', async () => {
    const e = mail(1, {
      hasAttachments: true,
      attachments: [
        { index: 0, filename: 'לוגו.png', contentType: 'image/png', size: 100, contentId: 'logo', inline: true },
        { index: 1, filename: 'חשבונית.pdf', contentType: 'application/pdf', size: 2_400_000, inline: false },
      ],
    });
    const fetch = server({
      'GET /api/threads/inbox': () => list([thread([e])]),
      'GET /api/emails/1': () => json(200, detail(e)),
      'GET /api/emails/1/attachments/1': () => new Response(new Blob(['%PDF']), { status: 200 }),
    });
    const created = vi.fn(() => 'blob:mail-1');
    vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    renderInbox('/Inbox?folder=inbox&mail=1');

    // Inline images belong to the body, not to the attachment list.
    const buttons = await screen.findAllByTestId('mail-attachment');
    expect(buttons).toHaveLength(1);
    expect(buttons[0]).toHaveTextContent('חשבונית.pdf');
    expect(buttons[0]).toHaveTextContent('2.3 MB');
    await userEvent.setup().click(buttons[0]);
    await waitFor(() => expect(downloads).toEqual(['חשבונית.pdf']));
    const call = calls(fetch, 'GET', '/api/emails/1/attachments/1')[0];
    expect((call[1]?.headers as Record<string, string>).Authorization).toBe('tok-1');
    expect(created).toHaveBeenCalled();
  });

  it('shows an undecodable mail as it came, with its raw file to download', async () => {
    const e = mail(1, { parsed: false });
    const fetch = server({
      'GET /api/threads/inbox': () => list([thread([e])]),
      'GET /api/emails/1': () => json(200, detail(e, { body: '<pre dir="auto">=?bad?=</pre>' })),
      'GET /api/emails/1/raw': () => new Response('raw', { status: 200 }),
    });
    vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL: () => 'blob:raw', revokeObjectURL: vi.fn() }));
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    renderInbox('/Inbox?folder=inbox&mail=1');
    expect(await screen.findByTestId('mail-unparsed')).toHaveTextContent('לא ניתן היה לפענח את ההודעה');
    expect(screen.getByTestId('mail-body-frame').getAttribute('srcdoc')).toContain('<pre dir="auto">=?bad?=</pre>');
    await userEvent.setup().click(screen.getByTestId('mail-download-raw'));
    await waitFor(() => expect(downloads).toEqual(['1.eml']));
    expect(calls(fetch, 'GET', '/api/emails/1/raw')).toHaveLength(1);
  });

  it('closes the reading pane with the back button', async () => {
    server({
      'GET /api/threads/inbox': () => list([solo(1)]),
      'GET /api/emails/1': () => json(200, detail(mail(1))),
    });
    const r = renderInbox();
    const user = userEvent.setup();
    await user.click(within((await screen.findAllByTestId('thread-row'))[0]).getByTestId('thread-row-open'));
    await screen.findByTestId('reading-pane');
    await user.click(screen.getByTestId('reading-back'));
    await waitFor(() => expect(screen.queryByTestId('reading-pane')).not.toBeInTheDocument());
    expect(r.location().search).toBe('?folder=inbox');
    expect(screen.getByTestId('reading-placeholder')).toHaveTextContent('בחר הודעה לקריאה');
  });

  it('refresh asks the server to sync now and reads the folder again', async () => {
    const fetch = server({
      'GET /api/threads/inbox': () => list([solo(1)]),
      'POST /api/sync/refresh': () => json(200, { success: true, accounts: 1 }),
    });
    renderInbox();
    await screen.findAllByTestId('thread-row');
    const before = calls(fetch, 'GET', '/api/threads/inbox').length;
    await userEvent.setup().click(screen.getByTestId('mail-refresh'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/sync/refresh')).toHaveLength(1));
    await waitFor(() => expect(calls(fetch, 'GET', '/api/threads/inbox').length).toBeGreaterThan(before));
  });
});
