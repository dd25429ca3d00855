//! The application: the state with every feature's service (`state`), the background work,
//! the lists of forget steps, and the router. `app()` merges each feature's router and
//! adds the cross-cutting layers; tests drive it with `oneshot`, `serve` binds it to a socket.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use tower_http::trace::TraceLayer;

use crate::auth::setup::SetupGate;
use crate::auth::throttle::LoginThrottle;
use crate::config::Config;
use crate::crypto::ServerKey;
use crate::forget::{self, Forget, Step};
use crate::jobs::Spec;
use crate::mail::hosts::HostPolicy;
use crate::mail::tls::TlsContext;
use crate::mailstore::ChangeFeed;
use crate::outgoing::Outbox;
use crate::search::Search;
use crate::state::Services;
use crate::store::Store;
use crate::sync::{SyncManager, SyncShared};
use crate::{
    accounts, ai, auth, autoreply, backup, builder, contacts, emails, household, http, import,
    live, mailstore, oauth, outgoing, rules, search, settings, smart, spam, tasks, templates,
};

/// How often the indexer looks for stored changes to index.
const INDEX_POLL: Duration = Duration::from_millis(250);
/// How often the live feed looks at the change log.
const FEED_POLL: Duration = Duration::from_millis(100);

/// Every feature's step in forgetting an account or a user, in order: what refers to an
/// account goes before the account record; the user's own record is removed last, by `auth`.
/// A feature that keeps rows keyed by a user or an account adds its step here (the forget test
/// scans every table for what is left).
pub static FORGET_STEPS: &[Step] = &[
    Step {
        name: "stored mail",
        account: mailstore::forget_account,
        user: forget::nothing,
    },
    Step {
        name: "imported mail",
        account: import::forget_account,
        user: forget::nothing,
    },
    Step {
        name: "outbox",
        account: outgoing::outbox::forget_account,
        user: outgoing::outbox::forget_user,
    },
    Step {
        name: "attachments",
        account: forget::nothing,
        user: outgoing::uploads::forget_user,
    },
    Step {
        name: "templates",
        account: forget::nothing,
        user: templates::forget_user,
    },
    Step {
        name: "remote-content senders",
        account: forget::nothing,
        user: emails::remote::forget_user,
    },
    Step {
        name: "AI key and provider",
        account: forget::nothing,
        user: ai::key::forget_user,
    },
    Step {
        name: "AI training",
        account: forget::nothing,
        user: ai::training::forget_user,
    },
    Step {
        name: "contacts",
        account: forget::nothing,
        user: contacts::forget_user,
    },
    Step {
        name: "rules",
        account: forget::nothing,
        user: rules::forget_user,
    },
    Step {
        name: "tasks",
        account: forget::nothing,
        user: tasks::forget_user,
    },
    Step {
        name: "auto-reply",
        account: forget::nothing,
        user: autoreply::forget_user,
    },
    Step {
        name: "spam detection",
        account: forget::nothing,
        user: spam::forget_user,
    },
    Step {
        name: "settings backup",
        account: forget::nothing,
        user: backup::forget_user,
    },
    Step {
        name: "preferences and their history",
        account: forget::nothing,
        user: settings::forget_user,
    },
    Step {
        name: "sessions",
        account: forget::nothing,
        user: auth::sessions::forget_user,
    },
    Step {
        name: "mail accounts",
        account: accounts::forget_account,
        user: forget::nothing,
    },
];

/// Every feature's section of a settings backup, in the order they are restored: the AI
/// provider before anything that could call it, the mailboxes last (they start syncing). A
/// feature that keeps per-user settings adds its section here.
pub static BACKUP_SECTIONS: &[backup::Section] = &[
    backup::Section {
        name: "preferences",
        export: settings::backup_export,
        import: settings::backup_import,
    },
    backup::Section {
        name: "aiProvider",
        export: ai::backup::export_provider,
        import: ai::backup::import_provider,
    },
    backup::Section {
        name: "aiTraining",
        export: ai::backup::export_training,
        import: ai::backup::import_training,
    },
    backup::Section {
        name: "autoReply",
        export: autoreply::backup_export,
        import: autoreply::backup_import,
    },
    backup::Section {
        name: "spamDetection",
        export: spam::backup_export,
        import: spam::backup_import,
    },
    backup::Section {
        name: "contacts",
        export: contacts::backup_export,
        import: contacts::backup_import,
    },
    backup::Section {
        name: "rules",
        export: rules::backup_export,
        import: rules::backup_import,
    },
    backup::Section {
        name: "tasks",
        export: tasks::backup_export,
        import: tasks::backup_import,
    },
    backup::Section {
        name: "templates",
        export: templates::backup_export,
        import: templates::backup_import,
    },
    backup::Section {
        name: "mailboxes",
        export: accounts::backup::export,
        import: accounts::backup::import,
    },
];

/// Forgetting without a running server (the CLI).
pub fn offline_forget() -> Forget {
    Forget::new(FORGET_STEPS, accounts::ids_in, Box::new(forget::Offline))
}

/// Stops the accounts' sync tasks first; wakes the outbox after, so it drops what went.
struct RunningWork {
    sync: Arc<SyncManager>,
    outbox: Arc<Outbox>,
    /// An OAuth account's access token dropped and its refresh token revoked at the provider.
    oauth: Arc<oauth::OAuth>,
    /// Drops the forgotten mail's bytes from the index, then overwrites the store's free pages.
    search: Arc<Search>,
    store: Store,
}

impl forget::Hooks for RunningWork {
    fn stopping(&self, accounts: &[u64]) {
        for id in accounts {
            self.sync.stop(*id);
            if let Ok(Some(record)) = accounts::get(&self.store, *id) {
                self.oauth.forget(&record);
            }
        }
    }
    fn forgotten(&self, _: &[u64]) {
        self.outbox.wake.notify_one();
        if let Err(e) = self.search.request_purge() {
            tracing::warn!(error = %format!("{e:#}"), "cannot ask for the forgotten bytes to be purged");
        }
    }
}

pub use crate::state::AppState;

/// The state over an opened, migrated store: every feature's service registered. Opens the
/// first-run gate when the store has no user.
pub fn state(config: Config, store: Store) -> anyhow::Result<AppState> {
    let throttle = LoginThrottle::new(
        config.auth.max_failed_logins,
        Duration::from_secs(config.auth.lockout_minutes * 60),
    );
    let setup = SetupGate::for_store(&store)?;
    let key = ServerKey::load_or_create(&config.storage.data_dir)?;
    let tls = TlsContext::new(&config.mail.extra_ca_files)?;
    let hosts = HostPolicy::new(&config.mail.allowed_hosts, config.mail.deny_private_ranges);
    let (events, _) = tokio::sync::broadcast::channel(1024);
    let oauth = Arc::new(oauth::OAuth::new(&config, store.clone(), key.clone())?);
    let sync = Arc::new(SyncManager::new(
        store.clone(),
        SyncShared {
            key: key.clone(),
            tls: tls.clone(),
            timeout: Duration::from_secs(config.mail.timeout_secs),
            hosts: hosts.clone(),
            max_backoff: Duration::from_secs(300),
            events,
            screen: Default::default(),
            oauth: oauth.clone(),
        },
    ));
    // The index writer's threads are started here: at background priority.
    let search = Arc::new(in_background(|| {
        Search::open(
            &config.storage.data_dir,
            store.clone(),
            config.search.serve_writer(),
        )
    })?);
    let outbox = Outbox::new();
    let forget = Forget::new(
        FORGET_STEPS,
        accounts::ids_in,
        Box::new(RunningWork {
            sync: sync.clone(),
            outbox: outbox.clone(),
            oauth: oauth.clone(),
            search: search.clone(),
            store: store.clone(),
        }),
    );
    let mut services = Services::default();
    services.insert(Arc::new(throttle));
    services.insert(Arc::new(accounts::limit::ConnectionTests::default()));
    services.insert(Arc::new(accounts::backup::Household(
        household::mail_settings,
    )));
    services.insert(Arc::new(auth::proxies::TrustedProxies::new(
        &config.server.trusted_proxies,
    )));
    services.insert(Arc::new(setup));
    services.insert(Arc::new(auth::limits::RateLimits::new(&config.limits)));
    services.insert(sync.clone());
    services.insert(outbox);
    services.insert(Arc::new(ai::Ai::new(config.ai.clone())?));
    services.insert(Arc::new(builder::Builder::new(
        config.builder.clone(),
        hosts.clone(),
    )?));
    services.insert(search);
    services.insert(Arc::new(settings::SettingsFeed::default()));
    let notices = Arc::new(live::Notices::default());
    services.insert(notices.clone());
    // A refresh token refused for good: the user hears it on the live channel.
    {
        let notices = notices.clone();
        oauth.set_notice(Box::new(move |user_id, data| {
            notices.send(user_id, "oauth_sign_in_needed", data);
        }));
    }
    services.insert(oauth);
    // Spam detection judges new mail inside the sync (the sync knows only the hook).
    let spam = spam::Spam::new();
    spam.set_notices(notices);
    let _ = sync.shared().screen.set(Arc::new(spam.clone()));
    emails::learner::register(Arc::new(spam::learn::Marking(spam.clone())));
    services.insert(Arc::new(spam));
    services.insert(Arc::new(backup::Sections(BACKUP_SECTIONS)));
    services.insert(Arc::new(crate::state::Jobs::new(jobs(&config))));
    Ok(AppState {
        mail_timeout: Duration::from_secs(config.mail.timeout_secs),
        mail_hosts: hosts,
        config: Arc::new(config),
        changes: ChangeFeed::new(store.clone())?,
        store,
        key,
        tls,
        forget: Arc::new(forget),
        mailboxes: sync,
        services: Arc::new(services),
    })
}

/// The daemon's periodic work, each job with its period (docs/ARCHITECTURE.md "Jobs").
fn jobs(config: &Config) -> Vec<Spec<AppState>> {
    let secs = Duration::from_secs;
    vec![
        Spec::new(
            outgoing::scheduler::SEND,
            secs(1),
            outgoing::scheduler::pass,
        ),
        Spec::new(
            outgoing::scheduler::SWEEP,
            secs(3600),
            outgoing::scheduler::sweep_uploads,
        ),
        Spec::new(auth::sessions::SWEEP, secs(3600), auth::sessions::sweep_job),
        Spec::new(
            "mail-inbox-poll",
            secs(config.mail.inbox_poll_secs),
            SyncManager::inbox_poll_job,
        ),
        Spec::new(
            "mail-full-pass",
            secs(config.mail.poll_interval_secs),
            SyncManager::full_pass_job,
        ),
        Spec::new(rules::runner::JOB, rules::runner::TICK, rules::runner::run),
        Spec::new(
            tasks::reminders::JOB,
            tasks::reminders::TICK,
            tasks::reminders::run,
        ),
        Spec::new(
            autoreply::monitor::JOB,
            autoreply::monitor::TICK,
            autoreply::monitor::run,
        ),
        Spec::new(spam::learn::JOB, spam::learn::TICK, spam::learn::run),
    ]
}

/// Starts the scheduler with every job (the change-log readers placed and the outbox's sends
/// cut by a restart released first).
pub async fn start_jobs(state: &AppState) -> anyhow::Result<()> {
    autoreply::monitor::join(&state.store)?;
    rules::runner::join(&state.store)?;
    outgoing::scheduler::resume(state).await;
    outgoing::scheduler::forward_wakes(state);
    state.jobs().start(state).await
}

/// Starts the background work: the scheduler, the indexer, the change feed and a sync task per
/// saved account. Returns how many accounts sync.
pub async fn start_background(state: &AppState) -> anyhow::Result<usize> {
    start_jobs(state).await?;
    let search = state.service::<Search>();
    in_background(|| search.spawn_indexer(INDEX_POLL));
    state.changes.spawn(FEED_POLL);
    state.service::<SyncManager>().start_all()
}

/// Runs `f` on a thread of lower CPU priority, so the threads it starts (the search index's
/// writer and indexer) run below the sync, the pages and the search queries: on a two-core
/// home server the mailbox comes first and the index catches up (Linux keeps a nice value per
/// thread, and a new thread inherits its creator's).
fn in_background<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        s.spawn(|| {
            lower_priority();
            f()
        })
        .join()
        .expect("background start")
    })
}

#[cfg(target_os = "linux")]
fn lower_priority() {
    /// Below the default of 0, well above idle (19): the index still keeps up with new mail.
    const NICE: libc::c_int = 10;
    // SAFETY: setpriority only reads its arguments; `who` 0 is the calling thread on Linux.
    let r = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, NICE) };
    if r != 0 {
        tracing::debug!(
            "cannot lower the indexer's priority: {}",
            std::io::Error::last_os_error()
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

/// The wire contract as TypeScript: every feature's types (`web/src/api/generated.ts`).
pub fn typescript() -> String {
    let cfg = crate::wire::config();
    let mut parts: Vec<String> = Vec::new();
    for list in [
        crate::http::wire_types(&cfg),
        crate::auth::wire_types(&cfg),
        crate::accounts::wire_types(&cfg),
        crate::oauth::wire_types(&cfg),
        crate::emails::wire_types(&cfg),
        crate::outgoing::wire_types(&cfg),
        crate::templates::wire_types(&cfg),
        crate::ai::wire_types(&cfg),
        crate::smart::wire_types(&cfg),
        crate::search::wire_types(&cfg),
        crate::settings::wire_types(&cfg),
        crate::backup::wire_types(&cfg),
        crate::household::wire_types(&cfg),
        crate::autoreply::wire_types(&cfg),
        crate::contacts::wire_types(&cfg),
        crate::tasks::wire_types(&cfg),
        crate::rules::wire_types(&cfg),
        crate::builder::wire_types(&cfg),
        crate::spam::wire_types(&cfg),
    ] {
        parts.extend(list);
    }
    format!("{}{}", crate::wire::HEADER, parts.join("\n"))
}

pub fn app(state: AppState) -> Router {
    use axum::middleware::{from_fn, from_fn_with_state};
    let timeout = Duration::from_secs(state.config.server.request_timeout_secs);
    Router::new()
        .merge(http::router())
        .merge(auth::router())
        .merge(accounts::router())
        .merge(oauth::router())
        .merge(emails::router())
        .merge(outgoing::router())
        .merge(templates::router())
        .merge(ai::router())
        .merge(smart::router())
        .merge(search::router())
        .merge(settings::router())
        .merge(backup::router())
        .merge(household::router())
        .merge(autoreply::router())
        .merge(contacts::router())
        .merge(tasks::router())
        .merge(rules::router())
        .merge(spam::router())
        .merge(builder::router())
        .fallback(http::assets::fallback)
        .layer(from_fn_with_state(state.clone(), auth::limits::per_user))
        .layer(from_fn_with_state(timeout, http::timeout::limit))
        // Added after the timeout: the live channel is long-lived.
        .merge(live::router())
        .layer(from_fn(http::headers::security_headers))
        .layer(http::headers::hsts(state.config.tls_files().is_some()))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}
