// Settings (spec 001 §2), in the spec's order: the header, the real-time sync card, the mail
// account card, a side column (preferences, connection status, quick stats, device info), the
// supported providers, the auto-reply card, the spam and ad detection card, the label manager, the push
// notifications (this device and the others); then AI help (key and provider), the user's own
// account and password, and for admins the system's users. The layout shows the page title.

import { useAuth } from '../../session/AuthProvider';
import { AutoReplyCard } from '../autoreply/AutoReplyCard';
import { SpamCard } from '../spam/SpamCard';
import { McpCard } from '../mcp/McpCard';
import { LabelsCard } from '../labels/LabelsCard';
import { PushCard } from '../push/PushCard';
import { heSettings } from '../../i18n/settings';
import { hePreferences } from '../../i18n/preferences';
import '../../styles/settings.css';
import { AccountCard } from '../auth/AccountCard';
import { AiCard } from '../ai/AiCard';
import { ConnectionStatusCard } from '../accounts/ConnectionStatusCard';
import { DeviceInfoCard } from './cards/DeviceInfoCard';
import { ProvidersCard } from '../accounts/ProvidersCard';
import { QuickStatsCard } from './cards/QuickStatsCard';
import { MailAccountCard } from '../accounts/MailAccountCard';
import { PreferencesCard } from './sync/PreferencesCard';
import { SyncStatusCard } from './sync/SyncStatusCard';
import { UsersCard } from '../auth/UsersCard';

export default function SettingsPage() {
  const { user } = useAuth();
  return (
    <section className="page-section settings settings-page" data-testid="page-SettingsPage">
      <header className="settings-page__header">
        <p className="settings__intro">{user?.role === 'admin' ? heSettings.introAdmin : heSettings.intro}</p>
      </header>
      <div className="settings-page__grid">
        <div className="settings-page__main">
          <SyncStatusCard />
          <MailAccountCard />
        </div>
        <aside className="settings-page__side" aria-label={hePreferences.title}>
          <PreferencesCard />
          <ConnectionStatusCard />
          <QuickStatsCard />
          <DeviceInfoCard />
        </aside>
      </div>
      <ProvidersCard />
      <AutoReplyCard />
      <SpamCard />
      <LabelsCard />
      <PushCard />
      <AiCard />
      <McpCard />
      <AccountCard />
      <UsersCard />
    </section>
  );
}
