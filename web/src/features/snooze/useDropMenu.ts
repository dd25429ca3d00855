// The open/closed state of the reading pane's small drop-down menus (snooze, follow-up), with
// the side each opens on so nothing of it is cut off (lib/menuSide).

import { useRef, useState } from 'react';
import { opensReversed } from '../../lib/menuSide';

/** The menus' width (snooze.css: 15rem), to choose the side they open on. */
const MENU_WIDTH_PX = 240;

export function useDropMenu() {
  const [open, setOpen] = useState(false);
  const [reversed, setReversed] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  return {
    open,
    setOpen,
    buttonRef,
    /** The button's click: open (on the side with room) or close. */
    toggle: () => {
      if (!open && buttonRef.current) setReversed(opensReversed(buttonRef.current, MENU_WIDTH_PX));
      setOpen(!open);
    },
    menuClass: `snooze__menu panel${reversed ? ' snooze__menu--reversed' : ''}`,
  };
}
