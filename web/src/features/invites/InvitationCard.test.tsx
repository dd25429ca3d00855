import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Invitation } from '../../api/invites';
import type { EmailAttachment } from '../../api/types';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { InvitationCard } from './InvitationCard';

const CALENDAR: EmailAttachment = {
  index: 0,
  filename: 'invite.ics',
  contentType: 'text/calendar',
  size: 900,
  inline: false,
};

const INVITATION: Invitation = {
  method: 'request',
  uid: 'u1@google.com',
  title: 'ישיבת תכנון רבעונית',
  description: 'סיכום הרבעון',
  location: 'חדר ישיבות 3',
  organizer: { name: 'Dana Cohen', email: 'user2@example.test' },
  attendees: [
    { name: 'Dana Cohen', email: 'user2@example.test', answer: 'accepted', optional: false, resource: false },
    { name: '', email: 'user1@example.test', answer: 'needs-action', optional: false, resource: false },
  ],
  moreAttendees: 3,
  when: 'יום שלישי, 23/02/2027, 14:00 עד 15:00',
  whenInEventZone: 'יום שלישי, 23/02/2027, 12:00 עד 13:00 (לפי שעון Europe/London)',
  allDay: false,
  start: '2027-02-23T12:00:00Z',
  end: '2027-02-23T13:00:00Z',
  recurrence: 'כל שבוע ביום שלישי, 6 פעמים',
  state: 'active',
  answer: null,
  answerComment: '',
  answeredAt: null,
  answerOutdated: false,
  canAnswer: true,
  conflicts: [{ title: 'סנכרון צוות', when: 'יום שלישי, 23/02/2027, 14:30 עד 15:00' }],
  fromAttendee: null,
  comment: '',
  replies: [],
};

function server(invitation: Invitation | null = INVITATION) {
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/invites/7': () => json(200, { invitation }),
    'POST /api/invites/7/reply': (init) => {
      const body = JSON.parse(String(init?.body));
      return json(200, {
        invitation: { ...INVITATION, answer: body.answer, answerComment: body.comment ?? '' },
      });
    },
  });
}

function renderCard(attachments: EmailAttachment[] = [CALENDAR]) {
  signInAs(DANA);
  return renderWithProviders(<InvitationCard mail={{ id: '7', attachments }} />);
}

afterEach(() => vi.unstubAllGlobals());

describe('InvitationCard', () => {
  it('asks nothing for a mail without a calendar', async () => {
    const fetch = server();
    renderCard([{ ...CALENDAR, contentType: 'application/pdf', filename: 'a.pdf' }]);
    await new Promise((r) => setTimeout(r, 20));
    expect(fetch.mock.calls.some(([u]) => String(u).includes('/api/invites'))).toBe(false);
    expect(screen.queryByTestId('invite-card')).toBeNull();
  });

  it('shows the event in Hebrew, both clocks, the recurrence, attendees and conflicts', async () => {
    server();
    renderCard();
    const card = await screen.findByTestId('invite-card');
    expect(within(card).getByRole('heading', { name: 'ישיבת תכנון רבעונית' })).toBeTruthy();
    expect(screen.getByTestId('invite-when').textContent).toContain('14:00 עד 15:00');
    expect(screen.getByTestId('invite-event-zone').textContent).toContain('Europe/London');
    expect(screen.getByTestId('invite-recurrence').textContent).toBe('כל שבוע ביום שלישי, 6 פעמים');
    const attendees = screen.getByTestId('invite-attendees');
    expect(attendees.textContent).toContain('מגיע/ה');
    expect(attendees.textContent).toContain('טרם ענה/תה');
    expect(attendees.textContent).toContain('ועוד 3');
    expect(screen.getByTestId('invite-conflicts').textContent).toContain('סנכרון צוות');
  });

  it('answers with a note and shows the answer', async () => {
    const fetch = server();
    renderCard();
    await userEvent.click(await screen.findByTestId('invite-add-comment'));
    await userEvent.type(screen.getByTestId('invite-comment'), 'אגיע באיחור');
    await userEvent.click(screen.getByTestId('invite-tentative'));
    await waitFor(() => expect(screen.getByTestId('invite-your-answer').textContent).toBe('התשובה שלך: אולי'));
    const call = fetch.mock.calls.find(([u, i]) => String(u).endsWith('/reply') && i?.method === 'POST');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ answer: 'tentative', comment: 'אגיע באיחור' });
    expect(screen.getByTestId('invite-tentative').getAttribute('aria-pressed')).toBe('true');
  });

  it('a cancelled invitation offers no answer', async () => {
    server({ ...INVITATION, state: 'cancelled', canAnswer: false, conflicts: [] });
    renderCard();
    expect(await screen.findByTestId('invite-cancelled')).toBeTruthy();
    expect(screen.queryByTestId('invite-accepted')).toBeNull();
    expect(screen.getByTestId('invite-card').getAttribute('data-state')).toBe('cancelled');
  });

  it('a mail whose calendar the server could not read shows nothing', async () => {
    server(null);
    renderCard();
    await new Promise((r) => setTimeout(r, 30));
    expect(screen.queryByTestId('invite-card')).toBeNull();
  });
});
