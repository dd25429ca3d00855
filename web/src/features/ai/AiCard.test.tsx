import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AiSettings } from '../../api/ai';
import { bodyOf, calls, DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { AiCard } from './AiCard';
import SettingsPage from '../settings/SettingsPage';
import { AI_SETTINGS } from './aiFixtures';

type Handler = Parameters<typeof mockFetch>[0][string];

const SETTINGS: AiSettings = AI_SETTINGS;

/** A server that remembers whether a key is stored. */
function server({ stored = false, settings = SETTINGS, routes = {} }: { stored?: boolean; settings?: AiSettings; routes?: Record<string, Handler> } = {}) {
  let exists = stored;
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/auth/accounts': () => json(200, { success: true, accounts: [] }),
    'GET /api/app/users': () => json(200, { success: true, users: [DANA] }),
    'GET /api/settings/claude-api-key/exists': () => json(200, { exists }),
    'POST /api/settings/claude-api-key': (init) => {
      const { apiKey } = JSON.parse(String(init?.body));
      if (!String(apiKey).trim()) return json(400, { success: false, error: 'bad_request', message: 'הזן מפתח API' });
      exists = true;
      return json(200, { success: true, exists: true });
    },
    'DELETE /api/settings/claude-api-key': () => {
      exists = false;
      return json(200, { success: true, exists: false });
    },
    'GET /api/settings/ai': () => json(200, { ...settings, keyStored: exists }),
    ...routes,
  });
}

function renderCard() {
  signInAs(DANA);
  return renderWithProviders(<AiCard />, { route: '/Settings' });
}

describe('AiCard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is on the settings page in the spec\'s order, with the note on what goes to the provider', async () => {
    server();
    signInAs(DANA);
    renderWithProviders(<SettingsPage />, { route: '/Settings' });
    const cards = [...document.querySelectorAll('section.card')].map((c) => c.getAttribute('data-testid'));
    // Spec 001 §2: header, real-time sync, mail account, the side column, providers, auto-reply, spam;
    // then ours.
    expect(cards).toEqual([
      'sync-card',
      'mail-account-card',
      'preferences-card',
      'connection-status',
      'quick-stats',
      'device-info',
      'providers-card',
      'auto-reply-card',
      'spam-card',
      'labels-card',
      'push-card',
      'ai-card',
      'mcp-card',
      'account-card',
      'users-card',
    ]);
    expect(screen.getByTestId('ai-privacy')).toHaveTextContent('תוכן המייל שעליו ביקשת עזרה');
    expect(screen.getByTestId('ai-privacy')).toHaveTextContent('מודל מקומי המידע נשאר ברשת שלך');
  });

  it('says whether a key is stored', async () => {
    server({ stored: true });
    renderCard();
    const status = screen.getByTestId('ai-key-status');
    await waitFor(() => expect(status).toHaveAttribute('data-exists', 'true'));
    expect(status).toHaveTextContent('מפתח API שמור');
    const input = screen.getByTestId('ai-key-input');
    expect(input).toHaveAttribute('type', 'password');
    expect(input).toHaveAttribute('autocomplete', 'off');
    expect(input).toHaveValue('');
  });

  it("says when the household's key serves a user without one of their own", async () => {
    server({ routes: { 'GET /api/settings/claude-api-key/exists': () => json(200, { exists: false, household: true }) } });
    renderCard();
    const status = screen.getByTestId('ai-key-status');
    await waitFor(() => expect(status).toHaveAttribute('data-exists', 'false'));
    expect(status).toHaveTextContent('משמש מפתח ה-AI של משק הבית');
  });

  it('saves the key when the field loses focus, clears it and re-reads the status', async () => {
    const fetch = server();
    renderCard();
    const user = userEvent.setup();
    const status = screen.getByTestId('ai-key-status');
    await waitFor(() => expect(status).toHaveAttribute('data-exists', 'false'));
    expect(status).toHaveTextContent('לא נשמר מפתח API');
    const before = calls(fetch, 'GET', '/api/settings/claude-api-key/exists').length;

    await user.type(screen.getByTestId('ai-key-input'), 'sk-ant-secret');
    await user.tab();

    await waitFor(() => expect(status).toHaveAttribute('data-exists', 'true'));
    expect(status).toHaveTextContent('מפתח API שמור');
    const posts = calls(fetch, 'POST', '/api/settings/claude-api-key');
    expect(posts).toHaveLength(1);
    expect(bodyOf(posts[0])).toEqual({ apiKey: 'sk-ant-secret' });
    expect(screen.getByTestId('ai-key-input')).toHaveValue('');
    await waitFor(() => expect(calls(fetch, 'GET', '/api/settings/claude-api-key/exists').length).toBeGreaterThan(before));
    expect(await screen.findByText('מפתח ה-API נשמר', { selector: '.toast__message' })).toBeInTheDocument();
  });

  it('does not send a blank key on blur', async () => {
    const fetch = server();
    renderCard();
    const user = userEvent.setup();
    await user.type(screen.getByTestId('ai-key-input'), '   ');
    await user.tab();
    expect(screen.getByTestId('ai-key-save')).toBeDisabled();
    expect(calls(fetch, 'POST', '/api/settings/claude-api-key')).toHaveLength(0);
  });

  it('saves the key once with the button (the blur before the click does not send it twice)', async () => {
    const fetch = server();
    renderCard();
    const user = userEvent.setup();
    await user.type(screen.getByTestId('ai-key-input'), 'sk-ant-by-button');
    await user.click(screen.getByTestId('ai-key-save'));

    await waitFor(() => expect(screen.getByTestId('ai-key-status')).toHaveAttribute('data-exists', 'true'));
    const posts = calls(fetch, 'POST', '/api/settings/claude-api-key');
    expect(posts).toHaveLength(1);
    expect(bodyOf(posts[0])).toEqual({ apiKey: 'sk-ant-by-button' });
    expect(screen.getByTestId('ai-key-input')).toHaveValue('');
  });

  it('keeps the typed key and shows the server message when saving fails', async () => {
    server({
      routes: {
        'POST /api/settings/claude-api-key': () => json(500, { success: false, error: 'internal', message: 'שגיאה בשמירת המפתח' }),
      },
    });
    renderCard();
    const user = userEvent.setup();
    await user.type(screen.getByTestId('ai-key-input'), 'sk-ant-x');
    await user.click(screen.getByTestId('ai-key-save'));
    expect(await screen.findByTestId('ai-key-error')).toHaveTextContent('שגיאה בשמירת המפתח');
    expect(screen.getByTestId('ai-key-input')).toHaveValue('sk-ant-x');
  });

  it('deletes the key after a confirmation', async () => {
    const fetch = server({ stored: true });
    renderCard();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('ai-key-delete'));

    // Cancelling leaves the key alone.
    const dialog = screen.getByTestId('confirm-dialog');
    expect(dialog).toHaveTextContent('למחוק את מפתח ה-API השמור?');
    await user.click(within(dialog).getByTestId('confirm-no'));
    expect(screen.queryByTestId('confirm-dialog')).not.toBeInTheDocument();
    expect(calls(fetch, 'DELETE', '/api/settings/claude-api-key')).toHaveLength(0);

    await user.click(screen.getByTestId('ai-key-delete'));
    await user.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(screen.getByTestId('ai-key-status')).toHaveAttribute('data-exists', 'false'));
    expect(calls(fetch, 'DELETE', '/api/settings/claude-api-key')).toHaveLength(1);
    expect(screen.queryByTestId('confirm-dialog')).not.toBeInTheDocument();
    expect(screen.queryByTestId('ai-key-delete')).not.toBeInTheDocument();
  });

  it('shows the provider settings with the server defaults as placeholders', async () => {
    server();
    renderCard();
    const provider = await screen.findByTestId('ai-provider');
    expect(provider).toHaveValue('anthropic');
    expect(within(provider).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Anthropic (Claude)',
      'שרת תואם OpenAI (Ollama, llama.cpp, vLLM)',
    ]);
    expect(screen.getByTestId('ai-model')).toHaveAttribute('placeholder', 'claude-sonnet-4-5');
    expect(screen.getByTestId('ai-base-url')).toHaveAttribute('placeholder', 'https://api.anthropic.com');
    expect(screen.getByTestId('ai-effective')).toHaveTextContent('Anthropic (Claude)');
    expect(screen.getByTestId('ai-effective-model')).toHaveTextContent('claude-sonnet-4-5');

    // Another provider than the server's: its own defaults (what the server uses for empty fields).
    await userEvent.setup().selectOptions(provider, 'openai');
    expect(screen.getByTestId('ai-model')).toHaveAttribute('placeholder', 'gpt-4o-mini');
    expect(screen.getByTestId('ai-base-url')).toHaveAttribute('placeholder', 'https://api.openai.com/v1');
    expect(screen.getByText(/11434/)).toBeInTheDocument();
  });

  it('saves the provider and shows what is now in effect; the key becomes optional', async () => {
    const local = { provider: 'openai', model: 'llama3.1', baseUrl: 'http://127.0.0.1:11434/v1' } as const;
    const fetch = server({
      routes: {
        'PUT /api/settings/ai': () => json(200, { ...SETTINGS, ...local, effective: local, keyRequired: false }),
      },
    });
    renderCard();
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByTestId('ai-provider'), 'openai');
    await user.type(screen.getByTestId('ai-model'), 'llama3.1');
    await user.type(screen.getByTestId('ai-base-url'), 'http://127.0.0.1:11434/v1');
    await user.click(screen.getByTestId('ai-settings-save'));

    expect(await screen.findByTestId('ai-settings-saved')).toHaveTextContent('הגדרות ספק ה-AI נשמרו');
    expect(bodyOf(calls(fetch, 'PUT', '/api/settings/ai')[0])).toEqual(local);
    expect(screen.getByTestId('ai-effective-provider')).toHaveTextContent('שרת תואם OpenAI');
    expect(screen.getByTestId('ai-effective-model')).toHaveTextContent('llama3.1');
    expect(screen.getByTestId('ai-effective-url')).toHaveTextContent('http://127.0.0.1:11434/v1');
    expect(screen.getByTestId('ai-model')).toHaveValue('llama3.1');
    expect(screen.getByText(/המפתח אופציונלי/)).toBeInTheDocument();
  });

  it('shows the server 400 message under the provider form', async () => {
    server({
      routes: {
        'PUT /api/settings/ai': () =>
          json(400, { success: false, error: 'bad_request', message: 'כתובת השרת של ספק ה-AI אינה תקינה' }),
      },
    });
    renderCard();
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByTestId('ai-provider'), 'openai');
    await user.type(screen.getByTestId('ai-base-url'), 'ftp://nope');
    await user.click(screen.getByTestId('ai-settings-save'));
    expect(await screen.findByTestId('ai-settings-error')).toHaveTextContent('כתובת השרת של ספק ה-AI אינה תקינה');
    // The form keeps what the user typed.
    expect(screen.getByTestId('ai-base-url')).toHaveValue('ftp://nope');
    expect(screen.queryByTestId('ai-settings-saved')).not.toBeInTheDocument();
  });

  it('a user who may not set the base URL sees the address in effect, read-only', async () => {
    const fetch = server({
      settings: { ...SETTINGS, baseUrlEditable: false },
      routes: {
        'PUT /api/settings/ai': (init) => {
          const body = JSON.parse(String(init?.body));
          const openai = { provider: 'openai', model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1' } as const;
          return json(200, { ...SETTINGS, ...body, effective: openai, keyRequired: false, baseUrlEditable: false });
        },
      },
    });
    renderCard();
    const user = userEvent.setup();
    const provider = await screen.findByTestId('ai-provider');
    expect(screen.queryByTestId('ai-base-url')).not.toBeInTheDocument();
    const locked = screen.getByTestId('ai-base-url-locked');
    expect(locked).toHaveTextContent('כתובת השרת');
    expect(locked).toHaveTextContent('רק מנהל מערכת יכול לשנות את כתובת השרת');
    expect(screen.getByTestId('ai-base-url-locked-value')).toHaveTextContent('https://api.anthropic.com');

    // Another provider: the address its default would be; the saved (empty) base URL is sent.
    await user.selectOptions(provider, 'openai');
    expect(screen.getByTestId('ai-base-url-locked-value')).toHaveTextContent('https://api.openai.com/v1');
    await user.click(screen.getByTestId('ai-settings-save'));
    await screen.findByTestId('ai-settings-saved');
    expect(bodyOf(calls(fetch, 'PUT', '/api/settings/ai')[0])).toEqual({ provider: 'openai', model: '', baseUrl: '' });
    expect(screen.queryByTestId('ai-base-url')).not.toBeInTheDocument();
  });

  it('a provider change by such a user keeps their saved base URL (the server refuses any change)', async () => {
    const saved = { provider: 'openai', model: 'llama3.1', baseUrl: 'http://10.0.0.5:11434/v1' } as const;
    const fetch = server({
      settings: { ...SETTINGS, ...saved, effective: saved, keyRequired: false, baseUrlEditable: false },
      routes: { 'PUT /api/settings/ai': () => json(200, { ...SETTINGS, baseUrl: saved.baseUrl, baseUrlEditable: false }) },
    });
    renderCard();
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByTestId('ai-provider'), 'anthropic');
    expect(screen.getByTestId('ai-base-url-locked-value')).toHaveTextContent('http://10.0.0.5:11434/v1');
    await user.click(screen.getByTestId('ai-settings-save'));
    await screen.findByTestId('ai-settings-saved');
    expect(bodyOf(calls(fetch, 'PUT', '/api/settings/ai')[0])).toEqual({
      provider: 'anthropic',
      model: '',
      baseUrl: 'http://10.0.0.5:11434/v1',
    });
  });

  it('says so when the stored key no longer applies after a provider change, until a key is stored', async () => {
    let exists = true;
    const local = { provider: 'openai', model: '', baseUrl: 'http://127.0.0.1:11434/v1' } as const;
    let current: AiSettings = SETTINGS;
    const fetch = server({
      routes: {
        'GET /api/settings/claude-api-key/exists': () => json(200, { exists }),
        'GET /api/settings/ai': () => json(200, { ...current, keyStored: exists }),
        'PUT /api/settings/ai': () => {
          // The key was stored for Anthropic: it does not open for the new address.
          exists = false;
          current = { ...SETTINGS, ...local, effective: { ...local, model: 'gpt-4o-mini' }, keyRequired: false };
          return json(200, { ...current, keyStored: false });
        },
        'POST /api/settings/claude-api-key': () => {
          exists = true;
          return json(200, { success: true, exists: true });
        },
      },
    });
    renderCard();
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByTestId('ai-key-status')).toHaveAttribute('data-exists', 'true'));
    expect(screen.queryByTestId('ai-key-elsewhere')).not.toBeInTheDocument();

    await user.selectOptions(await screen.findByTestId('ai-provider'), 'openai');
    await user.type(screen.getByTestId('ai-base-url'), local.baseUrl);
    const before = calls(fetch, 'GET', '/api/settings/claude-api-key/exists').length;
    await user.click(screen.getByTestId('ai-settings-save'));

    expect(await screen.findByTestId('ai-key-elsewhere')).toHaveTextContent(
      'המפתח השמור שייך לספק או לכתובת אחרים — יש להזין מפתח עבור ההגדרה הנוכחית',
    );
    // The key's status follows the setting in effect.
    await waitFor(() => expect(screen.getByTestId('ai-key-status')).toHaveAttribute('data-exists', 'false'));
    expect(calls(fetch, 'GET', '/api/settings/claude-api-key/exists').length).toBeGreaterThan(before);

    await user.type(screen.getByTestId('ai-key-input'), 'sk-local');
    await user.click(screen.getByTestId('ai-key-save'));
    await waitFor(() => expect(screen.queryByTestId('ai-key-elsewhere')).not.toBeInTheDocument());
    expect(screen.getByTestId('ai-key-status')).toHaveAttribute('data-exists', 'true');
  });

  it('no note when there was no key to lose', async () => {
    server({
      routes: { 'PUT /api/settings/ai': () => json(200, { ...SETTINGS, provider: 'openai', keyRequired: false }) },
    });
    renderCard();
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByTestId('ai-provider'), 'openai');
    await user.click(screen.getByTestId('ai-settings-save'));
    await screen.findByTestId('ai-settings-saved');
    expect(screen.queryByTestId('ai-key-elsewhere')).not.toBeInTheDocument();
  });
});
