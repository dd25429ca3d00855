// A small in-app confirmation dialog (instead of window.confirm, which cannot be styled, read
// right-to-left properly or tested), for every "are you sure?" in the app. Modal: focus moves to
// the safe choice (cancel) on open, Tab stays inside, Escape or a click on the backdrop cancels,
// and focus returns on close.

import { useCallback, useId, useRef, useState, type ReactNode } from 'react';
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

/** A feature's strings for deleting one of its items (he.ts's `deleteTitle`, `deleteYes`, `deleteNo`). */
export interface DeleteText {
  deleteTitle: string;
  deleteYes: string;
  deleteNo: string;
}

/** A list item's delete question ("delete X?") and the note under it, when the feature has one. */
export interface DeleteQuestion {
  deleteQuestion: (name: string) => string;
  deleteNote?: string;
}

type ConfirmDeleteProps = Omit<ConfirmDialogProps, 'title' | 'confirmLabel' | 'cancelLabel' | 'danger' | 'children'> &
  ({ text: DeleteText; children: ReactNode } | { text: DeleteText & DeleteQuestion; name: string });

/**
 * The confirmation before deleting a list's item: danger-styled, worded by the feature's strings;
 * given the item's `name`, its body is the feature's question about it and the note, if any.
 */
export function ConfirmDelete(props: ConfirmDeleteProps) {
  const { text, busy, onConfirm, onCancel } = props;
  const labels = { title: text.deleteTitle, confirmLabel: text.deleteYes, cancelLabel: text.deleteNo };
  const body =
    'name' in props ? (
      <>
        <p dir="auto">{props.text.deleteQuestion(props.name)}</p>
        {props.text.deleteNote && <p className="muted">{props.text.deleteNote}</p>}
      </>
    ) : (
      props.children
    );
  return (
    <ConfirmDialog {...labels} danger busy={busy} onConfirm={onConfirm} onCancel={onCancel}>
      {body}
    </ConfirmDialog>
  );
}

/**
 * The item a confirmation asks about (`ask` opens it, `item` is what it asks about) and, once
 * confirmed, the action on it: the dialog is busy while the action runs and closes after it,
 * whether it succeeded or not (the action says which). `dialog(action)` gives the dialog's props.
 */
export function useConfirmation<T>() {
  const [item, setItem] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const ask = useCallback((x: T) => setItem(x), []);
  const cancel = useCallback(() => setItem(null), []);

  function dialog(action: (item: T) => Promise<void>) {
    const onConfirm = async () => {
      if (item === null) return;
      setBusy(true);
      try {
        await action(item);
      } finally {
        setBusy(false);
        setItem(null);
      }
    };
    return { busy, onConfirm: () => void onConfirm(), onCancel: cancel };
  }

  return { item, busy, ask, dialog };
}
