// The compose page's modal shell (templates, address book, schedule), built like
// settings/ConfirmDialog: focus moves in on open and back on close, Tab stays inside, Escape or a
// press on the backdrop closes. ConfirmDialog has fixed yes/no buttons; these modals hold forms
// and lists, hence a separate shell with the same behaviour.

import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
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

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // The first field if there is one (a search box, a name), else the first button.
    const root = dialogRef.current;
    const target =
      root?.querySelector<HTMLElement>('[data-autofocus]') ??
      root?.querySelector<HTMLElement>(IN_CONTENT) ??
      root?.querySelector<HTMLElement>(FOCUSABLE);
    target?.focus();
    return () => previous?.focus();
  }, []);

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (e.key === 'Escape') {
      e.stopPropagation();
      if (!busy) onClose();
      return;
    }
    if (e.key !== 'Tab' || !dialogRef.current) return;
    const focusable = Array.from(dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (focusable.length === 0) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  }

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
