// Send, save draft and schedule (spec 000 §4, §5, §8): validation messages, the exact payloads,
// where the user lands, and that a failure keeps everything the user wrote.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/helpers';
import { bodyHtml, bodyOf, calls, chips, composeServer, renderCompose, toasts, typeBody, type Fetch } from './composeFixtures';
import { toRfc3339 } from './schedule';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/**
 * Pins the clock (Date only: user-event and the fetch stub keep real timers) at Sunday
 * 29/11/2026 23:59:59 local, the last second before a day, a week's Monday and a month's end:
 * what the test expects and what the modal shows are worked out from the same moment, never
 * from two readings that midnight could fall between.
 */
function pinClock() {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 10, 29, 23, 59, 59));
}

const SENT = { success: true, outboxId: 'o1', sendAt: '2026-11-23T09:00:10Z', undoSeconds: 10, message: 'המייל נשלח' };

async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByTestId('compose-to'), 'dana@example.test{Enter}');
  await user.click(screen.getByTestId('compose-cc-toggle'));
  await user.type(screen.getByTestId('compose-cc'), 'cc@example.test{Enter}');
  await user.click(screen.getByTestId('compose-bcc-toggle'));
  await user.type(screen.getByTestId('compose-bcc'), 'bcc@example.test{Enter}');
  await user.type(screen.getByTestId('compose-subject'), 'סיכום פגישה');
  typeBody('<p>שלום דנה,</p><p>מצורף הסיכום.</p>');
  await user.selectOptions(screen.getByTestId('compose-priority'), 'high');
}

/** Renders the page, fills every field and presses `button` (send or save as draft). */
async function fillAndPress(button: 'compose-send' | 'compose-save-draft' | 'compose-schedule-open') {
  const r = renderCompose();
  const user = userEvent.setup();
  await fill(user);
  await user.click(screen.getByTestId(button));
  return r;
}

/** Renders the page, fills every field and schedules it for 04/05/2099 10:30. */
async function fillAndSchedule() {
  const r = await fillAndPress('compose-schedule-open');
  const user = userEvent.setup();
  await user.type(screen.getByTestId('schedule-date'), '2099-05-04');
  await user.type(screen.getByTestId('schedule-time'), '10:30');
  await user.click(screen.getByTestId('schedule-confirm'));
  return r;
}

/** The body of the one send request, once it is made. */
async function sentBody(fetch: Fetch) {
  await waitFor(() => expect(calls(fetch, 'POST', '/api/emails/send')).toHaveLength(1));
  return bodyOf(calls(fetch, 'POST', '/api/emails/send')[0]);
}

const EXPECTED = {
  to: ['dana@example.test'],
  cc: ['cc@example.test'],
  bcc: ['bcc@example.test'],
  subject: 'סיכום פגישה',
  body: '<p dir="rtl">שלום דנה,</p><p dir="rtl">מצורף הסיכום.</p>',
  priority: 'high',
  attachments: [],
};

describe('send', () => {
  it('without recipient, subject or body shows the Hebrew message and sends nothing', async () => {
    const fetch = composeServer();
    renderCompose();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('compose-send'));
    expect(screen.getByTestId('compose-error')).toHaveTextContent('אנא מלא את שדות הנמען, הנושא והתוכן');

    // Recipient and subject, but a body of empty markup is still empty.
    await user.type(screen.getByTestId('compose-to'), 'dana@example.test{Enter}');
    await user.type(screen.getByTestId('compose-subject'), 'נושא');
    typeBody('<p><br></p>');
    await user.click(screen.getByTestId('compose-send'));
    expect(screen.getByTestId('compose-error')).toHaveTextContent('אנא מלא את שדות הנמען, הנושא והתוכן');
    expect(calls(fetch, 'POST', '/api/emails/send')).toHaveLength(0);

    // Writing the body clears the message.
    typeBody('<p>תוכן</p>');
    expect(screen.queryByTestId('compose-error')).not.toBeInTheDocument();
  });

  it('sends everything written, offers undo and lands in Sent', async () => {
    const fetch = composeServer({ 'POST /api/emails/send': () => json(200, SENT) });
    const r = await fillAndPress('compose-send');
    expect(await sentBody(fetch)).toEqual({ ...EXPECTED, folder: 'sent' });
    await waitFor(() => expect(r.location().pathname).toBe('/Inbox'));
    expect(r.location().search).toBe('?folder=sent');
    // The undo toast (features/outbox/undoSend) with the server's message.
    const undo = await screen.findByTestId('undo-toast');
    expect(undo).toHaveAttribute('data-outbox-id', 'o1');
    expect(undo).toHaveTextContent('המייל נשלח');
  });

  it('a failure toasts the server message and keeps everything', async () => {
    composeServer({
      'POST /api/emails/send': () => json(400, { success: false, error: 'validation', message: 'כתובת מייל לא תקינה: x@y' }),
    });
    const r = await fillAndPress('compose-send');
    await waitFor(() =>
      expect(toasts()).toContainEqual({ kind: 'error', text: 'שגיאה בשליחת המייל, נסה שוב: כתובת מייל לא תקינה: x@y' }),
    );
    expect(r.location().pathname).toBe('/Compose');
    expect(chips()).toEqual(['dana@example.test', 'cc@example.test', 'bcc@example.test']);
    expect(screen.getByTestId('compose-subject')).toHaveValue('סיכום פגישה');
    expect(bodyHtml()).toBe(EXPECTED.body);
    expect(screen.getByTestId('compose-send')).toBeEnabled();
  });

  it('the send button is disabled while sending', async () => {
    let answer: (r: Response) => void = () => undefined;
    composeServer({ 'POST /api/emails/send': () => new Promise<Response>((resolve) => (answer = resolve)) });
    await fillAndPress('compose-send');
    await waitFor(() => expect(screen.getByTestId('compose-send')).toBeDisabled());
    expect(screen.getByTestId('compose-send')).toHaveTextContent('שולח...');
    answer(json(200, SENT));
    await screen.findByTestId('undo-toast');
  });
});

describe('save draft', () => {
  it('saves with folder drafts, shows the server message and lands in Drafts', async () => {
    const fetch = composeServer({
      'POST /api/emails/send': () => json(200, { success: true, savedInGmail: true, draftId: 'd1', message: 'הטיוטה נשמרה' }),
    });
    const r = await fillAndPress('compose-save-draft');
    expect(await sentBody(fetch)).toEqual({ ...EXPECTED, folder: 'drafts' });
    await waitFor(() => expect(r.location().search).toBe('?folder=drafts'));
    expect(r.location().pathname).toBe('/Inbox');
    expect(toasts()).toContainEqual({ kind: 'success', text: 'הטיוטה נשמרה' });
  });

  it('a failure says the draft was not saved and stays', async () => {
    composeServer({ 'POST /api/emails/send': () => json(503, { success: false, message: 'לא מחובר לתיבת דואר. אנא התחבר מחדש.' }) });
    const r = await fillAndPress('compose-save-draft');
    await waitFor(() =>
      expect(toasts()).toContainEqual({ kind: 'error', text: 'שמירת הטיוטה נכשלה: לא מחובר לתיבת דואר. אנא התחבר מחדש.' }),
    );
    expect(r.location().pathname).toBe('/Compose');
    expect(screen.getByTestId('compose-subject')).toHaveValue('סיכום פגישה');
  });
});

describe('schedule', () => {
  it('says what is missing and keeps the button disabled until all is there', async () => {
    pinClock();
    composeServer();
    renderCompose();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('compose-schedule-open'));
    let modal = screen.getByTestId('schedule-modal');
    expect(modal).toHaveTextContent('אנא מלא את שדות הנמען, הנושא והתוכן לפני התזמון');
    await user.click(within(modal).getByTestId('schedule-quick-tomorrow'));
    expect(within(modal).getByTestId('schedule-confirm')).toBeDisabled();
    await user.keyboard('{Escape}');

    await fill(user);
    await user.click(screen.getByTestId('compose-schedule-open'));
    modal = screen.getByTestId('schedule-modal');
    expect(modal).toHaveTextContent('אנא בחר תאריך ושעה לתזמון');
    expect(within(modal).getByTestId('schedule-confirm')).toBeDisabled();
    // The date input cannot go before today.
    expect(within(modal).getByTestId('schedule-date')).toHaveAttribute('min', '2026-11-29');
    await user.type(within(modal).getByTestId('schedule-date'), '2099-05-04');
    expect(within(modal).getByTestId('schedule-confirm')).toBeDisabled();
    await user.type(within(modal).getByTestId('schedule-time'), '10:30');
    expect(within(modal).getByTestId('schedule-confirm')).toBeEnabled();
    expect(within(modal).getByTestId('schedule-summary')).toHaveTextContent('ההודעה תישלח ב-04/05/2099 10:30');

    // A moment already gone cannot be scheduled.
    await user.clear(within(modal).getByTestId('schedule-date'));
    await user.type(within(modal).getByTestId('schedule-date'), '2001-05-04');
    expect(modal).toHaveTextContent('המועד שנבחר כבר עבר');
    expect(within(modal).getByTestId('schedule-confirm')).toBeDisabled();
  });

  it('a quick option fills date and time', async () => {
    pinClock();
    composeServer();
    renderCompose();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('compose-schedule-open'));
    // From Sunday night, next Monday is the day after.
    await user.click(screen.getByTestId('schedule-quick-monday'));
    expect(screen.getByTestId('schedule-date')).toHaveValue('2026-11-30');
    expect(screen.getByTestId('schedule-time')).toHaveValue('09:00');
    expect(screen.getByTestId('schedule-quick-monday')).toHaveAttribute('aria-pressed', 'true');
  });

  it('schedules with snoozed_until in local time and lands in Drafts', async () => {
    const fetch = composeServer({
      'POST /api/emails/send': () =>
        json(200, { success: true, outboxId: 'o5', sendAt: '2099-05-04T07:30:00Z', scheduled: true, savedInGmail: true, message: 'המייל תוזמן לשליחה' }),
    });
    const r = await fillAndSchedule();
    const sent = await sentBody(fetch);
    expect(sent).toEqual({ ...EXPECTED, folder: 'sent', snoozed_until: toRfc3339(new Date(2099, 4, 4, 10, 30)) });
    expect(String(sent.snoozed_until)).toMatch(/^2099-05-04T10:30:00[+-]\d\d:\d\d$/);
    await waitFor(() => expect(r.location().search).toBe('?folder=drafts'));
    expect(toasts()).toContainEqual({ kind: 'success', text: 'המייל תוזמן לשליחה' });
  });

  it('a failure says scheduling failed and keeps the modal and the mail', async () => {
    composeServer({ 'POST /api/emails/send': () => json(400, { success: false, message: 'מועד התזמון חלף' }) });
    const r = await fillAndSchedule();
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', text: 'תזמון המייל נכשל: מועד התזמון חלף' }));
    expect(r.location().pathname).toBe('/Compose');
    expect(screen.getByTestId('schedule-modal')).toBeInTheDocument();
    expect(screen.getByTestId('schedule-confirm')).toBeEnabled();
  });
});
