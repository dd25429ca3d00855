// The labelled form field used by every form: label, control, and an optional hint that the
// control points at with aria-describedby, so screen readers read the hint with the field.

import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';

interface FieldProps {
  id: string;
  label: ReactNode;
  value: string;
  onValueChange: (value: string) => void;
  hint?: ReactNode;
  /** The control's data-testid; the id unless given. */
  testId?: string;
}

type NativeInput = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>;

type ShellProps = Pick<FieldProps, 'id' | 'label' | 'hint'> & { children: ReactNode };

function FieldShell({ id, label, hint, children }: ShellProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <small id={`${id}-hint`} className="field__hint">
          {hint}
        </small>
      )}
    </div>
  );
}

export function TextField(props: FieldProps & NativeInput) {
  const { id, label, value, onValueChange, hint, testId, dir = 'auto', ...input } = props;
  return (
    <FieldShell id={id} label={label} hint={hint}>
      <input
        {...input}
        id={id}
        dir={dir}
        aria-describedby={hint ? `${id}-hint` : undefined}
        value={value}
        onChange={(e) => onValueChange(e.target.value)}
        data-testid={testId ?? id}
      />
    </FieldShell>
  );
}

type NativeSelect = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'value' | 'onChange'>;

export function SelectField(props: FieldProps & NativeSelect) {
  const { id, label, value, onValueChange, hint, testId, children, ...select } = props;
  return (
    <FieldShell id={id} label={label} hint={hint}>
      <select
        {...select}
        id={id}
        aria-describedby={hint ? `${id}-hint` : undefined}
        value={value}
        onChange={(e) => onValueChange(e.target.value)}
        data-testid={testId ?? id}
      >
        {children}
      </select>
    </FieldShell>
  );
}
