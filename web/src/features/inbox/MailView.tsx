// A folder of a connected mailbox: the toolbar (select all, refresh, filter, sort, how many), the
// bulk bar while threads are ticked, the thread list and the reading pane. Side by side on wide
// screens; below 900px the pane replaces the list while a mail is open. The open mail is in the
// URL (`&mail=<email id>`, see useOpenMail). Keyboard: see useInboxShortcuts. The list carries
// each thread's newest mail: the open thread is loaded whole for the pane (useFullThread), and a
// mail of it other than the newest (opened by URL) is found through its own row's thread id.
// Spam and Promotions add 'load and classify' and 'debug' (features/spam/SpamTools); Spam and Junk
// add 'not spam' to the pane (status none: back to the inbox, and the filter learns from it).

import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import useSWR, { useSWRConfig } from 'swr';
import { errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import { syncNow } from '../../api/mail';
import type { Email, EmailDetail, ListOptions, MailAccountWithSync, Thread } from '../../api/types';
import { useToast } from '../../session/Toasts';
import { EmptyState } from '../../components/EmptyState';
import { MailIcon } from '../../components/icons';
import { he, type FolderKey } from '../../i18n/he';
import { BulkBar } from './BulkBar';
import { DeleteConfirm, type PendingDelete } from './DeleteConfirm';
import { folderSource, showsRecipients } from './folders';
import { EmptyFolder, ListError, ListLoading, ReadingPaneLoading } from './ListStates';
import { ShortcutsHelp } from './ShortcutsHelp';
import { ThreadList } from './ThreadList';
import { replyDrafts } from './reply/replyDrafts';
import { isPartial, mailIds, singleMailThread, threadOfMail } from './threads';
import { Toolbar, type SelectAllState } from './Toolbar';
import type { StatusAction } from './triageRules';
import { useFullThread } from './useFullThread';
import { useInboxShortcuts } from './useInboxShortcuts';
import { useOpenMail } from './useOpenMail';
import { useThreadCursor } from './useThreadCursor';
import { useThreads } from './useThreads';
import { useTriage } from './useTriage';
import { folderThreadsPath, ownFolderKey } from '../../api/folders';
import { LocalStatusesNote } from '../folders/LocalStatusesNote';
import { MoveToFolder } from '../folders/MoveToFolder';
import { startMailDrag } from '../folders/tree';
import { whenIdle } from '../../lib/idle';

const t = he.mail;

// Not needed for the list's first paint (issue 42: the inbox's first JS < 150 kB gzip): the
// reading pane (with what it shows: the thread, reply, spam, snooze, tasks, invitations) and the
// Spam folders' tools are chunks of their own. The pane's is fetched as
// soon as the list has painted (preloadPane), so opening a mail does not wait for it.
const loadPane = () => import('./ReadingPane');
const ReadingPane = lazy(() => loadPane().then((m) => ({ default: m.ReadingPane })));
const SpamTools = lazy(() => import('../spam/SpamTools').then((m) => ({ default: m.SpamTools })));

/** Fetches the reading pane's chunk when the browser is idle (at most once; a failure is retried on use). */
function preloadPane(): () => void {
  return whenIdle(() => void loadPane().catch(() => undefined), 2000, 200);
}

/** Changes whenever a mailbox's sync moves on: new mail may be waiting. */
function syncSignature(accounts: MailAccountWithSync[]): string {
  return accounts
    .map((a) => `${a.id}:${a.sync?.state}:${a.sync?.lastSync}:${a.sync?.fetchedMessages}`)
    .join('|');
}

function hasFilter(o: ListOptions): boolean {
  return !!(o.filter?.length || o.status);
}

/** Adds ids to a set held in state (the same set when none is new). */
function addTo(set: (update: (s: ReadonlySet<string>) => ReadonlySet<string>) => void, ids: string[]): void {
  set((s) => {
    const fresh = ids.filter((id) => !s.has(id));
    return fresh.length ? new Set([...s, ...fresh]) : s;
  });
}

/** Folders whose threads are not in the inbox: the server snoozes only inbox threads. */
const NOT_SNOOZABLE: ReadonlySet<FolderKey> = new Set<FolderKey>(['sent', 'drafts', 'trash', 'Archive', 'Spam', 'junk']);

/** A folder of the user's own, by its server path and its plain name. */
export interface OwnFolder {
  path: string;
  title: string;
}

export function MailView({
  folder: fixed,
  accounts,
  own,
}: {
  folder: FolderKey;
  accounts: MailAccountWithSync[];
  own?: OwnFolder;
}) {
  // A folder of the user's own is listed, triaged and moved from as any folder: by its path (the
  // server's listings and status answers take a folder's name where they take a fixed one),
  // marked as a path so one called "Spam" or "sent" is never taken for the fixed folder.
  const folder = own ? (ownFolderKey(own.path) as FolderKey) : fixed;
  const [options, setOptions] = useState<ListOptions>({});
  const source = own ? folderThreadsPath(own.path) : folderSource(folder);
  const list = useThreads(source, options);
  const { threads, revalidate } = list;
  const { mutate, cache } = useSWRConfig();
  const toast = useToast();
  const navigate = useNavigate();
  const { selectedId, openMail, close } = useOpenMail();
  const [refreshing, setRefreshing] = useState(false);
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set());
  const [pendingDelete, setPendingDelete] = useState<PendingDelete | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);

  // Mail the list has shown, in its rows or in the open thread loaded whole: when the open one
  // drops out of the list (moved or deleted here or in another session), it is gone, not merely
  // outside the loaded pages, and the pane must not fetch it alone (a deleted mail answers 404)
  // while the close goes through the history.
  const [shownInRows, setShownInRows] = useState<ReadonlySet<string>>(() => new Set());
  const [shownInThread, setShownInThread] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => addTo(setShownInRows, threads.flatMap((th) => th.emails.map((e) => e.id))), [threads]);
  useEffect(() => (list.loaded ? preloadPane() : undefined), [list.loaded]);

  // The open mail's thread: the list's thread holding it, else (a mail other than the newest of a
  // thread the list holds in part, opened by URL) the thread its own row names, once the whole
  // thread is seen to hold it.
  const listOpen = useMemo(() => threadOfMail(threads, selectedId), [threads, selectedId]);
  const lookUp = !!selectedId && !listOpen && !shownInRows.has(selectedId);
  const { data: openRow } = useSWR<EmailDetail>(lookUp ? keys.email(selectedId) : null, { revalidateOnFocus: false });
  const member =
    lookUp && openRow?.id === selectedId
      ? (threads.find((th) => th.id === openRow.threadId && isPartial(th)) ?? null)
      : null;
  const whole = useFullThread(list, listOpen ?? member);
  const openThread = listOpen ?? (member && whole.thread?.emails.some((e) => e.id === selectedId) ? member : null);
  const openThreadId = openThread?.id ?? null;
  const wholeIds = (openThread && whole.thread?.emails.map((e) => e.id).join(' ')) || '';
  useEffect(() => {
    if (wholeIds) addTo(setShownInThread, wholeIds.split(' '));
  }, [wholeIds]);
  const listed = (id: string) => shownInRows.has(id) || shownInThread.has(id);

  // Sync progress (polled by the page) means new or changed mail: re-read the list and counts.
  const signature = syncSignature(accounts);
  const lastSignature = useRef(signature);
  useEffect(() => {
    if (lastSignature.current === signature) return;
    lastSignature.current = signature;
    void revalidate();
    void mutate(keys.emailCounts());
  }, [signature, revalidate, mutate]);

  // The list and open mail as of the last render, for callbacks that run later (after an await,
  // or from a list row that should not re-render whenever another mail opens).
  const latest = useRef({ threads, selectedId, openThreadId });
  useEffect(() => {
    latest.current = { threads, selectedId, openThreadId };
  });

  /** Opens a thread at its newest mail (nothing to do when one of its mails is open). */
  const open = useCallback(
    (thread: Thread) => {
      const newest = thread.emails[0];
      const { selectedId: openId, openThreadId: openIn } = latest.current;
      if (newest && openIn !== thread.id && !thread.emails.some((e) => e.id === openId)) openMail(newest.id);
    },
    [openMail],
  );

  const cursor = useThreadCursor({ threads, openThreadId, reading: selectedId !== null, open });
  const { leave, hideRing } = cursor;

  const paneGone = !!selectedId && !openThread && listed(selectedId);

  /** Mail left the list: close it if open, untick its threads, move the cursor on. */
  const onRemoved = useCallback(
    (ids: string[]) => {
      const gone = new Set(ids);
      const { threads: before, selectedId: openId } = latest.current;
      const emptied = new Set(before.filter((th) => th.emails.every((e) => gone.has(e.id))).map((th) => th.id));
      if (openId && gone.has(openId)) close();
      setChecked((s) => ([...s].some((id) => emptied.has(id)) ? new Set([...s].filter((id) => !emptied.has(id))) : s));
      leave(before, emptied);
    },
    [close, leave],
  );

  const triage = useTriage({ folder, list, onRemoved });
  const { toggleStar: starThread, markRead } = triage;
  const toggleStar = useCallback((thread: Thread) => void starThread(thread), [starThread]);
  const onMarkRead = useCallback((e: Email) => void markRead(e), [markRead]);

  const checkedThreads = useMemo(() => threads.filter((th) => checked.has(th.id)), [threads, checked]);
  let selectAll: SelectAllState | null = null;
  if (threads.length > 0) {
    selectAll = checkedThreads.length === 0 ? 'none' : checkedThreads.length === threads.length ? 'all' : 'some';
  }

  // A phone's swipe (the user's `swipeAction`): archive, or mark processed (which files it too).
  const { archive, setStatus } = triage;
  const swipeThread = useCallback(
    (thread: Thread, action: 'archive' | 'processed') => {
      if (action === 'archive') void archive([thread]);
      else void setStatus(thread, 'processed', latest.current.selectedId);
    },
    [archive, setStatus],
  );

  const toggleCheck = useCallback((thread: Thread) => {
    setChecked((s) => {
      const next = new Set(s);
      if (next.has(thread.id)) next.delete(thread.id);
      else next.add(thread.id);
      return next;
    });
  }, []);

  const openFromList = useCallback(
    (thread: Thread) => {
      hideRing();
      open(thread);
    },
    [hideRing, open],
  );

  function changeOptions(next: ListOptions) {
    setOptions(next);
    setChecked(new Set());
  }

  async function refresh() {
    setRefreshing(true);
    try {
      await syncNow();
    } catch (err) {
      toast.error(errorMessage(err));
    }
    await Promise.all([revalidate(), mutate(keys.emailCounts()), mutate(keys.mailAccounts())]);
    setRefreshing(false);
  }

  async function confirmDelete(pending: PendingDelete) {
    await triage.remove(pending.threads, 'delete', pending.bulk);
    if (pending.bulk) setChecked(new Set());
    setPendingDelete(null);
  }

  async function bulkTrash() {
    await triage.remove(checkedThreads, 'trash', true);
    setChecked(new Set());
  }

  async function bulkStatus(action: StatusAction) {
    await triage.bulkStatus(checkedThreads, action);
    setChecked(new Set());
  }

  /** The thread the keys act on: the cursor's, else the open one (also one outside the list). */
  function currentThread(): Thread | null {
    if (cursor.cursorThread) return cursor.cursorThread;
    if (openThread) return openThread;
    if (!selectedId) return null;
    const cached = cache.get(keys.email(selectedId))?.data as EmailDetail | undefined;
    return cached ? singleMailThread(cached) : null;
  }

  useInboxShortcuts({
    enabled: pendingDelete === null,
    helpOpen,
    setHelpOpen,
    onUse: cursor.showRing,
    next: cursor.next,
    previous: cursor.previous,
    openAtCursor: cursor.openAtCursor,
    current: currentThread,
    // `r` opens the quick reply below the thread (opening the mail first when the cursor is on
    // another thread); the full Compose page is the pane's 'כתיבת תשובה מלאה'.
    reply: (th) => {
      const target =
        selectedId && (th.id === openThreadId || th.emails.some((e) => e.id === selectedId))
          ? selectedId
          : th.emails[0]?.id;
      if (!target) return;
      replyDrafts.open(target, { focus: true });
      openMail(target);
    },
    processed: (th) => {
      if (!triage.busy) void triage.setStatus(th, 'processed', selectedId);
    },
    star: toggleStar,
    askDelete: (th) => setPendingDelete({ threads: [th], bulk: false }),
    compose: () => navigate('/Compose'),
  });

  let listArea;
  if (!list.loaded && list.error) {
    listArea = <ListError error={list.error} onRetry={() => void revalidate()} />;
  } else if (!list.loaded) {
    listArea = <ListLoading />;
  } else if (threads.length === 0) {
    listArea = (
      <EmptyFolder
        folder={folder}
        title={own?.title}
        filtered={hasFilter(options)}
        stillSyncing={accounts.some((a) => !a.sync?.initialSyncDone)}
        onClearFilter={() => changeOptions({})}
      />
    );
  } else {
    listArea = (
      <ThreadList
        threads={threads}
        openThreadId={openThreadId}
        checked={checked}
        cursorId={cursor.shownCursorId}
        showRecipients={showsRecipients(folder)}
        hasMore={list.hasMore}
        loadingMore={list.loadingMore}
        onLoadMore={list.loadMore}
        onOpen={openFromList}
        onToggleStar={toggleStar}
        onToggleCheck={toggleCheck}
        onDragStart={(ev, th) => {
          // The selection when the dragged row is in it; the whole of each thread moves.
          const dragged = checked.has(th.id) ? checkedThreads : [th];
          const partial = dragged.filter(isPartial).map((t) => t.id);
          startMailDrag(ev, {
            ids: mailIds(dragged),
            partial: source && partial.length > 0 ? { source, query: list.query, threadIds: partial } : null,
          });
        }}
        onSwipe={swipeThread}
        onPullRefresh={refreshing ? undefined : () => void refresh()}
      />
    );
  }

  return (
    <div className={`mail-view${selectedId ? ' has-selection' : ''}`} data-testid="mail-view">
      <div className="mail-view__list">
        <Toolbar
          options={options}
          onOptions={changeOptions}
          refreshing={refreshing}
          onRefresh={() => void refresh()}
          count={list.loaded ? { shown: threads.length, total: list.total } : null}
          selectAll={selectAll}
          onSelectAll={(all) => setChecked(all ? new Set(threads.map((th) => th.id)) : new Set())}
          onHelp={() => setHelpOpen(true)}
        />
        <LocalStatusesNote folder={fixed} ownPath={own?.path} />
        {(folder === 'Spam' || folder === 'Promotions') && (
          <Suspense fallback={null}>
            <SpamTools selectedId={selectedId} />
          </Suspense>
        )}
        {checkedThreads.length > 0 && (
          <BulkBar
            count={checkedThreads.length}
            busy={triage.busy}
            canTrash={folder !== 'trash'}
            onStatus={(a) => void bulkStatus(a)}
            onDelete={() => setPendingDelete({ threads: checkedThreads, bulk: true })}
            onTrash={() => void bulkTrash()}
            onClear={() => setChecked(new Set())}
          >
            <MoveToFolder
              ids={mailIds(checkedThreads)}
              resolve={async () => mailIds(await Promise.all(checkedThreads.map(list.full)))}
              accountId={checkedThreads[0]?.emails[0]?.accountId}
              disabled={triage.busy}
              onMoved={(ids) => {
                onRemoved(ids);
                setChecked(new Set());
              }}
            />
          </BulkBar>
        )}
        {list.loaded && list.error !== undefined && (
          <p className="notice notice--error mail-view__notice" role="alert">
            {t.loadFailed}: {errorMessage(list.error)}
          </p>
        )}
        {listArea}
      </div>
      <div className="mail-view__pane">
        {selectedId && !paneGone ? (
          <Suspense fallback={<ReadingPaneLoading id={selectedId} onBack={close} />}>
            <ReadingPane
              key={selectedId}
              id={selectedId}
              thread={openThread && whole.thread}
              loadingRest={whole.loading}
              restError={whole.error}
              onRetryRest={whole.retry}
              busy={triage.busy}
              canTrash={folder !== 'trash'}
              sentFolder={folder === 'sent'}
              canSnooze={!own && !NOT_SNOOZABLE.has(folder)}
              onBack={close}
              onMarkRead={onMarkRead}
              onStatus={(th, a) => void triage.setStatus(th, a, selectedId)}
              onNotSpam={folder === 'Spam' || folder === 'junk' ? (th) => void triage.setStatus(th, 'none', selectedId) : undefined}
              onDelete={(th) => setPendingDelete({ threads: [th], bulk: false })}
              onTrash={(th) => void triage.remove([th], 'trash')}
              onMoved={onRemoved}
            />
          </Suspense>
        ) : (
          <EmptyState testId="reading-placeholder" icon={<MailIcon />}>
            <p>{t.selectMail}</p>
          </EmptyState>
        )}
      </div>

      {pendingDelete && (
        <DeleteConfirm
          pending={pendingDelete}
          busy={triage.busy}
          onConfirm={() => void confirmDelete(pendingDelete)}
          onCancel={() => setPendingDelete(null)}
        />
      )}
      {helpOpen && <ShortcutsHelp onClose={() => setHelpOpen(false)} />}
    </div>
  );
}
