import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keys } from '../../../api/keys';
import type { InboxZeroResponse } from '../../../api/types';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../../test/helpers';
import { InboxZeroPanel } from './InboxZeroPanel';

const REMINDERS = [
  { id: '11', subject: 'הצעת מחיר לפרויקט', from: 'יוסי לוי <yossi@example.co.il>', daysOverdue: 9 },
  { id: '12', subject: '', from: 'billing@example.com', daysOverdue: 2 },
  { id: '13', subject: 'Meeting notes', from: 'רונית', daysOverdue: 1 },
  { id: '14', subject: 'רביעי', from: 'x@example.com', daysOverdue: 1 },
];

function zero(overrides: Partial<InboxZeroResponse> = {}): InboxZeroResponse {
  return {
    needsReply: 5,
    urgent: 2,
    overdue: 8,
    processed: 31,
    reminders: REMINDERS,
    autoArchive: [
      { id: '21', subject: 'קבלה', status: 'processed' },
      { id: '22', subject: 'עדכון מערכת', status: 'info' },
    ],
    autoArchiveCount: 2,
    ...overrides,
  };
}

interface Setup {
  data?: InboxZeroResponse | (() => InboxZeroResponse);
  archive?: (body: unknown) => Response;
  /** Sent mails past their wait with no answer (GET /api/followups). */
  awaitingOverdue?: number;
}

function setup({ data = zero(), archive, awaitingOverdue = 0 }: Setup = {}) {
  const calls: Record<string, number> = {};
  const bump = (url: string) => {
    const path = url.replace(/^https?:\/\/[^/]+/, '');
    calls[path] = (calls[path] ?? 0) + 1;
  };
  const archiveBodies: unknown[] = [];
  const fetch = mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/emails/inbox-zero': (_i, url) => {
      bump(url);
      return json(200, typeof data === 'function' ? data() : data);
    },
    'GET /api/emails/counts': (_i, url) => {
      bump(url);
      return json(200, { needsReply: 5, unread: 0 });
    },
    'GET /api/threads/inbox': (_i, url) => {
      bump(url);
      return json(200, []);
    },
    'GET /api/followups': () => json(200, { awaiting: [], overdue: awaitingOverdue, ended: [] }),
    'POST /api/emails/auto-archive': (init) => {
      const body = JSON.parse(String(init?.body)) as unknown;
      archiveBodies.push(body);
      return archive ? archive(body) : json(200, { success: true, archivedCount: 2 });
    },
  });
  return { calls, archiveBodies, fetch };
}

/** What the inbox page keeps mounted beside the panel: the counts and a paged list. */
function InboxData() {
  useSWR(keys.emailCounts());
  useSWRInfinite((i) => `/api/threads/inbox?page=${i + 1}&perPage=50`);
  return null;
}

function renderPanel(route = '/Inbox?folder=inbox', withData = false) {
  signInAs(DANA, 'tok-1');
  return renderWithProviders(
    <>
      <InboxZeroPanel />
      {withData && <InboxData />}
    </>,
    { route },
  );
}

describe('InboxZeroPanel', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('has one line of the counts (a phone shows only it) that opens and folds the panel', async () => {
    setup();
    renderPanel();
    const summary = await screen.findByTestId('iz-summary');
    await waitFor(() => expect(summary).toHaveTextContent('5 דורשים מענה'));
    expect(summary).toHaveTextContent('2 דחופים');
    expect(summary).toHaveTextContent('8 באיחור');
    expect(summary).toHaveTextContent('31 טופלו');
    expect(summary).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByTestId('inbox-zero')).not.toHaveClass('is-unfolded');
    await userEvent.click(summary);
    expect(summary).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByTestId('inbox-zero')).toHaveClass('is-unfolded');
    await userEvent.click(summary);
    expect(screen.getByTestId('inbox-zero')).not.toHaveClass('is-unfolded');
  });

  it('shows the four counters', async () => {
    setup();
    renderPanel();
    expect(await screen.findByTestId('iz-needs-reply')).toHaveTextContent(/^5$/);
    expect(screen.getByTestId('iz-urgent')).toHaveTextContent(/^2$/);
    expect(screen.getByTestId('iz-overdue')).toHaveTextContent(/^8$/);
    expect(screen.getByTestId('iz-processed')).toHaveTextContent(/^31$/);
    const panel = screen.getByTestId('inbox-zero');
    for (const label of ['דורשים מענה', 'דחופים', 'באיחור', 'טופלו']) {
      expect(within(panel).getByText(label)).toBeInTheDocument();
    }
  });

  it('links the sent mails still unanswered to the awaiting page, and says nothing when there are none', async () => {
    setup({ awaitingOverdue: 2 });
    const { unmount } = renderPanel();
    const line = await screen.findByTestId('iz-awaiting');
    expect(line).toHaveTextContent('2 הודעות ששלחת לא נענו בזמן');
    expect(line.getAttribute('href')).toMatch(/\/Snoozed$/);
    unmount();
    vi.unstubAllGlobals();
    setup({ awaitingOverdue: 0 });
    renderPanel();
    await screen.findByTestId('iz-needs-reply');
    expect(screen.queryByTestId('iz-awaiting')).not.toBeInTheDocument();
  });

  it('shows 3 reminders, most overdue first, then "and N more"', async () => {
    setup();
    renderPanel();
    const items = await screen.findAllByTestId('iz-reminder');
    expect(items.map((b) => b.getAttribute('data-id'))).toEqual(['11', '12', '13']);
    expect(items[0]).toHaveTextContent('הצעת מחיר לפרויקט');
    expect(items[0]).toHaveTextContent('יוסי לוי <yossi@example.co.il>');
    expect(items[0]).toHaveTextContent('9 ימים');
    expect(items[1]).toHaveTextContent('ללא נושא');
    expect(items[1]).toHaveTextContent('יומיים');
    expect(items[2]).toHaveTextContent('יום אחד');
    // overdue 8, 3 shown.
    expect(screen.getByTestId('iz-more')).toHaveTextContent('ועוד 5');
  });

  it('has no "more" line when every overdue mail is shown', async () => {
    setup({ data: zero({ overdue: 2, reminders: REMINDERS.slice(0, 2) }) });
    renderPanel();
    expect(await screen.findAllByTestId('iz-reminder')).toHaveLength(2);
    expect(screen.queryByTestId('iz-more')).not.toBeInTheDocument();
  });

  it('opens a reminder in the inbox through the mail query parameter', async () => {
    setup();
    const r = renderPanel('/Inbox?folder=inbox&filter=unread');
    const items = await screen.findAllByTestId('iz-reminder');
    await userEvent.setup().click(items[1]);
    await waitFor(() => expect(new URLSearchParams(r.location().search).get('mail')).toBe('12'));
    const params = new URLSearchParams(r.location().search);
    expect(r.location().pathname).toBe('/Inbox');
    expect(params.get('folder')).toBe('inbox');
    expect(params.get('filter')).toBe('unread');
    expect(screen.getAllByTestId('iz-reminder')[1]).toHaveAttribute('aria-current', 'true');
  });

  it('re-reads the numbers on refresh', async () => {
    let n = 5;
    const { calls } = setup({ data: () => zero({ needsReply: n }) });
    renderPanel();
    expect(await screen.findByTestId('iz-needs-reply')).toHaveTextContent('5');
    n = 4;
    await userEvent.setup().click(screen.getByTestId('iz-refresh'));
    await waitFor(() => expect(screen.getByTestId('iz-needs-reply')).toHaveTextContent('4'));
    expect(calls[keys.inboxZero()]).toBe(2);
  });

  it('runs auto-archive on every candidate, toasts the count and re-reads mail, counts and panel', async () => {
    let archived = false;
    const { calls, archiveBodies } = setup({
      data: () => (archived ? zero({ autoArchive: [], autoArchiveCount: 0 }) : zero()),
      archive: () => {
        archived = true;
        return json(200, { success: true, archivedCount: 2 });
      },
    });
    renderPanel('/Inbox?folder=inbox', true);
    const prompt = await screen.findByTestId('iz-auto-archive');
    expect(prompt).toHaveTextContent('2 מיילים');
    await waitFor(() => expect(calls['/api/threads/inbox?page=1&perPage=50']).toBe(1));
    await waitFor(() => expect(calls['/api/emails/counts']).toBe(1));

    await userEvent.setup().click(screen.getByTestId('iz-auto-archive-run'));
    await waitFor(() => expect(archiveBodies).toEqual([{ emailIds: ['21', '22'] }]));
    expect(await screen.findByText('2 מיילים הועברו לארכיון')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('iz-auto-archive')).not.toBeInTheDocument());
    await waitFor(() => expect(calls[keys.inboxZero()]).toBe(2));
    await waitFor(() => expect(calls['/api/emails/counts']).toBe(2));
    await waitFor(() => expect(calls['/api/threads/inbox?page=1&perPage=50']).toBe(2));
  });

  it('keeps the prompt and shows the error when auto-archive fails', async () => {
    setup({ archive: () => json(500, { success: false, error: 'internal', message: 'שגיאה בשרת' }) });
    renderPanel();
    await userEvent.setup().click(await screen.findByTestId('iz-auto-archive-run'));
    expect(await screen.findByText('הארכוב האוטומטי נכשל: שגיאה בשרת')).toBeInTheDocument();
    expect(screen.getByTestId('iz-auto-archive-run')).toBeEnabled();
  });

  it('dismisses the prompt for this session', async () => {
    setup();
    const first = renderPanel();
    await userEvent.setup().click(await screen.findByTestId('iz-auto-archive-dismiss'));
    expect(screen.queryByTestId('iz-auto-archive')).not.toBeInTheDocument();
    first.unmount();

    // Shown again (another visit to the inbox, same session): still dismissed.
    renderPanel();
    expect(await screen.findByTestId('iz-needs-reply')).toBeInTheDocument();
    expect(screen.queryByTestId('iz-auto-archive')).not.toBeInTheDocument();
  });

  it('shows the prompt again in a new session', async () => {
    setup();
    const first = renderPanel();
    await userEvent.setup().click(await screen.findByTestId('iz-auto-archive-dismiss'));
    first.unmount();
    signInAs(DANA, 'tok-2');
    renderWithProviders(<InboxZeroPanel />, { route: '/Inbox' });
    expect(await screen.findByTestId('iz-auto-archive')).toBeInTheDocument();
  });

  it('has no prompt without candidates and says when all is clear', async () => {
    setup({
      data: zero({ needsReply: 0, urgent: 0, overdue: 0, reminders: [], autoArchive: [], autoArchiveCount: 0 }),
    });
    renderPanel();
    expect(await screen.findByTestId('iz-all-clear')).toBeInTheDocument();
    expect(screen.queryByTestId('iz-auto-archive')).not.toBeInTheDocument();
    expect(screen.queryByTestId('iz-reminder')).not.toBeInTheDocument();
    expect(screen.getByTestId('iz-overdue')).toHaveTextContent('0');
  });

  it('shows a retry when loading fails', async () => {
    let fail = true;
    mockFetch({
      'GET /api/app/me': () => json(200, { success: true, user: DANA }),
      'GET /api/emails/inbox-zero': () =>
        fail ? json(500, { success: false, error: 'internal', message: 'שגיאה בשרת' }) : json(200, zero()),
    });
    renderPanel();
    expect(await screen.findByRole('alert')).toHaveTextContent('לא ניתן לטעון את מצב התיבה: שגיאה בשרת');
    fail = false;
    await userEvent.setup().click(screen.getByTestId('iz-refresh'));
    expect(await screen.findByTestId('iz-needs-reply')).toHaveTextContent('5');
  });
});
