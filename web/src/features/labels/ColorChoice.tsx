// A label's colour: the palette as a row of round swatches (a radio group), and any other colour
// through the browser's own picker.

import { useId } from 'react';
import { heLabels } from '../../i18n/labels';

const t = heLabels;

export interface ColorChoiceProps {
  value: string;
  palette: readonly string[];
  onChange: (color: string) => void;
  disabled?: boolean;
  testId: string;
}

export function ColorChoice({ value, palette, onChange, disabled, testId }: ColorChoiceProps) {
  const idBase = useId();
  return (
    <div className="label-swatches" role="radiogroup" aria-label={t.color} data-testid={testId}>
      {palette.map((c, i) => (
        <button
          key={c}
          type="button"
          role="radio"
          className="label-swatch"
          style={{ ['--swatch' as string]: c }}
          aria-checked={value === c}
          aria-label={t.colorNames[i] ?? c}
          title={t.colorNames[i] ?? c}
          disabled={disabled}
          onClick={() => onChange(c)}
          data-color={c}
          data-testid="label-swatch"
        />
      ))}
      <label className="visually-hidden" htmlFor={`${idBase}-custom`}>
        {t.customColor}
      </label>
      <input
        id={`${idBase}-custom`}
        type="color"
        value={value}
        disabled={disabled}
        title={t.customColor}
        onChange={(e) => onChange(e.target.value)}
        data-testid="label-color-custom"
      />
    </div>
  );
}
