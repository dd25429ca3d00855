// The app's modal dialogs. `DialogFrame` is the frame every one of them shares (ConfirmDialog,
// the compose modals, the inbox's shortcut list): a backdrop that closes on a click outside, and
// the keyboard behaviour of components/useModalFocus. `Modal` is the titled frame with a close
// button around any content (compose's templates, address book and schedule); ConfirmDialog has
// fixed yes/no buttons instead.

import { useId, useRef, type ReactNode } from 'react';
import { CloseIcon } from './icons';
import { useModalFocus } from './useModalFocus';

export interface DialogFrameProps {
  /** The dialog's own classes (`dialog …`). */
  className: string;
  /** Classes besides `dialog-backdrop` on the backdrop. */
  backdropClassName?: string;
  /** The id of the dialog's title. */
  labelledBy: string;
  /** The id of what describes it, if anything. */
  describedBy?: string;
  testId: string;
  /** What gets focus on open (the dialog element is given). */
  initial: (dialog: HTMLElement | null) => HTMLElement | null | undefined;
  /** A selector for what Tab cycles through. */
  focusable: string;
  /** Keeps the dialog open (Escape, backdrop) while its action runs. */
  busy?: boolean;
  onClose: () => void;
  children: ReactNode;
}

export function DialogFrame({
  className,
  backdropClassName,
  labelledBy,
  describedBy,
  testId,
  initial,
  focusable,
  busy = false,
  onClose,
  children,
}: DialogFrameProps) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const onKeyDown = useModalFocus(dialogRef, {
    initial: () => initial(dialogRef.current),
    focusable,
    busy,
    onClose,
  });

  return (
    <div
      className={backdropClassName ? `dialog-backdrop ${backdropClassName}` : 'dialog-backdrop'}
      onMouseDown={(e) => {
        if (e.target === e.currentTarget && !busy) onClose();
      }}
    >
      <div
        ref={dialogRef}
        className={className}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        onKeyDown={onKeyDown}
        data-testid={testId}
      >
        {children}
      </div>
    </div>
  );
}

const FOCUSABLE = 'button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [href]';

const IN_CONTENT = FOCUSABLE.split(', ')
  .map((s) => `.dialog__content ${s}`)
  .join(', ');

export interface ModalProps {
  title: string;
  closeLabel: string;
  onClose: () => void;
  children: ReactNode;
  testId: string;
  /** Keeps the modal open (Escape, backdrop) while its action runs. */
  busy?: boolean;
  wide?: boolean;
}

export function Modal({ title, closeLabel, onClose, children, testId, busy = false, wide = false }: ModalProps) {
  const titleId = useId();
  return (
    <DialogFrame
      className={wide ? 'dialog dialog--wide compose-modal' : 'dialog compose-modal'}
      backdropClassName="compose-backdrop"
      labelledBy={titleId}
      testId={testId}
      // The first field if there is one (a search box, a name), else the first button.
      initial={(root) =>
        root?.querySelector<HTMLElement>('[data-autofocus]') ??
        root?.querySelector<HTMLElement>(IN_CONTENT) ??
        root?.querySelector<HTMLElement>(FOCUSABLE)
      }
      focusable={FOCUSABLE}
      busy={busy}
      onClose={onClose}
    >
      <div className="compose-modal__header">
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
        <button type="button" className="icon-button" aria-label={closeLabel} onClick={onClose} disabled={busy}>
          <CloseIcon />
        </button>
      </div>
      <div className="dialog__content">{children}</div>
    </DialogFrame>
  );
}
