// Single-key keyboard shortcuts on the whole document. Ignored while the user types (text
// inputs, text areas, selects, contenteditable), with Ctrl, Alt or Meta held, during IME
// composition, and for Shift with a letter. On a Hebrew (non-Latin) layout a letter key still
// works by its place on the keyboard: the key that types 'ח' is j.

import { useEffect, useRef } from 'react';

export type ShortcutHandler = (e: KeyboardEvent) => void;
export type ShortcutMap = Partial<Record<string, ShortcutHandler>>;

/** Input types that take no typing: shortcuts keep working while one has focus. */
const NON_TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('[contenteditable=""], [contenteditable="true"]')) return true;
  if (target instanceof HTMLInputElement) return !NON_TEXT_INPUTS.has(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/** Elements where Enter already means "press this": the shortcut leaves Enter to them. */
function isInteractive(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && !!target.closest('button, a[href], input, select, textarea, summary');
}

/** The map's key a key press stands for, if any. */
export function resolveShortcut(e: KeyboardEvent, map: ShortcutMap): string | null {
  const key = e.key;
  const isLetter = key.length === 1 && /\p{L}/u.test(key);
  if (isLetter && e.shiftKey) return null;
  if (map[key]) return key;
  if (isLetter && !/[a-z]/i.test(key)) {
    const m = /^Key([A-Z])$/.exec(e.code);
    const latin = m?.[1].toLowerCase();
    if (latin && map[latin]) return latin;
  }
  if (key.length === 1 && map[key.toLowerCase()] && !e.shiftKey) return key.toLowerCase();
  return null;
}

export function useShortcuts(map: ShortcutMap, enabled = true): void {
  const current = useRef(map);
  useEffect(() => {
    current.current = map;
  });

  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      if (isTypingTarget(e.target)) return;
      const name = resolveShortcut(e, current.current);
      if (!name) return;
      if (name === 'Enter' && isInteractive(e.target)) return;
      const handler = current.current[name];
      if (!handler) return;
      e.preventDefault();
      handler(e);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled]);
}
