// 'גודל תצוגה' popover in the sidebar footer: the spec's five UI-scale presets (spec 001 §9). The
// scale is one of the user's preferences, so a choice here follows them to their other devices.

import { useCallback, useId, useRef, useState } from 'react';
import { CheckIcon, TextSizeIcon } from '../components/icons';
import { useDismiss } from '../components/useDismiss';
import { heScale } from '../i18n/scale';
import { useSettingsSync } from '../features/settings/sync/SettingsProvider';
import { SCALE_PRESETS, matchPreset } from '../session/scale';

export function ScaleControl() {
  const { prefs, update } = useSettingsSync();
  const scale = { app: prefs.appScale, font: prefs.fontScale, icon: prefs.iconScale };
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
        <span>{heScale.button}</span>
      </button>
      {open && (
        <div id={panelId} className="popover popover--up scale-popover" role="group" aria-label={heScale.title}>
          {SCALE_PRESETS.map((p) => (
            <button
              key={p.id}
              type="button"
              className="menu-item"
              aria-pressed={current === p.id}
              onClick={() => void update({ appScale: p.scale.app, fontScale: p.scale.font, iconScale: p.scale.icon })}
              data-testid={`scale-${p.id}`}
            >
              <span>{heScale.presets[p.id]}</span>
              {/* aria-pressed already tells assistive technology which one is current. */}
              {current === p.id && <CheckIcon className="menu-item__check" />}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
