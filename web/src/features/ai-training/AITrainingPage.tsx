// AI training (spec 001 §2) — placeholder until this screen's own work lands; the layout shows its title.

import { EmptyState } from '../../components/EmptyState';
import { BrainIcon } from '../../components/icons';
import { he } from '../../i18n/he';

export default function AITrainingPage() {
  return (
    <section className="page-section" data-testid="page-AITrainingPage">
      <EmptyState icon={<BrainIcon />}>
        <p>{he.empty.aiTraining}</p>
      </EmptyState>
    </section>
  );
}
