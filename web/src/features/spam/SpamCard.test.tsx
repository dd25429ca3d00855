import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SpamSettings } from '../../api/spam';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { SpamCard, spamBody, toSpamForm } from './SpamCard';
import { SPAM_DEFAULTS, spamServer } from './spamFixtures';

type Routes = Parameters<typeof mockFetch>[0];

function server(options: { key?: boolean; settings?: Partial<SpamSettings>; routes?: Routes } = {}) {
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/settings/claude-api-key/exists': () => json(200, { exists: options.key ?? false }),
    'GET /api/settings/ai': () => json(200, { provider: 'anthropic', keyRequired: true, keyStored: options.key ?? false }),
    ...spamServer(options.settings, {
      logging: true,
      decisions: [
        { at: 1_795_000_000, message: 7, from: 'secure@leumi-verify.example', subject: 'חשבונך הוקפא', verdict: 'spam', score: 9.54, source: 'sync' },
        { at: 1_794_990_000, message: 8, from: 'shop@store.example', subject: 'פרסומת: מבצע', verdict: 'advertisement', score: 1, source: 'classify' },
      ],
      trainedSpam: 3,
      trainedHam: 5,
    }),
    ...options.routes,
  });
}

function saves(fetch: ReturnType<typeof mockFetch>) {
  return fetch.mock.calls
    .filter(([url, init]) => String(url) === '/api/settings/spam-detection' && init?.method === 'POST')
    .map(([, init]) => JSON.parse(String(init?.body)) as SpamSettings);
}

async function renderCard() {
  signInAs(DANA);
  renderWithProviders(<SpamCard />, { route: '/Settings' });
  await screen.findByTestId('spam-threshold');
}

describe('spamBody', () => {
  it('takes whole numbers 1–10 with suspicious not above spam, else the Hebrew reason', () => {
    const f = toSpamForm(SPAM_DEFAULTS);
    expect(spamBody(f)).toEqual({ body: SPAM_DEFAULTS });
    expect(spamBody({ ...f, spamThreshold: '11' })).toEqual({ error: 'ספי הספאם הם מספרים שלמים בין 1 ל-10' });
    expect(spamBody({ ...f, spamThreshold: '4.5' })).toEqual({ error: 'ספי הספאם הם מספרים שלמים בין 1 ל-10' });
    expect(spamBody({ ...f, suspiciousThreshold: '0' })).toEqual({ error: 'ספי הספאם הם מספרים שלמים בין 1 ל-10' });
    expect(spamBody({ ...f, spamThreshold: '3', suspiciousThreshold: '5' })).toEqual({ error: 'סף החשוד לא יכול להיות גבוה מסף הספאם' });
  });
});

describe('SpamCard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the server\'s settings and the decisions with the trained counts', async () => {
    server();
    await renderCard();
    expect(screen.getByTestId('spam-enabled')).toBeChecked();
    expect(screen.getByTestId('spam-auto-move-spam')).toBeChecked();
    expect(screen.getByTestId('spam-notify')).not.toBeChecked();
    expect(screen.getByTestId('spam-threshold')).toHaveValue(4);
    expect(screen.getByTestId('spam-suspicious-threshold')).toHaveValue(2);
    for (const list of ['customKeywords', 'customDomains', 'whitelistDomains', 'whitelistSenders']) {
      expect(screen.getByTestId(`spam-${list}`)).toHaveValue('');
    }
    const items = await screen.findAllByTestId('spam-activity-item');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('ספאם');
    expect(items[0]).toHaveTextContent('9.5 נק׳');
    expect(items[0]).toHaveTextContent('חשבונך הוקפא');
    expect(items[1]).toHaveTextContent('פרסומת');
    expect(items[1]).toHaveTextContent('טען וסווג');
    expect(screen.getByTestId('spam-trained')).toHaveTextContent('3 דוגמאות ספאם ו-5 דוגמאות לגיטימיות');
  });

  it('disables the AI toggle without an AI key, and enables it with one', async () => {
    server({ key: false });
    await renderCard();
    await waitFor(() => expect(screen.getByTestId('spam-use-ai')).toBeDisabled());
    expect(screen.getByTestId('spam-use-ai-row')).toHaveTextContent('דורשת מפתח API');
    vi.unstubAllGlobals();

    server({ key: true });
    await renderCardAgain();
    await waitFor(() => expect(screen.getAllByTestId('spam-use-ai').at(-1)).toBeEnabled());
  });

  it('saves the edited settings whole and says so', async () => {
    const fetch = server();
    await renderCard();
    const user = userEvent.setup();
    fireEvent.change(screen.getByTestId('spam-threshold'), { target: { value: '6' } });
    fireEvent.change(screen.getByTestId('spam-suspicious-threshold'), { target: { value: '3' } });
    await user.click(screen.getByTestId('spam-notify'));
    await user.type(screen.getByTestId('spam-whitelistDomains'), 'family.example');
    expect(screen.getByTestId('spam-dirty')).toBeInTheDocument();
    await user.click(screen.getByTestId('spam-save'));
    expect(await screen.findByTestId('spam-saved')).toHaveTextContent('הגדרות זיהוי הספאם נשמרו');
    expect(saves(fetch)).toEqual([
      { ...SPAM_DEFAULTS, spamThreshold: 6, suspiciousThreshold: 3, notifyOnSpam: true, whitelistDomains: 'family.example' },
    ]);
    expect(screen.queryByTestId('spam-dirty')).not.toBeInTheDocument();
    expect(screen.getByTestId('spam-threshold')).toHaveValue(6);
  });

  it('refuses a bad threshold in Hebrew without calling the server', async () => {
    const fetch = server();
    await renderCard();
    fireEvent.change(screen.getByTestId('spam-threshold'), { target: { value: '11' } });
    await userEvent.setup().click(screen.getByTestId('spam-save'));
    expect(screen.getByTestId('spam-error')).toHaveTextContent('ספי הספאם הם מספרים שלמים בין 1 ל-10');
    expect(saves(fetch)).toHaveLength(0);
  });

  it('shows the server\'s reason when it refuses, and the connection message when unreachable', async () => {
    server({
      routes: {
        'POST /api/settings/spam-detection': () =>
          json(400, { success: false, error: 'bad_request', message: 'זיהוי ספאם בעזרת AI דורש מפתח API של AI' }),
      },
    });
    await renderCard();
    const user = userEvent.setup();
    await user.click(screen.getByTestId('spam-notify'));
    await user.click(screen.getByTestId('spam-save'));
    expect(await screen.findByTestId('spam-error')).toHaveTextContent(
      'שגיאה בשמירת הגדרות זיהוי הספאם: זיהוי ספאם בעזרת AI דורש מפתח API של AI',
    );

    vi.unstubAllGlobals();
    server({ routes: { 'POST /api/settings/spam-detection': () => Promise.reject(new TypeError('Failed to fetch')) } });
    await user.click(screen.getByTestId('spam-save'));
    await waitFor(() => expect(screen.getByTestId('spam-error')).toHaveTextContent('שגיאת חיבור לשרת, הגדרות זיהוי הספאם לא נשמרו'));
  });

  it('clears the decisions list', async () => {
    const fetch = server();
    await renderCard();
    await screen.findAllByTestId('spam-activity-item');
    await userEvent.setup().click(screen.getByTestId('spam-activity-clear'));
    await waitFor(() =>
      expect(fetch.mock.calls.some(([url, init]) => String(url) === '/api/spam/activity' && init?.method === 'DELETE')).toBe(true),
    );
    expect(await within(screen.getByTestId('spam-activity')).findByTestId('spam-activity-empty')).toHaveTextContent('עדיין אין החלטות');
    expect(screen.queryByTestId('spam-activity-item')).not.toBeInTheDocument();
    // The trained counts stay: clearing the list does not untrain.
    expect(screen.getByTestId('spam-trained')).toHaveTextContent('3 דוגמאות ספאם');
  });
});

async function renderCardAgain() {
  renderWithProviders(<SpamCard />, { route: '/Settings' });
  await waitFor(() => expect(screen.getAllByTestId('spam-threshold').length).toBeGreaterThan(0));
}
