// A labelled multi-line field in the look of components/Field (label, control, optional hint that
// the control points at with aria-describedby), for the training page's prompts.

import type { TextareaHTMLAttributes } from 'react';

type NativeTextArea = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'value' | 'onChange'>;

export function TextAreaField(
  props: { id: string; label: string; value: string; onValueChange: (value: string) => void; hint?: string; testId?: string } & NativeTextArea,
) {
  const { id, label, value, onValueChange, hint, testId, dir = 'auto', rows = 4, ...textarea } = props;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
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
      {hint && (
        <small id={`${id}-hint`} className="field__hint">
          {hint}
        </small>
      )}
    </div>
  );
}
