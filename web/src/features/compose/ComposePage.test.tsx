// Where a mail starts from: reply and smart-feature query parameters, a mail handed back by undo
// send (location.state.mail), and an outbox item opened for editing (?outboxId=, saved with PUT).

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OutboxItem, OutboxMail } from '../../api/outgoing';
import { json } from '../../test/helpers';
import { bodyHtml, bodyOf, calls, chips, composeServer, editor, renderCompose, typeBody } from './composeFixtures';
import { outboxMail } from '../outbox/outboxFixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('compose prefill', () => {
  it('a reply from the inbox fills recipient, Re: subject and keeps the original id for sending', async () => {
    const fetch = composeServer({
      'POST /api/emails/send': () => json(200, { success: true, outboxId: 'o1', sendAt: '2026-11-23T09:00:10Z', undoSeconds: 10, message: 'המייל נשלח' }),
    });
    const q = new URLSearchParams({
      replyTo: 'dana@example.test',
      replyFrom: 'דנה כהן',
      replySubject: 'פגישה מחר',
      originalMessageId: '<m1@example.test>',
    });
    const r = renderCompose(`/Compose?${q}`);
    expect(await screen.findByTestId('compose-page')).toBeInTheDocument();
    expect(chips()).toEqual(['dana@example.test']);
    expect(screen.getByTestId('compose-subject')).toHaveValue('Re: פגישה מחר');
    // The user's next step is the body.
    await waitFor(() => expect(editor()).toHaveFocus());

    typeBody('<p>אני אגיע</p>');
    await userEvent.click(screen.getByTestId('compose-send'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/emails/send')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'POST', '/api/emails/send')[0])).toMatchObject({
      to: ['dana@example.test'],
      subject: 'Re: פגישה מחר',
      originalMessageId: '<m1@example.test>',
    });
    await waitFor(() => expect(r.location().search).toBe('?folder=sent'));
  });

  it('a smart reply (reply, suggestion) fills the body as escaped paragraphs', async () => {
    composeServer();
    const q = new URLSearchParams({
      reply: 'שלום <דנה>,\n\nתודה על ההצעה.',
      replyFrom: 'yossi@example.test',
      replySubject: 'Re: הצעה',
      originalMessageId: '<s1@example.test>',
    });
    renderCompose(`/Compose?${q}`);
    await screen.findByTestId('compose-page');
    expect(chips()).toEqual(['yossi@example.test']);
    expect(screen.getByTestId('compose-subject')).toHaveValue('Re: הצעה');
    expect(bodyHtml()).toBe('<p dir="rtl">שלום &lt;דנה&gt;,</p><p dir="rtl">תודה על ההצעה.</p>');
  });

  it.each([
    ['aiReply', 'תשובה מה-AI'],
    ['suggestion', 'הצעה קצרה'],
    ['content', 'טיוטה מהכתיבה החכמה'],
  ])('the %s parameter fills the body', async (name, text) => {
    composeServer();
    renderCompose(`/Compose?${new URLSearchParams({ [name]: text })}`);
    await screen.findByTestId('compose-page');
    expect(bodyHtml()).toBe(`<p dir="rtl">${text}</p>`);
    expect(chips()).toEqual([]);
    expect(screen.getByTestId('compose-subject')).toHaveValue('');
    // Nothing to reply to: the user starts at the To field.
    expect(screen.getByTestId('compose-to')).toHaveFocus();
  });

  it('a mail given back by undo send comes back whole, attachments included', async () => {
    const fetch = composeServer({
      'POST /api/emails/send': () => json(200, { success: true, outboxId: 'o2', undoSeconds: 10, sendAt: 'x', message: 'המייל נשלח' }),
    });
    const mail: OutboxMail = outboxMail({
      to: ['a@example.test'],
      cc: ['c@example.test'],
      bcc: ['b@example.test'],
      subject: 'דוח חודשי',
      body: '<p dir="rtl">מצורף הדוח</p>',
      priority: 'high',
      originalMessageId: '<orig@example.test>',
      attachments: [{ id: 'up7', name: 'דוח.pdf', size: 2048, contentType: 'application/pdf' }],
    });
    renderCompose('/Compose', { mail });
    await screen.findByTestId('compose-page');
    expect(chips(screen.getByTestId('compose-to').closest('.recipient-row')!)).toEqual(['a@example.test']);
    // cc and bcc rows open by themselves when they hold addresses.
    expect(chips(screen.getByTestId('compose-cc').closest('.recipient-row')!)).toEqual(['c@example.test']);
    expect(chips(screen.getByTestId('compose-bcc').closest('.recipient-row')!)).toEqual(['b@example.test']);
    expect(screen.getByTestId('compose-subject')).toHaveValue('דוח חודשי');
    expect(screen.getByTestId('compose-priority')).toHaveValue('high');
    expect(bodyHtml()).toBe('<p dir="rtl">מצורף הדוח</p>');
    const item = screen.getByTestId('attachment-item');
    expect(item).toHaveAttribute('data-name', 'דוח.pdf');
    expect(item).toHaveTextContent('2 KB');

    await userEvent.click(screen.getByTestId('compose-send'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/emails/send')).toHaveLength(1));
    // Sent as it came back: every field of the mail, its attachments by upload id.
    const { to, cc, bcc, subject, body, priority, originalMessageId } = mail;
    expect(bodyOf(calls(fetch, 'POST', '/api/emails/send')[0])).toEqual({
      ...{ to, cc, bcc, subject, body, priority, originalMessageId },
      attachments: ['up7'],
      folder: 'sent',
    });
  });
});

describe('editing an outbox item', () => {
  const item: OutboxItem = {
    id: 'ob9',
    kind: 'send',
    state: 'failed',
    sendAt: '2026-11-23T09:00:00Z',
    attempts: 3,
    nextTry: null,
    lastError: '550 mailbox unavailable',
    retry: false,
    createdAt: '2026-11-23T08:59:50Z',
    mail: outboxMail({
      to: ['wrong@example.test'],
      subject: 'הזמנה',
      body: '<p dir="rtl">שלום</p>',
      attachments: [{ id: 'up3', name: 'a.txt', size: 10, contentType: 'text/plain' }],
    }),
  };

  it('loads the item, and saving changes it with PUT instead of creating a new mail', async () => {
    const fetch = composeServer({
      'GET /api/outbox': () => json(200, { items: [item] }),
      'PUT /api/outbox/ob9': (init) =>
        json(200, { success: true, item: { ...item, state: 'sending', mail: { ...item.mail, ...JSON.parse(String(init?.body)) } } }),
    });
    const r = renderCompose('/Compose?outboxId=ob9');
    expect(await screen.findByTestId('recipient-chip')).toHaveAttribute('data-email', 'wrong@example.test');
    expect(screen.getByTestId('compose-subject')).toHaveValue('הזמנה');
    expect(screen.getByTestId('attachment-item')).toHaveAttribute('data-name', 'a.txt');

    const user = userEvent.setup();
    await user.click(screen.getAllByRole('button', { name: /הסרת wrong@example.test/ })[0]);
    await user.type(screen.getByTestId('compose-to'), 'right@example.test{Enter}');
    const listed = calls(fetch, 'GET', '/api/outbox').length;
    await user.click(screen.getByTestId('compose-send'));

    await waitFor(() => expect(calls(fetch, 'PUT', '/api/outbox/ob9')).toHaveLength(1));
    // The outbox is read again before compose closes: the item opened again shows this version.
    await waitFor(() => expect(calls(fetch, 'GET', '/api/outbox').length).toBeGreaterThan(listed));
    expect(bodyOf(calls(fetch, 'PUT', '/api/outbox/ob9')[0])).toMatchObject({
      to: ['right@example.test'],
      subject: 'הזמנה',
      body: '<p dir="rtl">שלום</p>',
      attachments: ['up3'],
      folder: 'sent',
    });
    // The PUT itself sends it again (the server resets a failed item); nothing new is queued.
    expect(calls(fetch, 'POST', '/api/outbox/ob9/retry')).toHaveLength(0);
    expect(calls(fetch, 'POST', '/api/emails/send')).toHaveLength(0);
    await waitFor(() => expect(r.location().search).toBe('?folder=sent'));
  });

  it('saving an outbox item as a draft takes it out of the outbox', async () => {
    const fetch = composeServer({
      'GET /api/outbox': () => json(200, { items: [item] }),
      'PUT /api/outbox/ob9': () =>
        json(200, { success: true, item: null, savedInGmail: true, message: 'הטיוטה נשמרה בתיבת הטיוטות' }),
    });
    const r = renderCompose('/Compose?outboxId=ob9');
    await screen.findByTestId('recipient-chip');
    await userEvent.click(screen.getByTestId('compose-save-draft'));
    await waitFor(() => expect(calls(fetch, 'PUT', '/api/outbox/ob9')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'PUT', '/api/outbox/ob9')[0])).toMatchObject({ folder: 'drafts' });
    await waitFor(() => expect(r.location().search).toBe('?folder=drafts'));
    expect(await screen.findByText('הטיוטה נשמרה בתיבת הטיוטות')).toBeInTheDocument();
  });

  it('removing a carried attachment does not delete the queued item’s upload', async () => {
    const fetch = composeServer({ 'GET /api/outbox': () => json(200, { items: [item] }) });
    renderCompose('/Compose?outboxId=ob9');
    await userEvent.click(await screen.findByTestId('attachment-remove'));
    expect(screen.queryByTestId('attachment-item')).not.toBeInTheDocument();
    expect(calls(fetch, 'DELETE', '/api/attachments/up3')).toHaveLength(0);
  });

  it('an item no longer in the outbox says so instead of an empty form', async () => {
    composeServer({ 'GET /api/outbox': () => json(200, { items: [] }) });
    renderCompose('/Compose?outboxId=gone');
    expect(await screen.findByTestId('compose-outbox-missing')).toHaveTextContent('כבר אינה בתיבת הדואר היוצא');
    expect(screen.queryByTestId('compose-send')).not.toBeInTheDocument();
  });
});
