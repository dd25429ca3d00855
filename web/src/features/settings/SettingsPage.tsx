// Settings (spec 001 §2) — placeholder until this screen's own work lands; the layout shows its title.

import { EmptyState } from '../../components/EmptyState';
import { SettingsIcon } from '../../components/icons';
import { he } from '../../i18n/he';

export default function SettingsPage() {
  return (
    <section className="page-section" data-testid="page-SettingsPage">
      <EmptyState icon={<SettingsIcon />}>
        <p>{he.empty.settings}</p>
      </EmptyState>
    </section>
  );
}
