// Tasks (spec 001 §2) — placeholder until this screen's own work lands; the layout shows its title.

import { EmptyState } from '../../components/EmptyState';
import { TasksIcon } from '../../components/icons';
import { he } from '../../i18n/he';

export default function TasksPage() {
  return (
    <section className="page-section" data-testid="page-TasksPage">
      <EmptyState icon={<TasksIcon />}>
        <p>{he.empty.tasks}</p>
      </EmptyState>
    </section>
  );
}
