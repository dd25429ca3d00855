import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AiTrainingSettings } from '../../api/ai';
import { DANA, json, mockFetch } from '../../test/helpers';
import { EXAMPLE_PREVIEW_CHARS, examplePreview, newExample } from './SpamTraining';
import { NO_GLOBAL, renderTrainingPage, trainingSettings } from '../aitraining/trainingFixtures';

const TRAINING: AiTrainingSettings = trainingSettings({
  systemPrompt: 'אתה עוזר אישי.',
  spamExamples: [{ id: 's1', text: 'זכית בפרס! לחץ כאן', date: '2026-11-01T10:00:00Z' }],
  spamKeywords: 'lottery',
});

/** Keeps what is saved; a pattern that does not compile is refused as the real one does. */
function server() {
  let stored = TRAINING;
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/settings/ai-training': () => json(200, stored),
    'GET /api/global-settings/ai-training/exists': () => json(200, NO_GLOBAL),
    'POST /api/settings/ai-training': (init) => {
      const body = JSON.parse(String(init?.body)) as AiTrainingSettings;
      const lines = body.spamPatterns.split('\n');
      for (let i = 0; i < lines.length; i++) {
        try {
          if (lines[i].trim()) new RegExp(lines[i]);
        } catch {
          return json(400, { success: false, error: 'bad_request', message: `ביטוי רגולרי לא תקין בשורה ${i + 1}` });
        }
      }
      stored = { ...stored, ...body, updatedAt: '2026-11-23T09:00:00Z' };
      return json(200, { success: true, settings: stored });
    },
  });
}

async function openSpamTab() {
  await renderTrainingPage();
  await userEvent.setup().click(screen.getByTestId('training-tab-spam'));
  return screen.findByTestId('spam-training');
}

function saveBodies(fetch: ReturnType<typeof mockFetch>) {
  return fetch.mock.calls
    .filter(([url, init]) => String(url) === '/api/settings/ai-training' && init?.method === 'POST')
    .map(([, init]) => JSON.parse(String(init?.body)) as AiTrainingSettings);
}

describe('spam training helpers', () => {
  it('previews 100 characters on one line and drops blank examples', () => {
    const long = 'א'.repeat(150);
    expect(examplePreview(long)).toBe(`${'א'.repeat(EXAMPLE_PREVIEW_CHARS)}…`);
    expect(examplePreview('  שורה\n\nשנייה  ')).toBe('שורה שנייה');
    expect(newExample('   \n ')).toBeNull();
    const ex = newExample('  הצעה מיוחדת  ', new Date('2026-11-27T10:00:00Z'));
    expect(ex).toMatchObject({ text: 'הצעה מיוחדת', date: '2026-11-27T10:00:00.000Z' });
    expect(newExample('x')?.id).not.toBe(newExample('x')?.id);
  });
});

describe('the AI training page\'s spam tab', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the loaded fields and adds an example with Ctrl+Enter only, ignoring blank ones', async () => {
    server();
    const panel = await openSpamTab();
    expect(screen.getByTestId('training-tab-spam')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('spam-training-keywords')).toHaveValue('lottery');
    expect(within(screen.getByTestId('spam-examples-spam')).getAllByTestId('spam-example')).toHaveLength(1);
    expect(screen.getByTestId('spam-examples-empty-ham')).toHaveTextContent('אין עדיין דוגמאות');

    const user = userEvent.setup();
    const input = screen.getByTestId('spam-example-input-ham');
    await user.type(input, 'הפגישה מחר ב-10');
    // Plain Enter is a new line, not an add.
    await user.keyboard('{Enter}');
    expect(screen.queryByTestId('spam-examples-list-ham')).not.toBeInTheDocument();
    await user.keyboard('{Control>}{Enter}{/Control}');
    const list = screen.getByTestId('spam-examples-list-ham');
    expect(within(list).getByTestId('spam-example')).toHaveTextContent('הפגישה מחר ב-10');
    expect(input).toHaveValue('');

    // Blank: ignored.
    await user.type(input, '   ');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(within(list).getAllByTestId('spam-example')).toHaveLength(1);
    expect(panel).toBeInTheDocument();
  });

  it('shows a long example as its 100-character preview, removes one, and saves the whole form', async () => {
    const fetch = server();
    await openSpamTab();
    const user = userEvent.setup();
    const text = `מבצע ${'ב'.repeat(200)}`;
    fireEvent.change(screen.getByTestId('spam-example-input-spam'), { target: { value: text } });
    fireEvent.keyDown(screen.getByTestId('spam-example-input-spam'), { key: 'Enter', ctrlKey: true });
    const items = within(screen.getByTestId('spam-examples-list-spam')).getAllByTestId('spam-example');
    expect(items).toHaveLength(2);
    // Newest first, cut to 100 characters and an ellipsis.
    expect(items[0].textContent?.replace('הסרה', '')).toBe(`${text.slice(0, 100)}…`);
    await user.click(within(items[1]).getByTestId('spam-example-remove'));
    expect(within(screen.getByTestId('spam-examples-list-spam')).getAllByTestId('spam-example')).toHaveLength(1);
    await user.type(screen.getByTestId('spam-training-domains'), 'spam.example');

    await user.click(screen.getByTestId('training-save'));
    await screen.findByTestId('training-saved');
    const [body] = saveBodies(fetch);
    expect(body.spamExamples.map((e) => e.text)).toEqual([text]);
    expect(body.spamDomains).toBe('spam.example');
    expect(body.spamKeywords).toBe('lottery');
    expect(body.systemPrompt).toBe(TRAINING.systemPrompt);
  });

  it('shows the server\'s Hebrew error naming the bad pattern\'s line, and keeps the edits', async () => {
    const fetch = server();
    await openSpamTab();
    const patterns = screen.getByTestId('spam-training-patterns');
    fireEvent.change(patterns, { target: { value: '^win.*\n(unclosed' } });
    await userEvent.setup().click(screen.getByTestId('training-save'));
    expect(await screen.findByTestId('training-error')).toHaveTextContent('ביטוי רגולרי לא תקין בשורה 2');
    expect(screen.queryByTestId('training-saved')).not.toBeInTheDocument();
    expect(patterns).toHaveValue('^win.*\n(unclosed');
    expect(screen.getByTestId('training-dirty')).toBeInTheDocument();
    await waitFor(() => expect(saveBodies(fetch)).toHaveLength(1));
  });
});
