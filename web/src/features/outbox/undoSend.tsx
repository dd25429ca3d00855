// Undo-send: every send waits the server's undo delay in the outbox (docs/API.md "Sending,
// drafts, outbox"), and this toast is the user's one chance to take it back.
//
// API (the compose page and the reply panel use it the same way):
//
//   import { useUndoSend, type UndoComposeState } from './undoSend';
//
//   const announce = useUndoSend();          // inside the signed-in app (router + toasts + SWR)
//   const result = await sendMail(mail);      // or sendDraft(id): a SendResult
//   announce(result);                         // navigating away right after is fine
//
//   announce(result: SendResult): void
//     - result.outboxId and result.undoSeconds > 0: a toast (app level, so it survives route
//       changes) with result.message, a live countdown 'המייל יישלח בעוד N שניות' and a 'ביטול'
//       button (data-testid="undo-send"); it closes itself when the countdown ends.
//       'ביטול' → POST /api/outbox/{outboxId}/undo → navigate('/Compose', { state: { mail } })
//       where `mail` is the OutboxMail the server gave back (UndoComposeState), and a toast
//       'השליחה בוטלה'. A 409 (already sent) or any failure toasts the server's message.
//     - otherwise (no undo delay, scheduled, a draft save): just a success toast of result.message.
//
// The toast's content is rendered by the app-level ToastProvider (inside the router), not by the
// screen that sent, which may be gone by the time the user clicks.

import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { failureMessage, outgoingKeys, undoSend, type OutboxMail, type SendResult } from '../../api/outgoing';
import { useToast } from '../../session/Toasts';
import { heOutgoing } from '../../i18n/outgoing';

const t = heOutgoing.undo;

/** What the compose page finds in `location.state` after an undo. */
export interface UndoComposeState {
  mail: OutboxMail;
}

/** How often the countdown re-reads the clock (the shown number changes once a second). */
const TICK_MS = 250;

function secondsLeft(deadline: number): number {
  return Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}

interface UndoToastProps {
  outboxId: string;
  message: string;
  /** Epoch ms when the server starts sending (from undoSeconds at the time of the answer). */
  deadline: number;
  close: () => void;
  /** Runs after the undo call, whatever its outcome: re-read the outbox in the sender's cache. */
  onSettled: () => void;
}

function UndoToast({ outboxId, message, deadline, close, onSettled }: UndoToastProps) {
  const navigate = useNavigate();
  const toast = useToast();
  const [left, setLeft] = useState(() => secondsLeft(deadline));
  const [busy, setBusy] = useState(false);
  const initial = useRef(left);

  useEffect(() => {
    const timer = window.setInterval(() => setLeft(secondsLeft(deadline)), TICK_MS);
    return () => window.clearInterval(timer);
  }, [deadline]);

  // Too late to undo: the toast has nothing left to offer. An undo in flight decides instead.
  useEffect(() => {
    if (left <= 0 && !busy) close();
  }, [left, busy, close]);

  async function undo() {
    setBusy(true);
    try {
      const res = await undoSend(outboxId);
      close();
      const state: UndoComposeState = { mail: res.mail };
      navigate('/Compose', { state });
      toast.info(t.undone);
    } catch (e) {
      close();
      toast.error(failureMessage(e, t.undoFailed));
    } finally {
      onSettled();
    }
  }

  return (
    <div className="undo-toast" data-testid="undo-toast" data-outbox-id={outboxId}>
      <p dir="auto">{message}</p>
      {/* The number changes every second: said once to screen readers, shown live. */}
      <span className="visually-hidden">{t.countdown(initial.current)}</span>
      <p className="undo-toast__countdown" aria-hidden="true" data-testid="undo-countdown" data-seconds={left}>
        {t.countdown(left)}
      </p>
      <button
        type="button"
        className="button undo-toast__button"
        onClick={() => void undo()}
        disabled={busy}
        title={t.undoHint}
        data-testid="undo-send"
      >
        {busy ? t.undoing : t.undo}
      </button>
    </div>
  );
}

export function useUndoSend(): (result: SendResult) => void {
  const toast = useToast();
  // The sender's (session) cache; the toast itself renders above it.
  const { mutate } = useSWRConfig();
  return useCallback(
    (result: SendResult) => {
      const seconds = result.undoSeconds ?? 0;
      const outboxId = result.outboxId;
      if (!outboxId || seconds <= 0) {
        toast.success(result.message);
        return;
      }
      const deadline = Date.now() + seconds * 1000;
      const onSettled = () => {
        void mutate(outgoingKeys.outbox());
        void mutate(outgoingKeys.drafts());
      };
      toast.show('success', result.message, {
        duration: 0,
        render: (close) => (
          <UndoToast outboxId={outboxId} message={result.message} deadline={deadline} close={close} onSettled={onSettled} />
        ),
      });
    },
    [toast, mutate],
  );
}
