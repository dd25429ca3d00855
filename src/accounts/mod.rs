//! Mail accounts: a user's connection to a real mailbox. The password is sealed with the
//! server key (see `crate::crypto`) under a context naming the account, and never leaves the
//! server. The HTTP side (`/api/auth/...`, `/api/providers`) is in `routes.rs`.
//!
//! A login (`POST /api/auth/login`) checks IMAP and SMTP side by side before saving; each failure
//! is one of auth, unreachable, tls (with the certificate's fingerprint when it is untrusted),
//! timeout, protocol. An empty password in a later request means the saved one, for the same
//! servers and the same pinned certificates only (a new fingerprint takes the password again: a
//! pin replaces the chain check). Every test or login spends a try of the user's bucket
//! (`limit.rs`), so the server is no port scanner; the host policy is `mail::hosts`. A mailbox
//! loaded from the household's settings (`from_household`) is exported to a backup as a reference,
//! without its password.

pub mod address;
pub mod backup;
pub mod by_mailbox;
pub mod limit;
pub mod providers;
pub mod routes;
mod validate;

#[cfg(test)]
mod save_tests;

use std::time::Duration;

use redb::{ReadableDatabase, ReadableTable, TableDefinition};
use serde::{Deserialize, Serialize};

use crate::crypto::ServerKey;
use crate::error::{AppError, Result};
use crate::feature::{BackupSection, Feature, need};
use crate::forget::{self, Step};
use crate::mail::hosts::HostPolicy;
use crate::mail::net::Endpoint;
use crate::mail::servers::{MailServers, Protocol};
use crate::messages;
use crate::store::{Store, next_id, record};

pub use routes::router;
pub use validate::validated;

/// Mail accounts: routes, the accounts' own records (forgotten last), the mailboxes' backup
/// section (restored last: they start syncing), and the connection tests' budget.
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    forget: &[Step {
        name: "mail accounts",
        account: forget_account,
        user: forget::nothing,
    }],
    backup: &[BackupSection {
        name: "mailboxes",
        export: backup::export,
        import: backup::import,
    }],
    init: |setup| setup.provide(std::sync::Arc::new(limit::ConnectionTests::default())),
    needs: &[need::<limit::ConnectionTests>, need::<backup::Household>],
    ..Feature::named("accounts")
};

/// id → JSON [`AccountRecord`].
pub const ACCOUNTS: TableDefinition<u64, &[u8]> = TableDefinition::new("accounts");
/// (user id, account id) → (): a user's accounts.
pub const USER_ACCOUNTS: TableDefinition<(u64, u64), ()> = TableDefinition::new("user_accounts");

/// How an account signs in to its servers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "MailAccountAuth")]
pub enum AuthKind {
    /// The mailbox password (or an app password).
    #[default]
    Password,
    /// OAuth2 with Google (XOAUTH2); the sealed secret is the refresh token.
    Google,
    /// OAuth2 with Microsoft (XOAUTH2); the sealed secret is the refresh token.
    Microsoft,
}

impl AuthKind {
    pub fn name(self) -> &'static str {
        match self {
            Self::Password => "password",
            Self::Google => "google",
            Self::Microsoft => "microsoft",
        }
    }

    pub fn is_oauth(self) -> bool {
        self != Self::Password
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct AccountRecord {
    pub id: u64,
    pub user_id: u64,
    pub email: String,
    /// The IMAP and SMTP servers (flat keys: `imap_server`, …).
    #[serde(flatten)]
    pub servers: MailServers,
    /// The mailbox password, or for an OAuth account its refresh token, sealed (see
    /// [`seal_context`]).
    pub sealed_password: String,
    /// Password or OAuth (records from before OAuth are password accounts).
    #[serde(default)]
    pub auth: AuthKind,
    /// The provider refused the refresh token (revoked or expired): the sync waits until the
    /// user signs in again.
    #[serde(default)]
    pub needs_sign_in: bool,
    /// Certificates the user accepted by fingerprint, per server.
    #[serde(default)]
    pub imap_fingerprint: Option<String>,
    #[serde(default)]
    pub smtp_fingerprint: Option<String>,
    pub created_at: i64,
    /// Connected with the household's settings (`household`): the password is the household's,
    /// which the user never typed nor saw, so a backup carries a reference, never the secret.
    /// Written only when set, so the records of every other account keep their stored bytes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_household: bool,
}

/// What the API shows of an account: everything but the password.
#[derive(Debug, Clone, Serialize, PartialEq, ts_rs::TS)]
#[ts(rename = "MailAccount")]
pub struct Account {
    pub id: u64,
    /// The id as a string (the spec's name for it).
    #[serde(rename = "sessionId")]
    pub session_id: String,
    pub email_address: String,
    /// The IMAP and SMTP servers (flat keys: `imap_server`, …).
    #[serde(flatten)]
    #[ts(flatten)]
    pub servers: MailServers,
    #[serde(default)]
    pub imap_fingerprint: Option<String>,
    #[serde(default)]
    pub smtp_fingerprint: Option<String>,
    /// How the account signs in. Always sent (`Some`); optional in TypeScript so the web's
    /// fixtures of password accounts from before OAuth stay valid (absent means "password").
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub auth: Option<AuthKind>,
    /// The provider refused the refresh token: the user must sign in again (sync waits).
    /// Always sent (`Some`); absent in TypeScript means false.
    #[serde(rename = "needsSignIn", skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub needs_sign_in: Option<bool>,
}

impl From<&AccountRecord> for Account {
    fn from(r: &AccountRecord) -> Self {
        Self {
            id: r.id,
            session_id: r.id.to_string(),
            email_address: r.email.clone(),
            servers: r.servers.clone(),
            imap_fingerprint: r.imap_fingerprint.clone(),
            smtp_fingerprint: r.smtp_fingerprint.clone(),
            auth: Some(r.auth),
            needs_sign_in: Some(r.needs_sign_in),
        }
    }
}

/// The associated data a password is sealed under: a sealed value copied to another account's
/// record does not open.
fn seal_context(auth: AuthKind, user_id: u64, email: &str) -> String {
    match auth {
        AuthKind::Password => format!("mail-password:{user_id}:{}", email.to_lowercase()),
        other => format!(
            "oauth-refresh:{}:{user_id}:{}",
            other.name(),
            email.to_lowercase()
        ),
    }
}

impl AccountRecord {
    /// A local account of `user_id`: no mail server, its mail imported (`mailclient import`).
    pub fn local(id: u64, user_id: u64, email: &str) -> Self {
        Self {
            id,
            user_id,
            email: email.to_string(),
            servers: MailServers::default(),
            sealed_password: String::new(),
            auth: AuthKind::Password,
            needs_sign_in: false,
            imap_fingerprint: None,
            smtp_fingerprint: None,
            created_at: crate::kit::now(),
            from_household: false,
        }
    }

    /// Whether the account has no mail server (its mail lives only here).
    pub fn is_local(&self) -> bool {
        self.servers.imap_server.is_empty()
    }

    /// The mailbox password. An OAuth account has none (its secret is a refresh token, which
    /// must never be sent as a password).
    pub fn password(&self, key: &ServerKey) -> anyhow::Result<String> {
        anyhow::ensure!(
            self.auth == AuthKind::Password,
            "account {} signs in with OAuth, not a password",
            self.id
        );
        self.secret(key)
    }

    /// The sealed secret, opened: the password, or an OAuth account's refresh token.
    pub fn secret(&self, key: &ServerKey) -> anyhow::Result<String> {
        let bytes = key.open(
            &seal_context(self.auth, self.user_id, &self.email),
            &self.sealed_password,
        )?;
        Ok(String::from_utf8(bytes)?)
    }

    /// Where the account's IMAP server is, with its accepted certificate.
    pub fn imap_endpoint(&self, timeout: Duration, hosts: &HostPolicy) -> Endpoint {
        let pinned = self.imap_fingerprint.clone();
        self.servers
            .endpoint(Protocol::Imap, pinned, timeout, hosts)
    }

    /// Where the account's SMTP server is, with its accepted certificate.
    pub fn smtp_endpoint(&self, timeout: Duration, hosts: &HostPolicy) -> Endpoint {
        let pinned = self.smtp_fingerprint.clone();
        self.servers
            .endpoint(Protocol::Smtp, pinned, timeout, hosts)
    }
}

/// The validated fields of a connect request (also what a settings backup and the household's
/// mail settings keep, sealed).
#[derive(Clone, Serialize, Deserialize)]
pub struct Settings {
    pub email: String,
    pub password: String,
    /// The IMAP and SMTP servers (flat keys: `imap_server`, …).
    #[serde(flatten)]
    pub servers: MailServers,
    pub imap_fingerprint: Option<String>,
    pub smtp_fingerprint: Option<String>,
    /// Password or OAuth: for OAuth, `password` is the refresh token.
    #[serde(default)]
    pub auth: AuthKind,
    /// The household's settings (the password is theirs): kept on the record, so a backup
    /// names the mailbox without its password. In a backup: a reference with no password.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub household: bool,
}

/// Everything but the password, which never reaches a log.
impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("email", &self.email)
            .field("password", &"<redacted>")
            .field("servers", &self.servers)
            .field("auth", &self.auth)
            .field("household", &self.household)
            .finish_non_exhaustive()
    }
}

/// Saves the account of `user_id` for `settings.email`, replacing an earlier one for the same
/// address (its cached mail is kept: same mailbox). Returns the record.
///
/// Refused, inside the write, when the user is gone (an admin removed them while a mailbox
/// login, an OAuth finish or a restore was connecting: the removal either ran first and nothing
/// is saved, or runs after and forgets this account too) and when a new address would take the
/// user past `max_accounts` mailboxes (`[mail] max_accounts_per_user`).
pub fn save(
    store: &Store,
    key: &ServerKey,
    user_id: u64,
    s: &Settings,
    max_accounts: usize,
) -> Result<AccountRecord> {
    let txn = store.begin_write()?;
    let record = {
        if !crate::auth::users::exists_in(&txn, user_id)? {
            return Err(AppError::NotFound(messages::USER_NOT_FOUND.into()));
        }
        let links = txn.open_table(USER_ACCOUNTS)?;
        let existing = find_by_email_in(&txn.open_table(ACCOUNTS)?, &links, user_id, &s.email)?;
        if existing.as_ref().is_some_and(AccountRecord::is_local) {
            return Err(AppError::Conflict(
                messages::LOCAL_ACCOUNT_ADDRESS_TAKEN.into(),
            ));
        }
        if existing.is_none() {
            let have = links.range((user_id, 0)..=(user_id, u64::MAX))?.count();
            if have >= max_accounts {
                return Err(AppError::bad_request(messages::mailboxes_full(
                    max_accounts,
                )));
            }
        }
        drop(links);
        let id = match &existing {
            Some(r) => r.id,
            None => next_id(&txn, "accounts")?,
        };
        let record = AccountRecord {
            id,
            user_id,
            email: s.email.clone(),
            servers: s.servers.clone(),
            sealed_password: key.seal(
                &seal_context(s.auth, user_id, &s.email),
                s.password.as_bytes(),
            ),
            auth: s.auth,
            needs_sign_in: false,
            imap_fingerprint: s.imap_fingerprint.clone(),
            smtp_fingerprint: s.smtp_fingerprint.clone(),
            created_at: existing
                .map(|r| r.created_at)
                .unwrap_or_else(crate::kit::now),
            from_household: s.household,
        };
        txn.open_table(ACCOUNTS)?
            .insert(id, record::encode(&record).as_slice())?;
        txn.open_table(USER_ACCOUNTS)?.insert((user_id, id), ())?;
        record
    };
    txn.commit()?;
    Ok(record)
}

/// Changes a saved account in one write transaction: `f` gets the record (None: the account
/// is gone, nothing is written).
fn update(
    store: &Store,
    id: u64,
    f: impl FnOnce(&mut AccountRecord),
) -> Result<Option<AccountRecord>> {
    let txn = store.begin_write()?;
    let updated = {
        let mut table = txn.open_table(ACCOUNTS)?;
        let current: Option<AccountRecord> = match table.get(id)? {
            Some(v) => Some(record::decode(v.value())?),
            None => None,
        };
        match current {
            Some(mut r) => {
                f(&mut r);
                table.insert(id, record::encode(&r).as_slice())?;
                Some(r)
            }
            None => None,
        }
    };
    txn.commit()?;
    Ok(updated)
}

/// Marks an OAuth account as needing a new sign-in (its refresh token was refused), or clears
/// the mark.
pub fn set_needs_sign_in(store: &Store, id: u64, needed: bool) -> Result<Option<AccountRecord>> {
    update(store, id, |r| r.needs_sign_in = needed)
}

/// Keeps the refresh token a provider sent in place of the old one (Microsoft rotates them).
pub fn replace_refresh_token(
    store: &Store,
    key: &ServerKey,
    id: u64,
    refresh_token: &str,
) -> Result<Option<AccountRecord>> {
    update(store, id, |r| {
        if r.auth.is_oauth() {
            r.sealed_password = key.seal(
                &seal_context(r.auth, r.user_id, &r.email),
                refresh_token.as_bytes(),
            );
        }
    })
}

fn find_by_email_in(
    accounts: &impl ReadableTable<u64, &'static [u8]>,
    links: &impl ReadableTable<(u64, u64), ()>,
    user_id: u64,
    email: &str,
) -> Result<Option<AccountRecord>> {
    for entry in links.range((user_id, 0)..=(user_id, u64::MAX))? {
        let (k, _) = entry?;
        let id = k.value().1;
        if let Some(v) = accounts.get(id)? {
            let r: AccountRecord = record::decode(v.value())?;
            if r.email.eq_ignore_ascii_case(email) {
                return Ok(Some(r));
            }
        }
    }
    Ok(None)
}

pub fn find_by_email(store: &Store, user_id: u64, email: &str) -> Result<Option<AccountRecord>> {
    let txn = store.db().begin_read()?;
    find_by_email_in(
        &txn.open_table(ACCOUNTS)?,
        &txn.open_table(USER_ACCOUNTS)?,
        user_id,
        email,
    )
}

pub fn get(store: &Store, id: u64) -> Result<Option<AccountRecord>> {
    let txn = store.db().begin_read()?;
    let table = txn.open_table(ACCOUNTS)?;
    Ok(match table.get(id)? {
        Some(v) => Some(record::decode(v.value())?),
        None => None,
    })
}

/// The account `id` if it belongs to `user_id`.
pub fn get_owned(store: &Store, user_id: u64, id: u64) -> Result<AccountRecord> {
    match get(store, id)? {
        Some(r) if r.user_id == user_id => Ok(r),
        _ => Err(AppError::NotFound(messages::MAIL_ACCOUNT_NOT_FOUND.into())),
    }
}

pub fn list_for_user(store: &Store, user_id: u64) -> Result<Vec<AccountRecord>> {
    let txn = store.db().begin_read()?;
    let links = txn.open_table(USER_ACCOUNTS)?;
    let accounts = txn.open_table(ACCOUNTS)?;
    let mut out = Vec::new();
    for entry in links.range((user_id, 0)..=(user_id, u64::MAX))? {
        let id = entry?.0.value().1;
        if let Some(v) = accounts.get(id)? {
            out.push(record::decode(v.value())?);
        }
    }
    Ok(out)
}

pub fn list_all(store: &Store) -> Result<Vec<AccountRecord>> {
    let txn = store.db().begin_read()?;
    let accounts = txn.open_table(ACCOUNTS)?;
    let mut out = Vec::new();
    for entry in accounts.iter()? {
        out.push(record::decode(entry?.1.value())?);
    }
    Ok(out)
}

/// Whether account `id` is still saved, inside the caller's transaction (a sync batch in
/// flight when its account was removed must not bring the mail back).
pub fn exists_in(txn: &redb::WriteTransaction, id: u64) -> Result<bool> {
    Ok(txn.open_table(ACCOUNTS)?.get(id)?.is_some())
}

/// Saves a new account record in the caller's transaction (the importer's local accounts).
pub fn insert_in(txn: &redb::WriteTransaction, record: &AccountRecord) -> Result<()> {
    txn.open_table(ACCOUNTS)?
        .insert(record.id, record::encode(record).as_slice())?;
    txn.open_table(USER_ACCOUNTS)?
        .insert((record.user_id, record.id), ())?;
    Ok(())
}

/// A user's account ids, in the caller's transaction.
pub fn ids_in(txn: &redb::WriteTransaction, user_id: u64) -> anyhow::Result<Vec<u64>> {
    let mut out = Vec::new();
    for e in txn
        .open_table(USER_ACCOUNTS)?
        .range((user_id, 0)..=(user_id, u64::MAX))?
    {
        out.push(e?.0.value().1);
    }
    Ok(out)
}

/// Forgets an account record (its sealed password) and its link to the user: the last step of
/// forgetting an account.
pub fn forget_account(txn: &redb::WriteTransaction, id: u64) -> anyhow::Result<()> {
    let Some(user) = txn
        .open_table(ACCOUNTS)?
        .remove(id)?
        .and_then(|v| record::decode::<AccountRecord>(v.value()).ok())
        .map(|r| r.user_id)
    else {
        // An unreadable record: its link is found by scanning.
        txn.open_table(USER_ACCOUNTS)?.retain(|(_, a), _| a != id)?;
        return Ok(());
    };
    txn.open_table(USER_ACCOUNTS)?.remove((user, id))?;
    Ok(())
}

/// Schema 2.
pub fn create_tables(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(ACCOUNTS)?;
    txn.open_table(USER_ACCOUNTS)?;
    Ok(())
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    AuthKind,
    Account,
    crate::state::SyncStatus,
    routes::AccountWithSync,
    routes::ConnectRequest,
    crate::mail::net::FailureKind,
    routes::ServerCheck,
    routes::ConnectionResult,
    routes::MailLoginResponse,
    routes::MailLogoutResponse,
    routes::MailAccountsResponse,
    routes::SyncRefreshResponse,
    crate::mail::providers::Provider,
    providers::ProvidersResponse,
    crate::mail::providers::Detected,
    providers::DetectProviderResponse,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_password_never_reaches_a_debug_print() {
        let settings = Settings {
            password: "hunter2-secret".into(),
            ..super::save_tests::settings("dana@example.test")
        };
        let printed = format!("{settings:?}");
        assert!(!printed.contains("hunter2-secret"), "{printed}");
        assert!(printed.contains("dana@example.test") && printed.contains("<redacted>"));
    }

    /// An account record as stored before the servers were one struct (its keys flat, in this
    /// order): it still decodes, and encodes back to the same bytes.
    const STORED_RECORD: &str = r#"{"id":7,"user_id":3,"email":"dana@example.test","imap_server":"imap.example.test","imap_port":993,"imap_ssl":true,"smtp_server":"smtp.example.test","smtp_port":587,"smtp_ssl":false,"sealed_password":"c2VhbGVk","auth":"password","needs_sign_in":false,"imap_fingerprint":null,"smtp_fingerprint":"ab:cd","created_at":1790000000}"#;

    #[test]
    fn a_record_stored_before_the_servers_struct_reads_back_byte_for_byte() {
        let r: AccountRecord = record::decode(STORED_RECORD.as_bytes()).unwrap();
        assert_eq!(
            r.servers,
            MailServers {
                imap_server: "imap.example.test".into(),
                imap_port: 993,
                imap_ssl: true,
                smtp_server: "smtp.example.test".into(),
                smtp_port: 587,
                smtp_ssl: false,
            }
        );
        assert_eq!(r.smtp_fingerprint.as_deref(), Some("ab:cd"));
        assert_eq!(record::encode(&r), STORED_RECORD.as_bytes());
        // The oldest records have no `auth`, `needs_sign_in` or fingerprints.
        let oldest = r#"{"id":1,"user_id":1,"email":"a@b.test","imap_server":"h","imap_port":143,"imap_ssl":false,"smtp_server":"h","smtp_port":25,"smtp_ssl":false,"sealed_password":"x","created_at":0}"#;
        let r: AccountRecord = record::decode(oldest.as_bytes()).unwrap();
        assert_eq!((r.servers.imap_port, r.auth), (143, AuthKind::Password));
        // The API's account keeps its flat keys, in their order.
        let shown = serde_json::to_string(&Account::from(&r)).unwrap();
        assert!(
            shown.contains(r#""email_address":"a@b.test","imap_server":"h","imap_port":143,"imap_ssl":false,"smtp_server":"h","smtp_port":25,"smtp_ssl":false,"imap_fingerprint":null"#),
            "{shown}"
        );
    }
}
