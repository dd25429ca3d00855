// Send, save as draft and schedule (spec 000 §4 "Compose", §8). A new mail goes to POST
// /api/emails/send; a mail opened from the outbox (?outboxId=) is changed in place with PUT
// /api/outbox/{id}, so editing never queues a second copy. On failure nothing is cleared: the
// form keeps the user's work and a toast says what went wrong.

import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { ApiError } from '../../api/client';
import {
  outgoingKeys,
  sendMail,
  withReason,
  updateOutboxItem,
  type OutboxItem,
  type OutgoingMail,
  type SendResult,
} from '../../api/outgoing';
import { useToast } from '../../session/Toasts';
import { he } from '../../i18n/he';
import { heCompose } from '../../i18n/compose';
import { useUndoSend } from '../outbox/undoSend';
import { toRfc3339 } from './schedule';

export type SubmitKind = 'send' | 'draft' | 'schedule';

const AFTER: Record<SubmitKind, string> = {
  send: '/Inbox?folder=sent',
  draft: '/Inbox?folder=drafts',
  schedule: '/Inbox?folder=drafts',
};

const FAILED: Record<SubmitKind, string> = {
  send: heCompose.sendFailed,
  draft: heCompose.draftFailed,
  schedule: heCompose.scheduleFailed,
};

/** The payload for each action: `folder` and `snoozed_until` are what tell them apart. */
export function payloadFor(kind: SubmitKind, mail: OutgoingMail, when?: Date): OutgoingMail {
  const { folder: _folder, snoozed_until: _snoozed, ...rest } = mail;
  if (kind === 'draft') return { ...rest, folder: 'drafts' };
  if (kind === 'schedule' && when) return { ...rest, folder: 'sent', snoozed_until: toRfc3339(when) };
  return { ...rest, folder: 'sent' };
}

/** An edited outbox item described as a send result, so "undo" works the same for it. */
function resultOfItem(item: OutboxItem, now: number): SendResult {
  // Rounded down: never offer undo after the server has started sending.
  const undoSeconds = Math.max(0, Math.floor((Date.parse(item.sendAt) - now) / 1000));
  return { success: true, outboxId: item.id, sendAt: item.sendAt, undoSeconds, message: heCompose.queued };
}

export function useComposeSubmit(outboxId: string | null) {
  const navigate = useNavigate();
  const toast = useToast();
  const announce = useUndoSend();
  const [busy, setBusy] = useState<SubmitKind | null>(null);
  const { mutate } = useSWRConfig();

  /** A new mail through POST /api/emails/send. */
  async function create(kind: SubmitKind, payload: OutgoingMail) {
    const result = await sendMail(payload);
    // A 200 that says it did not work is a failure too; its message says why.
    if (result.success === false) throw new ApiError(200, result.message || he.errors.server);
    if (kind === 'send') announce(result);
    else toast.success(result.message);
  }

  /**
   * An outbox item changed in place. The server does what was pressed: send (now, after the
   * undo delay, retrying a failed one), schedule, or save as a draft (the item then leaves the
   * outbox and `item` is null).
   */
  async function edit(id: string, kind: SubmitKind, payload: OutgoingMail) {
    const res = await updateOutboxItem(id, payload);
    // Read again before leaving: the item opened again at once must show this version, not the
    // outbox list cached before the change (OutboxEdit keeps the first copy it finds).
    await mutate(outgoingKeys.outbox());
    const item = res.item;
    if (!item) {
      toast.success(res.message || heCompose.outboxSaved);
    } else if (kind === 'send' && item.state === 'waiting' && Date.parse(item.sendAt) > Date.now()) {
      announce(resultOfItem(item, Date.now()));
    } else {
      toast.success(heCompose.outboxSaved);
    }
  }

  async function submit(kind: SubmitKind, mail: OutgoingMail, when?: Date): Promise<boolean> {
    setBusy(kind);
    const payload = payloadFor(kind, mail, when);
    try {
      if (outboxId) await edit(outboxId, kind, payload);
      else await create(kind, payload);
    } catch (e) {
      toast.error(withReason(FAILED[kind], e));
      setBusy(null);
      return false;
    }
    navigate(AFTER[kind]);
    return true;
  }

  return { busy, submit };
}
