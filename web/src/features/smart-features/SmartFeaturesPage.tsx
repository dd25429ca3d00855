// Smart features (spec 001 §2) — placeholder until this screen's own work lands; the layout shows its title.

import { EmptyState } from '../../components/EmptyState';
import { SparkIcon } from '../../components/icons';
import { he } from '../../i18n/he';

export default function SmartFeaturesPage() {
  return (
    <section className="page-section" data-testid="page-SmartFeaturesPage">
      <EmptyState icon={<SparkIcon />}>
        <p>{he.empty.smartFeatures}</p>
      </EmptyState>
    </section>
  );
}
