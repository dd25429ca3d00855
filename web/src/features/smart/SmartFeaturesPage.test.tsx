import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatMailDate } from '../../lib/dates';
import { json, renderWithProviders, signInAs } from '../../test/helpers';
import { fromParams } from '../compose/prefill';
import SmartFeaturesPage from './SmartFeaturesPage';
import { AI_KEY_MISSING, INSIGHTS, TEN, bodyOf, row, smartServer, type Handler } from './smartFixtures';

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderPage() {
  signInAs();
  return renderWithProviders(<SmartFeaturesPage />, { route: '/SmartFeatures' });
}

const item = (id: string) => screen.getAllByTestId('smart-mail-item').find((i) => i.dataset.id === id)!;
const summaryCard = () => screen.getByTestId('smart-summary-card');
const repliesCard = () => screen.getByTestId('smart-replies-card');
const composeCard = () => screen.getByTestId('smart-compose-card');

/** A call the test answers when it wants to. */
function deferred() {
  let resolve!: (r: Response) => void;
  const promise = new Promise<Response>((r) => (resolve = r));
  return { promise, resolve };
}

describe('Smart features: the list', () => {
  it('asks for the 10 newest inbox mails and lists them with sender, subject and date', async () => {
    const fetch = smartServer();
    renderPage();
    const items = await screen.findAllByTestId('smart-mail-item');
    expect(items).toHaveLength(10);
    expect(items.map((i) => i.dataset.id)).toEqual(TEN.map((m) => m.id));
    expect(items[0]).toHaveTextContent('שולח 10');
    expect(items[0]).toHaveTextContent('נושא 10');
    expect(items[0]).toHaveTextContent(formatMailDate(TEN[0].date));
    expect(within(screen.getByTestId('smart-mail-list')).getAllByRole('button')).toHaveLength(10);
    const listCall = fetch.mock.calls.find(([u]) => String(u).startsWith('/api/emails/inbox'));
    expect(new URL(String(listCall![0]), 'http://x').searchParams.get('perPage')).toBe('10');
    // Nothing chosen yet: the mail cards say what to do and cannot run.
    expect(items.every((i) => i.getAttribute('aria-pressed') === 'false')).toBe(true);
    expect(screen.getByTestId('smart-summarize')).toBeDisabled();
    expect(screen.getByTestId('smart-replies-generate')).toBeDisabled();
  });

  it('clicking a mail chooses it', async () => {
    smartServer();
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByText('נושא 7'));
    expect(item('7')).toHaveAttribute('aria-pressed', 'true');
    expect(item('8')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByTestId('smart-chosen')).toHaveTextContent('נושא 7');
    expect(screen.getByTestId('smart-summarize')).toBeEnabled();
  });

  it('without a connected mailbox it says so and links to the settings', async () => {
    smartServer({
      'GET /api/auth/accounts': () => json(200, { success: true, accounts: [] }),
      'GET /api/emails/inbox': () => json(200, []),
    });
    renderPage();
    const empty = await screen.findByTestId('smart-no-mailbox');
    expect(empty).toHaveTextContent('אין עדיין תיבת דואר מחוברת.');
    await waitFor(() => expect(screen.getByTestId('smart-no-mailbox-settings')).toHaveAttribute('href', '/Settings'));
    expect(screen.queryByTestId('smart-mail-list')).not.toBeInTheDocument();
  });

  it('a connected mailbox with no mail yet gets its own empty state', async () => {
    smartServer({ 'GET /api/emails/inbox': () => json(200, []) });
    renderPage();
    expect(await screen.findByTestId('smart-list-empty')).toHaveTextContent('אין עדיין מיילים בדואר הנכנס.');
  });

  it('a list failure shows the server message with a retry', async () => {
    let fail = true;
    smartServer({
      'GET /api/emails/inbox': () =>
        fail ? json(502, { success: false, error: 'mailbox_unavailable', message: 'שרת הדואר אינו זמין' }) : json(200, TEN),
    });
    renderPage();
    expect(await screen.findByTestId('smart-list-error')).toHaveTextContent('טעינת המיילים נכשלה: שרת הדואר אינו זמין');
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'נסה שוב' }));
    expect(await screen.findAllByTestId('smart-mail-item')).toHaveLength(10);
  });
});

describe('Smart features: summary', () => {
  it('summarizes the chosen mail and shows sentiment and priority badges', async () => {
    const calls: unknown[] = [];
    const gate = deferred();
    smartServer({
      'POST /api/smart/summary': (init) => {
        calls.push(bodyOf(init));
        return gate.promise;
      },
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByText('נושא 9'));
    await user.click(screen.getByTestId('smart-summarize'));
    // Busy while the server writes.
    expect(screen.getByTestId('smart-summarize')).toBeDisabled();
    expect(screen.getByTestId('smart-summarize')).toHaveTextContent('מסכם...');
    expect(summaryCard()).toHaveAttribute('aria-busy', 'true');
    gate.resolve(json(200, { success: true, summary: 'הלקוח מבקש הצעת מחיר עד יום חמישי.', sentiment: 'positive', priority: 'urgent' }));

    expect(await screen.findByTestId('smart-summary')).toHaveTextContent('הלקוח מבקש הצעת מחיר עד יום חמישי.');
    expect(calls).toEqual([{ emailId: '9' }]);
    const sentiment = screen.getByTestId('smart-sentiment');
    expect(sentiment).toHaveAttribute('data-value', 'positive');
    expect(sentiment).toHaveTextContent('חיובי');
    const priority = screen.getByTestId('smart-priority');
    expect(priority).toHaveAttribute('data-value', 'urgent');
    expect(priority).toHaveTextContent('דחופה');
    expect(screen.getByTestId('smart-summarize')).toBeEnabled();
    expect(summaryCard()).toHaveAttribute('aria-busy', 'false');
  });

  it.each([
    ['negative', 'שלילי', 'low', 'נמוכה'],
    ['neutral', 'ניטרלי', 'medium', 'בינונית'],
    ['neutral', 'ניטרלי', 'high', 'גבוהה'],
  ])('badge words: %s → %s, %s → %s', async (sentiment, sentimentText, priority, priorityText) => {
    smartServer({ 'POST /api/smart/summary': () => json(200, { success: true, summary: 'סיכום', sentiment, priority }) });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByText('נושא 1'));
    await user.click(screen.getByTestId('smart-summarize'));
    expect(await screen.findByTestId('smart-sentiment')).toHaveTextContent(sentimentText);
    expect(screen.getByTestId('smart-priority')).toHaveTextContent(priorityText);
  });

  it('a missing key shows the server message in the card with a link to the settings', async () => {
    smartServer({ 'POST /api/smart/summary': () => json(400, AI_KEY_MISSING) });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByText('נושא 3'));
    await user.click(screen.getByTestId('smart-summarize'));
    const error = await within(summaryCard()).findByTestId('smart-error');
    expect(error).toHaveTextContent(AI_KEY_MISSING.message);
    expect(within(error).getByTestId('smart-error-settings')).toHaveAttribute('href', '/Settings');
    expect(within(error).getByTestId('smart-error-settings')).toHaveTextContent('מעבר להגדרות');
    // Only the failed card.
    expect(within(repliesCard()).queryByTestId('smart-error')).not.toBeInTheDocument();
  });

  it('a provider failure shows its reason, without a settings link', async () => {
    const message = 'שגיאה ביצירת סיכום: ספק ה-AI עמוס כרגע (529). נסה שוב בעוד כמה דקות.';
    smartServer({ 'POST /api/smart/summary': () => json(502, { success: false, error: 'ai_failed', message }) });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByText('נושא 3'));
    await user.click(screen.getByTestId('smart-summarize'));
    const error = await within(summaryCard()).findByTestId('smart-error');
    expect(error).toHaveTextContent(message);
    expect(within(error).queryByTestId('smart-error-settings')).not.toBeInTheDocument();
  });

  it("switching mails never shows mail A's summary under mail B, and A's comes back with A", async () => {
    const gates: Record<string, ReturnType<typeof deferred>> = { '5': deferred(), '6': deferred() };
    smartServer({
      'POST /api/smart/summary': (init) => gates[(bodyOf(init) as { emailId: string }).emailId].promise,
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByText('נושא 5'));
    await user.click(screen.getByTestId('smart-summarize'));
    // Move to mail 6 while mail 5's summary is still being written.
    await user.click(screen.getByText('נושא 6'));
    expect(screen.getByTestId('smart-summarize')).toBeEnabled();
    gates['5'].resolve(json(200, { success: true, summary: 'סיכום של 5', sentiment: 'neutral', priority: 'low' }));
    await waitFor(() => expect(screen.getByTestId('smart-summarize')).toBeEnabled());
    await new Promise((r) => setTimeout(r, 0));
    expect(screen.queryByTestId('smart-summary')).not.toBeInTheDocument();
    expect(screen.queryByText('סיכום של 5')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('smart-summarize'));
    gates['6'].resolve(json(200, { success: true, summary: 'סיכום של 6', sentiment: 'negative', priority: 'high' }));
    expect(await screen.findByTestId('smart-summary')).toHaveTextContent('סיכום של 6');

    await user.click(screen.getByText('נושא 5'));
    expect(screen.getByTestId('smart-summary')).toHaveTextContent('סיכום של 5');
    expect(screen.getByTestId('smart-priority')).toHaveAttribute('data-value', 'low');
  });
});

describe('Smart features: replies', () => {
  const REPLIES = [
    { label: 'אישור', text: 'מאשר, נתראה מחר.' },
    { label: 'דחייה', text: 'מצטער, לא אוכל להגיע.' },
    { label: 'שאלה', text: 'באיזו שעה?' },
  ];

  it('shows three suggestions; choosing one opens Compose prefilled to the sender with Re: and the text', async () => {
    const calls: unknown[] = [];
    const mails = [row(99, { subject: 'פגישה מחר', from: 'ron@example.test', from_name: 'רון', messageId: '<abc@example.test>' }), ...TEN.slice(1)];
    smartServer({
      'GET /api/emails/inbox': () => json(200, mails),
      'POST /api/smart/replies': (init) => {
        calls.push(bodyOf(init));
        return json(200, { success: true, replies: REPLIES });
      },
    });
    const { location } = renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByText('פגישה מחר'));
    await user.click(screen.getByTestId('smart-replies-generate'));
    const options = await screen.findAllByTestId('smart-reply-option');
    expect(calls).toEqual([{ emailId: '99' }]);
    expect(options).toHaveLength(3);
    expect(options[1]).toHaveTextContent('דחייה');
    expect(options[1]).toHaveTextContent('מצטער, לא אוכל להגיע.');

    await user.click(options[0]);
    const loc = location();
    expect(loc.pathname).toBe('/Compose');
    const params = new URLSearchParams(loc.search);
    expect(params.get('reply')).toBe('מאשר, נתראה מחר.');
    expect(params.get('suggestion')).toBe('אישור');
    expect(params.get('originalMessageId')).toBe('<abc@example.test>');
    expect(params.get('replyFrom')).toBe('ron@example.test');
    expect(params.get('replySubject')).toBe('פגישה מחר');
    const initial = fromParams(params);
    expect(initial.to).toEqual(['ron@example.test']);
    expect(initial.subject).toBe('Re: פגישה מחר');
    expect(initial.bodyHtml).toContain('מאשר, נתראה מחר.');
    expect(initial.reply.originalMessageId).toBe('<abc@example.test>');
  });

  it('replies are kept per mail: another mail starts without them', async () => {
    smartServer({ 'POST /api/smart/replies': () => json(200, { success: true, replies: REPLIES }) });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByText('נושא 4'));
    await user.click(screen.getByTestId('smart-replies-generate'));
    expect(await screen.findAllByTestId('smart-reply-option')).toHaveLength(3);
    await user.click(screen.getByText('נושא 8'));
    expect(screen.queryByTestId('smart-reply-option')).not.toBeInTheDocument();
    await user.click(screen.getByText('נושא 4'));
    expect(screen.getAllByTestId('smart-reply-option')).toHaveLength(3);
  });

  it('a missing key shows in the replies card with the settings link', async () => {
    smartServer({ 'POST /api/smart/replies': () => json(400, AI_KEY_MISSING) });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByText('נושא 4'));
    await user.click(screen.getByTestId('smart-replies-generate'));
    const error = await within(repliesCard()).findByTestId('smart-error');
    expect(error).toHaveTextContent(AI_KEY_MISSING.message);
    expect(within(error).getByTestId('smart-error-settings')).toHaveAttribute('href', '/Settings');
  });
});

describe('Smart features: smart compose', () => {
  it('blank text is stopped with the spec message and nothing is sent', async () => {
    const compose = vi.fn<Handler>(() => json(200, { success: true, content: 'x' }));
    smartServer({ 'POST /api/smart/compose': compose });
    renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByTestId('smart-compose-input'), '   ');
    await user.click(screen.getByTestId('smart-compose-submit'));
    expect(screen.getByTestId('smart-compose-blank')).toHaveTextContent('יש לכתוב כמה מילים על המייל הרצוי');
    expect(screen.getByTestId('smart-compose-input')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('smart-compose-input')).toHaveFocus();
    expect(compose).not.toHaveBeenCalled();
    await user.type(screen.getByTestId('smart-compose-input'), 'משהו');
    expect(screen.queryByTestId('smart-compose-blank')).not.toBeInTheDocument();
  });

  it('writes the mail and opens Compose with its content', async () => {
    const calls: unknown[] = [];
    smartServer({
      'POST /api/smart/compose': (init) => {
        calls.push(bodyOf(init));
        return json(200, { success: true, content: 'שלום רב,\n\nאשמח להקדים את המשלוח.\n\nתודה' });
      },
    });
    const { location } = renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByTestId('smart-compose-input'), '  בקשה להקדים משלוח ');
    await user.click(screen.getByTestId('smart-compose-submit'));
    await waitFor(() => expect(location().pathname).toBe('/Compose'));
    expect(calls).toEqual([{ prompt: 'בקשה להקדים משלוח' }]);
    const params = new URLSearchParams(location().search);
    expect(params.get('content')).toBe('שלום רב,\n\nאשמח להקדים את המשלוח.\n\nתודה');
    expect(fromParams(params).bodyHtml).toContain('אשמח להקדים את המשלוח.');
  });

  it("the server's refusal shows in the card", async () => {
    smartServer({ 'POST /api/smart/compose': () => json(400, AI_KEY_MISSING) });
    const { location } = renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByTestId('smart-compose-input'), 'הזמנה לכנס');
    await user.click(screen.getByTestId('smart-compose-submit'));
    const error = await within(composeCard()).findByTestId('smart-error');
    expect(error).toHaveTextContent(AI_KEY_MISSING.message);
    expect(within(error).getByTestId('smart-error-settings')).toBeInTheDocument();
    expect(location().pathname).toBe('/SmartFeatures');
    expect(screen.getByTestId('smart-compose-submit')).toBeEnabled();
  });
});

describe('Smart features: insights', () => {
  it('shows the real numbers: counts, reply times, rate, backlog, senders and busiest day', async () => {
    smartServer();
    renderPage();
    const card = screen.getByTestId('smart-insights');
    await within(card).findByTestId('smart-insight-received');
    expect(within(card).getByTestId('smart-insights-period')).toHaveTextContent('ב-30 הימים האחרונים');
    expect(within(card).getByTestId('smart-insight-received')).toHaveTextContent('120 מיילים');
    expect(within(card).getByTestId('smart-insight-sent')).toHaveTextContent('35 מיילים');
    expect(within(card).getByTestId('smart-insight-median')).toHaveTextContent('3.5 שעות');
    expect(within(card).getByTestId('smart-insight-median')).toHaveTextContent('על סמך 20 תשובות');
    expect(within(card).getByTestId('smart-insight-average')).toHaveTextContent('30 דקות');
    expect(within(card).getByTestId('smart-insight-rate')).toHaveTextContent('80%');
    const waiting = within(card).getByTestId('smart-insight-waiting');
    expect(waiting).toHaveTextContent('4');
    expect(waiting).toHaveTextContent('אחד דחוף');
    expect(waiting).toHaveTextContent('הוותיק שבהם ממתין 6 ימים');
    const senders = within(card).getAllByTestId('smart-insight-sender');
    expect(senders).toHaveLength(2);
    expect(senders[0]).toHaveTextContent('דנה');
    expect(senders[0]).toHaveTextContent('a@x.com');
    expect(senders[0]).toHaveTextContent('12 מיילים');
    expect(senders[1]).toHaveTextContent('b@x.com');
    expect(within(card).getByTestId('smart-insight-day')).toHaveTextContent('יום ראשון');
    expect(within(card).getByTestId('smart-insight-day')).toHaveTextContent('30 מיילים');
    expect(card.textContent).not.toContain('NaN');
    expect(card.textContent).not.toContain('85%');
  });

  it('null values show — with a short explanation, never NaN', async () => {
    smartServer({
      'GET /api/smart/insights': () =>
        json(200, {
          ...INSIGHTS,
          received: 0,
          sent: 0,
          replyTime: { medianHours: null, averageHours: null, samples: 0 },
          replyRate: null,
          needsReply: { count: 0, urgent: 0, oldestDays: null },
          busiestSenders: [],
          busiestDay: null,
        }),
    });
    renderPage();
    const card = screen.getByTestId('smart-insights');
    const median = await within(card).findByTestId('smart-insight-median');
    expect(median).toHaveTextContent('—');
    expect(median).toHaveTextContent('אין עדיין תשובות שלך בתקופה הזו');
    expect(median).toHaveAttribute('data-empty', 'true');
    expect(within(card).getByTestId('smart-insight-average')).toHaveTextContent('—');
    const rate = within(card).getByTestId('smart-insight-rate');
    expect(rate).toHaveTextContent('—');
    expect(rate).toHaveTextContent('לא היו מיילים שדרשו תשובה');
    expect(within(card).getByTestId('smart-insight-waiting')).toHaveTextContent('אין מיילים שממתינים לתשובה');
    expect(within(card).getByTestId('smart-insight-day')).toHaveTextContent('—');
    expect(within(card).getByTestId('smart-insight-day')).toHaveTextContent('אין עדיין דואר בתקופה הזו');
    expect(within(card).getByTestId('smart-insight-no-senders')).toBeInTheDocument();
    expect(card.textContent).not.toContain('NaN');
    expect(card.textContent).not.toContain('%');
  });

  it('a load failure shows the message with a retry', async () => {
    let fail = true;
    smartServer({
      'GET /api/smart/insights': () => (fail ? json(500, { success: false, error: 'internal', message: 'שגיאה בשרת' }) : json(200, INSIGHTS)),
    });
    renderPage();
    const card = screen.getByTestId('smart-insights');
    expect(await within(card).findByTestId('smart-error')).toHaveTextContent('טעינת התובנות נכשלה: שגיאה בשרת');
    fail = false;
    await userEvent.setup().click(within(card).getByRole('button', { name: 'נסה שוב' }));
    expect(await within(card).findByTestId('smart-insight-rate')).toHaveTextContent('80%');
  });
});
