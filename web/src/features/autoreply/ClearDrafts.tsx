// The card's clear-list action (spec 001 §2, §8): after a confirmation, the auto-reply drafts
// still waiting are deleted (from the mailbox's Drafts too); the user's own drafts stay. Says how
// many went, or the spec's failure message, and re-reads the drafts, the counts and the stats.

import { useSWRConfig } from 'swr';
import { clearAutoReplies } from '../../api/autoReply';
import { isAutoReplyKey } from '../../api/keys';
import { useToast } from '../../session/Toasts';
import { ConfirmDialog, useConfirmation } from '../../components/ConfirmDialog';
import { TrashIcon } from '../../components/icons';
import { heAutoReply } from '../../i18n/autoReply';
import { useRefreshDrafts } from '../drafts/useDrafts';

const t = heAutoReply;

/** `waiting`: the stats' auto-reply drafts (undefined while they load). */
export function ClearDrafts({ waiting }: { waiting: number | undefined }) {
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const refreshDrafts = useRefreshDrafts();
  const confirm = useConfirmation<true>();

  async function clear() {
    try {
      const res = await clearAutoReplies();
      toast.success(t.cleared(res.clearedCount));
      refreshDrafts((d) => d.isAutoReply);
    } catch {
      toast.error(t.clearFailed);
    } finally {
      // Some may have gone even when the request failed midway: re-read either way.
      void mutate(isAutoReplyKey);
    }
  }

  return (
    <>
      <button
        type="button"
        className="button auto-reply__clear"
        // Nothing to clear: the stats say so (and are re-read when a draft is written).
        disabled={waiting === 0 || confirm.busy}
        onClick={() => confirm.ask(true)}
        data-testid="auto-reply-clear"
      >
        <TrashIcon />
        {t.clear}
      </button>
      {confirm.item && (
        <ConfirmDialog title={t.clearTitle} confirmLabel={t.clearYes} cancelLabel={t.clearNo} danger {...confirm.dialog(clear)}>
          <p>{waiting === undefined ? t.clearQuestionUnknown : t.clearQuestion(waiting)}</p>
          <p className="muted">{t.clearExplain}</p>
        </ConfirmDialog>
      )}
    </>
  );
}
