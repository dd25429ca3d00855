// The AI training page's household settings (spec 001 "AI training page", §7, §8): an admin
// saves the page's current settings for all users; anyone loads the global ones into the form
// (null fields skipped) and then saves as usual.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AiTrainingSettings } from '../../api/ai';
import type { User } from '../../api/types';
import { bodyOf, calls, DANA, json, mockFetch } from '../../test/helpers';
import { NO_GLOBAL, renderTrainingPage, trainingServer, trainingSettings } from './trainingFixtures';

type Handler = Parameters<typeof mockFetch>[0][string];

const PLAIN: User = { ...DANA, id: 2, username: 'yossi', name: 'יוסי לוי', role: 'user' };

const TRAINING: AiTrainingSettings = trainingSettings({ templates: [{ id: 'formal', name: 'עסקי רשמי', prompt: 'כתוב בסגנון עסקי רשמי' }] });

const GLOBAL = { exists: true, lastUpdated: '2026-11-20T08:30:00Z', updatedBy: 'דנה כהן' };

function server(user: User, routes: Record<string, Handler> = {}) {
  return trainingServer(TRAINING, routes, user);
}

const renderPage = (user: User) => renderTrainingPage(user);

describe('AI training: global settings', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('offers "save for all users" to admins only', async () => {
    const fetch = server(PLAIN);
    const r = await renderPage(PLAIN);
    await waitFor(() => expect(calls(fetch, 'GET', '/api/global-settings/ai-training/exists')).toHaveLength(1));
    expect(screen.queryByTestId('training-save-all')).not.toBeInTheDocument();
    expect(screen.queryByText('שמירה לכל המשתמשים')).not.toBeInTheDocument();
    r.unmount();

    server(DANA);
    await renderPage(DANA);
    expect(screen.getByRole('button', { name: 'שמירה לכל המשתמשים' })).toHaveAttribute('data-testid', 'training-save-all');
  });

  it('saves the page\'s current settings, unsaved edits included, for all users', async () => {
    let exists = NO_GLOBAL as typeof NO_GLOBAL | typeof GLOBAL;
    const fetch = server(DANA, {
      'GET /api/global-settings/ai-training/exists': () => json(200, exists),
      'POST /api/global-settings/ai-training': () => {
        exists = GLOBAL;
        return json(200, {
          success: true,
          message: 'ההגדרות הגלובליות נשמרו',
          settings: { lastUpdated: GLOBAL.lastUpdated, updatedBy: GLOBAL.updatedBy },
        });
      },
    });
    await renderPage(DANA);
    const user = userEvent.setup();
    await user.selectOptions(screen.getByTestId('training-tone'), 'friendly');
    await user.clear(screen.getByTestId('training-max-length'));
    await user.type(screen.getByTestId('training-max-length'), '600');
    await user.click(screen.getByTestId('training-save-all'));

    await waitFor(() => expect(calls(fetch, 'POST', '/api/global-settings/ai-training')).toHaveLength(1));
    const { updatedAt: _updatedAt, ...rest } = TRAINING;
    expect(bodyOf(calls(fetch, 'POST', '/api/global-settings/ai-training')[0])).toEqual({
      settings: { ...rest, tone: 'friendly', maxLength: 600 },
    });
    // The success alert (spec 001 §8); the user's own copy is not touched.
    expect(await screen.findByText('ההגדרות הגלובליות נשמרו', { selector: '.toast__message' })).toBeInTheDocument();
    expect(calls(fetch, 'POST', '/api/settings/ai-training')).toHaveLength(0);
    // Now there are global settings to load.
    expect(await screen.findByTestId('training-load-global')).toHaveTextContent('טעינת הגדרות גלובליות');
  });

  it('says a global save failed in the spec\'s words', async () => {
    server(DANA, {
      'POST /api/global-settings/ai-training': () =>
        json(403, { success: false, error: 'forbidden', message: 'פעולה זו מותרת למנהלי מערכת בלבד' }),
    });
    await renderPage(DANA);
    await userEvent.setup().click(screen.getByTestId('training-save-all'));
    expect(await screen.findByTestId('training-error')).toHaveTextContent(
      'שגיאה בשמירת הגדרות AI גלובליות: פעולה זו מותרת למנהלי מערכת בלבד',
    );
  });

  it('offers to load the global settings only when they exist', async () => {
    const fetch = server(PLAIN);
    const r = await renderPage(PLAIN);
    await waitFor(() => expect(calls(fetch, 'GET', '/api/global-settings/ai-training/exists')).toHaveLength(1));
    expect(screen.queryByTestId('training-load-global')).not.toBeInTheDocument();
    r.unmount();

    server(PLAIN, { 'GET /api/global-settings/ai-training/exists': () => json(200, GLOBAL) });
    await renderPage(PLAIN);
    expect(await screen.findByRole('button', { name: 'טעינת הגדרות גלובליות' })).toBeEnabled();
    expect(screen.getByTestId('training-global-info')).toHaveTextContent(/עודכנו על ידי דנה כהן בתאריך 20\/11\/2026/);
  });

  it('fills the form from the global settings skipping null fields; saving is then the usual save', async () => {
    const fetch = server(PLAIN, {
      'GET /api/global-settings/ai-training/exists': () => json(200, GLOBAL),
      'GET /api/global-settings/ai-training': () =>
        json(200, {
          hasSettings: true,
          settings: {
            systemPrompt: null,
            tone: 'formal',
            language: 'hebrew',
            creativity: 0.2,
            maxLength: 800,
            includeContext: false,
            templates: null,
            autoCorrect: null,
          },
          lastUpdated: GLOBAL.lastUpdated,
          updatedBy: GLOBAL.updatedBy,
        }),
    });
    await renderPage(PLAIN);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('training-load-global'));

    await waitFor(() => expect(screen.getByTestId('training-tone')).toHaveValue('formal'));
    expect(screen.getByTestId('training-language')).toHaveValue('hebrew');
    expect(screen.getByTestId('training-creativity-value')).toHaveTextContent('0.2');
    expect(screen.getByTestId('training-max-length')).toHaveValue(800);
    expect(screen.getByTestId('training-include-context')).not.toBeChecked();
    // Null: kept as they were.
    expect(screen.getByTestId('training-system-prompt')).toHaveValue(TRAINING.systemPrompt);
    expect(screen.getByTestId('training-auto-correct')).toBeChecked();
    expect(screen.getAllByTestId('training-template-row-name').map((n) => n.textContent)).toEqual(['עסקי רשמי']);
    expect(screen.getByTestId('training-dirty')).toBeInTheDocument();
    expect(calls(fetch, 'POST', '/api/settings/ai-training')).toHaveLength(0);

    await user.click(screen.getByTestId('training-save'));
    await screen.findByTestId('training-saved');
    const { updatedAt: _updatedAt, ...rest } = TRAINING;
    expect(bodyOf(calls(fetch, 'POST', '/api/settings/ai-training')[0])).toEqual({
      ...rest,
      tone: 'formal',
      language: 'hebrew',
      creativity: 0.2,
      maxLength: 800,
      includeContext: false,
    });
  });

  it('says loading the global settings failed in the spec\'s words', async () => {
    server(PLAIN, {
      'GET /api/global-settings/ai-training/exists': () => json(200, GLOBAL),
      'GET /api/global-settings/ai-training': () => json(500, { success: false, error: 'internal', message: 'שגיאה בשרת' }),
    });
    await renderPage(PLAIN);
    await userEvent.setup().click(await screen.findByTestId('training-load-global'));
    expect(await screen.findByTestId('training-error')).toHaveTextContent('שגיאה בטעינת הגדרות AI גלובליות: שגיאה בשרת');
    expect(screen.getByTestId('training-tone')).toHaveValue('professional');
  });
});
