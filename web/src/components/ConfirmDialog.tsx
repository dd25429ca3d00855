// A small in-app confirmation dialog (instead of window.confirm, which cannot be styled, read
// right-to-left properly or tested), for every "are you sure?" in the app. Modal: focus moves to
// the safe choice (cancel) on open, Tab stays inside, Escape or a click on the backdrop cancels,
// and focus returns on close.

import { useId, useRef, type ReactNode } from 'react';
import { DialogFrame } from './Modal';

export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** Disables both buttons while the confirmed action runs. */
  busy?: boolean;
  danger?: boolean;
}

export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  busy = false,
  danger = false,
}: ConfirmDialogProps) {
  const titleId = useId();
  const bodyId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);

  return (
    <DialogFrame
      className="dialog"
      labelledBy={titleId}
      describedBy={bodyId}
      testId="confirm-dialog"
      initial={() => cancelRef.current}
      focusable="button:not(:disabled)"
      busy={busy}
      onClose={onCancel}
    >
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      <div id={bodyId} className="dialog__body">
        {children}
      </div>
      <div className="dialog__actions">
        <button
          type="button"
          className={danger ? 'button button--danger' : 'button button--primary'}
          onClick={onConfirm}
          disabled={busy}
          data-testid="confirm-yes"
        >
          {confirmLabel}
        </button>
        <button
          ref={cancelRef}
          type="button"
          className="button"
          onClick={onCancel}
          disabled={busy}
          data-testid="confirm-no"
        >
          {cancelLabel}
        </button>
      </div>
    </DialogFrame>
  );
}
