import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DANA, bodyOf, calls, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { FollowUpButton } from './FollowUpButton';
import { SnoozeButton } from './SnoozeButton';
import SnoozedPage from './SnoozedPage';

const item = { id: '4', threadId: 't', emailId: '12', subject: 'פגישה', from: 'avi@example.test', until: '2026-11-30T07:00:00Z', created: '2026-11-29T07:00:00Z', wokeAt: null, wokeBy: null };

function server() {
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/snooze/options': () =>
      json(200, { laterToday: null, tomorrow: '2026-11-30T06:00:00Z', weekend: '2026-12-04T06:00:00Z', nextWeek: '2026-12-06T06:00:00Z', timezone: 'Asia/Jerusalem' }),
    'POST /api/snooze': () => json(200, { snooze: item, message: 'השרשור יחזור מחר' }),
    'GET /api/snooze': () => json(200, { snoozed: [item], woken: [] }),
    'GET /api/followups': () =>
      json(200, {
        awaiting: [{ id: '7', emailId: '20', threadId: 'u', subject: 'הצעת מחיר', to: ['Noa <noa@example.test>'], sentAt: '2026-11-25T07:00:00Z', due: '2026-11-28T07:00:00Z', days: 3, source: 'question', state: 'waiting', overdue: true, endedAt: null }],
        overdue: 1,
        ended: [],
      }),
    'POST /api/followups': () => json(200, { followUp: {}, message: 'ההודעה במעקב תשובה' }),
    'PUT /api/followups/7': () => json(200, { followUp: {}, message: 'ההודעה במעקב תשובה' }),
    'DELETE /api/followups/7': () => json(200, { followUp: {}, message: 'המעקב הופסק' }),
    'POST /api/followups/7/nudge': () => json(200, { success: true, savedInGmail: true, draftId: '30', byAi: false, language: 'hebrew', message: 'טיוטת תזכורת נשמרה בטיוטות' }),
  });
}

describe('snooze', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('offers the server\'s presets (none for later today past its time) and snoozes with one', async () => {
    const fetch = server();
    signInAs(DANA);
    renderWithProviders(<SnoozeButton emailId="12" busy={false} />);
    fireEvent.click(screen.getByTestId('snooze-button'));
    const tomorrow = await screen.findByRole('button', { name: /מחר בבוקר/ });
    expect(screen.queryByRole('button', { name: /מאוחר יותר היום/ })).toBeNull();
    fireEvent.click(tomorrow);
    await screen.findByText('השרשור יחזור מחר');
    expect(bodyOf(calls(fetch, 'POST', '/api/snooze')[0])).toEqual({ emailId: '12', preset: 'tomorrow' });
  });

  it('lists snoozed threads and awaited mail, and writes a nudge', async () => {
    const fetch = server();
    signInAs(DANA);
    renderWithProviders(<SnoozedPage />, { route: '/Snoozed' });
    expect(await screen.findByTestId('snoozed')).toHaveTextContent('פגישה');
    const awaiting = await screen.findByTestId('awaiting');
    expect(awaiting).toHaveTextContent('עבר הזמן');
    fireEvent.click(screen.getByRole('button', { name: 'טיוטת תזכורת' }));
    await screen.findByText('טיוטת תזכורת נשמרה בטיוטות');
    expect(calls(fetch, 'POST', '/api/followups/7/nudge')).toHaveLength(1);
  });

  it('awaits a reply to a sent mail for a chosen wait; a tracked one gets a new wait or stops', async () => {
    const fetch = server();
    signInAs(DANA);
    const { unmount } = renderWithProviders(<FollowUpButton emailId="21" busy={false} />);
    fireEvent.click(screen.getByTestId('follow-up-button'));
    fireEvent.click(await screen.findByRole('button', { name: 'תזכורת אחרי שבוע' }));
    await screen.findByText('ההודעה במעקב תשובה');
    expect(bodyOf(calls(fetch, 'POST', '/api/followups')[0])).toEqual({ emailId: '21', days: 7 });
    unmount();

    // Mail 20 is awaited already: the button says so, a wait changes it, stop ends it.
    renderWithProviders(<FollowUpButton emailId="20" busy={false} />);
    const button = screen.getByTestId('follow-up-button');
    await screen.findByText('במעקב תשובה');
    expect(button).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(button);
    fireEvent.click(await screen.findByRole('button', { name: 'תזכורת אחרי 3 ימים' }));
    await screen.findByText('ההודעה במעקב תשובה');
    expect(bodyOf(calls(fetch, 'PUT', '/api/followups/7')[0])).toEqual({ days: 3 });
    fireEvent.click(screen.getByTestId('follow-up-button'));
    fireEvent.click(await screen.findByRole('button', { name: 'הפסקת המעקב' }));
    await screen.findByText('המעקב הופסק');
    expect(calls(fetch, 'DELETE', '/api/followups/7')).toHaveLength(1);
  });
});
