// The compose page's modal shell (templates, address book, schedule): the keyboard behaviour of
// every modal (components/useModalFocus), a title with a close button, and any content.
// ConfirmDialog has fixed yes/no buttons; these modals hold forms and lists.

import { useId, useRef, type ReactNode } from 'react';
import { useModalFocus } from '../../components/useModalFocus';
import { CloseIcon } from '../../components/icons';

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
  const dialogRef = useRef<HTMLDivElement>(null);

  const onKeyDown = useModalFocus(dialogRef, {
    // The first field if there is one (a search box, a name), else the first button.
    initial: () => {
      const root = dialogRef.current;
      return (
        root?.querySelector<HTMLElement>('[data-autofocus]') ??
        root?.querySelector<HTMLElement>(IN_CONTENT) ??
        root?.querySelector<HTMLElement>(FOCUSABLE)
      );
    },
    focusable: FOCUSABLE,
    busy,
    onClose,
  });

  return (
    <div
      className="dialog-backdrop compose-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget && !busy) onClose();
      }}
    >
      <div
        ref={dialogRef}
        className={wide ? 'dialog dialog--wide compose-modal' : 'dialog compose-modal'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
        data-testid={testId}
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
      </div>
    </div>
  );
}
