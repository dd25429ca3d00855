// The keyboard-shortcuts list, opened with '?' (or the toolbar's '?' button). Modal: focus moves
// to its close button and returns on close; Escape, '?', the button or a click outside close it.

import { useId, useRef } from 'react';
import { CloseIcon } from '../../components/icons';
import { DialogFrame } from '../../components/Modal';
import { he } from '../../i18n/he';
import { IconButton } from '../../components/IconButton';

const t = he.inbox.shortcuts;

export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);

  return (
    <DialogFrame
      className="dialog shortcuts-help"
      labelledBy={titleId}
      testId="shortcuts-help"
      initial={() => closeRef.current}
      // Focus stays on the one button inside.
      focusable="button"
      onClose={onClose}
    >
      <div className="shortcuts-help__head">
        <h2 id={titleId} className="dialog__title">
          {t.title}
        </h2>
        <IconButton label={t.close} ref={closeRef} onClick={onClose} testId="shortcuts-close">
          <CloseIcon />
        </IconButton>
      </div>
      <dl className="shortcuts-help__list">
        {t.list.map(([key, what]) => (
          <div key={key} className="shortcuts-help__item">
            <dt>
              <kbd dir="ltr">{key}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </DialogFrame>
  );
}
