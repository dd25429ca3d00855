import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OutboxItem } from '../api/outgoing';
import { outboxItem } from '../features/outbox/outboxFixtures';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../test/helpers';
import { Sidebar } from './Sidebar';

function renderSidebar(counts = {}, route = '/Inbox') {
  signInAs();
  return renderWithProviders(<Sidebar counts={counts} />, { route });
}

const FOLDER_ORDER = [
  ['inbox', 'דואר נכנס'],
  ['starred', 'מסומנים בכוכב'],
  ['pending-replies', 'ממתינים לתשובה'],
  ['Archive', 'ארכיון'],
  ['Spam', 'ספאם'],
  ['Promotions', 'קידומי מכירות'],
  ['Updates', 'עדכונים'],
  ['sent', 'נשלחו'],
  ['drafts', 'טיוטות'],
  ['trash', 'אשפה'],
];

describe('Sidebar', () => {
  it('lists the folders in the spec order with the right links', () => {
    renderSidebar();
    const list = screen.getByTestId('folder-list');
    const links = within(list).getAllByRole('link').filter((a) => a.hasAttribute('data-folder'));
    expect(links.map((a) => a.getAttribute('data-folder'))).toEqual(FOLDER_ORDER.map(([k]) => k));
    expect(links.map((a) => a.querySelector('.nav-item__label')?.textContent)).toEqual(
      FOLDER_ORDER.map(([, label]) => label),
    );
    expect(links[0]).toHaveAttribute('href', '/Inbox?folder=inbox');
    expect(links[2]).toHaveAttribute('href', '/PendingReplies?folder=pending-replies');
    expect(links[4]).toHaveAttribute('href', '/Inbox?folder=Spam');
  });

  it('lists the snoozed threads after the starred folder, with their number', async () => {
    mockFetch({
      'GET /api/app/me': () => json(200, { success: true, user: DANA }),
      'GET /api/snooze': () => json(200, { snoozed: [{ id: '1' }, { id: '2' }], woken: [{ id: '3' }] }),
    });
    renderSidebar({}, '/Snoozed');
    const links = within(screen.getByTestId('folder-list')).getAllByRole('link');
    const snoozed = screen.getByTestId('folder-snoozed');
    expect(links.indexOf(snoozed)).toBe(links.indexOf(screen.getByTestId('folder-starred')) + 1);
    expect(snoozed.getAttribute('href')).toBe('/Snoozed');
    expect(snoozed).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByTestId('folder-count-snoozed')).toHaveTextContent(/^2$/);
  });

  it('shows a count badge only when the count is above zero', () => {
    renderSidebar({ inbox: 5, starred: 0, needsReply: 2, spam: 0, advertisements: 1200 });
    expect(screen.getByTestId('folder-count-inbox')).toHaveTextContent('5');
    expect(screen.getByTestId('folder-count-pending-replies')).toHaveTextContent('2');
    expect(screen.getByTestId('folder-count-Promotions')).toHaveTextContent('999+');
    expect(screen.queryByTestId('folder-count-starred')).not.toBeInTheDocument();
    expect(screen.queryByTestId('folder-count-Spam')).not.toBeInTheDocument();
    expect(screen.queryByTestId('folder-count-trash')).not.toBeInTheDocument();
  });

  it('highlights the current folder', () => {
    renderSidebar({}, '/Inbox?folder=Spam');
    expect(screen.getByTestId('folder-Spam')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('folder-inbox')).not.toHaveAttribute('aria-current');
  });

  it('highlights pending replies on its own page', () => {
    renderSidebar({}, '/pendingreplies?folder=pending-replies');
    expect(screen.getByTestId('folder-pending-replies')).toHaveAttribute('aria-current', 'page');
  });

  it('navigates to /Search?q= on Enter in the search box', async () => {
    const r = renderSidebar();
    const box = screen.getByRole('searchbox', { name: 'חיפוש בדואר' });
    await userEvent.setup().type(box, 'חשבונית מס{Enter}');
    await waitFor(() => expect(r.location().pathname).toBe('/Search'));
    expect(new URLSearchParams(r.location().search).get('q')).toBe('חשבונית מס');
    expect(r.location().search).toBe(`?q=${encodeURIComponent('חשבונית מס')}`);
  });

  it('does nothing on Enter in an empty search box', async () => {
    const r = renderSidebar();
    await userEvent.setup().type(screen.getByRole('searchbox'), '   {Enter}');
    expect(r.location().pathname).toBe('/Inbox');
  });

  it('lists only the tools with a working page, then settings', () => {
    renderSidebar();
    const links = within(screen.getByTestId('tools-list')).getAllByRole('link');
    expect(links.map((a) => [a.getAttribute('href'), a.textContent])).toEqual([
      ['/Search', 'חיפוש מתקדם'],
      ['/Contacts', 'אנשי קשר'],
      ['/Tasks', 'משימות'],
      ['/Subscriptions', 'מינויים ודיוור'],
      ['/Rules', 'כללים וסינון'],
      ['/SmartFeatures', 'תכונות חכמות'],
      ['/AITraining', 'אימון AI'],
      ['/BuilderPage', 'עורך חזותי'],
      ['/Settings', 'הגדרות'],
    ]);
  });

  it('has a labelled nav, compose, tools, settings and the user footer', () => {
    renderSidebar();
    expect(screen.getByRole('navigation', { name: 'ניווט ראשי' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /כתיבת הודעה/ })).toHaveAttribute('href', '/Compose');
    expect(screen.getByRole('link', { name: 'הגדרות' })).toHaveAttribute('href', '/Settings');
    expect(screen.getByTestId('user-name')).toHaveTextContent(DANA.name);
    expect(screen.getByTestId('user-username')).toHaveTextContent('dana');
    expect(screen.getByRole('button', { name: 'התנתקות' })).toBeInTheDocument();
  });
});

describe('Sidebar: the pending-replies entry', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('the sidebar marks a failed send on the pending-replies entry', async () => {
    let items: OutboxItem[] = [outboxItem('1', 'waiting')];
    mockFetch({
      'GET /api/app/me': () => json(200, { success: true, user: DANA }),
      'GET /api/outbox': () => json(200, { items }),
      'GET /api/drafts': () => json(200, { drafts: [], total: 2 }),
    });
    signInAs();
    const { unmount } = renderWithProviders(<Sidebar counts={{}} />, { route: '/Inbox' });
    const entry = screen.getByTestId('folder-pending-replies');
    await waitFor(() => expect(within(entry).getByTestId('drafts-count')).toHaveAttribute('data-count', '2'));
    expect(within(entry).queryByTestId('outbox-failed')).toBeNull();
    unmount();

    items = [outboxItem('1', 'waiting'), outboxItem('4', 'failed', { lastError: 'x' })];
    renderWithProviders(<Sidebar counts={{}} />, { route: '/Inbox' });
    const dot = await within(screen.getByTestId('folder-pending-replies')).findByTestId('outbox-failed');
    expect(dot).toHaveAttribute('title', 'שליחת מייל נכשלה. פרטים בדף הממתינים לתשובה.');
  });
});
