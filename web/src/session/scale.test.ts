import { beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SCALE,
  SCALE_KEYS,
  SCALE_PRESETS,
  applyScale,
  matchPreset,
  presetScale,
  readScale,
  saveScale,
} from './scale';

describe('UI scale', () => {
  beforeEach(() => localStorage.clear());

  it('defaults to app 0.85, font 0.9, icon 0.9', () => {
    expect(DEFAULT_SCALE).toEqual({ app: 0.85, font: 0.9, icon: 0.9 });
    expect(readScale()).toEqual({ app: 0.85, font: 0.9, icon: 0.9 });
    expect(matchPreset(readScale())).toBe('normal');
  });

  it('has the spec presets', () => {
    const table = Object.fromEntries(SCALE_PRESETS.map((p) => [p.id, p.scale]));
    expect(table).toEqual({
      compact: { app: 0.8, font: 0.85, icon: 0.85 },
      normal: { app: 0.85, font: 0.9, icon: 0.9 },
      comfortable: { app: 0.95, font: 1, icon: 1 },
      large: { app: 1.1, font: 1.1, icon: 1.1 },
      reset: { app: 1, font: 1, icon: 1 },
    });
    expect(matchPreset({ app: 1.1, font: 1.1, icon: 1.1 })).toBe('large');
    expect(matchPreset({ app: 1.1, font: 1, icon: 1.1 })).toBeNull();
  });

  it('persists under appScale, fontScale and iconScale', () => {
    saveScale(presetScale('large'));
    expect(localStorage.getItem(SCALE_KEYS.app)).toBe('1.1');
    expect(localStorage.getItem('appScale')).toBe('1.1');
    expect(localStorage.getItem('fontScale')).toBe('1.1');
    expect(localStorage.getItem('iconScale')).toBe('1.1');
    expect(readScale()).toEqual({ app: 1.1, font: 1.1, icon: 1.1 });
  });

  it('ignores corrupt stored values', () => {
    localStorage.setItem('appScale', 'banana');
    localStorage.setItem('fontScale', '40');
    localStorage.setItem('iconScale', '1');
    expect(readScale()).toEqual({ app: 0.85, font: 0.9, icon: 1 });
  });

  it('applies the scale as CSS custom properties on <html>', () => {
    applyScale(presetScale('compact'));
    const s = document.documentElement.style;
    expect(s.getPropertyValue('--app-scale')).toBe('0.8');
    expect(s.getPropertyValue('--font-scale')).toBe('0.85');
    expect(s.getPropertyValue('--icon-scale')).toBe('0.85');
  });
});
