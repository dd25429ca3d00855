// What the user does to threads (spec 000 §4, §5, §8): set a status, star, mark read, delete from
// the site, move to Trash, and the same for several threads at once. The list follows at once:
// mail the server now lists elsewhere leaves it with the toast naming the folder (red for Spam,
// orange for Promotions, green otherwise), mail that stays is updated in place. The counts are
// re-read 100 ms after a status change, and a page on Spam or Promotions reloads 1 s after a move
// to either. Failures are Hebrew toasts.

import { useCallback, useEffect, useRef, useState } from 'react';
import { useSWRConfig } from 'swr';
import { errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import { updateEmail } from '../../api/mail';
import { bulkEmails, deleteEmail, setEmailStatus, trashEmail } from '../../api/triage';
import type { BulkAction, BulkResponse, Email, EmailDetail, StatusChange, Thread } from '../../api/types';
import { useToast } from '../../app/Toasts';
import { he, type FolderKey } from '../../i18n/he';
import { mailIds } from './threads';
import {
  RECOUNT_AFTER_STATUS_MS,
  RELOAD_AFTER_MOVE_MS,
  leavesFolder,
  moveToastKind,
  movedToTitle,
  reloadsAfterMove,
  withStatus,
} from './triageRules';
import type { ThreadList } from './useThreads';

const t = he.inbox;
/** POST /api/emails/bulk takes at most this many ids. */
const BULK_LIMIT = 1000;

async function bulkInChunks(ids: string[], action: BulkAction, status?: StatusChange): Promise<BulkResponse> {
  let updated = 0;
  let movedTo: string | undefined;
  for (let i = 0; i < ids.length; i += BULK_LIMIT) {
    const res = await bulkEmails({ ids: ids.slice(i, i + BULK_LIMIT), action, ...(status ? { status } : {}) });
    updated += res.updated ?? 0;
    movedTo = res.movedTo ?? movedTo;
  }
  return { success: true, updated, movedTo };
}

export interface TriageOptions {
  folder: FolderKey;
  list: ThreadList;
  /** Mail that left the list (moved, deleted, trashed): close it if open, untick its thread. */
  onRemoved: (ids: string[]) => void;
}

export function useTriage({ folder, list, onRemoved }: TriageOptions) {
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const [busy, setBusy] = useState(false);
  const timers = useRef<number[]>([]);
  const { patch, patchEmails, removeEmails, revalidate } = list;

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((id) => window.clearTimeout(id));
  }, []);

  const later = useCallback((ms: number, fn: () => void) => {
    timers.current.push(window.setTimeout(fn, ms));
  }, []);

  /** The sidebar counts and the Inbox Zero panel follow every change. */
  const revalidateCounts = useCallback(() => {
    void mutate(keys.emailCounts());
    void mutate(keys.inboxZero());
  }, [mutate]);

  /** Changes a mail's cached bodies (with and without remote images) without a re-read. */
  const patchDetail = useCallback(
    (id: string, update: (d: EmailDetail) => EmailDetail) => {
      const change = (d: EmailDetail | undefined) => (d ? update(d) : d);
      void mutate(keys.email(id), change, { revalidate: false });
      void mutate(keys.email(id, true), change, { revalidate: false });
    },
    [mutate],
  );

  /** The open mail's cached bodies get the new status too (the pane reads them outside the list). */
  const patchDetails = useCallback(
    (emails: Email[]) => {
      for (const e of emails) {
        patchDetail(e.id, (d) => ({ ...d, status: e.status, priority: e.priority, lastActivity: e.lastActivity }));
      }
    },
    [patchDetail],
  );

  /** The common end of every status change: the list, the toast, the recount, the reload. */
  const afterStatus = useCallback(
    async (
      emails: Email[],
      change: StatusChange,
      movedTo: string | undefined,
      server: Email | undefined,
      bulkCount: number | null,
    ) => {
      const ids = emails.map((e) => e.id);
      const bulk = bulkCount !== null;
      const n = bulkCount ?? ids.length;
      later(RECOUNT_AFTER_STATUS_MS, revalidateCounts);
      if (leavesFolder(folder, movedTo) && movedTo) {
        onRemoved(ids);
        await removeEmails(ids);
        const title = movedToTitle(movedTo);
        const message = bulk ? t.bulk.moved(n, title) : t.movedTo(title);
        toast.show(moveToastKind(movedTo), message);
      } else {
        const now = new Date();
        const next = emails.map((e) => (server && e.id === server.id ? { ...e, ...server } : withStatus(e, change, now)));
        const byId = new Map(next.map((e) => [e.id, e]));
        await patchEmails(ids, (e) => byId.get(e.id) ?? e);
        patchDetails(next);
        if (bulk) toast.success(t.bulk.updated(n));
        // A bulk change over several folders names none: the server knows where each went.
        if (bulk && !movedTo) void revalidate();
      }
      if (reloadsAfterMove(folder, movedTo)) later(RELOAD_AFTER_MOVE_MS, () => void revalidate());
    },
    [folder, later, revalidateCounts, removeEmails, onRemoved, toast, patchEmails, patchDetails, revalidate],
  );

  /**
   * Sets a status on a thread: on its open mail (whose answer says where it went) and on the
   * thread's other mail in the list, so the conversation moves as one.
   */
  const setStatus = useCallback(
    async (thread: Thread, change: StatusChange, openId?: string | null) => {
      const primary = thread.emails.find((e) => e.id === openId) ?? thread.emails[0];
      if (!primary) return;
      const others = thread.emails.filter((e) => e.id !== primary.id).map((e) => e.id);
      setBusy(true);
      try {
        const [res] = await Promise.all([
          setEmailStatus(primary.id, change),
          others.length ? bulkInChunks(others, 'status', change) : null,
        ]);
        await afterStatus(thread.emails, change, res.movedTo, res.email, null);
      } catch (err) {
        toast.error(`${t.statusFailed}: ${errorMessage(err)}`);
      } finally {
        setBusy(false);
      }
    },
    [afterStatus, toast],
  );

  /** Stars the newest mail, or unstars every starred mail of the thread; put back on failure. */
  const toggleStar = useCallback(
    async (thread: Thread) => {
      const next = !thread.isStarred;
      const targets = next ? thread.emails.slice(0, 1) : thread.emails.filter((e) => e.is_starred);
      const ids = targets.map((e) => e.id);
      if (ids.length === 0) return;
      await patchEmails(ids, (e) => ({ ...e, is_starred: next }));
      try {
        await Promise.all(ids.map((id) => updateEmail(id, { is_starred: next })));
        revalidateCounts();
      } catch (err) {
        await patchEmails(ids, (e) => ({ ...e, is_starred: !next }));
        toast.error(`${he.mail.starFailed}: ${errorMessage(err)}`);
      }
    },
    [patchEmails, revalidateCounts, toast],
  );

  const markRead = useCallback(
    async (e: Email) => {
      await patch(e.id, { is_read: true });
      try {
        await updateEmail(e.id, { is_read: true });
        patchDetail(e.id, (d) => ({ ...d, is_read: true }));
        revalidateCounts();
      } catch (err) {
        // Not worth interrupting the reading: it stays unread and the next open tries again.
        console.error('mark read', err);
        await patch(e.id, { is_read: false });
      }
    },
    [patch, patchDetail, revalidateCounts],
  );

  /** Deletes from the site only (spec 000 §5) or moves to the mailbox's Trash; the mail leaves the list. */
  const remove = useCallback(
    async (threads: Thread[], how: 'delete' | 'trash', bulk = false) => {
      const ids = mailIds(threads);
      if (ids.length === 0) return;
      setBusy(true);
      try {
        let count = ids.length;
        if (!bulk && ids.length === 1) {
          if (how === 'delete') await deleteEmail(ids[0]);
          else await trashEmail(ids[0]);
        } else {
          count = (await bulkInChunks(ids, how)).updated || ids.length;
        }
        onRemoved(ids);
        await removeEmails(ids);
        revalidateCounts();
        if (!bulk && ids.length === 1) toast.success(how === 'delete' ? t.deleted : t.trashed);
        else toast.success((how === 'delete' ? t.bulk.deleted : t.bulk.trashed)(count));
      } catch (err) {
        toast.error(`${bulk ? t.bulk.failed : how === 'delete' ? t.deleteFailed : t.trashFailed}: ${errorMessage(err)}`);
      } finally {
        setBusy(false);
      }
    },
    [removeEmails, onRemoved, revalidateCounts, toast],
  );

  /** One status for every mail of the ticked threads (POST /api/emails/bulk). */
  const bulkStatus = useCallback(
    async (threads: Thread[], change: StatusChange) => {
      const emails = threads.flatMap((th) => th.emails);
      if (emails.length === 0) return;
      setBusy(true);
      try {
        const res = await bulkInChunks(
          emails.map((e) => e.id),
          'status',
          change,
        );
        await afterStatus(emails, change, res.movedTo, undefined, res.updated || emails.length);
      } catch (err) {
        toast.error(`${t.bulk.failed}: ${errorMessage(err)}`);
      } finally {
        setBusy(false);
      }
    },
    [afterStatus, toast],
  );

  return { busy, setStatus, toggleStar, markRead, remove, bulkStatus, revalidateCounts };
}
