// The live channel of one signed-in session (mounted inside SessionScope, so its `mutate` is that
// session's SWR cache). Server events become cache updates and toasts:
//   stats               → the folder counts, written into the cache as they are (no refetch);
//   new_mail            → every mail key and the Inbox Zero panel re-read (first list page);
//   mail_changed        → the same, every loaded list page; with reason `outbox` or `drafts` only
//                         the outbox, or the drafts and the counts (revalidateOutgoing);
//   system_notification → a toast by level (error, warning, success, otherwise info);
//   settings_changed    → another session's preference change, applied here (SettingsProvider);
//   settings_stale      → this session fell behind the settings channel: the preferences re-read;
//   settings_conflict   → this session's save lost a race: a conflict for the user to decide;
//   sync_status         → a mailbox's connection changed: the accounts re-read;
//   auto_reply          → the auto-reply monitor wrote a draft: a toast (autoReply.ts), the
//                         drafts, the counts and the auto-reply card's stats and activity re-read;
//   task_due            → a task's due time came: a reminder toast (taskDue.ts), the tasks re-read;
//   spam_detected       → a new mail was judged spam (notifyOnSpam): a toast (spamDetected.ts), the
//                         mail lists and the spam card's activity re-read;
//   oauth_sign_in_needed → a mailbox's Google/Microsoft sign-in was revoked or expired: a toast
//                         that stays (oauthSignIn.tsx), the accounts re-read ("sign in again").
// New inbox mail is announced as the notification preferences ask (newMail.ts), in one toast per
// burst, and not what a mailbox's first sync brings (`initial`: that is history, not news).
// The 30 s counts poll (useFolderCounts) stays as the fallback when the channel is down.

import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSWRConfig } from 'swr';
import { api } from '../../api/client';
import { isAttentionKey, isAutoReplyKey, isTasksKey, keys } from '../../api/keys';
import { isSpamKey } from '../../api/spam';
import type { EmailCountsResponse } from '../../api/types';
import { he } from '../../i18n/he';
import { useAuth } from '../../session/AuthProvider';
import { useSettingsSync } from '../../features/settings/sync/SettingsProvider';
import { folderTitle, normalizeFolder } from '../../features/inbox/folders';
import type { MailAccountsResponse } from '../../api/types';
import { useToast, type ToastApi } from '../../session/Toasts';
import type { LiveEvent, NewMailEvent, NotificationLevel } from '../../api/generated';
import { announceAutoReply } from './autoReply';
import { announceFollowUpDue, announceSendFailed, announceSnoozeWoke } from './attention';
import { announceNewMail } from './newMail';
import { announceOAuthSignIn } from './oauthSignIn';
import { announceSpam } from './spamDetected';
import { announceTaskDue } from './taskDue';
import { LiveClient, liveUrl } from './LiveClient';
import {
  INITIAL_LIVE_STATE,
  LiveStatusContext,
  useLiveStatus,
  type LiveState,
  type LiveStatusValue,
} from '../../session/liveStatus';
import { revalidateMailData } from '../../session/revalidateMail';
import { outgoingReason, revalidateOutgoing, type OutgoingReason } from './revalidate';
import { folderKeys } from '../../api/folders';

/** Bursts of events (a sync storing mail batch after batch) make one re-read. */
export const LIVE_REVALIDATE_DELAY_MS = 200;
/** New mail within this window is announced once. */
export const NEW_MAIL_ANNOUNCE_DELAY_MS = 1500;

/** A system notice's toast by its level; a level this build does not know reads as info. */
function toastByLevel(toast: ToastApi, level: NotificationLevel, message: string): void {
  if (!message.trim()) return;
  switch (level) {
    case 'error':
      toast.error(message);
      break;
    default:
      toast.info(message);
  }
}

export function LiveUpdates({ children }: { children: ReactNode }) {
  const { token, isAuthenticated } = useAuth();
  const { mutate, cache } = useSWRConfig();
  const toast = useToast();
  const [state, setState] = useState<LiveState>(INITIAL_LIVE_STATE);
  const client = useRef<LiveClient | null>(null);
  const settings = useSettingsSync();
  const prefsRef = useRef(settings.prefs);
  prefsRef.current = settings.prefs;

  // New inbox mail is counted over a short window and announced once.
  const arrived = useRef<{ timer: ReturnType<typeof setTimeout> | null; count: number }>({ timer: null, count: 0 });
  const noteNewMail = useCallback(
    (data: NewMailEvent) => {
      if (data.count <= 0 || normalizeFolder(data.folder) !== 'inbox') return;
      // A mailbox on its first sync brings old mail, not news (the server says so; the cached
      // accounts are the fallback for an older server).
      if (data.initial) return;
      const accounts = (cache.get(keys.mailAccounts())?.data as MailAccountsResponse | undefined)?.accounts;
      if (accounts?.some((a) => a.sync && !a.sync.initialSyncDone)) return;
      const a = arrived.current;
      a.count += data.count;
      if (a.timer !== null) return;
      a.timer = setTimeout(() => {
        const n = a.count;
        a.timer = null;
        a.count = 0;
        announceNewMail(n, prefsRef.current, toast, folderTitle('inbox'));
      }, NEW_MAIL_ANNOUNCE_DELAY_MS);
    },
    [cache, toast],
  );

  // Coalesced re-reads: `allPages` wins if any event in the window asked for it; the outbox and
  // drafts reasons collect separately and re-read only their own keys.
  const pending = useRef<{
    timer: ReturnType<typeof setTimeout> | null;
    mail: boolean;
    allPages: boolean;
    outgoing: Set<OutgoingReason>;
  }>({ timer: null, mail: false, allPages: false, outgoing: new Set() });
  const scheduleRevalidate = useCallback(
    (what: { allPages: boolean } | OutgoingReason) => {
      const p = pending.current;
      if (typeof what === 'string') {
        p.outgoing.add(what);
      } else {
        p.mail = true;
        p.allPages ||= what.allPages;
      }
      if (p.timer !== null) return;
      p.timer = setTimeout(() => {
        const { mail, allPages: all, outgoing } = p;
        p.timer = null;
        p.mail = false;
        p.allPages = false;
        p.outgoing = new Set();
        // Counts arrive with the `stats` event that follows every change.
        if (mail) void revalidateMailData(cache, mutate, { counts: false, allPages: all });
        if (outgoing.size) void revalidateOutgoing(mutate, outgoing);
      }, LIVE_REVALIDATE_DELAY_MS);
    },
    [cache, mutate],
  );

  const onEvent = useCallback(
    (event: LiveEvent) => {
      switch (event.type) {
        case 'folders_changed':
          void mutate(folderKeys.tree());
          void mutate(keys.folders());
          break;
        case 'stats': {
          // The own folders' counts follow the mail's.
          void mutate(folderKeys.tree());
          const counts = event.data;
          void mutate<Partial<EmailCountsResponse>>(keys.emailCounts(), (current) => ({ ...current, ...counts }), {
            revalidate: false,
          });
          break;
        }
        case 'new_mail':
          scheduleRevalidate({ allPages: false });
          noteNewMail(event.data);
          break;
        case 'mail_changed':
          scheduleRevalidate(outgoingReason(event.data.reason) ?? { allPages: true });
          break;
        case 'system_notification':
          toastByLevel(toast, event.data.level, event.data.message);
          break;
        case 'settings_changed':
          settings.remoteChanged(event.data);
          break;
        case 'settings_stale':
          settings.remoteChanged(null);
          break;
        case 'settings_conflict':
          settings.remoteConflict(event.data);
          break;
        case 'sync_status':
          void mutate(keys.mailAccounts());
          break;
        case 'auto_reply':
          announceAutoReply(event.data, prefsRef.current, toast);
          scheduleRevalidate('drafts');
          void mutate(isAutoReplyKey);
          break;
        case 'spam_detected':
          announceSpam(event.data, prefsRef.current, toast);
          scheduleRevalidate({ allPages: false });
          void mutate(isSpamKey);
          break;
        case 'oauth_sign_in_needed':
          announceOAuthSignIn(event.data, prefsRef.current, toast);
          void mutate(keys.mailAccounts());
          break;
        case 'task_due':
          announceTaskDue(event.data, prefsRef.current, toast);
          void mutate(isTasksKey);
          break;
        case 'snooze_woke':
          announceSnoozeWoke(event.data, prefsRef.current, toast);
          scheduleRevalidate({ allPages: true });
          void mutate(isAttentionKey);
          break;
        case 'follow_up_due':
          announceFollowUpDue(event.data, prefsRef.current, toast);
          void mutate(isAttentionKey);
          break;
        case 'send_failed':
          announceSendFailed(event.data, prefsRef.current, toast);
          break;
        default:
          break;
      }
    },
    [mutate, scheduleRevalidate, toast, noteNewMail, settings],
  );

  // The client lives as long as the session; handlers may change identity without reconnecting.
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  }, [onEvent]);

  useEffect(() => {
    if (!token || !isAuthenticated) return;
    let sessionChecked = false;
    const c = new LiveClient({
      url: liveUrl(),
      token,
      onEvent: (e) => handler.current(e),
      onStateChange: (s) => {
        setState(s);
        // Refused token: ask the API, whose 401 ends the session the usual way.
        if (s.unauthorized && !sessionChecked) {
          sessionChecked = true;
          void api(keys.me()).catch(() => {});
        }
      },
    });
    client.current = c;
    c.start();
    // Back online after the client gave up: try again at once.
    const onOnline = () => c.retryNow();
    window.addEventListener('online', onOnline);
    return () => {
      window.removeEventListener('online', onOnline);
      c.stop();
      client.current = null;
      const p = pending.current;
      if (p.timer !== null) clearTimeout(p.timer);
      p.timer = null;
      p.mail = false;
      p.allPages = false;
      p.outgoing = new Set();
      const a = arrived.current;
      if (a.timer !== null) clearTimeout(a.timer);
      a.timer = null;
      a.count = 0;
    };
  }, [token, isAuthenticated]);

  const retry = useCallback(() => client.current?.retryNow(), []);
  const value = useMemo<LiveStatusValue>(() => ({ ...state, retry }), [state, retry]);

  return <LiveStatusContext.Provider value={value}>{children}</LiveStatusContext.Provider>;
}

/**
 * A small pill in the top bar, shown only when the channel failed: the screen then refreshes
 * every 30 s instead of at once, which the user may want to know. Retry when it gave up.
 */
export function LiveStatusIndicator() {
  const live = useLiveStatus();
  const t = he.live;
  if (live.status === 'connected' || live.status === 'closed') return null;
  if (!live.error && live.status !== 'failed') return null;
  const gaveUp = live.status === 'failed';
  return (
    <div
      className={`live-status${gaveUp ? ' live-status--failed' : ''}`}
      role="status"
      title={t.fallbackHint}
      data-testid="live-status"
      data-status={live.status}
    >
      <span className="live-status__dot" aria-hidden="true" />
      <span className="live-status__text">{gaveUp ? t.failed : t.reconnecting}</span>
      {gaveUp && (
        <button type="button" className="link-button live-status__retry" onClick={live.retry} data-testid="live-retry">
          {t.retry}
        </button>
      )}
    </div>
  );
}
