// An on/off switch: a real checkbox with role="switch" laid over a drawn track (styles in
// settings.css: .switch), its label and an optional hint beside it. The whole row is the label,
// so a click anywhere on it toggles. Used by the preferences and the auto-reply card.

import type { ReactNode } from 'react';

export interface SwitchProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  testId?: string;
}

export function Switch({ id, label, hint, checked, onChange, disabled, testId }: SwitchProps) {
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
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
      />
      <span className="switch__track" aria-hidden="true" />
    </label>
  );
}
