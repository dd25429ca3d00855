import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../../test/helpers';
import { bodyOf, calls, detail, list, mail, renderInbox, server, solo, thread, toasts } from '../testFixtures';
import { replyDrafts } from './replyDrafts';

afterEach(() => {
  replyDrafts.reset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ONE = mail(1, {
  subject: 'הזמנה',
  from: 'dana@example.test',
  from_name: 'דנה',
  messageId: '<m1@example.test>',
  references: ['<root@example.test>'],
});
const TWO = mail(2, { subject: 'RE: פגישה', messageId: '<m2@example.test>' });

function routes(extra = {}) {
  return {
    'GET /api/threads/inbox': () => list([thread([ONE]), thread([TWO]), solo(3)]),
    'GET /api/emails/1': () => json(200, detail(ONE, { body: '<p dir="auto">גוף המקור</p>' })),
    'GET /api/emails/2': () => json(200, detail(TWO)),
    ...extra,
  };
}

async function openPanel(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByTestId('reply-open'));
  return screen.findByTestId('reply-text');
}

/** Opens another thread from the list (the pane remounts for it). */
async function openRow(user: ReturnType<typeof userEvent.setup>, threadId: string, mailId: string) {
  const row = screen.getAllByTestId('thread-row').find((r) => r.dataset.id === threadId);
  await user.click(within(row!).getByTestId('thread-row-open'));
  await waitFor(() => expect(screen.getByTestId('reading-pane')).toHaveAttribute('data-id', mailId));
}

describe('reply panel', () => {
  it('keeps a text per mail while switching mails, and close clears it', async () => {
    server(routes());
    renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    expect(await screen.findByTestId('mail-body-frame')).toBeInTheDocument();
    expect(screen.queryByTestId('reply-panel')).not.toBeInTheDocument();

    const text = await openPanel(user);
    expect(text).toHaveFocus();
    expect(text).toHaveAttribute('dir', 'auto');
    await user.type(text, 'תשובה לאחת');

    await openRow(user, 't2', '2');
    expect(screen.queryByTestId('reply-panel')).not.toBeInTheDocument();
    await user.type(await openPanel(user), 'תשובה לשתיים');

    await openRow(user, 't1', '1');
    expect(screen.getByTestId('reply-panel')).toHaveAttribute('data-id', '1');
    expect(screen.getByTestId('reply-text')).toHaveValue('תשובה לאחת');

    await user.click(screen.getByTestId('reply-close'));
    expect(screen.queryByTestId('reply-panel')).not.toBeInTheDocument();
    expect(await openPanel(user)).toHaveValue('');

    // Mail 2's text was not touched by closing mail 1's panel.
    await openRow(user, 't2', '2');
    expect(screen.getByTestId('reply-text')).toHaveValue('תשובה לשתיים');
  });

  it('r or השב on an open panel brings the caret back to it, keeping the text', async () => {
    server(routes());
    renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    const text = await openPanel(user);
    await user.type(text, 'כבר כתבתי');
    (document.activeElement as HTMLElement).blur();
    expect(text).not.toHaveFocus();
    await user.keyboard('r');
    expect(screen.getByTestId('reply-text')).toHaveFocus();
    expect(screen.getByTestId('reply-text')).toHaveValue('כבר כתבתי');
    expect(screen.getByTestId('reply-open')).toHaveAttribute('aria-expanded', 'true');
  });

  it('send and save are disabled for an empty or blank text, send also while sending', async () => {
    let answer!: (r: Response) => void;
    const fetch = server(
      routes({ 'POST /api/emails/send': () => new Promise<Response>((resolve) => (answer = resolve)) }),
    );
    renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    const text = await openPanel(user);
    expect(screen.getByTestId('reply-send')).toBeDisabled();
    expect(screen.getByTestId('reply-save')).toBeDisabled();
    await user.type(text, '   {Enter}  ');
    expect(screen.getByTestId('reply-send')).toBeDisabled();
    expect(screen.getByTestId('reply-save')).toBeDisabled();
    await user.type(text, 'שלום');
    expect(screen.getByTestId('reply-send')).toBeEnabled();
    expect(screen.getByTestId('reply-save')).toBeEnabled();

    await user.click(screen.getByTestId('reply-send'));
    expect(screen.getByTestId('reply-send')).toBeDisabled();
    expect(screen.getByTestId('reply-send')).toHaveTextContent('שולח...');
    // A second click (or Ctrl+Enter) while sending sends nothing more.
    await user.click(screen.getByTestId('reply-send'));
    expect(calls(fetch, 'POST', '/api/emails/send')).toHaveLength(1);
    answer(json(200, { success: true, outboxId: '9', undoSeconds: 10, message: 'המייל נשלח' }));
    await waitFor(() => expect(screen.queryByTestId('reply-panel')).not.toBeInTheDocument());
  });

  it('sends a threaded reply to the sender, cleared after, with the undo toast', async () => {
    const fetch = server(
      routes({
        'POST /api/emails/send': () => json(200, { success: true, outboxId: '9', sendAt: 'x', undoSeconds: 10, message: 'המייל נשלח' }),
      }),
    );
    renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    await user.type(await openPanel(user), 'תודה <רבה>{Enter}{Enter}פסקה & שנייה');
    await user.click(screen.getByTestId('reply-send'));

    await waitFor(() => expect(calls(fetch, 'POST', '/api/emails/send')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'POST', '/api/emails/send')[0])).toEqual({
      to: ['dana@example.test'],
      subject: 'Re: הזמנה',
      body: '<p dir="auto">תודה &lt;רבה&gt;</p><p dir="auto">פסקה &amp; שנייה</p>',
      folder: 'sent',
      originalId: '1',
      originalMessageId: '<m1@example.test>',
      inReplyTo: '<m1@example.test>',
      references: ['<root@example.test>', '<m1@example.test>'],
    });
    await waitFor(() => expect(screen.queryByTestId('reply-panel')).not.toBeInTheDocument());
    expect(replyDrafts.get('1')).toBeUndefined();
    expect(screen.getByTestId('undo-send')).toBeInTheDocument();
    expect(screen.getByTestId('undo-countdown')).toHaveTextContent('המייל יישלח בעוד 10 שניות');
  });

  it('keeps a subject that already starts with Re:, whatever its case', async () => {
    const fetch = server(
      routes({ 'POST /api/emails/send': () => json(200, { success: true, outboxId: '9', undoSeconds: 0, message: 'המייל נשלח' }) }),
    );
    renderInbox('/Inbox?folder=inbox&mail=2');
    const user = userEvent.setup();
    await user.type(await openPanel(user), 'מגיע');
    await user.click(screen.getByTestId('reply-send'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/emails/send')).toHaveLength(1));
    const sent = bodyOf(calls(fetch, 'POST', '/api/emails/send')[0]) as Record<string, unknown>;
    expect(sent.subject).toBe('RE: פגישה');
    expect(sent.references).toEqual(['<m2@example.test>']);
    // No undo delay: a plain toast with the server's message.
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'success', text: 'המייל נשלח' }));
    expect(screen.queryByTestId('undo-send')).not.toBeInTheDocument();
  });

  it('a failed send keeps the text and says why', async () => {
    server(
      routes({
        'POST /api/emails/send': () => json(400, { success: false, error: 'invalid', message: 'כתובת מייל לא תקינה: x' }),
      }),
    );
    renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    await user.type(await openPanel(user), 'טקסט');
    await user.click(screen.getByTestId('reply-send'));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', text: 'כתובת מייל לא תקינה: x' }));
    expect(screen.getByTestId('reply-text')).toHaveValue('טקסט');
  });

  it('save draft sends the original and the HTML, clears the text and goes to Pending replies', async () => {
    const fetch = server(
      routes({
        'POST /api/drafts/save': () =>
          json(200, { success: true, savedInGmail: true, shouldNavigate: true, message: 'הטיוטה נשמרה בתיבת הדואר' }),
      }),
    );
    const r = renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    await screen.findByTestId('mail-body-frame');
    await user.type(await openPanel(user), 'טיוטה');
    await user.click(screen.getByTestId('reply-save'));

    await waitFor(() => expect(r.location().pathname).toBe('/PendingReplies'));
    expect(bodyOf(calls(fetch, 'POST', '/api/drafts/save')[0])).toEqual({
      originalEmail: {
        id: '1',
        messageId: '<m1@example.test>',
        from: 'dana@example.test',
        from_name: 'דנה',
        subject: 'הזמנה',
        body: '<p dir="auto">גוף המקור</p>',
        date: ONE.date,
      },
      draftContent: '<p dir="auto">טיוטה</p>',
      subject: 'Re: הזמנה',
    });
    expect(toasts()).toContainEqual({ kind: 'success', text: 'הטיוטה נשמרה בתיבת הדואר' });
    expect(replyDrafts.get('1')).toBeUndefined();
  });

  it('a draft the server wants to stay on (shouldNavigate false) stays; a failure keeps the text', async () => {
    let fail = true;
    server(
      routes({
        'POST /api/drafts/save': () =>
          fail
            ? json(500, {})
            : json(200, { success: true, savedInGmail: false, shouldNavigate: false, message: 'נשמר מקומית' }),
      }),
    );
    const r = renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    await user.type(await openPanel(user), 'טיוטה');
    await user.click(screen.getByTestId('reply-save'));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', text: 'שגיאה בשמירת הטיוטה' }));
    expect(screen.getByTestId('reply-text')).toHaveValue('טיוטה');

    fail = false;
    await user.click(screen.getByTestId('reply-save'));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'warning', text: 'נשמר מקומית' }));
    expect(r.location().pathname).toBe('/Inbox');
    expect(screen.queryByTestId('reply-panel')).not.toBeInTheDocument();
  });
});
