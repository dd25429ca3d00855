// The compose page's AI menu: the empty-body check (no request), subject generation, the three
// improvement styles with undo, the busy flag, and failures that keep the body.

import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/helpers';
import { bodyHtml, bodyOf, calls, composeServer, renderCompose, toasts, typeBody } from './composeFixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const KEY_MISSING = 'לא הוגדר מפתח API של Claude. אנא הגדר בהגדרות.';

async function choose(user: ReturnType<typeof userEvent.setup>, testId: string) {
  await user.click(screen.getByTestId('ai-menu'));
  await user.click(screen.getByTestId(testId));
}

describe('compose AI menu', () => {
  it('opens a menu with the four actions; Escape and an outside click close it', async () => {
    composeServer();
    renderCompose();
    const user = userEvent.setup();
    const button = await screen.findByTestId('ai-menu');
    expect(button).toHaveTextContent('עזרת AI');
    await user.click(button);
    const menu = screen.getByRole('menu');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(Array.from(menu.querySelectorAll('[role="menuitem"]')).map((i) => i.textContent)).toEqual([
      'יצירת נושא',
      'שיפור: מקצועי',
      'שיפור: ידידותי',
      'שיפור: תמציתי',
    ]);
    expect(screen.getByTestId('ai-generate-subject')).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByTestId('ai-improve-professional')).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(screen.getByTestId('ai-improve-concise')).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();

    await user.click(button);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    fireEvent.mouseDown(screen.getByTestId('compose-subject'));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it.each(['ai-generate-subject', 'ai-improve-professional'])('%s with an empty body asks for it, no request', async (testId) => {
    const fetch = composeServer();
    renderCompose();
    const user = userEvent.setup();
    await screen.findByTestId('compose-page');
    typeBody('<div><br></div>');
    await choose(user, testId);
    expect(screen.getByTestId('compose-error')).toHaveTextContent('יש לכתוב קודם את תוכן המייל');
    expect(fetch.mock.calls.filter(([url]) => String(url).startsWith('/api/claude'))).toHaveLength(0);
    // Typing the body clears the message.
    typeBody('<div>שלום</div>');
    expect(screen.queryByTestId('compose-error')).not.toBeInTheDocument();
  });

  it('generates the subject from the body, busy meanwhile', async () => {
    let answer!: (r: Response) => void;
    const fetch = composeServer({
      'POST /api/claude/generate-subject': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderCompose();
    const user = userEvent.setup();
    await screen.findByTestId('compose-page');
    typeBody('<div>נפגשים מחר בעשר במשרד</div>');
    await choose(user, 'ai-generate-subject');

    const button = screen.getByTestId('ai-menu');
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveTextContent('ה-AI עובד...');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(bodyOf(calls(fetch, 'POST', '/api/claude/generate-subject')[0])).toEqual({
      emailBody: '<p dir="rtl">נפגשים מחר בעשר במשרד</p>',
    });

    answer(json(200, { success: true, subject: ' פגישה מחר בעשר ' }));
    await waitFor(() => expect(screen.getByTestId('compose-subject')).toHaveValue('פגישה מחר בעשר'));
    expect(button).toBeEnabled();
    expect(button).toHaveAttribute('aria-busy', 'false');
    expect(button).toHaveTextContent('עזרת AI');
    expect(bodyHtml()).toBe('<p dir="rtl">נפגשים מחר בעשר במשרד</p>');
  });

  it.each([
    ['ai-improve-professional', 'professional'],
    ['ai-improve-friendly', 'friendly'],
    ['ai-improve-concise', 'concise'],
  ])('%s replaces the body with the %s version, and it can be undone', async (testId, style) => {
    const fetch = composeServer({
      'POST /api/claude/improve-email': () =>
        json(200, { success: true, improved: `<p>גרסה ${style}</p><p>שורה 2</p>`, improvedText: `גרסה ${style}\n\nשורה 2` }),
    });
    renderCompose();
    const user = userEvent.setup();
    await screen.findByTestId('compose-page');
    typeBody('<div>היי מה נשמע</div>');
    await choose(user, testId);

    await waitFor(() => expect(bodyHtml()).toBe(`<p dir="rtl">גרסה ${style}</p><p dir="rtl">שורה 2</p>`));
    expect(bodyOf(calls(fetch, 'POST', '/api/claude/improve-email')[0])).toEqual({
      emailContent: '<p dir="rtl">היי מה נשמע</p>',
      style,
    });
    await user.click(screen.getByTestId('ai-undo-improve'));
    expect(bodyHtml()).toBe('<p dir="rtl">היי מה נשמע</p>');
    expect(screen.queryByTestId('ai-undo-improve')).not.toBeInTheDocument();
  });

  it('the undo offer goes away with the next edit; the AI HTML is reduced to safe formatting', async () => {
    composeServer({
      'POST /api/claude/improve-email': () =>
        json(200, {
          success: true,
          improved: '<p onclick="x()">טוב <b>מאוד</b><script>alert(1)</script><img src=x onerror="alert(1)"></p><a href="javascript:alert(1)">קישור</a>',
          improvedText: '',
        }),
    });
    renderCompose();
    const user = userEvent.setup();
    await screen.findByTestId('compose-page');
    typeBody('<div>טיוטה</div>');
    await choose(user, 'ai-improve-friendly');
    await waitFor(() => expect(bodyHtml()).toBe('<p dir="rtl">טוב <b>מאוד</b></p><p dir="rtl">קישור</p>'));
    expect(screen.getByTestId('ai-undo-improve')).toBeInTheDocument();
    typeBody('<p>טוב מאוד, ועוד</p>');
    expect(screen.queryByTestId('ai-undo-improve')).not.toBeInTheDocument();
  });

  it('a failed improvement keeps the body and says why', async () => {
    const message = 'שגיאה בשיפור המייל: ספק ה-AI עמוס כרגע. נסה שוב בעוד מספר דקות.';
    composeServer({
      'POST /api/claude/improve-email': () => json(502, { success: false, error: 'ai_failed', message }),
    });
    renderCompose();
    const user = userEvent.setup();
    await screen.findByTestId('compose-page');
    typeBody('<div>הטקסט שלי</div>');
    await choose(user, 'ai-improve-concise');
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', text: message }));
    expect(bodyHtml()).toBe('<p dir="rtl">הטקסט שלי</p>');
    expect(screen.queryByTestId('ai-undo-improve')).not.toBeInTheDocument();
    expect(screen.getByTestId('ai-menu')).toBeEnabled();
  });

  it('a failed subject without a server message shows the spec text and keeps the subject', async () => {
    composeServer({ 'POST /api/claude/generate-subject': () => json(500, {}) });
    renderCompose();
    const user = userEvent.setup();
    await screen.findByTestId('compose-page');
    await user.type(screen.getByTestId('compose-subject'), 'נושא שלי');
    typeBody('<div>גוף</div>');
    await choose(user, 'ai-generate-subject');
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', text: 'שגיאה ביצירת כותרת' }));
    expect(screen.getByTestId('compose-subject')).toHaveValue('נושא שלי');
  });

  it('a missing key shows the server message as is, with a link to the settings', async () => {
    composeServer({
      'POST /api/claude/improve-email': () => json(400, { success: false, error: 'ai_key_missing', message: KEY_MISSING }),
    });
    const r = renderCompose();
    const user = userEvent.setup();
    await screen.findByTestId('compose-page');
    typeBody('<div>גוף</div>');
    await choose(user, 'ai-improve-professional');
    expect(await screen.findByTestId('ai-key-missing')).toHaveTextContent(KEY_MISSING);
    expect(bodyHtml()).toBe('<p dir="rtl">גוף</p>');
    await user.click(screen.getByTestId('ai-settings-link'));
    expect(r.location().pathname).toBe('/Settings');
  });
});
