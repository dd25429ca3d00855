// The outbox at the top of Pending replies (docs/API.md "Sending, drafts, outbox"): each item's
// recipients, subject and state in Hebrew — waiting, scheduled for a time, being sent, or failed
// with the error and the next automatic try ('ממתין לתיקון' after a permanent refusal). Actions:
// retry now (failed), edit (in Compose, `?outboxId=`), cancel (asks first; a scheduled mail's copy
// stays in Drafts). Hidden entirely while the outbox is empty, which is most of the time.

import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { keys } from '../../api/keys';
import { cancelOutboxItem, failureMessage, outgoingKeys, retryOutboxItem, type OutboxItem } from '../../api/outgoing';
import { useToast } from '../../session/Toasts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { RefreshIcon, SendIcon } from '../../components/icons';
import { he } from '../../i18n/he';
import { heOutgoing } from '../../i18n/outgoing';
import { formatDateTime } from '../../lib/dates';
import { useOutbox } from './useOutbox';

const t = heOutgoing.outbox;

/** The state line of an item, in Hebrew. */
export function outboxStateText(item: OutboxItem): string {
  switch (item.state) {
    case 'scheduled':
      return t.scheduled(formatDateTime(item.sendAt));
    case 'sending':
      return t.sending;
    case 'failed':
      return t.failed;
    default:
      return t.waiting;
  }
}

function recipients(item: OutboxItem): string {
  const m = item.mail;
  return [...(m.to ?? []), ...(m.cc ?? []), ...(m.bcc ?? [])].join(', ');
}

function OutboxRow({ item, onCancel }: { item: OutboxItem; onCancel: (item: OutboxItem) => void }) {
  const toast = useToast();
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const [retrying, setRetrying] = useState(false);
  const failed = item.state === 'failed';
  const sending = item.state === 'sending';

  async function retry() {
    setRetrying(true);
    try {
      await retryOutboxItem(item.id);
      toast.info(t.retried);
    } catch (e) {
      toast.error(failureMessage(e, t.retryFailed));
    } finally {
      setRetrying(false);
      void mutate(outgoingKeys.outbox());
    }
  }

  return (
    <li className={`outbox-item outbox-item--${item.state}`} data-testid="outbox-item" data-id={item.id} data-state={item.state}>
      <div className="outbox-item__main">
        <p className="outbox-item__line">
          <span className="outbox-item__label">{t.to}</span> <bdi dir="ltr">{recipients(item)}</bdi>
          {item.kind === 'draft' && <span className="label-chip">{t.draftKind}</span>}
        </p>
        <p className="outbox-item__subject" dir="auto">
          {item.mail.subject?.trim() || he.mail.noSubject}
        </p>
        <p className="outbox-item__state" data-testid="outbox-state">
          <span className="outbox-item__state-text">{outboxStateText(item)}</span>
          {failed && (
            <span className="outbox-item__next" data-testid="outbox-next">
              {item.retry && item.nextTry ? t.nextTry(formatDateTime(item.nextTry)) : !item.retry ? t.waitsForFix : ''}
            </span>
          )}
        </p>
        {failed && item.lastError && (
          <p className="outbox-item__error" dir="auto" data-testid="outbox-error">
            {item.lastError}
          </p>
        )}
      </div>
      {!sending && (
        <div className="outbox-item__actions">
          {failed && (
            <button
              type="button"
              className="chip-button"
              disabled={retrying}
              onClick={() => void retry()}
              data-testid="outbox-retry"
            >
              <RefreshIcon />
              {t.retry}
            </button>
          )}
          <button
            type="button"
            className="chip-button"
            onClick={() => navigate(`/Compose?outboxId=${encodeURIComponent(item.id)}`)}
            data-testid="outbox-edit"
          >
            {t.edit}
          </button>
          <button
            type="button"
            className="chip-button chip-button--danger"
            onClick={() => onCancel(item)}
            data-testid="outbox-cancel"
          >
            {item.state === 'scheduled' ? t.cancelScheduled : t.cancel}
          </button>
        </div>
      )}
    </li>
  );
}

export function OutboxSection() {
  const { items, mutate: mutateOutbox } = useOutbox();
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const [cancelling, setCancelling] = useState<OutboxItem | null>(null);
  const [busy, setBusy] = useState(false);

  if (items.length === 0 && !cancelling) return null;

  async function cancel(item: OutboxItem) {
    setBusy(true);
    const scheduled = item.state === 'scheduled';
    try {
      await cancelOutboxItem(item.id);
      toast.success(scheduled ? t.scheduleCancelled : t.cancelled);
      // Gone at once; a scheduled mail's copy now shows among the drafts.
      void mutateOutbox((cur) => cur && { items: cur.items.filter((i) => i.id !== item.id) }, { revalidate: true });
      void mutate(outgoingKeys.drafts());
      void mutate(keys.emailCounts());
    } catch (e) {
      toast.error(failureMessage(e, t.cancelFailed));
    } finally {
      setBusy(false);
      setCancelling(null);
    }
  }

  const subject = cancelling?.mail.subject?.trim() || he.mail.noSubject;
  return (
    <section className="outbox" aria-labelledby="outbox-title" data-testid="outbox">
      <header className="outbox__header">
        <h2 id="outbox-title" className="outbox__title">
          <SendIcon />
          {t.title}
        </h2>
        <p className="outbox__hint">{t.hint}</p>
      </header>
      <ul className="outbox__list">
        {items.map((item) => (
          <OutboxRow key={item.id} item={item} onCancel={setCancelling} />
        ))}
      </ul>
      {cancelling && (
        <ConfirmDialog
          title={cancelling.state === 'scheduled' ? t.cancelScheduled : t.cancel}
          confirmLabel={cancelling.state === 'scheduled' ? t.cancelScheduled : t.cancel}
          cancelLabel={t.cancelNo}
          danger
          busy={busy}
          onConfirm={() => void cancel(cancelling)}
          onCancel={() => setCancelling(null)}
        >
          <p dir="auto">{t.cancelQuestion(subject)}</p>
          <p>{cancelling.state === 'scheduled' ? t.cancelScheduledNote : t.cancelNote}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
