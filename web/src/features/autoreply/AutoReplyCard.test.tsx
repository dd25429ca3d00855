import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { DANA, json, renderWithProviders, signInAs } from '../../test/helpers';
import { toasts } from '../inbox/testFixtures';
import { AutoReplyCard } from './AutoReplyCard';
import { autoReplyServer, calls, saves } from './autoReplyFixtures';
import { AUTO_REPLY_SAVE_DELAY_MS, saveFailureMessage } from './useAutoReplySettings';

const KEY_MISSING = 'חסר מפתח API של AI, הזן מפתח לפני הפעלת המענה האוטומטי';

function renderCard() {
  signInAs(DANA);
  return renderWithProviders(<AutoReplyCard />, { route: '/Settings' });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The form is there once the settings arrived. */
async function loaded() {
  await screen.findByTestId('auto-reply-tone');
}

/** Waits until the key's status and the provider settings are known (the switch checks them). */
async function keyKnown(expected: 'missing' | 'usable') {
  await waitFor(() => expect(screen.getByTestId('auto-reply-enable')).toHaveAttribute('data-key', expected));
}

describe('AutoReplyCard settings', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('saves once, 100 ms after the last change, with only the changed field; shown at once', async () => {
    const fetch = autoReplyServer();
    renderCard();
    await loaded();
    const creativity = screen.getByTestId('auto-reply-creativity');
    expect(creativity).toHaveValue('0.7');

    fireEvent.change(creativity, { target: { value: '0.3' } });
    fireEvent.change(creativity, { target: { value: '0.4' } });
    // Shown before any save.
    expect(screen.getByTestId('auto-reply-creativity-value')).toHaveTextContent('0.4');
    await sleep(AUTO_REPLY_SAVE_DELAY_MS / 2);
    expect(saves(fetch)).toEqual([]);

    await waitFor(() => expect(saves(fetch)).toEqual([{ autoReplyCreativity: 0.4 }]));
    await sleep(AUTO_REPLY_SAVE_DELAY_MS * 2);
    expect(saves(fetch)).toHaveLength(1);
    expect(screen.getByTestId('auto-reply-creativity')).toHaveValue('0.4');
  });

  it('sends changes made within the delay together', async () => {
    const fetch = autoReplyServer();
    renderCard();
    await loaded();
    fireEvent.change(screen.getByTestId('auto-reply-tone'), { target: { value: 'friendly' } });
    fireEvent.change(screen.getByTestId('auto-reply-length'), { target: { value: 'short' } });
    fireEvent.click(screen.getByTestId('auto-reply-no-repeat'));
    await waitFor(() =>
      expect(saves(fetch)).toEqual([{ autoReplyTone: 'friendly', autoReplyLength: 'short', autoReplyNoRepeat: false }]),
    );
    expect(screen.getByTestId('auto-reply-tone')).toHaveValue('friendly');
    expect(screen.getByTestId('auto-reply-no-repeat')).not.toBeChecked();
  });

  it('keeps every setting editable while auto-reply is off', async () => {
    autoReplyServer();
    renderCard();
    await loaded();
    expect(screen.getByTestId('auto-reply-enabled')).not.toBeChecked();
    const card = screen.getByTestId('auto-reply-card');
    const controls = card.querySelectorAll('input, select, textarea, button');
    expect(controls.length).toBeGreaterThan(20);
    // Only the clear action may wait (for drafts to clear).
    const disabled = [...controls].filter((c) => (c as HTMLInputElement).disabled).map((c) => c.getAttribute('data-testid'));
    expect(disabled.filter((id) => id !== 'auto-reply-clear')).toEqual([]);
  });

  it('refuses to turn on without an AI key: the spec message, and nothing is sent', async () => {
    const fetch = autoReplyServer({ keyStored: false });
    renderCard();
    await loaded();
    await keyKnown('missing');
    expect(screen.getByTestId('auto-reply-key')).toHaveAttribute('type', 'password');

    await userEvent.setup().click(screen.getByTestId('auto-reply-enabled'));
    expect(screen.getByTestId('auto-reply-error')).toHaveTextContent(KEY_MISSING);
    expect(screen.getByTestId('auto-reply-enabled')).not.toBeChecked();
    await sleep(AUTO_REPLY_SAVE_DELAY_MS * 2);
    expect(saves(fetch)).toEqual([]);
  });

  it('turns on with a key typed in the card: sent in x-api-key, then the key counts as stored', async () => {
    const fetch = autoReplyServer({ keyStored: false });
    renderCard();
    await loaded();
    await keyKnown('missing');
    const user = userEvent.setup();
    await user.type(screen.getByTestId('auto-reply-key'), 'sk-ant-typed');
    await user.click(screen.getByTestId('auto-reply-enabled'));

    await waitFor(() => expect(saves(fetch)).toEqual([{ autoReplyEnabled: true }]));
    const [, init] = calls(fetch, 'POST', '/api/auto-reply/settings')[0];
    expect(new Headers(init?.headers).get('x-api-key')).toBe('sk-ant-typed');
    expect(screen.getByTestId('auto-reply-enabled')).toBeChecked();
    // The server stored it: the key's status is re-read and the field goes.
    await waitFor(() => expect(screen.queryByTestId('auto-reply-key')).not.toBeInTheDocument());
    expect(screen.queryByTestId('auto-reply-error')).not.toBeInTheDocument();
  });

  it('turns on without a key when the provider needs none (a local model)', async () => {
    const fetch = autoReplyServer({ keyStored: false, keyRequired: false });
    renderCard();
    await loaded();
    await keyKnown('usable');
    expect(screen.queryByTestId('auto-reply-key')).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByTestId('auto-reply-enabled'));
    await waitFor(() => expect(saves(fetch)).toEqual([{ autoReplyEnabled: true }]));
    const [, init] = calls(fetch, 'POST', '/api/auto-reply/settings')[0];
    expect(new Headers(init?.headers).has('x-api-key')).toBe(false);
    expect(screen.getByTestId('auto-reply-enabled')).toBeChecked();
  });

  it("shows the server's refusal and flips the switch back", async () => {
    const fetch = autoReplyServer({
      keyStored: true,
      routes: {
        'POST /api/auto-reply/settings': () =>
          json(400, { success: false, error: 'bad_request', message: 'המפתח השמור אינו תקף עבור הספק הנוכחי' }),
      },
    });
    renderCard();
    await loaded();
    await keyKnown('usable');
    await userEvent.setup().click(screen.getByTestId('auto-reply-enabled'));
    // On at once (optimistic), off again when the server says no.
    expect(screen.getByTestId('auto-reply-enabled')).toBeChecked();
    expect(await screen.findByTestId('auto-reply-error')).toHaveTextContent('המפתח השמור אינו תקף עבור הספק הנוכחי');
    expect(screen.getByTestId('auto-reply-enabled')).not.toBeChecked();
    expect(saves(fetch)).toEqual([{ autoReplyEnabled: true }]);
    expect(toasts()).toContainEqual({ kind: 'error', text: 'המפתח השמור אינו תקף עבור הספק הנוכחי' });
  });

  it('a field whose save failed shows the server value again', async () => {
    const fetch = autoReplyServer({
      routes: {
        'POST /api/auto-reply/settings': () =>
          json(400, { success: false, error: 'bad_request', message: 'ערך לא תקין בשדה autoReplyWorkStart' }),
      },
    });
    renderCard();
    await loaded();
    fireEvent.change(screen.getByTestId('auto-reply-work-start'), { target: { value: '08:30' } });
    expect(screen.getByTestId('auto-reply-work-start')).toHaveValue('08:30');
    expect(await screen.findByTestId('auto-reply-error')).toHaveTextContent('autoReplyWorkStart');
    expect(screen.getByTestId('auto-reply-work-start')).toHaveValue('09:00');
    expect(saves(fetch)).toEqual([{ autoReplyWorkStart: '08:30' }]);
  });

  it('sends the daily maximum only when it is a whole number from 1 to 1000', async () => {
    const fetch = autoReplyServer();
    renderCard();
    await loaded();
    const max = screen.getByTestId('auto-reply-max-per-day');
    expect(max).toHaveAttribute('min', '1');
    expect(max).toHaveAttribute('max', '1000');
    expect(screen.getByTestId('auto-reply-max-per-day-hint')).toHaveTextContent('ברירת המחדל לפי המפרט: 1,000');

    fireEvent.change(max, { target: { value: '0' } });
    expect(max).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('auto-reply-max-per-day-hint')).toHaveTextContent('הזן מספר שלם בין 1 ל-1,000');
    fireEvent.change(max, { target: { value: '1001' } });
    await sleep(AUTO_REPLY_SAVE_DELAY_MS * 2);
    expect(saves(fetch)).toEqual([]);

    fireEvent.change(max, { target: { value: '50' } });
    await waitFor(() => expect(saves(fetch)).toEqual([{ autoReplyMaxPerDay: 50 }]));
    expect(max).not.toHaveAttribute('aria-invalid');
  });
});

describe('work hours', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('are typed as HH:MM on the 24-hour clock; a wrong time is not sent', async () => {
    const fetch = autoReplyServer();
    renderCard();
    await loaded();
    const end = screen.getByTestId('auto-reply-work-end');
    expect(end).toHaveValue('17:00');
    fireEvent.change(end, { target: { value: '25:00' } });
    expect(screen.getByTestId('auto-reply-work-end-hint')).toHaveTextContent('הזן שעה בפורמט HH:MM');
    await sleep(AUTO_REPLY_SAVE_DELAY_MS * 2);
    expect(saves(fetch)).toEqual([]);

    fireEvent.change(end, { target: { value: '8:30' } });
    await waitFor(() => expect(saves(fetch)).toEqual([{ autoReplyWorkEnd: '08:30' }]));
    // Leaving the field shows the setting as the server keeps it.
    fireEvent.blur(end);
    expect(end).toHaveValue('08:30');
  });
});

describe('saveFailureMessage', () => {
  it('says the spec 001 §8 messages', () => {
    expect(saveFailureMessage(new ApiError(401, 'x', 'unauthorized'))).toBe('יש להתחבר מחדש');
    expect(saveFailureMessage(new ApiError(403, 'x', 'forbidden'))).toBe('אין לך הרשאה לשנות הגדרות אלה');
    expect(saveFailureMessage(new ApiError(0, 'x', 'network'))).toBe('שגיאת חיבור, בדוק את האינטרנט');
    expect(saveFailureMessage(new ApiError(400, 'x', 'bad_request', undefined, { message: 'ערך לא תקין' }))).toBe('ערך לא תקין');
    expect(saveFailureMessage(new ApiError(500, 'שגיאה בשרת', 'internal', undefined, {}))).toBe(
      'לא ניתן לשמור את הגדרות המענה האוטומטי',
    );
  });
});
