import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SpamClassifyProgress } from '../../api/spam';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { SpamEmptyHint } from './SpamEmptyHint';
import { SpamScoreChip } from './SpamScoreChip';
import { SpamTools } from './SpamTools';
import { BREAKDOWN, SPAM_DEFAULTS } from './spamFixtures';

const IDLE: SpamClassifyProgress = {
  running: false,
  done: 0,
  total: 0,
  spam: 0,
  suspicious: 0,
  advertisements: 0,
  finishedAt: null,
  error: null,
};

function render(selectedId: string | null, routes: Parameters<typeof mockFetch>[0] = {}) {
  const fetch = mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/spam/classify': () => json(200, IDLE),
    'GET /api/spam/debug/7': () => json(200, BREAKDOWN),
    ...routes,
  });
  signInAs(DANA);
  renderWithProviders(<SpamTools selectedId={selectedId} />, { route: '/Inbox?folder=Spam' });
  return fetch;
}

describe('SpamTools', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('runs load and classify with a progress bar, then shows the summary', async () => {
    const steps: SpamClassifyProgress[] = [
      { ...IDLE, running: true, done: 40, total: 100 },
      { ...IDLE, running: false, done: 100, total: 100, spam: 3, suspicious: 2, advertisements: 7, finishedAt: 1_795_000_000 },
    ];
    let started = false;
    const fetch = render(null, {
      'POST /api/spam/classify': () => {
        started = true;
        return json(200, { ...IDLE, running: true, done: 0, total: 100 });
      },
      'GET /api/spam/classify': () => json(200, started ? (steps.shift() ?? steps[0] ?? IDLE) : IDLE),
    });
    const user = userEvent.setup();
    await user.click(screen.getByTestId('spam-classify'));
    const progress = await screen.findByTestId('spam-classify-progress');
    expect(screen.getByTestId('spam-classify')).toBeDisabled();
    expect(screen.getByTestId('spam-classify')).toHaveTextContent('מסווג...');
    await waitFor(() => expect(progress).toHaveTextContent('סווגו 40 מתוך 100 מיילים'));
    expect(within(progress).getByRole('progressbar')).toHaveAttribute('value', '40');
    const result = await screen.findByTestId('spam-classify-result', {}, { timeout: 3000 });
    expect(result).toHaveTextContent('נבדקו 100 מיילים — 3 ספאם, 2 חשודים, 7 פרסומות');
    expect(screen.getByTestId('spam-classify')).toBeEnabled();
    expect(fetch.mock.calls.filter(([url, init]) => String(url) === '/api/spam/classify' && init?.method === 'POST')).toHaveLength(1);
  });

  it('shows the server\'s refusal (already running, detection off) in Hebrew', async () => {
    render(null, {
      'POST /api/spam/classify': () => json(409, { success: false, error: 'conflict', message: 'הסיווג כבר רץ, המתן לסיומו' }),
    });
    await userEvent.setup().click(screen.getByTestId('spam-classify'));
    expect(await screen.findByTestId('spam-classify-error')).toHaveTextContent('שגיאה בסיווג: הסיווג כבר רץ, המתן לסיומו');
  });

  it('debug asks to select a mail when none is selected', async () => {
    const fetch = render(null);
    await userEvent.setup().click(screen.getByTestId('spam-debug'));
    const dialog = await screen.findByTestId('spam-debug-dialog');
    expect(dialog).toHaveTextContent('ניתוח ספאם');
    expect(within(dialog).getByTestId('spam-debug-select')).toHaveTextContent('בחר מייל ברשימה');
    expect(fetch.mock.calls.some(([url]) => String(url).startsWith('/api/spam/debug/'))).toBe(false);
  });

  it('debug shows the selected mail\'s rules, points, total against the thresholds and spamminess', async () => {
    render('7');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('spam-debug'));
    const hits = await screen.findAllByTestId('spam-debug-hit');
    expect(hits.map((h) => h.getAttribute('data-rule'))).toEqual(['FROM_BRAND_MISMATCH', 'URL_IP', 'CONTACT']);
    expect(hits[0]).toHaveTextContent('שם תצוגה של מותג מדומיין זר');
    expect(hits[0]).toHaveTextContent('Bank Leumi <secure@leumi-verify.example>');
    expect(hits[0]).toHaveTextContent('+3');
    expect(hits[1]).toHaveTextContent('+2.5');
    expect(hits[2]).toHaveTextContent('−1');
    expect(screen.getByTestId('spam-debug-score')).toHaveTextContent('9.5 נקודות (סף ספאם 4, סף חשוד 2)');
    expect(screen.getByTestId('spam-debug-verdict')).toHaveTextContent('ספאם');
    expect(screen.getByTestId('spam-debug-spamminess')).toHaveTextContent('99% ספאם');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('spam-debug-dialog')).not.toBeInTheDocument());
  });

  it('debug shows the spec\'s error when the breakdown fails', async () => {
    render('7', { 'GET /api/spam/debug/7': () => json(404, { success: false, error: 'not_found', message: 'המייל לא נמצא' }) });
    await userEvent.setup().click(screen.getByTestId('spam-debug'));
    expect(await screen.findByTestId('spam-debug-error')).toHaveTextContent('שגיאה בדיבאג: המייל לא נמצא');
  });
});

describe('SpamEmptyHint', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says detection is off with a link to the settings', async () => {
    mockFetch({
      'GET /api/app/me': () => json(200, { success: true, user: DANA }),
      'GET /api/settings/spam-detection': () => json(200, { ...SPAM_DEFAULTS, enabled: false }),
    });
    signInAs(DANA);
    const r = renderWithProviders(<SpamEmptyHint folderTitle="ספאם" />, { route: '/Inbox?folder=Spam' });
    expect(await screen.findByTestId('spam-detection-off')).toHaveTextContent('זיהוי הספאם כבוי');
    expect(screen.getByTestId('spam-empty-hint')).toHaveTextContent('לא נמצאו מיילים בתיקייה ספאם. ייתכן שזיהוי הספאם אינו מופעל.');
    await userEvent.setup().click(screen.getByTestId('spam-to-settings'));
    expect(r.location().pathname).toBe('/Settings');
  });

  it('says nothing when detection is on', async () => {
    mockFetch({
      'GET /api/app/me': () => json(200, { success: true, user: DANA }),
      'GET /api/settings/spam-detection': () => json(200, SPAM_DEFAULTS),
    });
    signInAs(DANA);
    renderWithProviders(<SpamEmptyHint folderTitle="ספאם" />);
    // While unknown it may be off; once known to be on, the hint goes.
    await waitFor(() => expect(screen.queryByTestId('spam-empty-hint')).not.toBeInTheDocument());
  });
});

describe('SpamScoreChip and the live notice', () => {
  it('shows the score of spam and suspicious mail only', () => {
    const { rerender } = renderWithProviders(<SpamScoreChip email={{ isSpam: true, isAdvertisement: false, spamScore: 7.26 }} />);
    expect(screen.getByTestId('reading-spam-score')).toHaveTextContent('ציון ספאם 7.3');
    rerender(<SpamScoreChip email={{ isSpam: false, isAdvertisement: false, spamScore: 0.5 }} />);
    expect(screen.queryByTestId('reading-spam-score')).not.toBeInTheDocument();
    rerender(<SpamScoreChip email={{ isSpam: true, isAdvertisement: false, spamScore: null }} />);
    expect(screen.queryByTestId('reading-spam-score')).not.toBeInTheDocument();
  });
});
