// What the user does to threads (spec 000 §4, §5, §8): set a status, star, mark read, delete from
// the site, move to Trash, and the same for several threads at once. The list follows at once:
// mail the server now lists elsewhere leaves it with the toast naming the folder (red for Spam,
// orange for Promotions, green otherwise), mail that stays shows what the server answered (the
// thread as the server computes it after the change; after a bulk change the mail as it is now,
// then the list is re-read for the threads' aggregates). The counts are re-read 100 ms after a
// status change, and a page on Spam or Promotions reloads 1 s after a move to either. Failures
// are Hebrew toasts. The list carries only each thread's newest mail: an action on a whole thread
// first reads the whole of it (useThreads' `full`), so it reaches every mail of the conversation.

import { useCallback, useEffect, useRef, useState } from 'react';
import { useSWRConfig } from 'swr';
import { errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import { updateEmail } from '../../api/mail';
import { bulkEmails, deleteEmail, setEmailStatus, trashEmail } from '../../api/triage';
import type { BulkAction, BulkResponse, Email, EmailDetail, StatusChange, Thread } from '../../api/types';
import { useToast } from '../../session/Toasts';
import { he, type FolderKey } from '../../i18n/he';
import { isPartial, mailIds } from './threads';
import {
  RECOUNT_AFTER_STATUS_MS,
  RELOAD_AFTER_MOVE_MS,
  leavesFolder,
  moveToastKind,
  movedToTitle,
  reloadsAfterMove,
} from './triageRules';
import type { ThreadList } from './useThreads';

const t = he.inbox;
/** POST /api/emails/bulk takes at most this many ids. */
const BULK_LIMIT = 1000;

/** The bulk call in chunks of BULK_LIMIT; `movedTo` only when every chunk named the same folder. */
async function bulkInChunks(ids: string[], action: BulkAction, status?: StatusChange): Promise<BulkResponse> {
  let updated = 0;
  let movedTo: string | null | undefined;
  const emails: Email[] = [];
  for (let i = 0; i < ids.length; i += BULK_LIMIT) {
    const res = await bulkEmails({ ids: ids.slice(i, i + BULK_LIMIT), action, ...(status ? { status } : {}) });
    updated += res.updated;
    emails.push(...res.emails);
    movedTo = movedTo === undefined || movedTo === res.movedTo ? res.movedTo : null;
  }
  return { success: true, updated, movedTo: movedTo ?? null, emails };
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
  const { patch, patchEmails, applyThread, removeEmails, revalidate, full } = list;

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

  /** Cached bodies take the server's rows (the pane reads an open mail's outside the list). */
  const patchDetails = useCallback(
    (emails: readonly Email[]) => {
      for (const e of emails) patchDetail(e.id, (d) => ({ ...d, ...e }));
    },
    [patchDetail],
  );

  /** Mail the server now lists elsewhere leaves this list: close it, drop it, say where it went. */
  const moveAway = useCallback(
    async (ids: string[], movedTo: string, bulkCount: number | null) => {
      onRemoved(ids);
      await removeEmails(ids);
      const title = movedToTitle(movedTo);
      toast.show(moveToastKind(movedTo), bulkCount === null ? t.movedTo(title) : t.bulk.moved(bulkCount, title));
    },
    [onRemoved, removeEmails, toast],
  );

  /**
   * Sets a status on a thread: first on the thread's other mail in the list (one bulk call), then
   * on its open mail, so the server's answer (where the mail went, and its thread as computed
   * after the change) covers them all and the conversation moves as one.
   */
  const setStatus = useCallback(
    async (thread: Thread, change: StatusChange, openId?: string | null) => {
      setBusy(true);
      let othersChanged = false;
      try {
        const whole = await full(thread);
        const primary = whole.emails.find((e) => e.id === openId) ?? whole.emails[0];
        if (!primary) return;
        const others = whole.emails.filter((e) => e.id !== primary.id).map((e) => e.id);
        const bulk = others.length ? await bulkInChunks(others, 'status', change) : null;
        othersChanged = bulk !== null;
        const res = await setEmailStatus(primary.id, change, undefined, { folder, query: list.query });
        later(RECOUNT_AFTER_STATUS_MS, revalidateCounts);
        if (leavesFolder(folder, res.movedTo)) {
          await moveAway(
            whole.emails.map((e) => e.id),
            res.movedTo,
            null,
          );
        } else {
          await applyThread(res.thread, primary.id);
          // The rest of the thread as the bulk call left it, where the answer's thread lacks it.
          const rows = bulk?.emails ?? [];
          if (rows.length && isPartial(res.thread)) {
            const byId = new Map(rows.map((e) => [e.id, e]));
            await patchEmails([...byId.keys()], (e) => byId.get(e.id) ?? e);
          }
          patchDetails([...rows, res.email]);
        }
        if (reloadsAfterMove(folder, res.movedTo)) later(RELOAD_AFTER_MOVE_MS, () => void revalidate());
      } catch (err) {
        toast.error(`${t.statusFailed}: ${errorMessage(err)}`);
        // The rest of the thread changed before the open mail's call failed: show what is true.
        if (othersChanged) void revalidate();
      } finally {
        setBusy(false);
      }
    },
    [
      folder,
      list.query,
      full,
      later,
      revalidateCounts,
      moveAway,
      applyThread,
      patchEmails,
      patchDetails,
      revalidate,
      toast,
    ],
  );

  /**
   * Stars the newest mail, or unstars every starred mail of the thread (read whole first when the
   * list holds it in part); put back on failure.
   */
  const toggleStar = useCallback(
    async (thread: Thread) => {
      const next = !thread.isStarred;
      let targets: Email[];
      try {
        targets = next ? thread.emails.slice(0, 1) : (await full(thread)).emails.filter((e) => e.is_starred);
      } catch (err) {
        toast.error(`${he.mail.starFailed}: ${errorMessage(err)}`);
        return;
      }
      const ids = targets.map((e) => e.id);
      if (ids.length === 0) return;
      await patchEmails(ids, (e) => ({ ...e, is_starred: next }));
      try {
        await Promise.all(ids.map((id) => updateEmail(id, { is_starred: next })));
        // Again, now that it holds: a whole thread read meanwhile may predate it.
        await patchEmails(ids, (e) => ({ ...e, is_starred: next }));
        revalidateCounts();
      } catch (err) {
        await patchEmails(ids, (e) => ({ ...e, is_starred: !next }));
        toast.error(`${he.mail.starFailed}: ${errorMessage(err)}`);
      }
    },
    [full, patchEmails, revalidateCounts, toast],
  );

  const markRead = useCallback(
    async (e: Email) => {
      await patch(e.id, { is_read: true });
      try {
        await updateEmail(e.id, { is_read: true });
        // Again, now that it holds: a whole thread read meanwhile may predate it.
        await patch(e.id, { is_read: true });
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

  /**
   * Deletes from the site only (spec 000 §5) or moves to the mailbox's Trash every mail of the
   * threads; the mail leaves the list.
   */
  const remove = useCallback(
    async (threads: Thread[], how: 'delete' | 'trash', bulk = false) => {
      setBusy(true);
      try {
        const ids = mailIds(await Promise.all(threads.map(full)));
        if (ids.length === 0) return;
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
    [full, removeEmails, onRemoved, revalidateCounts, toast],
  );

  /**
   * One status for every mail of the ticked threads (POST /api/emails/bulk). Mail that stays takes
   * the server's rows, and the list is re-read for the threads' aggregates.
   */
  const bulkStatus = useCallback(
    async (threads: Thread[], change: StatusChange) => {
      setBusy(true);
      try {
        const ids = mailIds(await Promise.all(threads.map(full)));
        if (ids.length === 0) return;
        const res = await bulkInChunks(ids, 'status', change);
        const count = res.updated || ids.length;
        later(RECOUNT_AFTER_STATUS_MS, revalidateCounts);
        if (res.movedTo && leavesFolder(folder, res.movedTo)) {
          await moveAway(ids, res.movedTo, count);
        } else {
          const byId = new Map(res.emails.map((e) => [e.id, e]));
          await patchEmails(ids, (e) => byId.get(e.id) ?? e);
          patchDetails(res.emails);
          toast.success(t.bulk.updated(count));
          void revalidate();
        }
        if (reloadsAfterMove(folder, res.movedTo)) later(RELOAD_AFTER_MOVE_MS, () => void revalidate());
      } catch (err) {
        toast.error(`${t.bulk.failed}: ${errorMessage(err)}`);
      } finally {
        setBusy(false);
      }
    },
    [folder, full, later, revalidateCounts, moveAway, patchEmails, patchDetails, revalidate, toast],
  );

  /** The threads' mail to the Archive folder (a phone's swipe; POST /api/emails/bulk `archive`). */
  const archive = useCallback(
    async (threads: Thread[]) => {
      setBusy(true);
      try {
        const ids = mailIds(await Promise.all(threads.map(full)));
        if (ids.length === 0) return;
        const res = await bulkInChunks(ids, 'archive');
        const movedTo = res.movedTo ?? 'archive';
        later(RECOUNT_AFTER_STATUS_MS, revalidateCounts);
        if (leavesFolder(folder, movedTo)) await moveAway(ids, movedTo, threads.length === 1 ? null : res.updated);
        else void revalidate();
      } catch (err) {
        toast.error(`${t.bulk.failed}: ${errorMessage(err)}`);
      } finally {
        setBusy(false);
      }
    },
    [folder, full, later, revalidateCounts, moveAway, revalidate, toast],
  );

  return { busy, setStatus, toggleStar, markRead, remove, bulkStatus, archive, revalidateCounts };
}
