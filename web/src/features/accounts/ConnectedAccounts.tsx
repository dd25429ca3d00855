// The connected mailboxes in the mail account card (spec 001 §2): each with its sync state, last
// sync and any sync error, and its actions: edit (fills the form above) and disconnect (after an
// in-app confirmation that says what is deleted); "sync now" for all of them. How each signs in
// (password, Google, Microsoft: issue 24), and when the provider revoked or expired the sign-in,
// a warning with "sign in again" (the provider's flow for that address, in the form below).

import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { disconnectMailbox, syncNow } from '../../api/mail';
import { accountAuth, accountNeedsSignIn, type OAuthProviderId } from '../../api/oauth';
import type { MailAccountWithSync } from '../../api/types';
import { useToast } from '../../session/Toasts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LoadError } from '../../components/LoadError';
import { heSettings } from '../../i18n/settings';
import { heOauth } from '../../i18n/oauth';
import { formatDateTime } from '../../lib/dates';
import '../../styles/oauth.css';
import { isBusy } from './useMailAccounts';

const t = heSettings.mail;
const to = heOauth;

export function ConnectedAccounts({
  accounts,
  failed,
  error,
  onRetry,
  onEdit,
  onChanged,
  oauthConfigured = () => false,
  onSignInAgain,
}: {
  accounts: MailAccountWithSync[] | undefined;
  failed: boolean;
  error: unknown;
  onRetry: () => void;
  onEdit: (a: MailAccountWithSync) => void;
  onChanged: () => Promise<void>;
  /** Whether the admin configured this OAuth provider (its "sign in again" works). */
  oauthConfigured?: (provider: OAuthProviderId) => boolean;
  onSignInAgain?: (a: MailAccountWithSync, provider: OAuthProviderId) => void;
}) {
  const toast = useToast();
  const [syncing, setSyncing] = useState(false);
  const [removing, setRemoving] = useState<MailAccountWithSync | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);

  async function sync() {
    setSyncing(true);
    try {
      await syncNow();
      toast.info(t.syncRequested);
      await onChanged();
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setSyncing(false);
    }
  }

  async function confirmRemove() {
    const a = removing;
    if (!a) return;
    setRemoveBusy(true);
    try {
      const res = await disconnectMailbox(a.sessionId);
      toast.success(res?.message || t.loggedOut);
      setRemoving(null);
      await onChanged();
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setRemoveBusy(false);
    }
  }

  let body;
  if (failed) {
    body = (
      <LoadError message={`${t.accountsFailed} ${errorMessage(error)}`} onRetry={onRetry} testId="mail-accounts-error" />
    );
  } else if (!accounts) {
    body = (
      <p className="card__status" role="status">
        {t.accountsLoading}
      </p>
    );
  } else if (accounts.length === 0) {
    body = (
      <p className="card__status" data-testid="mail-accounts-empty">
        {t.accountsEmpty}
      </p>
    );
  } else {
    body = (
      <ul className="list-box" aria-label={t.accountsLabel} data-testid="mail-accounts">
        {accounts.map((a) => (
          <AccountRow
            key={a.id}
            account={a}
            onEdit={() => onEdit(a)}
            onRemove={() => setRemoving(a)}
            canSignIn={oauthConfigured}
            onSignInAgain={onSignInAgain ? (provider) => onSignInAgain(a, provider) : undefined}
          />
        ))}
      </ul>
    );
  }

  return (
    <div className="mail-accounts">
      <div className="mail-accounts__header">
        <h3 className="card__subtitle">{t.accountsTitle}</h3>
        {accounts && accounts.length > 0 && (
          <button type="button" className="button" disabled={syncing} onClick={() => void sync()} data-testid="mail-sync-now">
            {t.syncNow}
          </button>
        )}
      </div>
      {body}
      {removing && (
        <ConfirmDialog
          title={t.logoutTitle}
          confirmLabel={t.logoutYes}
          cancelLabel={t.logoutNo}
          danger
          busy={removeBusy}
          onConfirm={() => void confirmRemove()}
          onCancel={() => setRemoving(null)}
        >
          <p>
            {t.logoutQuestion} <bdi dir="ltr">{removing.email_address}</bdi>?
          </p>
          <p>{t.logoutExplain}</p>
          <p>{t.logoutMailboxSafe}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function AccountRow({
  account: a,
  onEdit,
  onRemove,
  canSignIn,
  onSignInAgain,
}: {
  account: MailAccountWithSync;
  onEdit: () => void;
  onRemove: () => void;
  canSignIn: (provider: OAuthProviderId) => boolean;
  onSignInAgain?: (provider: OAuthProviderId) => void;
}) {
  const sync = a.sync ?? null;
  const state = sync?.state;
  const auth = accountAuth(a);
  const provider = auth === 'password' ? null : auth;
  const needsSignIn = provider !== null && accountNeedsSignIn(a);
  return (
    <li className="user-row" data-testid="mail-account-row" data-email={a.email_address}>
      <div className="user-row__main">
        <div className="user-row__who">
          <bdi dir="ltr" className="user-row__name" data-testid="mail-account-email">
            {a.email_address}
          </bdi>
          <span
            className={`badge badge--sync badge--sync-${state ?? 'stopped'}`}
            data-testid="mail-sync-state"
            data-state={state ?? 'stopped'}
          >
            {state ? (t.syncStates[state] ?? state) : t.syncStopped}
          </span>
          <span className="badge badge--auth" data-testid="mail-account-auth" data-auth={auth}>
            {to.auth[auth]}
          </span>
        </div>
        <div className="user-row__meta">
          <bdi dir="ltr" className="user-row__username">
            {t.serverLine(`${a.imap_server}:${a.imap_port}`, `${a.smtp_server}:${a.smtp_port}`)}
          </bdi>
        </div>
        <div className="user-row__meta">
          <span className="user-row__date" data-testid="mail-last-sync">
            {t.lastSync} {sync?.lastSync ? formatDateTime(sync.lastSync * 1000) : t.neverSynced}
          </span>
          {isBusy(a) && sync && sync.fetchedMessages > 0 && (
            <span className="user-row__date">{t.fetched(sync.fetchedMessages)}</span>
          )}
        </div>
        {sync?.error && !needsSignIn && sync.errorKind !== 'throttled' && (
          <p className="mail-account__error" dir="auto" data-testid="mail-sync-error">
            {sync.error}
          </p>
        )}
        {/* The provider slows the sync down (Outlook's throttling): its words, not an error. */}
        {sync?.error && sync.errorKind === 'throttled' && (
          <p className="mail-account__note" dir="auto" data-testid="mail-sync-throttled">
            {sync.error}
          </p>
        )}
        {sync && sync.localStatusFolders.length > 0 && (
          <p className="mail-account__note" data-testid="mail-local-statuses">
            {t.localStatuses(sync.localStatusFolders)}
          </p>
        )}
        {needsSignIn && provider && (
          <div className="notice notice--warning mail-account__signin" role="alert" data-testid="mail-needs-signin">
            <p>
              {to.needsSignIn(to.providerNames[provider])}
              {!canSignIn(provider) && <> {to.needsSignInNoConfig}</>}
            </p>
            {canSignIn(provider) && onSignInAgain && (
              <button
                type="button"
                className="button button--primary"
                onClick={() => onSignInAgain(provider)}
                data-testid="mail-signin-again"
              >
                {to.signInAgain}
              </button>
            )}
          </div>
        )}
      </div>
      <div className="user-row__actions" role="group" aria-label={t.actionsFor(a.email_address)}>
        {/* An OAuth account has no password or servers to change: "sign in again" is its edit. */}
        {auth === 'password' && (
          <button type="button" className="link-button" onClick={onEdit} data-testid="mail-account-edit">
            {t.edit}
          </button>
        )}
        <button type="button" className="link-button link-button--danger" onClick={onRemove} data-testid="mail-logout">
          {t.logout}
        </button>
      </div>
    </li>
  );
}
