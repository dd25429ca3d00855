//! The sync engine: one task per mail account, mirroring the mailbox into the store. The
//! manager starts a task for every saved account when `serve` starts, starts or restarts one
//! when a user connects a mailbox, and stops it (and forgets the account) on mailbox logout.
//! Events go out on a broadcast channel for the live-update channel to forward.
//!
//! The steps of one account, each in its file:
//! - `roles.rs`: LIST, each folder's role from SPECIAL-USE (or its common name on a server
//!   without SPECIAL-USE); INBOX first.
//! - `gone.rs`: a folder LIST no longer shows (deleted or renamed by another client) goes from
//!   the store with its mail and index entries, through the store's change log; a rename (the
//!   same UIDVALIDITY under a new name) keeps the mail and is followed by the rules; the user's
//!   sessions hear `folders_changed`. A listing without INBOX forgets nothing; a folder forgotten
//!   while its own pass runs is not saved back (`Ctx::save_folder`, the batch writes).
//! - `folder.rs` (planned in `plan.rs`, its FETCH commands in `fetches.rs`): a folder's
//!   `FolderState` (uidvalidity, top, down_to, highest_modseq) is committed with each batch of
//!   its mail, so a crash resumes at `down_to`.
//!   UIDs are listed, never walked: ESEARCH `UID SEARCH RETURN (ALL)` (read off the raw stream in
//!   `mail/imap.rs`) or a plain `UID SEARCH`, so a sparse Gmail-like folder costs a few commands.
//!   The listing is sized window by window (`UID FETCH lo:hi (UID RFC822.SIZE)`, `SIZE_WINDOW`
//!   UIDs; the walk's first window is the first page, `FIRST_CHUNK`; a fresh folder whose UIDs
//!   need listing has its newest `FIRST_CHUNK` asked by sequence number and fetched before the
//!   listing, so the first page waits for no `UID SEARCH`) and cut into body FETCHes of
//!   at most `CHUNK_MESSAGES` messages and `CHUNK_BYTES` (a bigger message goes alone): newest
//!   first for the initial sync, oldest first for new mail. A walk of more than `BULK_WALK` is a
//!   bulk load (`Store::bulk_load`): the search index waits for it, and its end hands the freed
//!   heap back to the kernel.
//! - `copies.rs`: in a Gmail-shaped mailbox (a `\All` folder) each window's copies are known
//!   by identity first (`X-GM-MSGID`, else Message-ID and size); a copy of stored mail becomes
//!   one of its places (`mailstore::places`) and is never downloaded. With X-GM-EXT-1 the
//!   mail's `X-GM-LABELS` come with its ids and, later, with its flags (`ServerFlags::labels`).
//! - `list_status.rs`: which folders changed since the last pass, from the LIST (LIST-STATUS)
//!   or from STATUS commands sent together (CONDSTORE without LIST-STATUS); only those are
//!   selected. A pass whose LIST asks the STATUS syncs INBOX (its SELECT, the one IDLE needs)
//!   before the LIST: Dovecot answers the selected folder's STATUS from the open folder instead
//!   of opening a big INBOX again (`session.rs`).
//! - `qresync.rs`: where the server offers QRESYNC (RFC 7162, Dovecot does), it is enabled once
//!   per session and a folder synced before is resynchronised in its SELECT
//!   (`QRESYNC (uidvalidity modseq)`): flag changes and expunges (`VANISHED (EARLIER)`) come in
//!   its answer, so an unchanged folder costs one round trip and no `UID SEARCH ALL` lists a
//!   folder for its expunges. A `VANISHED` during IDLE or a NOOP re-syncs INBOX the same way.
//!   Without QRESYNC, CONDSTORE's `CHANGEDSINCE`; without either, every flag.
//! - `pipeline.rs`: each chunk is parsed (and judged by the spam screen) on every core as soon as
//!   it has arrived, while the chunk before is written; the writes keep the walk's order.
//! - `session.rs`: then IDLE on INBOX (renewed every 25 minutes); a server without IDLE has INBOX
//!   synced by the scheduler's `mail-inbox-poll`; every folder on `mail-full-pass` or at once on
//!   a wake (a refresh, a local change).
//! - `retry.rs`: after a session ends, how long to wait and what the status says: a throttled
//!   mailbox (`NO [THROTTLED]`) waits longer, a connection the server cut (`BYE`) reconnects
//!   without an error shown.
//! - `push.rs`: local changes (flags, keywords, moves, queued in the mail store's pending table)
//!   win over the server's flags until they are stored there.
//!
//! `RUST_LOG=mailclient::sync=debug` logs per folder the seconds spent waiting for the server and
//! for the store; `SyncManager::fetch_counts` is the task's FETCH count (the tests assert on it).

mod copies;
pub mod ctx;
mod fetches;
pub mod folder;
pub mod gone;
pub mod idle;
pub mod list_status;
pub mod local;
pub mod pipeline;
pub mod plan;
pub mod push;
pub mod qresync;
pub mod retry;
pub mod roles;
pub mod screen;
pub mod session;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Notify, broadcast};
use tokio::task::JoinHandle;

use crate::accounts::{self, AccountRecord};
use crate::config::Config;
use crate::crypto::ServerKey;
use crate::feature::{Feature, Setup, need};
use crate::forget::{self, Step};
use crate::hooks::{FolderFollower, Screen};
use crate::jobs::Spec;
use crate::mail::hosts::HostPolicy;
use crate::mail::tls::TlsContext;
use crate::state::{AppState, Mailboxes, SyncStatus};
use crate::store::Store;
pub use ctx::FetchCounts;
use ctx::{Ctx, FetchCounters};

/// The sync engine: a task per account (started by `serve`), the scheduler's polls, the tasks
/// stopped before an account is forgotten, and the mail it stored forgotten with the account
/// (the mail store sits below every feature: the sync that fills it declares its step).
pub static FEATURE: Feature = Feature {
    forget: &[Step {
        name: "stored mail",
        account: crate::mailstore::forget_account,
        user: forget::nothing,
    }],
    jobs,
    init,
    prepare: |state| {
        let _ = state
            .service::<SyncManager>()
            .shared
            .followers
            .set(state.hooks.folders.clone());
        Ok(())
    },
    start: |state| {
        let accounts = state.service::<SyncManager>().start_all()?;
        if accounts > 0 {
            tracing::info!(accounts, "syncing mail accounts");
        }
        Ok(())
    },
    needs: &[need::<SyncManager>],
    ..Feature::named("sync")
};

/// The manager, signing in through OAuth and asking spam detection about new mail (both set
/// up before it).
fn init(setup: &mut Setup<'_>) -> anyhow::Result<()> {
    let (events, _) = broadcast::channel(1024);
    let shared = SyncShared {
        key: setup.key.clone(),
        tls: setup.tls.clone(),
        timeout: Duration::from_secs(setup.config.mail.timeout_secs),
        hosts: setup.hosts.clone(),
        max_backoff: Duration::from_secs(300),
        throttle_backoff: Duration::from_secs(setup.config.mail.throttle_backoff_secs),
        events,
        screen: setup.need::<dyn Screen>()?,
        oauth: setup.need::<crate::oauth::OAuth>()?,
        notices: setup.need::<crate::notices::Notices>()?,
        followers: std::sync::OnceLock::new(),
    };
    let sync = Arc::new(SyncManager::new(setup.store.clone(), shared));
    setup.on_forget(sync.clone());
    setup.provide::<dyn Mailboxes>(sync.clone())?;
    setup.provide(sync)
}

fn jobs(config: &Config) -> Vec<Spec<AppState>> {
    let secs = Duration::from_secs;
    vec![
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
    ]
}

#[derive(Debug, Clone, PartialEq)]
pub enum SyncEvent {
    /// Mail being written changed: `reason` is outbox or drafts (changes to stored mail reach
    /// the live channel through the mail store's change log instead).
    Changed {
        user_id: u64,
        account_id: u64,
        reason: crate::state::MailChange,
    },
    /// A sync pass failed; `kind` is the mail error kind (auth, unreachable, …) when known.
    Failed {
        user_id: u64,
        account_id: u64,
        kind: Option<String>,
        message: String,
    },
    /// A full pass finished.
    Synced { user_id: u64, account_id: u64 },
    /// The account's status changed (connecting, syncing, idle, error): `status` has it.
    Status { user_id: u64, account_id: u64 },
}

/// What every account task shares.
pub struct SyncShared {
    pub key: ServerKey,
    pub tls: TlsContext,
    pub timeout: Duration,
    /// Where mail connections may go (`[mail] allowed_hosts`, `deny_private_ranges`).
    pub hosts: HostPolicy,
    pub max_backoff: Duration,
    /// The first wait of a throttled mailbox (`[mail] throttle_backoff_secs`).
    pub throttle_backoff: Duration,
    pub events: broadcast::Sender<SyncEvent>,
    /// Spam detection's look at new mail before it is stored.
    pub screen: Arc<dyn Screen>,
    /// Signing in: passwords, or OAuth access tokens kept fresh.
    pub oauth: Arc<crate::oauth::OAuth>,
    /// The user's sessions told when the folders change shape on the server.
    pub notices: Arc<crate::notices::Notices>,
    /// Who follows a folder renamed on the server (the rules, set up after the sync: set by
    /// `prepare`, before any sync runs).
    pub followers: std::sync::OnceLock<Arc<dyn FolderFollower>>,
}

struct Running {
    task: JoinHandle<()>,
    wake: Arc<Notify>,
    inbox_poll: Arc<Notify>,
    status: Arc<Mutex<SyncStatus>>,
    fetched_messages: Arc<AtomicU64>,
    fetched_bytes: Arc<AtomicU64>,
    fetch_counts: Arc<FetchCounters>,
}

pub struct SyncManager {
    store: Store,
    shared: Arc<SyncShared>,
    running: Mutex<HashMap<u64, Running>>,
}

impl SyncManager {
    pub fn new(store: Store, shared: SyncShared) -> Self {
        Self {
            store,
            shared: Arc::new(shared),
            running: Mutex::new(HashMap::new()),
        }
    }

    pub fn shared(&self) -> &SyncShared {
        &self.shared
    }

    pub fn subscribe(&self) -> broadcast::Receiver<SyncEvent> {
        self.shared.events.subscribe()
    }

    /// Tells live sessions about a change made through the API.
    pub fn notify(&self, event: SyncEvent) {
        let _ = self.shared.events.send(event);
    }

    /// Starts a task for every saved account (at `serve` start).
    pub fn start_all(&self) -> anyhow::Result<usize> {
        let all = accounts::list_all(&self.store).map_err(|e| anyhow::anyhow!("{e}"))?;
        let n = all.len();
        for account in all {
            self.start(account);
        }
        Ok(n)
    }

    /// Starts (or restarts, with new settings) the task of `account`.
    pub fn start(&self, account: AccountRecord) {
        let mut running = self.running.lock().expect("sync registry");
        let previous_status = running.remove(&account.id).map(|r| {
            r.task.abort();
            r.status
        });
        let status = previous_status.unwrap_or_default();
        let wake = Arc::new(Notify::new());
        let inbox_poll = Arc::new(Notify::new());
        let fetched_messages = Arc::new(AtomicU64::new(0));
        let fetched_bytes = Arc::new(AtomicU64::new(0));
        let fetch_counts = Arc::new(FetchCounters::default());
        let ctx = Ctx {
            account_id: account.id,
            user_id: account.user_id,
            store: self.store.clone(),
            shared: self.shared.clone(),
            status: status.clone(),
            fetched_messages: fetched_messages.clone(),
            fetched_bytes: fetched_bytes.clone(),
            fetch_counts: fetch_counts.clone(),
            inbox_poll: inbox_poll.clone(),
        };
        let id = account.id;
        let task = if account.is_local() {
            tokio::spawn(local::run(ctx, wake.clone()))
        } else {
            tokio::spawn(session::run(ctx, account, wake.clone()))
        };
        running.insert(
            id,
            Running {
                task,
                wake,
                inbox_poll,
                status,
                fetched_messages,
                fetched_bytes,
                fetch_counts,
            },
        );
    }

    /// Stops the task of an account (mailbox logout, account removal).
    pub fn stop(&self, account_id: u64) {
        if let Some(r) = self
            .running
            .lock()
            .expect("sync registry")
            .remove(&account_id)
        {
            r.task.abort();
        }
    }

    /// Asks an account's task to sync now (a refresh, or local changes to push).
    pub fn wake(&self, account_id: u64) {
        if let Some(r) = self.running.lock().expect("sync registry").get(&account_id) {
            r.wake.notify_one();
        }
    }

    /// The scheduler's full pass: every account's task syncs every folder and pushes what
    /// waits (`[mail] poll_interval_secs`).
    pub fn wake_all(&self) {
        for r in self.running.lock().expect("sync registry").values() {
            r.wake.notify_one();
        }
    }

    /// The scheduler's INBOX poll (`[mail] inbox_poll_secs`): the tasks waiting without IDLE
    /// look at INBOX now; the others do not hear it (IDLE tells them).
    pub fn poll_inboxes(&self) {
        for r in self.running.lock().expect("sync registry").values() {
            r.inbox_poll.notify_waiters();
        }
    }

    pub fn status(&self, account_id: u64) -> Option<SyncStatus> {
        let running = self.running.lock().expect("sync registry");
        let r = running.get(&account_id)?;
        let mut s = r.status.lock().expect("status").clone();
        s.fetched_messages = r.fetched_messages.load(Ordering::Relaxed);
        s.fetched_bytes = r.fetched_bytes.load(Ordering::Relaxed);
        Some(s)
    }

    /// The FETCH commands the account's task sent since it (re)started.
    pub fn fetch_counts(&self, account_id: u64) -> Option<FetchCounts> {
        let running = self.running.lock().expect("sync registry");
        Some(running.get(&account_id)?.fetch_counts.snapshot())
    }

    /// The scheduler's job of the full pass.
    pub async fn full_pass_job(state: AppState) -> anyhow::Result<()> {
        state.service::<SyncManager>().wake_all();
        Ok(())
    }

    /// The scheduler's job of the INBOX poll.
    pub async fn inbox_poll_job(state: AppState) -> anyhow::Result<()> {
        state.service::<SyncManager>().poll_inboxes();
        Ok(())
    }

    pub fn stop_all(&self) {
        for (_, r) in self.running.lock().expect("sync registry").drain() {
            r.task.abort();
        }
    }
}

/// Before an account is forgotten its task stops (a batch in flight finds the account gone).
impl forget::Hooks for SyncManager {
    fn stopping(&self, accounts: &[u64]) {
        for id in accounts {
            self.stop(*id);
        }
    }
}

/// The rest of the application drives the sync engine by account id.
impl Mailboxes for SyncManager {
    fn start(&self, account: u64) {
        match accounts::get(&self.store, account) {
            Ok(Some(record)) => SyncManager::start(self, record),
            Ok(None) => {}
            Err(e) => tracing::error!(account, error = %e, "cannot start the account's sync"),
        }
    }
    fn stop(&self, account: u64) {
        SyncManager::stop(self, account)
    }
    fn wake(&self, account: u64) {
        SyncManager::wake(self, account)
    }
    fn status(&self, account: u64) -> Option<SyncStatus> {
        SyncManager::status(self, account)
    }
}
