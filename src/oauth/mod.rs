//! OAuth2 sign-in (XOAUTH2) to Gmail and Microsoft mailboxes (issue 24): the flows that get a
//! refresh token (`flows.rs`: Microsoft's device code, Google's authorization code with PKCE),
//! the providers' endpoints (`provider.rs`), the routes (`routes.rs`, Google's in `google.rs`:
//! a flow is finished only by the session of the user who started it), and here the service
//! the sync and the outbox sign in through ([`OAuth::imap`], [`OAuth::smtp`]).
//!
//! The refresh token is sealed in the account record like a password
//! (`accounts::AccountRecord::secret`) and never leaves the server; access tokens live in memory
//! only, are refreshed before they expire, and once more when the server refuses one. A refresh
//! token the provider refuses (`invalid_grant`: revoked, expired) marks the account as needing
//! a new sign-in: the user hears it once (a live notice, the sync status), and nothing asks the
//! provider again until they sign in.

pub mod flows;
pub mod google;
pub mod provider;
pub mod routes;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::accounts::{self, AccountRecord, AuthKind};
use crate::config::Config;
use crate::crypto::ServerKey;
use crate::feature::{Feature, Setup, need};
use crate::forget;
use crate::mail::Credential;
use crate::mail::imap::{self, ImapSession};
use crate::mail::net::{Endpoint, FailureKind, MailError};
use crate::mail::smtp::SmtpConn;
use crate::mail::tls::TlsContext;
use crate::messages;
use crate::notices::{Notice, Notices};
use crate::store::Store;

pub use provider::{Providers, TokenFailure, TokenSet};
pub use routes::router;

/// OAuth sign-in: routes, the service the sync and the outbox sign in through, and an account's
/// tokens dropped (and revoked) when it is forgotten.
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    init,
    needs: &[need::<OAuth>],
    ..Feature::named("oauth")
};

fn init(setup: &mut Setup<'_>) -> anyhow::Result<()> {
    let notices = setup.need::<Notices>()?;
    let oauth = Arc::new(OAuth::new(
        setup.config,
        setup.store.clone(),
        setup.key.clone(),
        notices,
    )?);
    setup.on_forget(Arc::new(Forgetting(oauth.clone())));
    setup.provide(oauth)
}

/// Before an account is forgotten: its access token goes, its refresh token is revoked.
struct Forgetting(Arc<OAuth>);

impl forget::Hooks for Forgetting {
    fn stopping(&self, accounts: &[u64]) {
        for id in accounts {
            if let Ok(Some(record)) = accounts::get(&self.0.store, *id) {
                self.0.forget(&record);
            }
        }
    }
}

/// The error of a sign-in whose refresh token the provider refused: the user must sign in
/// again. The sync stops retrying on it.
#[derive(Debug, thiserror::Error)]
#[error("the {} refresh token was refused: the user must sign in again", .provider.name())]
pub struct SignInNeeded {
    pub provider: AuthKind,
}

struct Access {
    token: String,
    /// When to stop using it: a little before the provider's expiry.
    renew_at: Instant,
}

/// The feature's service.
pub struct OAuth {
    pub providers: Providers,
    /// `[server] public_url` when HTTPS: Google's redirect comes back there.
    pub public_url: Option<String>,
    store: Store,
    key: ServerKey,
    access: Mutex<HashMap<u64, Access>>,
    /// One refresh at a time per account.
    refreshing: Mutex<HashMap<u64, Arc<tokio::sync::Mutex<()>>>>,
    pub flows: flows::Flows,
    /// Where "this account needs a sign-in" goes (the user's live sessions).
    notices: Arc<Notices>,
}

/// How long before its expiry an access token is renewed: a tenth of its life, at least five
/// seconds (half the life of a shorter-lived token), at most a minute. An IMAP or SMTP login
/// that starts just before the renewal must still reach the server before the expiry, and a
/// TLS handshake and an AUTHENTICATE on a busy machine or a slow link take a while.
fn renew_margin(life: Duration) -> Duration {
    let floor = (life / 2).min(Duration::from_secs(5));
    (life / 10).max(floor).min(Duration::from_secs(60))
}

impl OAuth {
    pub fn new(
        config: &Config,
        store: Store,
        key: ServerKey,
        notices: Arc<Notices>,
    ) -> anyhow::Result<Self> {
        Ok(Self {
            providers: Providers::new(config.oauth.clone())?,
            public_url: config.https_public_url().map(str::to_string),
            store,
            key,
            access: Mutex::new(HashMap::new()),
            refreshing: Mutex::new(HashMap::new()),
            flows: flows::Flows::default(),
            notices,
        })
    }

    /// Keeps a fresh access token of `account` (a flow just got it).
    pub fn keep(&self, account: u64, tokens: &TokenSet) {
        let renew_at = Instant::now() + tokens.expires_in - renew_margin(tokens.expires_in);
        self.access.lock().expect("oauth access").insert(
            account,
            Access {
                token: tokens.access_token.clone(),
                renew_at,
            },
        );
    }

    /// Drops the access token of an account (refused by a server, or the account forgotten).
    pub fn drop_access(&self, account: u64) {
        self.access.lock().expect("oauth access").remove(&account);
    }

    /// An account is being forgotten: its access token goes, and an OAuth account's refresh
    /// token is revoked at the provider (Google; best effort, in the background; Microsoft has
    /// no revocation endpoint for it).
    pub fn forget(self: &Arc<Self>, record: &AccountRecord) {
        self.drop_access(record.id);
        // Its refresh lock goes too: the map holds one per account ever refreshed.
        self.refreshing
            .lock()
            .expect("oauth refreshing")
            .remove(&record.id);
        if record.auth != AuthKind::Google {
            return;
        }
        let (Ok(token), Ok(runtime)) = (
            record.secret(&self.key),
            tokio::runtime::Handle::try_current(),
        ) else {
            return;
        };
        let this = self.clone();
        runtime.spawn(async move {
            this.providers.revoke(AuthKind::Google, &token).await;
        });
    }

    fn cached(&self, account: u64) -> Option<String> {
        let access = self.access.lock().expect("oauth access");
        access
            .get(&account)
            .filter(|a| Instant::now() < a.renew_at)
            .map(|a| a.token.clone())
    }

    /// How `account` signs in now: its password, or a valid access token (refreshed when it is
    /// due, or when `fresh`: the server refused the last one).
    pub async fn credential(
        &self,
        account: &AccountRecord,
        fresh: bool,
    ) -> anyhow::Result<Credential> {
        if !account.auth.is_oauth() {
            return Ok(Credential::Password(account.password(&self.key)?));
        }
        if !fresh && let Some(token) = self.cached(account.id) {
            return Ok(Credential::XOAuth2(token));
        }
        let lock = self
            .refreshing
            .lock()
            .expect("oauth refreshing")
            .entry(account.id)
            .or_default()
            .clone();
        let _one = lock.lock().await;
        // Another task may have refreshed it while this one waited.
        if !fresh && let Some(token) = self.cached(account.id) {
            return Ok(Credential::XOAuth2(token));
        }
        // The record as stored now: the caller's copy may predate a refusal or a new sign-in.
        let record = accounts::get(&self.store, account.id)?
            .ok_or_else(|| anyhow::anyhow!("account {} is gone", account.id))?;
        if record.needs_sign_in {
            return Err(SignInNeeded {
                provider: record.auth,
            }
            .into());
        }
        let refresh_token = record.secret(&self.key)?;
        match self.providers.refresh(record.auth, &refresh_token).await {
            Ok(tokens) => {
                tracing::info!(account = record.id, "OAuth access token refreshed");
                if let Some(rotated) = &tokens.refresh_token
                    && rotated != &refresh_token
                {
                    let (store, key, id, rt) = (
                        self.store.clone(),
                        self.key.clone(),
                        record.id,
                        rotated.clone(),
                    );
                    tokio::task::spawn_blocking(move || {
                        accounts::replace_refresh_token(&store, &key, id, &rt)
                    })
                    .await??;
                }
                self.keep(record.id, &tokens);
                Ok(Credential::XOAuth2(tokens.access_token))
            }
            Err(TokenFailure::InvalidGrant) => {
                tracing::warn!(
                    account = record.id,
                    provider = record.auth.name(),
                    "OAuth refresh token refused: the account needs a new sign-in"
                );
                self.drop_access(record.id);
                let (store, id) = (self.store.clone(), record.id);
                tokio::task::spawn_blocking(move || accounts::set_needs_sign_in(&store, id, true))
                    .await??;
                let notice = crate::notices::SignInNeeded {
                    email: record.email.clone(),
                    provider: record.auth.name().into(),
                    message: messages::OAUTH_SIGN_IN_NEEDED.into(),
                };
                self.notices
                    .send(record.user_id, Notice::SignInNeeded(notice));
                Err(SignInNeeded {
                    provider: record.auth,
                }
                .into())
            }
            Err(failure) => Err(MailError {
                kind: FailureKind::Unreachable,
                message: failure.message(record.auth),
                detail: format!("OAuth token endpoint: {failure:?}"),
                fingerprint: None,
            }
            .into()),
        }
    }

    /// An IMAP session of `account`. An OAuth account whose token the server refuses gets one
    /// new token and one more try.
    pub async fn imap(
        &self,
        tls: &TlsContext,
        endpoint: &Endpoint,
        account: &AccountRecord,
    ) -> anyhow::Result<ImapSession> {
        let credential = self.credential(account, false).await?;
        match imap::open_with(tls, endpoint, &account.email, &credential).await {
            Err(e) if e.kind == FailureKind::Auth && account.auth.is_oauth() => {
                tracing::info!(
                    account = account.id,
                    "IMAP refused the access token: refreshing"
                );
                self.drop_access(account.id);
                let credential = self.credential(account, true).await?;
                Ok(imap::open_with(tls, endpoint, &account.email, &credential).await?)
            }
            other => Ok(other?),
        }
    }

    /// An SMTP connection of `account`, with the same one retry as [`OAuth::imap`].
    pub async fn smtp(
        &self,
        tls: &TlsContext,
        endpoint: &Endpoint,
        account: &AccountRecord,
    ) -> anyhow::Result<SmtpConn> {
        let credential = self.credential(account, false).await?;
        match SmtpConn::open_with(tls, endpoint, &account.email, &credential).await {
            Err(e) if e.kind == FailureKind::Auth && account.auth.is_oauth() => {
                tracing::info!(
                    account = account.id,
                    "SMTP refused the access token: refreshing"
                );
                self.drop_access(account.id);
                let credential = self.credential(account, true).await?;
                Ok(SmtpConn::open_with(tls, endpoint, &account.email, &credential).await?)
            }
            other => Ok(other?),
        }
    }
}

/// Whether `e` says the account needs a new sign-in.
pub fn sign_in_needed(e: &anyhow::Error) -> bool {
    e.downcast_ref::<SignInNeeded>().is_some()
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    routes::OAuthProvider,
    routes::OAuthFlowKind,
    routes::OAuthProvidersResponse,
    routes::OAuthStartRequest,
    routes::DeviceFlowResponse,
    routes::OAuthFlowState,
    routes::OAuthFlowResponse,
    google::GoogleStartResponse,
    google::GoogleClaimRequest,
    google::GoogleClaimResponse,
    google::GoogleFinishRequest,
    google::GoogleFinishResponse,
);

#[cfg(test)]
mod tests {
    use super::renew_margin;
    use std::time::Duration;

    #[test]
    fn tokens_are_renewed_with_room_for_a_login() {
        let secs = |s: f64| Duration::from_secs_f64(s);
        // An hour (Google, Microsoft): a minute before.
        assert_eq!(renew_margin(secs(3600.0)), secs(60.0));
        assert_eq!(renew_margin(secs(300.0)), secs(30.0));
        // Short lives: five seconds, or half the life.
        assert_eq!(renew_margin(secs(30.0)), secs(5.0));
        assert_eq!(renew_margin(secs(3.0)), secs(1.5));
        assert_eq!(renew_margin(Duration::ZERO), Duration::ZERO);
    }
}
