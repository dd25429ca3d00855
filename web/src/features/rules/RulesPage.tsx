// Rules and filters (spec 001 §2) — placeholder until this screen's own work lands; the layout shows its title.

import { EmptyState } from '../../components/EmptyState';
import { FilterIcon } from '../../components/icons';
import { he } from '../../i18n/he';

export default function RulesPage() {
  return (
    <section className="page-section" data-testid="page-RulesPage">
      <EmptyState icon={<FilterIcon />}>
        <p>{he.empty.rules}</p>
      </EmptyState>
    </section>
  );
}
