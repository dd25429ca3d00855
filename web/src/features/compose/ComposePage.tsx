// Compose (spec 000 §2) — placeholder until this screen's own work lands; the layout shows its title.

import { EmptyState } from '../../components/EmptyState';
import { PenIcon } from '../../components/icons';
import { he } from '../../i18n/he';

export default function ComposePage() {
  return (
    <section className="page-section" data-testid="page-ComposePage">
      <EmptyState icon={<PenIcon />}>
        <p>{he.empty.compose}</p>
      </EmptyState>
    </section>
  );
}
