// The labels of the open mail (the reading pane), each in its colour.

import { heLabels } from '../../i18n/labels';
import { LabelChip } from './LabelChip';
import { useLabels } from './useLabels';

export function MailLabels({ keywords }: { keywords: readonly string[] | undefined }) {
  const { look } = useLabels();
  if (!keywords?.length) return null;
  return (
    <span className="user-labels" role="group" aria-label={heLabels.title} data-testid="reading-labels">
      {keywords.map((k) => (
        <LabelChip key={k} look={look(k)} testId="reading-label" />
      ))}
    </span>
  );
}
