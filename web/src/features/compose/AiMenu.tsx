// The compose toolbar's AI menu (spec 000 §2 "Compose page": an AI menu): 'יצירת נושא' and the
// three improvement styles, as a small role="menu" popover (Escape or a click outside closes it,
// arrow keys move between items). While a call runs the button is disabled, aria-busy and says
// so. AiUndoBar offers 'ביטול השיפור' after an improvement. The work itself is in useAiHelp.

import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { IMPROVE_STYLES } from '../../api/ai';
import { SparkIcon } from '../../components/icons';
import { useDismiss } from '../../components/useDismiss';
import { heAi } from '../../i18n/ai';
import type { AiAction } from './useAiHelp';

const ITEMS: { action: AiAction; label: string; testId: string }[] = [
  { action: 'subject', label: heAi.generateSubject, testId: 'ai-generate-subject' },
  ...IMPROVE_STYLES.map((style) => ({ action: style, label: heAi.improve[style], testId: `ai-improve-${style}` })),
];

export interface AiMenuProps {
  busy: boolean;
  onRun: (action: AiAction) => void;
}

export function AiMenu({ busy, onRun }: AiMenuProps) {
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const close = useCallback(() => {
    setOpen(false);
    button.current?.focus();
  }, []);
  useDismiss(anchor, open, close);

  // Opened: the keyboard goes to the first item.
  useEffect(() => {
    if (open) list.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  function choose(action: AiAction) {
    setOpen(false);
    onRun(action);
  }

  function onKeyDown(e: KeyboardEvent) {
    const items = Array.from(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const at = items.indexOf(document.activeElement as HTMLElement);
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (step !== 0) {
      e.preventDefault();
      items[(at + step + items.length) % items.length]?.focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      items[e.key === 'Home' ? 0 : items.length - 1]?.focus();
    } else if (e.key === 'Tab') {
      setOpen(false);
    }
  }

  return (
    <div className="popover-anchor ai-menu" ref={anchor}>
      <button
        ref={button}
        type="button"
        className="editor-toolbar__button ai-menu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-busy={busy}
        disabled={busy}
        title={heAi.menuHint}
        onClick={() => setOpen((o) => !o)}
        data-testid="ai-menu"
      >
        <SparkIcon />
        <span>{busy ? heAi.menuBusy : heAi.menu}</span>
      </button>
      {open && (
        <div
          ref={list}
          id={menuId}
          className="popover ai-menu__list"
          role="menu"
          aria-label={heAi.menu}
          onKeyDown={onKeyDown}
          data-testid="ai-menu-list"
        >
          {ITEMS.map((item) => (
            <button
              key={item.action}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="menu-item"
              onClick={() => choose(item.action)}
              data-testid={item.testId}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** Shown after an improvement until the next edit: puts the user's own body back. */
export function AiUndoBar({ onUndo }: { onUndo: () => void }) {
  return (
    <p className="ai-undo" role="status" data-testid="ai-improved">
      <SparkIcon />
      <span>{heAi.improved}</span>
      <button type="button" className="link-button" onClick={onUndo} data-testid="ai-undo-improve">
        {heAi.undoImprove}
      </button>
    </p>
  );
}
