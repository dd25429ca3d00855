// Pending replies (spec 000 §2) — placeholder until this screen's own work lands; the layout shows its title.

import { EmptyState } from '../../components/EmptyState';
import { ClockIcon } from '../../components/icons';
import { he } from '../../i18n/he';

export default function PendingRepliesPage() {
  return (
    <section className="page-section" data-testid="page-PendingRepliesPage">
      <EmptyState icon={<ClockIcon />}>
        <p>{he.empty.pendingReplies}</p>
      </EmptyState>
    </section>
  );
}
