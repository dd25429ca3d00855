// The labelled form fields used by every form (label, control, and an optional hint that the
// control points at with aria-describedby, so screen readers read the hint with the field), and
// the form's submit button.

import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

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

/**
 * A one-line field. `verbatim`: text typed exactly as it is meant (an address, a server, a key, a
 * model name): left to right unless `dir` says otherwise, no capitals added, no spell-check.
 */
export function TextField(props: FieldProps & NativeInput & { verbatim?: boolean }) {
  const { id, label, value, onValueChange, hint, testId, verbatim = false, dir = verbatim ? 'ltr' : 'auto', ...input } = props;
  return (
    <FieldShell id={id} label={label} hint={hint}>
      <input
        {...(verbatim ? { autoCapitalize: 'none', spellCheck: false } : {})}
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

type NativeTextArea = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'value' | 'onChange'>;

/** A multi-line field (4 rows unless told), e.g. the AI training prompts and the spam lists. */
export function TextAreaField(props: FieldProps & NativeTextArea) {
  const { id, label, value, onValueChange, hint, testId, dir = 'auto', rows = 4, ...textarea } = props;
  return (
    <FieldShell id={id} label={label} hint={hint}>
      <textarea
        {...textarea}
        id={id}
        dir={dir}
        rows={rows}
        className="field__textarea"
        aria-describedby={hint ? `${id}-hint` : undefined}
        value={value}
        onChange={(e) => onValueChange(e.target.value)}
        data-testid={testId ?? id}
      />
    </FieldShell>
  );
}

type NativeCheckbox = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type' | 'checked' | 'onChange' | 'value'>;

/** A checkbox with its label beside it (and an optional hint below). */
export function CheckboxField(
  props: { id: string; label: ReactNode; checked: boolean; onCheckedChange: (checked: boolean) => void; hint?: ReactNode; testId?: string } & NativeCheckbox,
) {
  const { id, label, checked, onCheckedChange, hint, testId, ...input } = props;
  return (
    <div className="field field--checkbox">
      <div className="field__check">
        <input
          {...input}
          id={id}
          type="checkbox"
          aria-describedby={hint ? `${id}-hint` : undefined}
          checked={checked}
          onChange={(e) => onCheckedChange(e.target.checked)}
          data-testid={testId ?? id}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      {hint && (
        <small id={`${id}-hint`} className="field__hint">
          {hint}
        </small>
      )}
    </div>
  );
}

type NativeButton = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'>;

/** A form's primary button: it submits the form, and reads `busyLabel` while `busy`. */
export function SubmitButton(props: { busy?: boolean; busyLabel?: ReactNode; testId?: string } & NativeButton) {
  const { busy = false, busyLabel, testId, className, children, ...button } = props;
  return (
    <button type="submit" {...button} className={className ? `button button--primary ${className}` : 'button button--primary'} data-testid={testId}>
      {busy && busyLabel !== undefined ? busyLabel : children}
    </button>
  );
}
