//! The application state every handler gets: configuration, the store, the server key, the
//! mail TLS context, the mail store's change feed, forgetting, the seams ([`Hooks`]) and each
//! feature's own service. It sits below every feature and names none: a feature provides its
//! service in its `init` (`crate::feature`) and finds it again with [`AppState::service`]; the
//! sync engine, which features above and below it drive by account id, is behind the
//! [`Mailboxes`] trait.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::config::Config;
use crate::crypto::ServerKey;
use crate::forget::Forget;
use crate::hooks::Hooks;
use crate::mail::hosts::HostPolicy;
use crate::mail::tls::TlsContext;
use crate::mailstore::ChangeFeed;
use crate::registry::Registry;
use crate::store::Store;

/// What the UI shows about an account's sync.
#[derive(Debug, Clone, Default, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct SyncStatus {
    /// connecting, syncing, idle, error, or throttled (the provider slows the sync down:
    /// `errorKind` "throttled", `error` says so in Hebrew, `nextRetryAt` when it goes on).
    pub state: String,
    /// Unix seconds.
    pub last_sync: Option<i64>,
    pub error: Option<String>,
    pub error_kind: Option<String>,
    /// Since this process started: messages and bytes downloaded.
    pub fetched_messages: u64,
    pub fetched_bytes: u64,
    pub initial_sync_done: bool,
    /// The server pushes new mail (IMAP IDLE); otherwise it is polled.
    pub idle: bool,
    /// After a failure: when the next attempt is due (Unix seconds).
    pub next_retry_at: Option<i64>,
    /// The folders (decoded names) whose server takes no keywords (PERMANENTFLAGS without
    /// `\*`): statuses set there are kept only here, other mail clients do not see them.
    pub local_status_folders: Vec<String>,
}

/// Why stored mail changed (the web re-reads on any; it tells the mailbox's changes from the
/// user's own, and mail being written from the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "MailChangeReason")]
pub enum MailChange {
    /// New or changed mail from the mailbox.
    Sync,
    /// Flags (read, starred) changed.
    Flags,
    /// A status or a detection verdict.
    Status,
    Delete,
    /// The outbox changed (queued, sent, failed).
    Outbox,
    /// The Drafts folder changed.
    Drafts,
}

/// The sync engine as the rest of the application drives it: by account id.
pub trait Mailboxes: Send + Sync {
    /// Starts (or restarts, with its new settings) the account's task.
    fn start(&self, account: u64);
    fn stop(&self, account: u64);
    /// Asks the account's task for a pass now (local changes to push, a refresh).
    fn wake(&self, account: u64);
    fn status(&self, account: u64) -> Option<SyncStatus>;
}

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub store: Store,
    /// Seals mailbox passwords and keys at rest.
    pub key: ServerKey,
    /// Trusted roots, extra CAs and pinned certificates for IMAP and SMTP.
    pub tls: TlsContext,
    /// `[mail] timeout_secs`.
    pub mail_timeout: Duration,
    /// `[mail] allowed_hosts` and `deny_private_ranges`: where mail connections may go.
    pub mail_hosts: HostPolicy,
    /// The mail store's change log as a stream (the live channel follows it).
    pub changes: Arc<ChangeFeed>,
    /// Forgetting users and accounts: every feature's step.
    pub forget: Arc<Forget>,
    pub mailboxes: Arc<dyn Mailboxes>,
    /// The seams through which lower rooms call higher ones.
    pub hooks: Hooks,
    /// Every feature's service, built by `app::state`; read with [`AppState::service`].
    pub(crate) services: Arc<Registry>,
}

/// The scheduler of the daemon's periodic work, with the server's state as each job's context.
pub type Jobs = crate::jobs::Jobs<AppState>;

impl AppState {
    /// The scheduler (a job can be asked to run now).
    pub fn jobs(&self) -> Arc<Jobs> {
        self.service::<Jobs>()
    }

    /// Runs store work on the blocking pool with the state (a handler's store calls must not
    /// hold up the runtime's threads).
    pub async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&AppState) -> crate::error::Result<T> + Send + 'static,
    ) -> crate::error::Result<T> {
        let state = self.clone();
        tokio::task::spawn_blocking(move || f(&state))
            .await
            .map_err(crate::error::AppError::internal)?
    }

    /// Runs store work on the blocking pool: redb commits fsync, and must not stall the async
    /// workers that serve other requests.
    pub async fn store_blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> crate::error::Result<T> + Send + 'static,
    ) -> crate::error::Result<T> {
        self.blocking(move |state| f(&state.store)).await
    }

    /// The service of type `T`. A feature declares each service it finds here in its
    /// `needs`, checked when the application starts (`app::state`), so this never fails in a
    /// request.
    pub fn service<T: Send + Sync + 'static>(&self) -> Arc<T> {
        self.services
            .get::<T>()
            .unwrap_or_else(|e| panic!("{e} (a feature's `needs` is missing it)"))
    }
}
