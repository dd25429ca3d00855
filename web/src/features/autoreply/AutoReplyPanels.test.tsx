import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setDisplayTimeZone } from '../../lib/dates';
import { DANA, json, renderWithProviders, signInAs } from '../../test/helpers';
import { toasts } from '../inbox/testFixtures';
import { ACTIVITY_SHOWN } from './ActivityList';
import { AutoReplyCard } from './AutoReplyCard';
import { activityItem, autoReplyServer, calls, saves } from './autoReplyFixtures';

function renderCard() {
  signInAs(DANA);
  return renderWithProviders(<AutoReplyCard />, { route: '/Settings' });
}

describe('AutoReplyCard panels', () => {
  beforeEach(() => setDisplayTimeZone('Asia/Jerusalem'));
  afterEach(() => {
    setDisplayTimeZone(undefined);
    vi.unstubAllGlobals();
  });

  it("shows the stats: today's count, waiting drafts, remaining of the maximum, monitoring, last check", async () => {
    autoReplyServer({
      settings: { autoReplyEnabled: true },
      stats: {
        todayCount: 3,
        totalAutoReplyDrafts: 2,
        isMonitoring: true,
        lastCheck: '2026-03-05T12:30:00Z',
        remainingToday: 47,
        maxPerDay: 50,
        waiting: 4,
      },
    });
    renderCard();
    expect(await screen.findByTestId('auto-reply-stat-today')).toHaveTextContent('3');
    expect(screen.getByTestId('auto-reply-stat-drafts')).toHaveTextContent('2');
    expect(screen.getByTestId('auto-reply-stat-remaining')).toHaveTextContent('47');
    expect(screen.getByTestId('auto-reply-stats')).toHaveTextContent('מתוך 50');
    expect(screen.getByTestId('auto-reply-monitoring')).toHaveTextContent('פעיל');
    // In the user's zone: 12:30 UTC is 14:30 in Israel in March (before summer time).
    expect(screen.getByTestId('auto-reply-last-check')).toHaveTextContent('05/03/2026 14:30');
    expect(screen.getByTestId('auto-reply-waiting')).toHaveTextContent('4 מיילים ממתינים לבדיקה');
  });

  it('says when nothing was checked yet and the monitor is off', async () => {
    autoReplyServer();
    renderCard();
    expect(await screen.findByTestId('auto-reply-monitoring')).toHaveTextContent('כבוי');
    expect(screen.getByTestId('auto-reply-last-check')).toHaveTextContent('טרם נבדק');
    expect(screen.queryByTestId('auto-reply-waiting')).not.toBeInTheDocument();
    expect(screen.getByTestId('auto-reply-activity-empty')).toBeInTheDocument();
  });

  it('lists the decisions with time, sender, subject and reason; a failure with its cause; ten until asked', async () => {
    const items = [
      activityItem({ replyToElsewhere: 'collect@evil.test' }),
      activityItem({
        at: '2026-03-05T12:20:00Z',
        from: 'news@shop.test',
        fromName: '',
        subject: 'מבצעים',
        reason: 'list_mail',
        text: 'דולג: דואר מרשימת תפוצה',
      }),
      activityItem({ reason: 'failed', text: 'נכשל: לא ניתן היה לכתוב טיוטה', detail: 'ספק ה-AI לא ענה בזמן' }),
      ...Array.from({ length: 12 }, (_, i) => activityItem({ subject: `ישן ${i}`, reason: 'outside_work_hours', text: 'דולג: מחוץ לשעות העבודה' })),
    ];
    autoReplyServer({ activity: items });
    renderCard();
    const list = await screen.findByTestId('auto-reply-activity-list');
    const rows = within(list).getAllByTestId('auto-reply-activity-item');
    expect(rows).toHaveLength(ACTIVITY_SHOWN);
    expect(rows[0]).toHaveTextContent('נועה לוי');
    expect(rows[0]).toHaveTextContent('תיאום פגישה');
    expect(rows[0]).toHaveTextContent('05/03/2026 14:30');
    expect(rows[0]).toHaveTextContent('נכתבה טיוטת תשובה');
    expect(rows[0]).toHaveAttribute('data-reason', 'answered');
    // A Reply-To of another domain is flagged, with the address.
    expect(within(rows[0]).getByTestId('auto-reply-activity-reply-to')).toHaveTextContent('collect@evil.test');
    expect(within(rows[1]).queryByTestId('auto-reply-activity-reply-to')).not.toBeInTheDocument();
    // No display name: the address.
    expect(rows[1]).toHaveTextContent('news@shop.test');
    expect(rows[1]).toHaveTextContent('דולג: דואר מרשימת תפוצה');
    expect(within(rows[2]).getByTestId('auto-reply-activity-reason')).toHaveTextContent(
      'נכשל: לא ניתן היה לכתוב טיוטה — ספק ה-AI לא ענה בזמן',
    );

    const toggle = screen.getByTestId('auto-reply-activity-toggle');
    expect(toggle).toHaveTextContent('הצג הכל (15)');
    await userEvent.setup().click(toggle);
    expect(within(list).getAllByTestId('auto-reply-activity-item')).toHaveLength(15);
    expect(toggle).toHaveTextContent('הצג פחות');
  });

  it('clears the waiting auto-reply drafts after a confirmation, and re-reads the stats', async () => {
    const fetch = autoReplyServer({
      stats: { totalAutoReplyDrafts: 2 },
      routes: { 'POST /api/auto-reply/clear': () => json(200, { success: true, clearedCount: 2 }) },
    });
    renderCard();
    const user = userEvent.setup();
    const clear = await screen.findByTestId('auto-reply-clear');
    await waitFor(() => expect(clear).toBeEnabled());

    await user.click(clear);
    const dialog = screen.getByTestId('confirm-dialog');
    expect(dialog).toHaveTextContent('למחוק את 2 טיוטות המענה האוטומטי שעדיין ממתינות?');
    await user.click(within(dialog).getByTestId('confirm-no'));
    expect(calls(fetch, 'POST', '/api/auto-reply/clear')).toHaveLength(0);

    const statsBefore = calls(fetch, 'GET', '/api/auto-reply/stats').length;
    await user.click(clear);
    await user.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'success', text: '2 טיוטות נמחקו' }));
    expect(calls(fetch, 'POST', '/api/auto-reply/clear')).toHaveLength(1);
    expect(screen.queryByTestId('confirm-dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(calls(fetch, 'GET', '/api/auto-reply/stats').length).toBeGreaterThan(statsBefore));
  });

  it('says the spec message when clearing fails', async () => {
    autoReplyServer({
      stats: { totalAutoReplyDrafts: 1 },
      routes: {
        'POST /api/auto-reply/clear': () => json(503, { success: false, error: 'mailbox_unavailable', message: 'x' }),
      },
    });
    renderCard();
    const user = userEvent.setup();
    const clear = await screen.findByTestId('auto-reply-clear');
    await waitFor(() => expect(clear).toBeEnabled());
    await user.click(clear);
    expect(screen.getByTestId('confirm-dialog')).toHaveTextContent('למחוק את טיוטת המענה האוטומטי שעדיין ממתינה?');
    await user.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', text: 'שגיאה בניקוי הרשימה, נסה מאוחר יותר' }));
  });

  it('has nothing to clear when no auto-reply draft waits', async () => {
    autoReplyServer({ stats: { totalAutoReplyDrafts: 0 } });
    renderCard();
    await screen.findByTestId('auto-reply-stat-drafts');
    expect(screen.getByTestId('auto-reply-clear')).toBeDisabled();
  });

  it('offers the spec intervals and warns below 30 seconds', async () => {
    const fetch = autoReplyServer();
    renderCard();
    const interval = await screen.findByTestId('auto-reply-interval');
    expect(within(interval).getAllByRole('option').map((o) => o.getAttribute('value'))).toEqual([
      '0.1', '0.2', '0.5', '1', '2', '5', '10', '15', '30', '60',
    ]);
    expect(within(interval).getByRole('option', { name: 'כל 6 שניות' })).toBeInTheDocument();
    expect(within(interval).getByRole('option', { name: 'כל 30 שניות (מומלץ)' })).toBeInTheDocument();
    expect(interval).toHaveValue('2');
    expect(screen.queryByTestId('auto-reply-interval-warning')).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.selectOptions(interval, '0.2');
    // What the interval really changes (the monitor checks at it): how soon a draft is written.
    expect(screen.getByTestId('auto-reply-interval-warning')).toHaveTextContent('נכתבת טיוטה כמעט מיד כשמייל מגיע');
    expect(screen.getByTestId('auto-reply-interval')).toHaveAccessibleDescription(/מייל חדש נענה עד פרק הזמן הזה אחרי שהגיע/);
    await waitFor(() => expect(saves(fetch)).toEqual([{ autoReplyCheckInterval: 0.2 }]));
    await user.selectOptions(interval, '0.5');
    expect(screen.queryByTestId('auto-reply-interval-warning')).not.toBeInTheDocument();
  });

  it('sets the work days by toggle, Sunday first, and by the two presets', async () => {
    const fetch = autoReplyServer();
    renderCard();
    await screen.findByTestId('auto-reply-day-0');
    const pressed = () =>
      [0, 1, 2, 3, 4, 5, 6].filter((d) => screen.getByTestId(`auto-reply-day-${d}`).getAttribute('aria-pressed') === 'true');
    const days = screen.getAllByRole('button', { name: /^(ראשון|שני|שלישי|רביעי|חמישי|שישי|שבת)$/ });
    expect(days.map((d) => d.textContent)).toEqual(['א׳', 'ב׳', 'ג׳', 'ד׳', 'ה׳', 'ו׳', 'ש׳']);
    expect(pressed()).toEqual([1, 2, 3, 4, 5]);
    expect(screen.getByTestId('auto-reply-preset-spec')).toHaveAttribute('aria-pressed', 'true');

    const user = userEvent.setup();
    await user.click(screen.getByTestId('auto-reply-preset-israel'));
    expect(screen.getByTestId('auto-reply-preset-israel')).toHaveTextContent('ימים א׳–ה׳');
    expect(pressed()).toEqual([0, 1, 2, 3, 4]);
    expect(screen.getByTestId('auto-reply-preset-israel')).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(saves(fetch)).toEqual([{ autoReplyWorkDays: [0, 1, 2, 3, 4] }]));

    await user.click(screen.getByTestId('auto-reply-day-6'));
    expect(pressed()).toEqual([0, 1, 2, 3, 4, 6]);
    await waitFor(() => expect(saves(fetch)).toHaveLength(2));
    expect(saves(fetch)[1]).toEqual({ autoReplyWorkDays: [0, 1, 2, 3, 4, 6] });

    await user.click(screen.getByTestId('auto-reply-preset-spec'));
    expect(screen.getByTestId('auto-reply-preset-spec')).toHaveTextContent('ימים ב׳–ו׳');
    expect(pressed()).toEqual([1, 2, 3, 4, 5]);
    await waitFor(() => expect(saves(fetch)).toHaveLength(3));
    expect(saves(fetch)[2]).toEqual({ autoReplyWorkDays: [1, 2, 3, 4, 5] });
  });

  it('saves the black and white lists as typed and the work hours switch', async () => {
    const fetch = autoReplyServer();
    renderCard();
    const black = await screen.findByTestId('auto-reply-blacklist');
    fireEvent.change(black, { target: { value: 'boss@example.com,\n@spam.test' } });
    fireEvent.click(screen.getByTestId('auto-reply-only-work-hours'));
    await waitFor(() =>
      expect(saves(fetch)).toEqual([{ autoReplyBlacklist: 'boss@example.com,\n@spam.test', autoReplyOnlyWorkHours: true }]),
    );
    expect(black).toHaveValue('boss@example.com,\n@spam.test');
  });
});
