// Pending replies (spec 000 §2, spec 001 §2 "Pending replies page"): the outbox on top (mail on
// its way out, shown only when there is some), then the reply drafts, newest first, each with the
// mail it answers when the server matched one (docs/API.md GET /api/drafts: the server matches
// originals by In-Reply-To in any folder, so the client no longer searches Archive and inbox).
// A load failure toasts 'שגיאה בטעינת טיוטות' once per failure streak (the list polls every 30 s).

import { useEffect, useRef } from 'react';
import { deleteAllDrafts, withReason } from '../../api/outgoing';
import { useToast } from '../../session/Toasts';
import { ConfirmDialog, useConfirmation } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ClockIcon, TrashIcon } from '../../components/icons';
import { LoadState } from '../../components/LoadState';
import { heOutgoing } from '../../i18n/outgoing';
import { OutboxSection } from '../outbox/OutboxSection';
import { DraftCard } from './DraftCard';
import { useDrafts, useRefreshDrafts } from './useDrafts';

const t = heOutgoing.drafts;

export default function PendingRepliesPage() {
  const { data, drafts, total, error, mutate } = useDrafts();
  const toast = useToast();
  const refresh = useRefreshDrafts();
  const confirmAll = useConfirmation<true>();

  const failed = error !== undefined;
  const wasFailed = useRef(false);
  useEffect(() => {
    if (failed && !wasFailed.current) toast.error(t.loadFailed);
    wasFailed.current = failed;
  }, [failed, toast]);

  async function deleteAll() {
    try {
      const res = await deleteAllDrafts();
      toast.success(t.deletedAll(res.deletedCount ?? 0));
      refresh(() => true);
    } catch (e) {
      toast.error(withReason(t.deleteAllFailed, e));
    }
  }

  let content;
  if (!data) {
    const text = { loadFailed: `${t.loadFailed}:`, loading: t.loading };
    content = <LoadState of={{ error, mutate }} text={text} failed={failed} testIds={{ error: 'drafts-error', loading: 'drafts-loading' }} />;
  } else if (drafts.length === 0) {
    content = (
      <EmptyState testId="drafts-empty" icon={<ClockIcon />}>
        <p className="empty-state__title">{t.empty}</p>
        <p>{t.emptyHint}</p>
      </EmptyState>
    );
  } else {
    content = (
      <ol className="drafts-list" aria-label={t.title}>
        {drafts.map((d) => (
          // By id: unique in the list (an edit gives the draft a new id and a new Message-ID).
          <li key={d.id}>
            <DraftCard draft={d} />
          </li>
        ))}
      </ol>
    );
  }

  return (
    <section className="page-section pending-replies" data-testid="drafts-page">
      <OutboxSection />
      <header className="drafts-header">
        <h2 className="drafts-header__title">{t.title}</h2>
        {drafts.length > 0 && (
          <>
            <span className="drafts-header__count" data-testid="drafts-total" data-count={total}>
              {t.count(total)}
            </span>
            <button
              type="button"
              className="button drafts-header__delete-all"
              disabled={confirmAll.busy}
              onClick={() => confirmAll.ask(true)}
              data-testid="drafts-delete-all"
            >
              <TrashIcon />
              {t.deleteAll}
            </button>
          </>
        )}
      </header>
      {content}
      {confirmAll.item && (
        <ConfirmDialog title={t.deleteAllTitle} confirmLabel={t.deleteYes} cancelLabel={t.deleteNo} danger {...confirmAll.dialog(deleteAll)}>
          <p>{t.deleteAllQuestion(total)}</p>
          <p>{t.deleteAllWarning}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
