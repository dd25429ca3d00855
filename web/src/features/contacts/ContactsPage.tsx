// Contacts (spec 001 §2) — placeholder until this screen's own work lands; the layout shows its title.

import { EmptyState } from '../../components/EmptyState';
import { ContactsIcon } from '../../components/icons';
import { he } from '../../i18n/he';

export default function ContactsPage() {
  return (
    <section className="page-section" data-testid="page-ContactsPage">
      <EmptyState icon={<ContactsIcon />}>
        <p>{he.empty.contacts}</p>
      </EmptyState>
    </section>
  );
}
