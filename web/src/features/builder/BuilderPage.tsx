// Page-builder page, reached as /BuilderPage and /builder (spec 001 §2) — placeholder until this screen's own work lands; the layout shows its title.

import { EmptyState } from '../../components/EmptyState';
import { LayoutIcon } from '../../components/icons';
import { he } from '../../i18n/he';

export default function BuilderPage() {
  return (
    <section className="page-section" data-testid="page-BuilderPage">
      <EmptyState icon={<LayoutIcon />}>
        <p>{he.empty.builder}</p>
      </EmptyState>
    </section>
  );
}
