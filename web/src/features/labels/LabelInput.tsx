// A rule's "add label" value: a label's name, chosen from the user's labels or typed (a new name,
// Hebrew too, makes a new label when the rule is saved). A rule stores the label's keyword; the
// field shows that keyword's name, and the chip beside it the label's colour.

import { useId } from 'react';
import { useLabels } from './useLabels';
import { LabelChip } from './LabelChip';

export interface LabelInputProps {
  value: string;
  onChange: (value: string) => void;
  ariaLabel: string;
  placeholder: string;
  className?: string;
}

export function LabelInput({ value, onChange, ariaLabel, placeholder, className }: LabelInputProps) {
  const listId = useId();
  const { data, look } = useLabels();
  const current = value.trim() ? look(value.trim()) : null;
  // A stored keyword reads as its label's name; what the user types stays as typed.
  const shown = current?.known && current.keyword === value ? current.name : value;
  const byName = data?.labels.find((l) => l.name.toLowerCase() === value.trim().toLowerCase());
  const chip = byName ? look(byName.keyword) : current?.known ? current : null;
  return (
    <>
      <input
        className={className}
        aria-label={ariaLabel}
        dir="auto"
        autoComplete="off"
        list={listId}
        placeholder={placeholder}
        value={shown}
        maxLength={data?.maxName}
        onChange={(e) => onChange(e.target.value)}
        data-testid="action-value"
      />
      <datalist id={listId}>
        {data?.labels.map((l) => (
          <option key={l.id} value={l.name} />
        ))}
      </datalist>
      {chip && <LabelChip look={chip} testId="action-label-chip" />}
    </>
  );
}
