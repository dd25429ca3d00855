// Smart reply in the reading pane: busy state, the text landing in the mail's reply panel (also
// after switching mails), failures as toasts with the server's reason, the key-missing link,
// putting back text the user had written, no smart reply while the mail's reply is being sent or
// saved, and the AI template select (its choice sent as templateId, remembered for the session).

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../../test/helpers';
import { bodyOf, calls, detail, list, mail, renderInbox, server, thread, toasts } from '../testFixtures';
import { replyDrafts } from './replyDrafts';
import { smartReplies } from './smartReply';

afterEach(() => {
  replyDrafts.reset();
  smartReplies.reset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ONE = mail(1, { subject: 'הזמנה', from: 'dana@example.test', messageId: '<m1@example.test>' });
const TWO = mail(2, { subject: 'פגישה', messageId: '<m2@example.test>' });
const REPLY = 'שלום דנה,\n\nתודה על ההזמנה, אשמח להגיע.';

function routes(extra = {}) {
  return {
    'GET /api/threads/inbox': () => list([thread([ONE]), thread([TWO])]),
    'GET /api/emails/1': () => json(200, detail(ONE)),
    'GET /api/emails/2': () => json(200, detail(TWO)),
    ...extra,
  };
}

/** A route that answers when the test says so. */
function deferred() {
  let answer!: (r: Response) => void;
  const handler = () => new Promise<Response>((resolve) => (answer = resolve));
  return { handler, answer: (r: Response) => answer(r) };
}

async function openRow(user: ReturnType<typeof userEvent.setup>, threadId: string, mailId: string) {
  const row = screen.getAllByTestId('thread-row').find((r) => r.dataset.id === threadId);
  await user.click(within(row!).getByTestId('thread-row-open'));
  await waitFor(() => expect(screen.getByTestId('reading-pane')).toHaveAttribute('data-id', mailId));
}

describe('smart reply', () => {
  it('is busy while generating, ignores a second click, then fills the reply panel', async () => {
    const call = deferred();
    const fetch = server(routes({ 'POST /api/claude/smart-reply': call.handler }));
    renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    const button = await screen.findByTestId('smart-reply');
    expect(button).toHaveTextContent('תשובה חכמה');
    expect(button).toHaveAttribute('aria-busy', 'false');

    await user.click(button);
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveTextContent('יוצר תשובה...');
    await user.click(button);
    expect(calls(fetch, 'POST', '/api/claude/smart-reply')).toHaveLength(1);
    expect(bodyOf(calls(fetch, 'POST', '/api/claude/smart-reply')[0])).toEqual({ emailId: '1' });

    call.answer(json(200, { success: true, reply: REPLY }));
    expect(await screen.findByTestId('reply-text')).toHaveValue(REPLY);
    expect(screen.getByTestId('reply-panel')).toHaveAttribute('data-id', '1');
    expect(screen.getByTestId('smart-reply')).toBeEnabled();
    expect(screen.getByTestId('smart-reply')).toHaveTextContent('תשובה חכמה');
    expect(screen.getByTestId('reply-send')).toBeEnabled();
    // Generated text of an empty draft replaced nothing: no restore offer.
    expect(screen.queryByTestId('smart-reply-restore')).not.toBeInTheDocument();
  });

  it('a reply finished after switching mails lands in its own mail', async () => {
    const call = deferred();
    server(routes({ 'POST /api/claude/smart-reply': call.handler }));
    renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('smart-reply'));

    await openRow(user, 't2', '2');
    // Mail 2 is not busy and has no panel.
    expect(screen.getByTestId('smart-reply')).toBeEnabled();
    expect(screen.queryByTestId('reply-panel')).not.toBeInTheDocument();

    call.answer(json(200, { success: true, reply: REPLY }));
    await waitFor(() => expect(replyDrafts.get('1')).toBe(REPLY));
    expect(screen.queryByTestId('reply-panel')).not.toBeInTheDocument();

    await openRow(user, 't1', '1');
    expect(screen.getByTestId('reply-text')).toHaveValue(REPLY);
  });

  it('the panel text is read-only while a reply is generated for its mail', async () => {
    const call = deferred();
    server(routes({ 'POST /api/claude/smart-reply': call.handler }));
    renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('reply-open'));
    await user.type(screen.getByTestId('reply-text'), 'טיוטה שלי');
    await user.click(screen.getByTestId('smart-reply'));
    expect(screen.getByTestId('reply-text')).toHaveAttribute('readonly');
    expect(screen.getByTestId('reply-send')).toBeDisabled();

    call.answer(json(200, { success: true, reply: REPLY }));
    await waitFor(() => expect(screen.getByTestId('reply-text')).toHaveValue(REPLY));
    expect(screen.getByTestId('reply-text')).not.toHaveAttribute('readonly');

    // The user's own text can be put back while the generated one is untouched.
    await user.click(screen.getByTestId('smart-reply-restore'));
    expect(screen.getByTestId('reply-text')).toHaveValue('טיוטה שלי');
    expect(screen.queryByTestId('smart-reply-restore')).not.toBeInTheDocument();
  });

  it('editing the generated text withdraws the restore offer', async () => {
    server(routes({ 'POST /api/claude/smart-reply': () => json(200, { success: true, reply: 'תשובה' }) }));
    renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('reply-open'));
    await user.type(screen.getByTestId('reply-text'), 'שלי');
    await user.click(screen.getByTestId('smart-reply'));
    await screen.findByTestId('smart-reply-restore');
    await user.type(screen.getByTestId('reply-text'), '!');
    expect(screen.queryByTestId('smart-reply-restore')).not.toBeInTheDocument();
  });

  it('a failure shows the server message as a toast and leaves the draft alone', async () => {
    const message = 'שגיאה ביצירת תשובה חכמה: מפתח ה-API נדחה על ידי ספק ה-AI (401). בדוק את המפתח בהגדרות.';
    server(routes({ 'POST /api/claude/smart-reply': () => json(502, { success: false, error: 'ai_failed', message }) }));
    renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('reply-open'));
    await user.type(screen.getByTestId('reply-text'), 'לא ללכת לאיבוד');
    await user.click(screen.getByTestId('smart-reply'));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', text: message }));
    expect(screen.getByTestId('reply-text')).toHaveValue('לא ללכת לאיבוד');
    expect(screen.getByTestId('smart-reply')).toBeEnabled();
    expect(screen.queryByTestId('ai-settings-link')).not.toBeInTheDocument();
  });

  it('a failure without a message says the spec text; a network failure adds the reason', async () => {
    let status = 500;
    server(
      routes({
        'POST /api/claude/smart-reply': () => {
          if (status === 0) throw new TypeError('Failed to fetch');
          return json(status, {});
        },
      }),
    );
    renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('smart-reply'));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', text: 'שגיאה ביצירת תשובה חכמה' }));
    expect(screen.queryByTestId('reply-panel')).not.toBeInTheDocument();

    status = 0;
    await user.click(screen.getByTestId('smart-reply'));
    await waitFor(() => expect(toasts().some((t) => t.text.startsWith('שגיאה ביצירת תשובה חכמה: '))).toBe(true));
  });

  it('a missing key shows the server message with a link to the settings', async () => {
    const message = 'לא הוגדר מפתח API של Claude. אנא הגדר בהגדרות.';
    server(routes({ 'POST /api/claude/smart-reply': () => json(400, { success: false, error: 'ai_key_missing', message }) }));
    const r = renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('smart-reply'));
    const toast = await screen.findByTestId('ai-key-missing');
    expect(toast).toHaveTextContent(message);
    expect(toasts()[0].kind).toBe('error');
    const link = screen.getByTestId('ai-settings-link');
    expect(link).toHaveTextContent('להגדרות');
    await user.click(link);
    expect(r.location().pathname).toBe('/Settings');
    // The toast closes with the click.
    expect(screen.queryByTestId('ai-key-missing')).not.toBeInTheDocument();
  });

  it('is disabled while the mail\'s reply is sent, also after switching mails and back', async () => {
    const send = deferred();
    const fetch = server(routes({ 'POST /api/emails/send': send.handler }));
    renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('reply-open'));
    await user.type(screen.getByTestId('reply-text'), 'תודה, אגיע');
    expect(screen.getByTestId('smart-reply')).toBeEnabled();
    await user.click(screen.getByTestId('reply-send'));
    expect(screen.getByTestId('smart-reply')).toBeDisabled();
    await user.click(screen.getByTestId('smart-reply'));

    // Another mail's smart reply is free; back on mail 1 the panel is still locked.
    await openRow(user, 't2', '2');
    expect(screen.getByTestId('smart-reply')).toBeEnabled();
    await openRow(user, 't1', '1');
    expect(screen.getByTestId('smart-reply')).toBeDisabled();
    expect(screen.getByTestId('reply-send')).toBeDisabled();
    expect(screen.getByTestId('reply-send')).toHaveTextContent('שולח...');
    expect(screen.getByTestId('reply-text')).toHaveAttribute('readonly');
    // Not even a direct call starts one.
    await smartReplies.run('1', () => {});
    expect(calls(fetch, 'POST', '/api/claude/smart-reply')).toHaveLength(0);

    send.answer(json(200, { success: true, outboxId: '9', undoSeconds: 0, message: 'המייל נשלח' }));
    await waitFor(() => expect(screen.queryByTestId('reply-panel')).not.toBeInTheDocument());
    expect(screen.getByTestId('smart-reply')).toBeEnabled();
    expect(calls(fetch, 'POST', '/api/emails/send')).toHaveLength(1);
  });

  it('is disabled while the mail\'s reply is saved as a draft', async () => {
    const save = deferred();
    server(routes({ 'POST /api/drafts/save': save.handler }));
    renderInbox('/Inbox?folder=inbox&mail=1');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('reply-open'));
    await user.type(screen.getByTestId('reply-text'), 'טיוטה');
    await user.click(screen.getByTestId('reply-save'));
    expect(screen.getByTestId('smart-reply')).toBeDisabled();
    save.answer(json(200, { success: true, savedInGmail: true, shouldNavigate: false, message: 'הטיוטה נשמרה' }));
    await waitFor(() => expect(screen.getByTestId('smart-reply')).toBeEnabled());
  });

  describe('AI templates', () => {
    const TRAINING = {
      templates: [
        { id: 'formal', name: 'עסקי רשמי', prompt: 'כתוב ברשמיות' },
        { id: 'short', name: 'קצר ולעניין', prompt: 'עד שלוש שורות' },
      ],
    };

    it('lists none plus the templates, sends the chosen one and remembers it across mails', async () => {
      const fetch = server(
        routes({
          'GET /api/settings/ai-training': () => json(200, TRAINING),
          'POST /api/claude/smart-reply': () => json(200, { success: true, reply: REPLY }),
        }),
      );
      renderInbox('/Inbox?folder=inbox&mail=1');
      const user = userEvent.setup();
      const select = await screen.findByTestId('smart-reply-template');
      expect(select).toHaveAccessibleName('תבנית לתשובה החכמה');
      expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual([
        'ללא תבנית',
        'עסקי רשמי',
        'קצר ולעניין',
      ]);
      expect(select).toHaveValue('');

      await user.selectOptions(select, 'short');
      await user.click(screen.getByTestId('smart-reply'));
      await waitFor(() => expect(calls(fetch, 'POST', '/api/claude/smart-reply')).toHaveLength(1));
      expect(bodyOf(calls(fetch, 'POST', '/api/claude/smart-reply')[0])).toEqual({ emailId: '1', templateId: 'short' });

      // Another mail: the same choice.
      await openRow(user, 't2', '2');
      expect(await screen.findByTestId('smart-reply-template')).toHaveValue('short');
      await user.click(screen.getByTestId('smart-reply'));
      await waitFor(() => expect(calls(fetch, 'POST', '/api/claude/smart-reply')).toHaveLength(2));
      expect(bodyOf(calls(fetch, 'POST', '/api/claude/smart-reply')[1])).toEqual({ emailId: '2', templateId: 'short' });

      // 'ללא תבנית': no templateId at all.
      await user.selectOptions(screen.getByTestId('smart-reply-template'), '');
      await waitFor(() => expect(screen.getByTestId('smart-reply')).toBeEnabled());
      await user.click(screen.getByTestId('smart-reply'));
      await waitFor(() => expect(calls(fetch, 'POST', '/api/claude/smart-reply')).toHaveLength(3));
      expect(bodyOf(calls(fetch, 'POST', '/api/claude/smart-reply')[2])).toEqual({ emailId: '2' });
    });

    it('a chosen template that no longer exists is not sent', async () => {
      const fetch = server(
        routes({
          'GET /api/settings/ai-training': () => json(200, TRAINING),
          'POST /api/claude/smart-reply': () => json(200, { success: true, reply: REPLY }),
        }),
      );
      renderInbox('/Inbox?folder=inbox&mail=1');
      // Chosen in this session, then deleted on the training page.
      smartReplies.setTemplate('deleted');
      expect(smartReplies.template()).toBe('deleted');
      const user = userEvent.setup();
      expect(await screen.findByTestId('smart-reply-template')).toHaveValue('');
      await user.click(screen.getByTestId('smart-reply'));
      await waitFor(() => expect(calls(fetch, 'POST', '/api/claude/smart-reply')).toHaveLength(1));
      expect(bodyOf(calls(fetch, 'POST', '/api/claude/smart-reply')[0])).toEqual({ emailId: '1' });
    });

    it('no select without templates', async () => {
      server(routes({ 'GET /api/settings/ai-training': () => json(200, { templates: [] }) }));
      renderInbox('/Inbox?folder=inbox&mail=1');
      await screen.findByTestId('smart-reply');
      await waitFor(() => expect(screen.queryByTestId('smart-reply-template')).not.toBeInTheDocument());
    });
  });
});
