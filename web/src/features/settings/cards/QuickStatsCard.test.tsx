import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSWRConfig } from 'swr';
import { keys } from '../../../api/keys';
import type { EmailCountsResponse } from '../../../api/types';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../../test/helpers';
import { QuickStatsCard } from './QuickStatsCard';

const COUNTS: EmailCountsResponse = {
  inbox: 1234,
  unread: 17,
  starred: 2,
  needsReply: 4,
  urgent: 1,
  processed: 30,
  spam: 3,
  advertisements: 5,
  info: 6,
  sent: 410,
  sentToday: 7,
  drafts: 2,
  trash: 9,
};

function server(counts: () => Response) {
  return mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/emails/counts': counts,
  });
}

/** What the live channel does when the mail changes: revalidate the counts key. */
function LiveProbe() {
  const { mutate } = useSWRConfig();
  return (
    <button type="button" onClick={() => void mutate(keys.emailCounts())}>
      stats
    </button>
  );
}

function renderCard() {
  signInAs(DANA);
  return renderWithProviders(
    <>
      <QuickStatsCard />
      <LiveProbe />
    </>,
    { route: '/Settings' },
  );
}

describe('QuickStatsCard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the six real counts from /api/emails/counts, each with its label', async () => {
    server(() => json(200, COUNTS));
    renderCard();
    const card = screen.getByTestId('quick-stats');
    expect(within(card).getByRole('heading', { level: 2, name: 'סטטיסטיקה מהירה' })).toBeInTheDocument();
    expect(await screen.findByTestId('stat-inbox')).toHaveTextContent('1,234');
    expect(screen.getByTestId('stat-unread')).toHaveTextContent('17');
    expect(screen.getByTestId('stat-sentToday')).toHaveTextContent('7');
    expect(screen.getByTestId('stat-drafts')).toHaveTextContent('2');
    expect(screen.getByTestId('stat-trash')).toHaveTextContent('9');
    expect(screen.getByTestId('stat-needsReply')).toHaveTextContent('4');

    const tiles = within(card).getAllByRole('listitem');
    expect(tiles.map((t) => t.textContent)).toEqual([
      '1,234דואר נכנס',
      '17לא נקראו',
      '7נשלחו היום',
      '2טיוטות',
      '9אשפה',
      '4ממתינים לתשובה',
    ]);
    // Not the spec's sample numbers (12 / 3 / 1 / 5).
    expect(card).not.toHaveTextContent('12');
  });

  it('follows the counts when the live channel refreshes them, as a live region', async () => {
    let sentToday = 7;
    server(() => json(200, { ...COUNTS, sentToday }));
    renderCard();
    expect(await screen.findByTestId('stat-sentToday')).toHaveTextContent('7');
    expect(screen.getByTestId('stat-sentToday').closest('[role="status"]')).not.toBeNull();
    expect(screen.getByTestId('stat-sentToday').closest('li')).toHaveAttribute('aria-atomic', 'true');

    sentToday = 8;
    await userEvent.setup().click(screen.getByRole('button', { name: 'stats' }));
    await waitFor(() => expect(screen.getByTestId('stat-sentToday')).toHaveTextContent('8'));
  });

  it('shows a dash for a count the answer lacks', async () => {
    const { sentToday: _omitted, ...older } = COUNTS;
    server(() => json(200, older));
    renderCard();
    expect(await screen.findByTestId('stat-sentToday')).toHaveTextContent('—');
    expect(screen.getByTestId('stat-inbox')).toHaveTextContent('1,234');
  });

  it('shows a load failure with a retry', async () => {
    let fail = true;
    server(() => (fail ? json(503, { success: false, error: 'unavailable', message: 'השרת אינו זמין' }) : json(200, COUNTS)));
    renderCard();
    const error = await screen.findByTestId('quick-stats-error');
    expect(error).toHaveTextContent('לא ניתן לטעון את הנתונים.');
    expect(error).toHaveTextContent('השרת אינו זמין');
    expect(screen.queryByTestId('stat-inbox')).not.toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(within(error).getByRole('button', { name: 'נסה שוב' }));
    expect(await screen.findByTestId('stat-inbox')).toHaveTextContent('1,234');
  });
});
