// "חשבון הדואר" (spec 001 §2 "Mail account card", §4 "Mail account save", "Provider detection"):
// the list of connected mailboxes with their sync state (ConnectedAccounts), and the form that
// connects a mailbox (MailConnectForm: IMAP + SMTP, the provider detected from the address, a
// connection test with a result per server, accepting an untrusted certificate by its
// fingerprint). The form's state and actions are in useMailAccountForm, its model in
// mailAccountForm. The household's part (spec 001 §2, §4): the offer to load the global mail
// settings (GlobalMailOffer), the admin's save for all users (in the form), and the settings
// backup with a master password (BackupSection). Signing in with Google or Microsoft (issue 24,
// features/oauth): the buttons in the form, the sign-in under way, "sign in again" on an account
// whose sign-in was revoked, and the way back from Google's redirect (useOAuthReturn).

import { useSWRConfig } from 'swr';
import { householdKeys } from '../../api/household';
import { isMailKey } from '../../api/keys';
import { useToast } from '../../session/Toasts';
import { heSettings } from '../../i18n/settings';
import { heOauth } from '../../i18n/oauth';
import { useMailAccounts } from './useMailAccounts';
import { useOAuthProviders } from '../oauth/useOAuthProviders';
import { useOAuthReturn } from '../oauth/useOAuthReturn';
import { useOAuthSignIn, type OAuthSignInOptions } from '../oauth/useOAuthSignIn';
import { BackupSection } from '../household/BackupSection';
import { ConnectedAccounts } from './ConnectedAccounts';
import { GlobalMailOffer } from '../household/GlobalMailOffer';
import { MailConnectForm } from './MailConnectForm';
import { useMailAccountForm } from './useMailAccountForm';
import { Card } from '../../components/Card';

export { REDIRECT_MS, SAVED_TOAST_MS } from './useMailAccountForm';

const t = heSettings.mail;

export function MailAccountCard({
  oauthNavigate,
  oauthOpenTab,
}: {
  /** Google's redirect and new tab; tests replace them. */
  oauthNavigate?: OAuthSignInOptions['navigate'];
  oauthOpenTab?: OAuthSignInOptions['openTab'];
} = {}) {
  const { accounts, failed, error: accountsError, mutate: mutateAccounts } = useMailAccounts();
  const { mutate } = useSWRConfig();
  const toast = useToast();
  const oauthProviders = useOAuthProviders();
  const reloadAfterSignIn = () => {
    void mutateAccounts();
    void mutate((key) => isMailKey(key));
  };
  const signIn = useOAuthSignIn({
    onConnected: (email) => {
      toast.success(heOauth.done(email));
      reloadAfterSignIn();
    },
    navigate: oauthNavigate,
    openTab: oauthOpenTab,
  });
  useOAuthReturn(signIn);
  const mail = useMailAccountForm({
    accounts,
    refreshAccounts: () => void mutateAccounts(),
    onGlobalSaved: () => void mutate(householdKeys.emailExists()),
  });

  return (
    <Card id="mail-account" title={t.title} intro={t.intro} testId="mail-account-card">

      <ConnectedAccounts
        accounts={accounts}
        failed={failed}
        error={accountsError}
        onRetry={() => void mutateAccounts()}
        onEdit={mail.editAccount}
        oauthConfigured={oauthProviders.configured}
        onSignInAgain={(a, provider) => void signIn.start(provider, a.email_address)}
        onChanged={async () => {
          await mutateAccounts();
          await mutate((key) => isMailKey(key));
        }}
      />

      <GlobalMailOffer accounts={accounts} mail={mail} />

      <MailConnectForm mail={mail} oauth={{ providers: oauthProviders, signIn }} />

      <BackupSection />
    </Card>
  );
}
