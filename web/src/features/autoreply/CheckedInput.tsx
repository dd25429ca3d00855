// A field saved only when what is typed reads right (a whole number in range, a time HH:MM): the
// text shows as typed, a wrong value is marked and not sent, and leaving the field shows the
// setting again — as does a setting that turns into something else than the text says (a failed
// save flipping back). Typing "5" on the way to "50" saves 5 and then 50; "0" saves nothing.

import { useState, type InputHTMLAttributes } from 'react';

type Native = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'onBlur'>;

interface Props<T> extends Native {
  id: string;
  label: string;
  /** The setting, as text. */
  value: string;
  /** The value the text stands for, or null when it is not one. */
  parse: (text: string) => T | null;
  onValid: (value: T) => void;
  hint: string;
  invalidHint: string;
  testId: string;
}

export function CheckedInput<T>({ id, label, value, parse, onValid, hint, invalidHint, testId, ...input }: Props<T>) {
  // null: not being edited (show the setting).
  const [text, setText] = useState<string | null>(null);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    if (text !== null && parse(text) !== parse(value)) setText(null);
  }
  const invalid = text !== null && parse(text) === null;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        {...input}
        id={id}
        value={text ?? value}
        aria-invalid={invalid || undefined}
        aria-describedby={`${id}-hint`}
        onChange={(e) => {
          setText(e.target.value);
          const parsed = parse(e.target.value);
          if (parsed !== null && parsed !== parse(value)) onValid(parsed);
        }}
        onBlur={() => setText(null)}
        data-testid={testId}
      />
      <small id={`${id}-hint`} className={invalid ? 'field__hint auto-reply__invalid' : 'field__hint'} data-testid={`${testId}-hint`}>
        {invalid ? invalidHint : hint}
      </small>
    </div>
  );
}
