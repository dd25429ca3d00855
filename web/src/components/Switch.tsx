// An on/off switch: a real checkbox with role="switch" laid over a drawn track (styles in
// cards.css: .switch), its label and an optional hint beside it. The whole row is the label,
// so a click anywhere on it toggles. Used by the preferences, the auto-reply card and the rules
// list (where the visible label is the state, 'פעיל' or 'כבוי', and `ariaLabel` names the rule).

import type { ReactNode } from 'react';

export interface SwitchProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  testId?: string;
  /** The switch's accessible name, when the visible label alone does not say what it turns on. */
  ariaLabel?: string;
}

export function Switch({ id, label, hint, checked, onChange, disabled, testId, ariaLabel }: SwitchProps) {
  return (
    <label className="switch" htmlFor={id}>
      <span className="switch__text">
        <span className="switch__label">{label}</span>
        {hint && <span className="switch__hint">{hint}</span>}
      </span>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch__input"
        checked={checked}
        aria-checked={checked}
        aria-label={ariaLabel}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
      />
      <span className="switch__track" aria-hidden="true" />
    </label>
  );
}
