// Settings (spec 001 §2): the mailbox connection first, then AI help (key and provider), then the
// signed-in user's own account and password, and for admins the management of the system's users.
// The layout shows the page title.

import { useAuth } from '../../app/AuthProvider';
import { he } from '../../i18n/he';
import { AccountCard } from './AccountCard';
import { AiCard } from './AiCard';
import { MailAccountCard } from './MailAccountCard';
import { UsersCard } from './UsersCard';

export default function SettingsPage() {
  const { user } = useAuth();
  return (
    <section className="page-section settings" data-testid="page-SettingsPage">
      <p className="settings__intro">
        {user?.role === 'admin' ? he.settings.introAdmin : he.settings.intro}
      </p>
      <MailAccountCard />
      <AiCard />
      <AccountCard />
      <UsersCard />
    </section>
  );
}
