// UI scale (spec 001 §9): three independent factors, kept with the user's preferences on the
// server (features/settings/sync) and in localStorage for the first paint, applied as CSS
// custom properties on <html>, so plain CSS can use them without React re-rendering anything:
//   --app-scale  → `zoom` of the app shell (everything, layout included)
//   --font-scale → the root font size (all rem-based text and spacing)
//   --icon-scale → icon sizes
// The stylesheet is calibrated so the spec's default ("normal") preset looks like a normal
// desktop mail client (see styles/base.css).

export interface Scale {
  app: number;
  font: number;
  icon: number;
}

/** The localStorage keys named by the spec. */
export const SCALE_KEYS = { app: 'appScale', font: 'fontScale', icon: 'iconScale' } as const;

export const DEFAULT_SCALE: Scale = { app: 0.85, font: 0.9, icon: 0.9 };

export type ScalePresetId = 'compact' | 'normal' | 'comfortable' | 'large' | 'reset';

export const SCALE_PRESETS: readonly { id: ScalePresetId; scale: Scale }[] = [
  { id: 'compact', scale: { app: 0.8, font: 0.85, icon: 0.85 } },
  { id: 'normal', scale: { app: 0.85, font: 0.9, icon: 0.9 } },
  { id: 'comfortable', scale: { app: 0.95, font: 1, icon: 1 } },
  { id: 'large', scale: { app: 1.1, font: 1.1, icon: 1.1 } },
  { id: 'reset', scale: { app: 1, font: 1, icon: 1 } },
];

// Values outside this range would make the app unusable; treat them as corrupt storage.
const MIN = 0.5;
const MAX = 2;

function readOne(key: string, fallback: number): number {
  try {
    const raw = localStorage.getItem(key);
    if (raw === null) return fallback;
    const n = Number(raw);
    return Number.isFinite(n) && n >= MIN && n <= MAX ? n : fallback;
  } catch {
    return fallback;
  }
}

export function readScale(): Scale {
  return {
    app: readOne(SCALE_KEYS.app, DEFAULT_SCALE.app),
    font: readOne(SCALE_KEYS.font, DEFAULT_SCALE.font),
    icon: readOne(SCALE_KEYS.icon, DEFAULT_SCALE.icon),
  };
}

export function saveScale(s: Scale): void {
  try {
    localStorage.setItem(SCALE_KEYS.app, String(s.app));
    localStorage.setItem(SCALE_KEYS.font, String(s.font));
    localStorage.setItem(SCALE_KEYS.icon, String(s.icon));
  } catch {
    /* storage unavailable: the scale still applies for this tab */
  }
}

export function applyScale(s: Scale, el: HTMLElement = document.documentElement): void {
  el.style.setProperty('--app-scale', String(s.app));
  el.style.setProperty('--font-scale', String(s.font));
  el.style.setProperty('--icon-scale', String(s.icon));
}

const same = (a: number, b: number) => Math.abs(a - b) < 1e-6;

/** Which preset the scale equals, if any. 'normal' wins over nothing; 'reset' is 1/1/1. */
export function matchPreset(s: Scale): ScalePresetId | null {
  const hit = SCALE_PRESETS.find(
    (p) => same(p.scale.app, s.app) && same(p.scale.font, s.font) && same(p.scale.icon, s.icon),
  );
  return hit ? hit.id : null;
}

export function presetScale(id: ScalePresetId): Scale {
  const p = SCALE_PRESETS.find((x) => x.id === id);
  return { ...(p ? p.scale : DEFAULT_SCALE) };
}
