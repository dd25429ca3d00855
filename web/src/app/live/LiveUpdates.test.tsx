import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keys } from '../../api/keys';
import { outgoingKeys } from '../../api/outgoing';
import { readStoredAuth } from '../../api/session';
import { spamKeys } from '../../api/spam';
import { useFolderCounts } from '../../features/inbox/useFolderCounts';
import { FakeWebSocket } from '../../test/fakeWebSocket';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { Sidebar } from '../Sidebar';
import { StaticPreferences, SettingsContextForTests } from '../../features/settings/sync/SettingsProvider';
import { LiveStatusIndicator, LiveUpdates, NEW_MAIL_ANNOUNCE_DELAY_MS } from './LiveUpdates';

type Counter = Record<string, number>;

/** fetch mock that counts the calls per path (query included). */
function mockApi(extra: Record<string, (url: string) => Response> = {}) {
  const calls: Counter = {};
  const bump = (url: string) => {
    const path = url.replace(/^https?:\/\/[^/]+/, '');
    calls[path] = (calls[path] ?? 0) + 1;
  };
  const routes: Parameters<typeof mockFetch>[0] = {
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'GET /api/emails/counts': (_i, url) => {
      bump(url);
      return json(200, { needsReply: 1, unread: 1, urgent: 0, starred: 0 });
    },
    'GET /api/emails/inbox-zero': (_i, url) => {
      bump(url);
      return json(200, { needsReply: 1, urgent: 0, overdue: 0, processed: 0, reminders: [], autoArchive: [], autoArchiveCount: 0 });
    },
    'GET /api/threads/inbox': (_i, url) => {
      bump(url);
      return json(200, []);
    },
    'GET /api/emails/7': (_i, url) => {
      bump(url);
      return json(200, { id: '7' });
    },
  };
  for (const [route, h] of Object.entries(extra)) routes[route] = (_i, url) => h(url);
  mockFetch(routes);
  return calls;
}

function Badges() {
  const counts = useFolderCounts();
  return <Sidebar counts={counts} />;
}

/** Mounts a paged list (2 pages), an open mail and the Inbox Zero key, like the inbox does. */
function MailData() {
  useSWR(keys.inboxZero());
  useSWR(keys.email('7'));
  useSWRInfinite((i) => `/api/threads/inbox?page=${i + 1}&perPage=50`, { initialSize: 2 });
  return null;
}

function renderLive(children = <MailData />) {
  signInAs(DANA, 'tok-1');
  return renderWithProviders(
    <LiveUpdates>
      <LiveStatusIndicator />
      {children}
    </LiveUpdates>,
    { route: '/Inbox' },
  );
}

function renderWithPrefs(prefs: Parameters<typeof StaticPreferences>[0]['prefs']) {
  signInAs(DANA, 'tok-1');
  return renderWithProviders(
    <StaticPreferences prefs={prefs}>
      <LiveUpdates>
        <></>
      </LiveUpdates>
    </StaticPreferences>,
    { route: '/Inbox' },
  );
}

async function connected(): Promise<FakeWebSocket> {
  await waitFor(() => expect(FakeWebSocket.instances).toHaveLength(1));
  const ws = FakeWebSocket.last;
  act(() => ws.accept());
  return ws;
}

const PAGE1 = '/api/threads/inbox?page=1&perPage=50';
const PAGE2 = '/api/threads/inbox?page=2&perPage=50';

describe('LiveUpdates', () => {
  beforeEach(() => {
    FakeWebSocket.reset();
    vi.stubGlobal('WebSocket', FakeWebSocket);
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('opens /ws on the same host and authenticates with the session token first', async () => {
    mockApi();
    renderLive(<></>);
    await waitFor(() => expect(FakeWebSocket.instances).toHaveLength(1));
    const ws = FakeWebSocket.last;
    expect(ws.url).toBe(`ws://${window.location.host}/ws`);
    act(() => ws.open());
    expect(ws.sent).toEqual([{ type: 'auth', token: 'tok-1' }]);
  });

  it('writes a stats event into the counts without a refetch: inbox badge = needs reply + unread', async () => {
    const calls = mockApi();
    renderLive(<Badges />);
    expect(await screen.findByTestId('folder-count-inbox')).toHaveTextContent('2');
    const ws = await connected();

    act(() =>
      ws.receive({
        type: 'stats',
        data: { needsReply: 4, unread: 3, urgent: 2, processed: 9, spam: 1, advertisements: 0, info: 5 },
      }),
    );
    expect(screen.getByTestId('folder-count-inbox')).toHaveTextContent('7');
    expect(screen.getByTestId('folder-count-pending-replies')).toHaveTextContent('4');
    expect(screen.getByTestId('folder-count-Archive')).toHaveTextContent('9');
    expect(screen.getByTestId('folder-count-Spam')).toHaveTextContent('1');
    expect(screen.getByTestId('folder-count-Updates')).toHaveTextContent('5');
    expect(screen.queryByTestId('folder-count-Promotions')).not.toBeInTheDocument();
    // Give a refetch the chance to happen: there must be none.
    await new Promise((r) => setTimeout(r, 300));
    expect(calls['/api/emails/counts']).toBe(1);
  });

  it('re-reads the lists and the Inbox Zero panel on new_mail (first page), not the counts or the open mail', async () => {
    const calls = mockApi();
    renderLive();
    await waitFor(() => expect(calls[PAGE2]).toBe(1));
    await waitFor(() => expect(calls[keys.inboxZero()]).toBe(1));
    await waitFor(() => expect(calls['/api/emails/7']).toBe(1));
    const ws = await connected();

    act(() => {
      ws.receive({ type: 'new_mail', data: { folder: 'inbox', count: 2 } });
      ws.receive({ type: 'new_mail', data: { folder: 'inbox', count: 1 } });
    });
    await waitFor(() => expect(calls[keys.inboxZero()]).toBe(2));
    await waitFor(() => expect(calls[PAGE1]).toBe(2));
    // A burst is one re-read; later pages stay; counts come with the stats event; the open
    // mail is not re-read (it may be the one that just left: a 404).
    await new Promise((r) => setTimeout(r, 300));
    expect(calls[keys.inboxZero()]).toBe(2);
    expect(calls[PAGE1]).toBe(2);
    expect(calls[PAGE2]).toBe(1);
    expect(calls['/api/emails/7']).toBe(1);
    expect(calls['/api/emails/counts'] ?? 0).toBe(0);
  });

  it('re-reads every loaded list page on mail_changed', async () => {
    const calls = mockApi();
    renderLive();
    await waitFor(() => expect(calls[PAGE2]).toBe(1));
    const ws = await connected();

    act(() => ws.receive({ type: 'mail_changed', data: { reason: 'status' } }));
    await waitFor(() => expect(calls[PAGE1]).toBe(2));
    await waitFor(() => expect(calls[PAGE2]).toBe(2));
    await waitFor(() => expect(calls[keys.inboxZero()]).toBe(2));
  });

  it("shows another session's new folder in the sidebar on folders_changed, and new counts on stats", async () => {
    let folders = [{ accountId: 1, path: 'INBOX', name: 'INBOX', fullName: 'INBOX', parent: null, role: 'inbox', depth: 1, unread: 0, total: 0 }];
    const tree = () => ({ mailboxes: [{ accountId: 1, email: 'dana@example.test', folders }] });
    mockApi({ 'GET /api/folders/tree': () => json(200, tree()) });
    renderLive(<Badges />);
    await screen.findByTestId('own-folders');
    expect(screen.queryByTestId('own-folder')).not.toBeInTheDocument();
    const ws = await connected();

    const bills = { ...folders[0]!, path: 'חשבונות', name: 'חשבונות', fullName: 'חשבונות', role: '', total: 1 };
    folders = [...folders, bills];
    act(() => ws.receive({ type: 'folders_changed', data: { accountId: 1 } }));
    expect(await screen.findByTestId('own-folder')).toHaveAttribute('data-name', 'חשבונות');

    folders = [folders[0]!, { ...bills, unread: 4 }];
    act(() => ws.receive({ type: 'stats', data: { needsReply: 0, unread: 0 } }));
    expect(await screen.findByTestId('own-folder-unread')).toHaveTextContent('4');
  });

  it('re-reads only the outbox on reason outbox, and the drafts and counts on reason drafts', async () => {
    const outgoing = { outbox: 0, drafts: 0 };
    const calls = mockApi({
      'GET /api/outbox': () => {
        outgoing.outbox += 1;
        return json(200, { items: [] });
      },
      'GET /api/drafts': () => {
        outgoing.drafts += 1;
        return json(200, { drafts: [], total: 0 });
      },
    });
    function Outgoing() {
      useSWR(outgoingKeys.outbox());
      useSWR(outgoingKeys.drafts());
      useSWR(keys.emailCounts());
      return null;
    }
    renderLive(
      <>
        <MailData />
        <Outgoing />
      </>,
    );
    await waitFor(() => expect(calls[PAGE2]).toBe(1));
    await waitFor(() => expect(outgoing).toEqual({ outbox: 1, drafts: 1 }));
    await waitFor(() => expect(calls['/api/emails/counts']).toBe(1));
    const ws = await connected();

    act(() => {
      ws.receive({ type: 'mail_changed', data: { reason: 'outbox' } });
      ws.receive({ type: 'mail_changed', data: { reason: 'outbox' } });
    });
    await waitFor(() => expect(outgoing.outbox).toBe(2));
    await new Promise((r) => setTimeout(r, 300));
    // One re-read for the burst; the mail lists, the panel and the drafts were left alone.
    expect(outgoing).toEqual({ outbox: 2, drafts: 1 });
    expect(calls[PAGE1]).toBe(1);
    expect(calls[keys.inboxZero()]).toBe(1);
    expect(calls['/api/emails/counts']).toBe(1);

    act(() => ws.receive({ type: 'mail_changed', data: { reason: 'drafts' } }));
    await waitFor(() => expect(outgoing.drafts).toBe(2));
    await waitFor(() => expect(calls['/api/emails/counts']).toBe(2));
    expect(outgoing.outbox).toBe(2);
    expect(calls[PAGE1]).toBe(1);

    // Any other reason still re-reads the mail as before.
    act(() => ws.receive({ type: 'mail_changed', data: { reason: 'flags' } }));
    await waitFor(() => expect(calls[PAGE2]).toBe(2));
    expect(outgoing.outbox).toBe(2);
  });

  it('shows system notifications as toasts by level', async () => {
    mockApi();
    renderLive(<></>);
    const ws = await connected();
    act(() => {
      ws.receive({ type: 'system_notification', data: { level: 'error', message: 'הסיסמה של התיבה נדחתה' } });
      // A level a newer server may add reads as info here.
      ws.receive({ type: 'system_notification', data: { level: 'debug', message: 'סתם מידע' } });
    });
    const toasts = screen.getAllByTestId('toast');
    expect(toasts.map((t) => t.className)).toEqual(['toast toast--error', 'toast toast--info']);
    expect(within(toasts[0]).getByText('הסיסמה של התיבה נדחתה')).toBeInTheDocument();
  });

  it('announces a burst of new inbox mail once, as the notification preferences say', async () => {
    mockApi();
    renderWithPrefs({ emailNotifications: true });
    const ws = await connected();
    act(() => {
      ws.receive({ type: 'new_mail', data: { folder: 'inbox', count: 2 } });
      ws.receive({ type: 'new_mail', data: { folder: 'inbox', count: 1 } });
      ws.receive({ type: 'new_mail', data: { folder: 'sent', count: 4 } });
    });
    const toast = await screen.findByTestId('toast', {}, { timeout: 3000 });
    expect(toast).toHaveTextContent('3 מיילים חדשים בדואר נכנס');
    expect(screen.getAllByTestId('toast')).toHaveLength(1);
  });

  it("does not announce a mailbox's first sync", async () => {
    mockApi();
    renderWithPrefs({ emailNotifications: true });
    const ws = await connected();
    act(() => ws.receive({ type: 'new_mail', data: { folder: 'inbox', count: 13, initial: true } }));
    await new Promise((r) => setTimeout(r, NEW_MAIL_ANNOUNCE_DELAY_MS + 300));
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
  });

  it('says nothing of new mail with email notifications off', async () => {
    mockApi();
    renderWithPrefs({ emailNotifications: false });
    const ws = await connected();
    act(() => ws.receive({ type: 'new_mail', data: { folder: 'inbox', count: 1 } }));
    await new Promise((r) => setTimeout(r, NEW_MAIL_ANNOUNCE_DELAY_MS + 300));
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
  });

  it('announces an auto-reply draft and re-reads the drafts, the counts and the auto-reply card', async () => {
    const reads = { drafts: 0, stats: 0, activity: 0, settings: 0 };
    const calls = mockApi({
      'GET /api/drafts': () => {
        reads.drafts += 1;
        return json(200, { drafts: [], total: 0 });
      },
      'GET /api/auto-reply/stats': () => {
        reads.stats += 1;
        return json(200, {});
      },
      'GET /api/auto-reply/activity': () => {
        reads.activity += 1;
        return json(200, { items: [] });
      },
      'GET /api/auto-reply/settings': () => {
        reads.settings += 1;
        return json(200, {});
      },
    });
    function Watching() {
      useSWR(outgoingKeys.drafts());
      useSWR(keys.emailCounts());
      useSWR(keys.autoReplyStats());
      useSWR(keys.autoReplyActivity());
      useSWR(keys.autoReplySettings());
      return null;
    }
    signInAs(DANA, 'tok-1');
    renderWithProviders(
      <StaticPreferences prefs={{ emailNotifications: false }}>
        <LiveUpdates>
          <Watching />
        </LiveUpdates>
      </StaticPreferences>,
      { route: '/Settings' },
    );
    await waitFor(() => expect(reads).toEqual({ drafts: 1, stats: 1, activity: 1, settings: 1 }));
    await waitFor(() => expect(calls['/api/emails/counts']).toBe(1));
    const ws = await connected();

    act(() =>
      ws.receive({
        type: 'auto_reply',
        data: { from: 'noa@example.test', fromName: 'נועה לוי', subject: 'תיאום פגישה', message: 'נכתבה טיוטת תשובה' },
      }),
    );
    // Shown whatever the new-mail preferences say: the server sends it only when asked to.
    const toast = screen.getByTestId('toast');
    expect(toast).toHaveClass('toast--success');
    expect(toast).toHaveTextContent('נכתבה טיוטת תשובה אוטומטית ל-נועה לוי: תיאום פגישה');
    await waitFor(() => expect(reads).toMatchObject({ drafts: 2, stats: 2, activity: 2 }));
    await waitFor(() => expect(calls['/api/emails/counts']).toBe(2));

    // Without a display name: the address.
    act(() => ws.receive({ type: 'auto_reply', data: { from: 'ron@example.test', fromName: '', subject: 'שאלה' } }));
    expect(screen.getAllByTestId('toast')[1]).toHaveTextContent('נכתבה טיוטת תשובה אוטומטית ל-ron@example.test: שאלה');
  });

  it('announces a spam_detected notice as a warning and re-reads the spam card\'s decisions', async () => {
    let activityReads = 0;
    mockApi({
      'GET /api/spam/activity': () => {
        activityReads += 1;
        return json(200, { logging: true, decisions: [], trainedSpam: 0, trainedHam: 0 });
      },
    });
    function Watching() {
      useSWR(spamKeys.activity());
      return null;
    }
    signInAs(DANA, 'tok-1');
    renderWithProviders(
      <StaticPreferences prefs={{ emailNotifications: false }}>
        <LiveUpdates>
          <Watching />
        </LiveUpdates>
      </StaticPreferences>,
      { route: '/Inbox' },
    );
    await waitFor(() => expect(activityReads).toBe(1));
    const ws = await connected();
    act(() =>
      ws.receive({
        type: 'spam_detected',
        data: { id: 7, from: 'secure@leumi-verify.example', fromName: 'בנק לאומי', subject: 'חשבונך הוקפא', score: 9.5, message: 'מייל זוהה כספאם והועבר לספאם' },
      }),
    );
    const toast = screen.getByTestId('toast');
    expect(toast).toHaveClass('toast--warning');
    expect(toast).toHaveTextContent('מייל זוהה כספאם והועבר לספאם: בנק לאומי — חשבונך הוקפא');
    await waitFor(() => expect(activityReads).toBe(2));
  });

  it('announces a woken snooze and an unanswered follow-up, and re-reads their lists and the mail', async () => {
    const reads = { snoozed: 0, followUps: 0 };
    const calls = mockApi({
      'GET /api/snooze': () => {
        reads.snoozed += 1;
        return json(200, { snoozed: [] });
      },
      'GET /api/followups': () => {
        reads.followUps += 1;
        return json(200, { awaiting: [], overdue: 0, ended: [] });
      },
    });
    function Watching() {
      useSWR(keys.snoozed());
      useSWR(keys.followUps());
      return <MailData />;
    }
    signInAs(DANA, 'tok-1');
    renderWithProviders(
      <StaticPreferences prefs={{ emailNotifications: false }}>
        <LiveUpdates>
          <Watching />
        </LiveUpdates>
      </StaticPreferences>,
      { route: '/Inbox' },
    );
    await waitFor(() => expect(reads).toEqual({ snoozed: 1, followUps: 1 }));
    await waitFor(() => expect(calls[PAGE2]).toBe(1));
    const ws = await connected();
    act(() =>
      ws.receive({
        type: 'snooze_woke',
        data: { id: '4', threadId: '<t@x>', emailId: '9', subject: 'חוזה השכירות', from: 'noa@example.test', by: 'reply', message: 'הגיעה תשובה בשיחה שנדחתה: היא חזרה לתיבת הדואר הנכנס' },
      }),
    );
    expect(screen.getByTestId('toast')).toHaveTextContent('הגיעה תשובה בשיחה שנדחתה: היא חזרה לתיבת הדואר הנכנס: חוזה השכירות');
    await waitFor(() => expect(reads).toEqual({ snoozed: 2, followUps: 2 }));
    // The thread is back in the inbox: every loaded page is re-read.
    await waitFor(() => expect(calls[PAGE2]).toBe(2));
    act(() =>
      ws.receive({
        type: 'follow_up_due',
        data: { id: '5', emailId: '11', subject: '', to: ['ron@example.test'], message: 'לא התקבלה תשובה להודעה ששלחת' },
      }),
    );
    await waitFor(() => expect(screen.getAllByTestId('toast').map((t) => t.textContent).join('|')).toContain('לא התקבלה תשובה להודעה ששלחת: ללא נושא'));
    await waitFor(() => expect(reads).toEqual({ snoozed: 3, followUps: 3 }));
    // Woken by the user's own click: no toast.
    const before = screen.getAllByTestId('toast').length;
    act(() =>
      ws.receive({
        type: 'snooze_woke',
        data: { id: '6', threadId: '<u@x>', emailId: '12', subject: 'x', from: 'a@b.c', by: 'user', message: 'm' },
      }),
    );
    expect(screen.getAllByTestId('toast')).toHaveLength(before);
  });

  it('announces oauth_sign_in_needed with a toast that stays and re-reads the mailboxes', async () => {
    let accountsReads = 0;
    mockApi({
      'GET /api/auth/accounts': () => {
        accountsReads += 1;
        return json(200, { success: true, accounts: [] });
      },
    });
    function Accounts() {
      useSWR(keys.mailAccounts());
      return null;
    }
    signInAs(DANA, 'tok-1');
    renderWithProviders(
      <StaticPreferences prefs={{ emailNotifications: false }}>
        <LiveUpdates>
          <Accounts />
        </LiveUpdates>
      </StaticPreferences>,
      { route: '/Inbox' },
    );
    await waitFor(() => expect(accountsReads).toBe(1));
    const ws = await connected();
    act(() =>
      ws.receive({
        type: 'oauth_sign_in_needed',
        data: { email: 'dana@outlook.com', provider: 'microsoft', message: 'ההרשאה של Microsoft בוטלה. יש להתחבר מחדש.' },
      }),
    );
    const toast = screen.getByTestId('toast');
    expect(toast).toHaveClass('toast--warning');
    expect(toast).toHaveTextContent('ההרשאה של Microsoft בוטלה. יש להתחבר מחדש. (dana@outlook.com)');
    expect(within(toast).getByTestId('oauth-notice-settings')).toHaveAttribute('href', '#/Settings');
    await waitFor(() => expect(accountsReads).toBe(2));
    // No message from the server: the app's own words, with the address.
    act(() => ws.receive({ type: 'oauth_sign_in_needed', data: { email: 'dana@gmail.com', provider: 'google', message: '' } }));
    expect(screen.getAllByTestId('toast')[1]).toHaveTextContent('צריך להתחבר מחדש ל-dana@gmail.com');
  });

  it('hands settings events (a change, a conflict, missed changes) to the preferences and re-reads the mailboxes on sync_status', async () => {
    let accountsReads = 0;
    mockApi({
      'GET /api/auth/accounts': () => {
        accountsReads += 1;
        return json(200, { success: true, accounts: [] });
      },
    });
    const seen: string[] = [];
    function Accounts() {
      useSWR(keys.mailAccounts());
      return null;
    }
    const prefs = {
      remoteChanged: (d: unknown) => seen.push(`changed:${JSON.stringify(d)}`),
      remoteConflict: (d: unknown) => seen.push(`conflict:${JSON.stringify(d)}`),
    };
    signInAs(DANA, 'tok-1');
    renderWithProviders(
      <SettingsContextForTests value={prefs}>
        <LiveUpdates>
          <Accounts />
        </LiveUpdates>
      </SettingsContextForTests>,
      { route: '/Inbox' },
    );
    await waitFor(() => expect(accountsReads).toBe(1));
    const ws = await connected();
    act(() => {
      ws.receive({ type: 'settings_changed', data: { version: 2 } });
      ws.receive({ type: 'settings_conflict', data: { version: 3 } });
      ws.receive({ type: 'settings_stale' });
      ws.receive({ type: 'sync_status', data: { accountId: 1, status: { state: 'idle' } } });
    });
    // A missed change (settings_stale) asks for a whole re-read: remoteChanged(null).
    expect(seen).toEqual(['changed:{"version":2}', 'conflict:{"version":3}', 'changed:null']);
    await waitFor(() => expect(accountsReads).toBe(2));
  });

  it('shows the failed state after an error and offers a retry once out of attempts', async () => {
    mockApi();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderLive(<></>);
    await waitFor(() => expect(FakeWebSocket.instances).toHaveLength(1));
    expect(screen.queryByTestId('live-status')).not.toBeInTheDocument();

    act(() => FakeWebSocket.last.fail());
    expect(screen.getByTestId('live-status')).toHaveAttribute('data-status', 'reconnecting');
    for (const delay of [3000, 6000, 12000, 24000, 48000]) {
      act(() => vi.advanceTimersByTime(delay));
      act(() => FakeWebSocket.last.fail());
    }
    expect(FakeWebSocket.instances).toHaveLength(6);
    expect(screen.getByTestId('live-status')).toHaveAttribute('data-status', 'failed');
    expect(screen.getByTestId('live-status')).toHaveTextContent('החיבור לעדכונים מיידיים נכשל');

    vi.useRealTimers();
    await userEvent.setup().click(screen.getByTestId('live-retry'));
    expect(FakeWebSocket.instances).toHaveLength(7);
    act(() => FakeWebSocket.last.accept());
    expect(screen.queryByTestId('live-status')).not.toBeInTheDocument();
  });

  it('checks the session when the server refuses the token (4001), and stops', async () => {
    let meCalls = 0;
    mockApi({
      'GET /api/app/me': () => {
        meCalls += 1;
        return meCalls === 1
          ? json(200, { success: true, user: DANA })
          : json(401, { success: false, error: 'unauthorized', message: 'עליך להתחבר תחילה' });
      },
    });
    renderLive(<></>);
    await waitFor(() => expect(meCalls).toBe(1));
    const ws = await connected();
    act(() => {
      ws.receive({ type: 'auth_error', data: { message: 'עליך להתחבר תחילה' } });
      ws.serverClose(4001);
    });
    await waitFor(() => expect(readStoredAuth().token).toBeNull());
    expect(meCalls).toBe(2);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });
});
