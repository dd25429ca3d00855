// 'גודל תצוגה' popover in the sidebar footer: the spec's five UI-scale presets (spec 001 §9).

import { useCallback, useId, useRef, useState } from 'react';
import { CheckIcon, TextSizeIcon } from '../components/icons';
import { useDismiss } from '../components/useDismiss';
import { he } from '../i18n/he';
import { SCALE_PRESETS, matchPreset, useScale } from './scale';

export function ScaleControl() {
  const [scale, setScale] = useScale();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(ref, open, close);
  const current = matchPreset(scale);

  return (
    <div className="popover-anchor" ref={ref}>
      <button
        type="button"
        className="sidebar-footer__action"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        data-testid="scale-button"
      >
        <TextSizeIcon />
        <span>{he.scale.button}</span>
      </button>
      {open && (
        <div id={panelId} className="popover popover--up scale-popover" role="group" aria-label={he.scale.title}>
          {SCALE_PRESETS.map((p) => (
            <button
              key={p.id}
              type="button"
              className="menu-item"
              aria-pressed={current === p.id}
              onClick={() => setScale({ ...p.scale })}
              data-testid={`scale-${p.id}`}
            >
              <span>{he.scale.presets[p.id]}</span>
              {/* aria-pressed already tells assistive technology which one is current. */}
              {current === p.id && <CheckIcon className="menu-item__check" />}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
