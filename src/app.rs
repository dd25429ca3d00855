//! The application: shared state and the router. `app()` merges each feature's router and
//! adds the cross-cutting layers; tests drive it with `oneshot`, `serve` binds it to a socket.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use tower_http::trace::TraceLayer;

use crate::auth::setup::SetupGate;
use crate::auth::throttle::LoginThrottle;
use crate::config::Config;
use crate::crypto::ServerKey;
use crate::mail::tls::TlsContext;
use crate::outgoing::Outbox;
use crate::search::Search;
use crate::store::Store;
use crate::sync::{SyncManager, SyncShared};
use crate::{accounts, ai, auth, emails, http, live, outgoing, search, smart, templates};

/// How often the indexer looks for stored changes to index.
const INDEX_POLL: Duration = Duration::from_millis(250);

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub store: Store,
    pub throttle: Arc<LoginThrottle>,
    pub setup: Arc<SetupGate>,
    /// Seals mailbox passwords at rest.
    pub key: ServerKey,
    pub sync: Arc<SyncManager>,
    /// Wakes the outbox scheduler when a mail is queued, edited or retried.
    pub outbox: Arc<Outbox>,
    /// The AI providers' HTTP client and the `[ai]` settings.
    pub ai: Arc<ai::Ai>,
    /// The full-text index (its indexer thread starts with the background work).
    pub search: Arc<Search>,
}

impl AppState {
    /// State over an opened, migrated store. Opens the first-run gate when the store has no user.
    pub fn new(config: Config, store: Store) -> anyhow::Result<Self> {
        let throttle = LoginThrottle::new(
            config.auth.max_failed_logins,
            Duration::from_secs(config.auth.lockout_minutes * 60),
        );
        let setup = SetupGate::for_store(&store)?;
        let key = ServerKey::load_or_create(&config.storage.data_dir)?;
        let tls = TlsContext::new(&config.mail.extra_ca_files)?;
        let (events, _) = tokio::sync::broadcast::channel(1024);
        let sync = SyncManager::new(
            store.clone(),
            SyncShared {
                key: key.clone(),
                tls,
                timeout: Duration::from_secs(config.mail.timeout_secs),
                poll_interval: Duration::from_secs(config.mail.poll_interval_secs),
                max_backoff: Duration::from_secs(300),
                events,
            },
        );
        let ai = Arc::new(ai::Ai::new(config.ai.clone())?);
        let search = Arc::new(Search::open(
            &config.storage.data_dir,
            store.clone(),
            config.search.serve_writer(),
        )?);
        Ok(Self {
            config: Arc::new(config),
            store,
            throttle: Arc::new(throttle),
            setup: Arc::new(setup),
            key,
            sync: Arc::new(sync),
            outbox: Outbox::new(),
            ai,
            search,
        })
    }

    /// Starts the background work: a sync task per saved account and the outbox scheduler.
    /// Returns how many accounts sync.
    pub fn start_background(&self) -> anyhow::Result<usize> {
        outgoing::scheduler::spawn(self.clone());
        self.search.spawn_indexer(INDEX_POLL);
        self.sync.start_all()
    }
}

pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(http::router())
        .merge(auth::router())
        .merge(accounts::router())
        .merge(emails::router())
        .merge(live::router())
        .merge(outgoing::router())
        .merge(templates::router())
        .merge(ai::router())
        .merge(smart::router())
        .merge(search::router())
        .fallback(http::assets::fallback)
        .layer(axum::middleware::from_fn(http::headers::security_headers))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}
