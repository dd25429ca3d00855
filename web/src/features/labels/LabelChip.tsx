// One label on a mail: its name in its colour (a dot, a tinted pill and a coloured edge, with the
// text in the theme's own colour so every palette colour keeps its contrast).

import type { CSSProperties } from 'react';
import '../../styles/labels.css';
import type { LabelLook } from './useLabels';

export function LabelChip({ look, testId = 'label-chip' }: { look: LabelLook; testId?: string }) {
  const style = look.color ? ({ '--label-color': look.color } as CSSProperties) : undefined;
  return (
    <span
      className="label-chip user-label"
      style={style}
      dir="auto"
      title={look.name}
      data-label={look.keyword}
      data-color={look.color ?? ''}
      data-testid={testId}
    >
      {look.name}
    </span>
  );
}
