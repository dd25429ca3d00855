// A folder of a connected mailbox: the toolbar (refresh, how many), the mail list and the reading
// pane. Side by side on wide screens; below 900px the pane replaces the list while a mail is open.
// The open mail is in the URL (`&mail=<id>`), so the browser's back button closes it.

import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import { syncNow, updateEmail } from '../../api/mail';
import type { Email, EmailDetail, MailAccount } from '../../api/types';
import { useToast } from '../../app/Toasts';
import { EmptyState } from '../../components/EmptyState';
import { InboxIcon, MailIcon, RefreshIcon } from '../../components/icons';
import { he, type FolderKey } from '../../i18n/he';
import { SIDEBAR_FOLDERS, folderSource, folderTitle, showsRecipients } from './folders';
import { MailList } from './MailList';
import { ReadingPane } from './ReadingPane';
import { useEmails } from './useEmails';

const t = he.mail;
export const MAIL_PARAM = 'mail';

/** Changes whenever a mailbox's sync moves on: new mail may be waiting. */
function syncSignature(accounts: MailAccount[]): string {
  return accounts
    .map((a) => `${a.id}:${a.sync?.state}:${a.sync?.lastSync}:${a.sync?.fetchedMessages}`)
    .join('|');
}

export function MailView({ folder, accounts }: { folder: FolderKey; accounts: MailAccount[] }) {
  const source = folderSource(folder);
  const list = useEmails(source);
  const { mutate } = useSWRConfig();
  const toast = useToast();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const selectedId = params.get(MAIL_PARAM);
  const openedHere = useRef(false);
  const [refreshing, setRefreshing] = useState(false);

  const revalidateCounts = useCallback(() => void mutate(keys.emailCounts()), [mutate]);
  const { revalidate } = list;

  // Sync progress (polled by the page) means new or changed mail: re-read the list and counts.
  const signature = syncSignature(accounts);
  const lastSignature = useRef(signature);
  useEffect(() => {
    if (lastSignature.current === signature) return;
    lastSignature.current = signature;
    void revalidate();
    revalidateCounts();
  }, [signature, revalidate, revalidateCounts]);

  const open = useCallback(
    (e: Email) => {
      if (e.id === selectedId) return;
      const wasOpen = selectedId !== null;
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          next.set(MAIL_PARAM, e.id);
          return next;
        },
        { replace: wasOpen },
      );
      if (!wasOpen) openedHere.current = true;
    },
    [selectedId, setParams],
  );

  const close = useCallback(() => {
    if (openedHere.current) {
      openedHere.current = false;
      navigate(-1);
      return;
    }
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete(MAIL_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [navigate, setParams]);

  const { patch } = list;

  const toggleStar = useCallback(
    async (e: Email) => {
      const next = !e.is_starred;
      await patch(e.id, { is_starred: next });
      try {
        await updateEmail(e.id, { is_starred: next });
        revalidateCounts();
      } catch (err) {
        await patch(e.id, { is_starred: e.is_starred });
        toast.error(`${t.starFailed}: ${errorMessage(err)}`);
      }
    },
    [patch, revalidateCounts, toast],
  );

  const markRead = useCallback(
    async (e: EmailDetail) => {
      await patch(e.id, { is_read: true });
      const readInCache = (d: EmailDetail | undefined) => (d ? { ...d, is_read: true } : d);
      try {
        await updateEmail(e.id, { is_read: true });
        void mutate(keys.email(e.id), readInCache, { revalidate: false });
        void mutate(keys.email(e.id, true), readInCache, { revalidate: false });
        revalidateCounts();
      } catch (err) {
        // Not worth interrupting the reading: it stays unread and the next open tries again.
        console.error('mark read', err);
        await patch(e.id, { is_read: false });
      }
    },
    [patch, mutate, revalidateCounts],
  );

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

  const color = SIDEBAR_FOLDERS.find((f) => f.key === folder)?.color;
  const stillSyncing = accounts.some((a) => !a.sync?.initialSyncDone);

  let listArea;
  if (!list.loaded && list.error) {
    listArea = (
      <div className="notice notice--error mail-view__notice" role="alert" data-testid="mail-list-error">
        <p>
          {t.loadFailed}: {errorMessage(list.error)}
        </p>
        <button type="button" className="link-button" onClick={() => void revalidate()}>
          {t.retry}
        </button>
      </div>
    );
  } else if (!list.loaded) {
    listArea = (
      <p className="card__status mail-view__status" role="status" data-testid="mail-loading">
        {t.loading}
      </p>
    );
  } else if (list.emails.length === 0) {
    listArea = (
      <EmptyState
        testId="mail-empty"
        icon={
          <span style={color ? { color } : undefined}>
            <InboxIcon />
          </span>
        }
      >
        <p className="empty-state__title">{t.emptyByFolder[folder] ?? he.empty.folderEmpty(folderTitle(folder))}</p>
        {stillSyncing && <p>{t.syncingHint}</p>}
      </EmptyState>
    );
  } else {
    listArea = (
      <MailList
        emails={list.emails}
        selectedId={selectedId}
        showRecipients={showsRecipients(folder)}
        hasMore={list.hasMore}
        loadingMore={list.loadingMore}
        onLoadMore={list.loadMore}
        onOpen={open}
        onToggleStar={(e) => void toggleStar(e)}
      />
    );
  }

  return (
    <div className={`mail-view${selectedId ? ' has-selection' : ''}`} data-testid="mail-view">
      <div className="mail-view__list">
        <div className="mail-toolbar" role="toolbar" aria-label={t.toolbarLabel}>
          <button
            type="button"
            className="button mail-toolbar__refresh"
            disabled={refreshing}
            onClick={() => void refresh()}
            data-testid="mail-refresh"
          >
            <RefreshIcon className={refreshing ? 'is-spinning' : undefined} />
            {refreshing ? t.refreshing : t.refresh}
          </button>
          {list.loaded && list.total > 0 && (
            <span className="mail-toolbar__count" data-testid="mail-count">
              {t.shown(list.emails.length, list.total)}
            </span>
          )}
        </div>
        {list.loaded && list.error !== undefined && (
          <p className="notice notice--error mail-view__notice" role="alert">
            {t.loadFailed}: {errorMessage(list.error)}
          </p>
        )}
        {listArea}
      </div>
      <div className="mail-view__pane">
        {selectedId ? (
          <ReadingPane key={selectedId} id={selectedId} onBack={close} onMarkRead={(e) => void markRead(e)} />
        ) : (
          <EmptyState testId="reading-placeholder" icon={<MailIcon />}>
            <p>{t.selectMail}</p>
          </EmptyState>
        )}
      </div>
    </div>
  );
}
