import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AiTrainingSettings } from '../../api/ai';
import { bodyOf, calls, DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import AITrainingPage, { SAVED_MESSAGE_MS } from './AITrainingPage';
import { renderTrainingPage, trainingServer, trainingSettings } from './trainingFixtures';

type Handler = Parameters<typeof mockFetch>[0][string];

const TRAINING: AiTrainingSettings = trainingSettings({
  templates: [
    { id: 'formal', name: 'עסקי רשמי', prompt: 'כתוב בסגנון עסקי רשמי' },
    { id: 'friendly', name: 'ידידותי', prompt: 'כתוב בחום' },
  ],
  // Not shown on the page: must go back exactly as loaded.
  spamTrainingEnabled: false,
  spamExamples: [{ id: 's1', text: 'זכית בפרס!', date: '2026-11-01T10:00:00Z' }],
  hamExamples: [{ id: 'h1', text: 'הפגישה מחר ב-10', date: '2026-11-02T10:00:00Z' }],
  spamKeywords: 'lottery\nprize',
  spamDomains: 'spam.example',
  spamPatterns: '^win.*',
});

function server(routes: Record<string, Handler> = {}, initial: AiTrainingSettings = TRAINING) {
  return trainingServer(initial, routes);
}

const renderPage = () => renderTrainingPage();

describe('AITrainingPage', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('loads the server copy on open and shows the general settings tab first', async () => {
    server();
    await renderPage();
    expect(screen.getByTestId('training-system-prompt')).toHaveValue(TRAINING.systemPrompt);
    const tone = screen.getByTestId('training-tone');
    expect(tone).toHaveValue('professional');
    expect(within(tone).getAllByRole('option').map((o) => o.textContent)).toEqual(['מקצועי', 'ידידותי', 'רשמי', 'קליל', 'יצירתי']);
    const language = screen.getByTestId('training-language');
    expect(language).toHaveValue('auto');
    expect(within(language).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'אוטומטי (לפי שפת המייל)',
      'עברית',
      'אנגלית',
      'ערבית',
      'רוסית',
    ]);
    expect(screen.getByTestId('training-creativity')).toHaveValue('0.7');
    expect(screen.getByTestId('training-creativity-value')).toHaveTextContent('0.7');
    expect(screen.getByTestId('training-max-length')).toHaveValue(2000);
    expect(screen.getByTestId('training-include-context')).toBeChecked();
    expect(screen.getByLabelText('לכלול את ההודעות הקודמות בשרשור')).toBeChecked();
    expect(screen.getByTestId('training-auto-correct')).toBeChecked();
    expect(screen.getAllByTestId('training-template-row-name').map((n) => n.textContent)).toEqual(['עסקי רשמי', 'ידידותי']);
    // Spec 001 §2: two tabs, the general one open; the spam training fields are on the other.
    expect(within(screen.getByRole('tablist')).getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'הגדרות כלליות',
      'אימון זיהוי ספאם',
    ]);
    expect(screen.getByTestId('training-tab-general')).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByTestId('spam-training')).not.toBeInTheDocument();
    expect(screen.getByTestId('training-updated-at')).toHaveTextContent('נשמר בשרת לאחרונה');
  });

  it('checks the maximum length (50–5000 words) and disables saving while it is out of range', async () => {
    server();
    await renderPage();
    const user = userEvent.setup();
    const input = screen.getByTestId('training-max-length');
    const save = screen.getByTestId('training-save');

    await user.clear(input);
    await user.type(input, '40');
    expect(screen.getByTestId('training-max-length-error')).toHaveTextContent('בין 50 ל-5000');
    expect(save).toBeDisabled();

    await user.clear(input);
    await user.type(input, '5001');
    expect(screen.getByTestId('training-max-length-error')).toBeInTheDocument();
    expect(save).toBeDisabled();

    await user.clear(input);
    expect(save).toBeDisabled();

    await user.type(input, '50');
    expect(screen.queryByTestId('training-max-length-error')).not.toBeInTheDocument();
    expect(save).toBeEnabled();
  });

  it('saves the whole object, with the spam fields passed through unchanged', async () => {
    const fetch = server();
    await renderPage();
    const user = userEvent.setup();

    await user.clear(screen.getByTestId('training-system-prompt'));
    await user.type(screen.getByTestId('training-system-prompt'), 'כתוב קצר');
    await user.selectOptions(screen.getByTestId('training-tone'), 'friendly');
    await user.selectOptions(screen.getByTestId('training-language'), 'hebrew');
    fireEvent.change(screen.getByTestId('training-creativity'), { target: { value: '0.3' } });
    expect(screen.getByTestId('training-creativity-value')).toHaveTextContent('0.3');
    await user.clear(screen.getByTestId('training-max-length'));
    await user.type(screen.getByTestId('training-max-length'), '300');
    await user.click(screen.getByTestId('training-include-context'));
    await user.click(screen.getByTestId('training-auto-correct'));

    // Templates: edit the first, delete the second, add one.
    const rows = screen.getAllByTestId('training-template-row');
    await user.click(within(rows[0]).getByTestId('training-template-edit'));
    const editName = screen.getByTestId('training-template-edit-name');
    await user.clear(editName);
    expect(screen.getByTestId('training-template-edit-save')).toBeDisabled();
    await user.type(editName, 'רשמי מאוד');
    await user.click(screen.getByTestId('training-template-edit-save'));
    await user.click(within(screen.getAllByTestId('training-template-row')[1]).getByTestId('training-template-delete'));
    await user.type(screen.getByTestId('training-template-prompt'), 'ענה בשלוש שורות');
    expect(screen.getByTestId('training-template-name-error')).toHaveTextContent('יש לתת לתבנית שם');
    expect(screen.getByTestId('training-template-add')).toBeDisabled();
    await user.type(screen.getByTestId('training-template-name'), 'תמציתי');
    await user.click(screen.getByTestId('training-template-add'));
    expect(screen.getByTestId('training-dirty')).toBeInTheDocument();

    await user.click(screen.getByTestId('training-save'));
    expect(await screen.findByTestId('training-saved')).toHaveTextContent('ההגדרות נשמרו בשרת');

    const posts = calls(fetch, 'POST', '/api/settings/ai-training');
    expect(posts).toHaveLength(1);
    const body = bodyOf(posts[0]);
    const { updatedAt: _updatedAt, ...unchanged } = TRAINING;
    expect(body).toEqual({
      ...unchanged,
      systemPrompt: 'כתוב קצר',
      tone: 'friendly',
      language: 'hebrew',
      creativity: 0.3,
      maxLength: 300,
      includeContext: false,
      autoCorrect: false,
      templates: [
        { id: 'formal', name: 'רשמי מאוד', prompt: 'כתוב בסגנון עסקי רשמי' },
        { id: expect.any(String), name: 'תמציתי', prompt: 'ענה בשלוש שורות' },
      ],
    });
    expect(body).not.toHaveProperty('updatedAt');
    const added = (body.templates as { id: string }[])[1].id;
    expect(added).not.toBe('formal');
    expect(screen.queryByTestId('training-dirty')).not.toBeInTheDocument();
  });

  it('shows a saving indicator, then a success message that disappears after 3 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer: (r: Response) => void = () => {};
    server({
      'POST /api/settings/ai-training': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    await renderPage();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

    await user.click(screen.getByTestId('training-save'));
    expect(screen.getByTestId('training-saving')).toBeInTheDocument();
    expect(screen.getByTestId('training-save')).toBeDisabled();
    await act(async () => answer(json(200, { success: true, settings: { ...TRAINING, updatedAt: '2026-11-23T09:00:00Z' } })));

    expect(await screen.findByTestId('training-saved')).toBeInTheDocument();
    expect(screen.queryByTestId('training-saving')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(SAVED_MESSAGE_MS - 100));
    expect(screen.getByTestId('training-saved')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByTestId('training-saved')).not.toBeInTheDocument();
    expect(SAVED_MESSAGE_MS).toBe(3000);
  });

  it("says 'שגיאה בשמירה לשרת' with the server's reason, and keeps the edits", async () => {
    server({
      'POST /api/settings/ai-training': () =>
        json(400, { success: false, error: 'bad_request', message: 'היצירתיות חייבת להיות בין 0 ל-1' }),
    });
    await renderPage();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByTestId('training-tone'), 'casual');
    await user.click(screen.getByTestId('training-save'));
    expect(await screen.findByTestId('training-error')).toHaveTextContent('שגיאה בשמירה לשרת: היצירתיות חייבת להיות בין 0 ל-1');
    expect(screen.getByTestId('training-tone')).toHaveValue('casual');
    expect(screen.queryByTestId('training-saved')).not.toBeInTheDocument();
  });

  it("says 'שגיאה בטעינה מהשרת' when the first load fails, and loads with the button", async () => {
    let fail = true;
    server({
      'GET /api/settings/ai-training': () =>
        fail ? json(500, { success: false, error: 'internal', message: 'שגיאה בשרת' }) : json(200, TRAINING),
    });
    signInAs(DANA);
    renderWithProviders(<AITrainingPage />, { route: '/AITraining' });
    expect(await screen.findByTestId('training-error')).toHaveTextContent('שגיאה בטעינה מהשרת');
    expect(screen.queryByTestId('training-general')).not.toBeInTheDocument();

    fail = false;
    await userEvent.setup().click(screen.getByTestId('training-load'));
    expect(await screen.findByTestId('training-general')).toBeInTheDocument();
    expect(screen.queryByTestId('training-error')).not.toBeInTheDocument();
  });

  it("re-reads the server copy with 'טען מהשרת' (asking first when there are unsaved edits)", async () => {
    let current: AiTrainingSettings = TRAINING;
    server({ 'GET /api/settings/ai-training': () => json(200, current) });
    await renderPage();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByTestId('training-tone'), 'formal');

    current = { ...TRAINING, tone: 'creative', systemPrompt: 'גרסה מהשרת' };
    await user.click(screen.getByTestId('training-load'));
    const dialog = screen.getByTestId('confirm-dialog');
    await user.click(within(dialog).getByTestId('confirm-yes'));

    await waitFor(() => expect(screen.getByTestId('training-tone')).toHaveValue('creative'));
    expect(screen.getByTestId('training-system-prompt')).toHaveValue('גרסה מהשרת');
    expect(screen.queryByTestId('training-dirty')).not.toBeInTheDocument();
  });

  it("says 'שגיאה בטעינה מהשרת' when reloading fails, keeping the page", async () => {
    let fail = false;
    server({
      'GET /api/settings/ai-training': () =>
        fail ? Promise.reject(new TypeError('Failed to fetch')) : json(200, TRAINING),
    });
    await renderPage();
    fail = true;
    await userEvent.setup().click(screen.getByTestId('training-load'));
    expect(await screen.findByTestId('training-error')).toHaveTextContent(/^שגיאה בטעינה מהשרת/);
    expect(screen.getByTestId('training-general')).toBeInTheDocument();
  });
});
