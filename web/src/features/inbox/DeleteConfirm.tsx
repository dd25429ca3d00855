// The delete confirmation (spec 000 §5): the mail is removed only from this site, not from the
// real mailbox. One mail, a whole conversation, or the ticked threads.

import type { Thread } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { he } from '../../i18n/he';
import { threadSubject } from './ThreadRow';
import { mailCount } from './threads';

const t = he.inbox;

/** What the delete confirmation is about. */
export interface PendingDelete {
  threads: Thread[];
  /** From the bulk bar (the ticked threads) rather than one thread. */
  bulk: boolean;
}

export interface DeleteConfirmProps {
  pending: PendingDelete;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

function question({ threads, bulk }: PendingDelete): string {
  const n = mailCount(threads);
  if (bulk) return t.bulk.deleteQuestion(n);
  const subject = threadSubject(threads[0]);
  return n > 1 ? t.deleteThreadQuestion(subject, n) : t.deleteQuestion(subject);
}

export function DeleteConfirm({ pending, busy, onConfirm, onCancel }: DeleteConfirmProps) {
  return (
    <ConfirmDialog
      title={pending.bulk ? t.bulk.deleteTitle : t.deleteTitle}
      confirmLabel={t.deleteYes}
      cancelLabel={t.deleteNo}
      danger
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p dir="auto">{question(pending)}</p>
      <p>{t.deleteWarning}</p>
    </ConfirmDialog>
  );
}
