import { useEffect, type KeyboardEvent, type RefObject } from 'react';

/**
 * The keyboard behaviour every modal dialog shares (through components/Modal's DialogFrame):
 * focus moves to `initial()` on open and back where it was on close, Tab and Shift+Tab stay
 * inside the dialog, Escape closes unless an action is running. Returns the dialog's keydown
 * handler.
 */
export function useModalFocus(
  dialogRef: RefObject<HTMLElement | null>,
  {
    initial,
    focusable,
    busy,
    onClose,
  }: {
    /** What gets focus on open. */
    initial: () => HTMLElement | null | undefined;
    /** A selector for what Tab cycles through. */
    focusable: string;
    busy: boolean;
    onClose: () => void;
  },
): (e: KeyboardEvent<HTMLElement>) => void {
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    initial()?.focus();
    return () => previous?.focus();
    // Once per opening: `initial` reads refs that are set by then.
  }, []);

  return (e) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      if (!busy) onClose();
      return;
    }
    if (e.key !== 'Tab' || !dialogRef.current) return;
    const all = Array.from(dialogRef.current.querySelectorAll<HTMLElement>(focusable));
    if (all.length === 0) return;
    const first = all[0];
    const last = all[all.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };
}
