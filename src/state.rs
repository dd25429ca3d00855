//! The application state every handler gets: configuration, the store, the server key, the
//! mail TLS context, the mail store's change feed, forgetting, and each feature's own service.
//! It sits below every feature and names none: a feature registers its service (`Services`)
//! when the application is built (`app::state`) and finds it again with [`AppState::service`];
//! the sync engine, which features above and below it drive by account id, is behind the
//! [`Mailboxes`] trait.

use std::any::{Any, TypeId, type_name};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::config::Config;
use crate::crypto::ServerKey;
use crate::forget::Forget;
use crate::mail::hosts::HostPolicy;
use crate::mail::tls::TlsContext;
use crate::mailstore::ChangeFeed;
use crate::store::Store;

/// What the UI shows about an account's sync.
#[derive(Debug, Clone, Default, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct SyncStatus {
    /// connecting, syncing, idle, error
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

/// Each feature's service, by type.
#[derive(Default)]
pub struct Services(HashMap<TypeId, Arc<dyn Any + Send + Sync>>);

impl Services {
    pub fn insert<T: Any + Send + Sync>(&mut self, service: Arc<T>) {
        self.0.insert(TypeId::of::<T>(), service);
    }
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
    /// Built by `app::state`; read with [`AppState::service`].
    pub(crate) services: Arc<Services>,
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

    /// The service of type `T`. Every service is registered when the state is built, so a
    /// missing one is a programming error caught by any test that starts the app.
    pub fn service<T: Any + Send + Sync>(&self) -> Arc<T> {
        self.services
            .0
            .get(&TypeId::of::<T>())
            .and_then(|s| s.clone().downcast::<T>().ok())
            .unwrap_or_else(|| panic!("service {} is not registered", type_name::<T>()))
    }
}
