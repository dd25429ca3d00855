import { useEffect, type RefObject } from 'react';

/**
 * Closes a popover/drawer on Escape and on a pointer press outside `ref`.
 * Shared by the bell, the scale popover and the drawer so they all behave the same.
 */
export function useDismiss(
  ref: RefObject<HTMLElement | null>,
  open: boolean,
  close: () => void,
  { outside = true }: { outside?: boolean } = {},
): void {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        close();
      }
    };
    const onPointer = (e: PointerEvent | MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) close();
    };
    document.addEventListener('keydown', onKey);
    if (outside) document.addEventListener('mousedown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (outside) document.removeEventListener('mousedown', onPointer);
    };
  }, [ref, open, close, outside]);
}
