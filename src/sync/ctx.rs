//! The context toolbox of one account's sync task: who it syncs for, the store, the shared
//! settings, the status the settings page shows, and the counters of what it fetched. The
//! pieces of the task (`session`, `roles`, `push`, `folder`, `pipeline`) take it by reference.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::Notify;

use super::{SyncEvent, SyncShared};
use crate::mailstore::{self as mstore, FolderState, MailRead, MailWrite, Reason};
use crate::state::SyncStatus;
use crate::store::Store;

/// What one account's sync task works with.
pub struct Ctx {
    pub account_id: u64,
    pub user_id: u64,
    pub store: Store,
    pub shared: Arc<SyncShared>,
    pub status: Arc<std::sync::Mutex<SyncStatus>>,
    pub fetched_messages: Arc<AtomicU64>,
    pub fetched_bytes: Arc<AtomicU64>,
    pub fetch_counts: Arc<FetchCounters>,
    /// The scheduler's INBOX poll (`SyncManager::poll_inboxes`): heard only by a task whose
    /// server has no IDLE.
    pub inbox_poll: Arc<Notify>,
}

/// The FETCH commands an account's task sent since it started: what a sync costs in round
/// trips, whatever the number of messages (tests check that sparse UIDs are not walked).
#[derive(Debug, Default)]
pub struct FetchCounters {
    /// Every UID FETCH: bodies, sizes, flags.
    pub commands: AtomicU64,
    /// Body FETCHes only (each one chunk of mail).
    pub bodies: AtomicU64,
}

/// A snapshot of `FetchCounters`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FetchCounts {
    pub commands: u64,
    pub bodies: u64,
}

impl FetchCounters {
    /// The counts so far.
    pub fn snapshot(&self) -> FetchCounts {
        FetchCounts {
            commands: self.commands.load(Ordering::Relaxed),
            bodies: self.bodies.load(Ordering::Relaxed),
        }
    }
}

impl Ctx {
    /// How long one IMAP exchange may take (`[mail] timeout_secs`).
    pub fn limit(&self) -> Duration {
        self.shared.timeout
    }

    /// One UID FETCH sent; `body` when it fetches whole messages.
    pub fn count_fetch_command(&self, body: bool) {
        self.fetch_counts.commands.fetch_add(1, Ordering::Relaxed);
        if body {
            self.fetch_counts.bodies.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// One message fetched, `bytes` long (the status shows the totals).
    pub fn count_fetched(&self, bytes: usize) {
        self.fetched_messages.fetch_add(1, Ordering::Relaxed);
        self.fetched_bytes
            .fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// Runs `f` in a write transaction on the blocking pool and commits.
    /// Changes stored mail in one transaction (logged as the mailbox's).
    pub async fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(MailWrite) -> anyhow::Result<T> + Send + 'static,
    ) -> anyhow::Result<T> {
        mstore::write(&self.store, Reason::Sync, f).await
    }

    /// Reads stored mail on the blocking pool.
    pub async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(MailRead) -> anyhow::Result<T> + Send + 'static,
    ) -> anyhow::Result<T> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || f(MailRead::new(&store)?)).await?
    }

    /// Saves a folder's sync state in its own transaction. A folder the store forgot while it
    /// was synced (deleted or renamed, here or by another client) is not brought back: LIST
    /// saved every folder before its sync, so one without a record is gone.
    pub async fn save_folder(&self, state: &FolderState) -> anyhow::Result<()> {
        let account = self.account_id;
        let state = state.clone();
        self.write(move |w| {
            if w.folder(account, &state.name)?.is_some() {
                w.save_folder(account, &state)?;
            }
            Ok(())
        })
        .await
    }

    /// Notes whether the folder's server takes keywords: the status lists the folders whose
    /// statuses stay here only (the settings page tells the user), and hears when that changes.
    pub(super) fn note_keywords(&self, folder: &FolderState) {
        let name = if folder.display_name.is_empty() {
            &folder.name
        } else {
            &folder.display_name
        };
        let changed = {
            let mut s = self.status.lock().expect("status");
            let list = &mut s.local_status_folders;
            let listed = list.iter().any(|n| n == name);
            if !folder.keywords_ok && !listed {
                list.push(name.clone());
                list.sort();
            } else if folder.keywords_ok && listed {
                list.retain(|n| n != name);
            }
            listed == folder.keywords_ok
        };
        if changed {
            self.status_changed();
        }
    }

    pub(super) fn set_state(&self, state: &str) {
        let changed = {
            let mut s = self.status.lock().expect("status");
            let changed = s.state != state;
            s.state = state.into();
            s.fetched_messages = self.fetched_messages.load(Ordering::Relaxed);
            s.fetched_bytes = self.fetched_bytes.load(Ordering::Relaxed);
            changed
        };
        if changed {
            self.status_changed();
        }
    }

    /// Records a failure in the status (state "error", the message, its kind, when the next
    /// attempt is due) and tells the live channel; the user hears it once per distinct
    /// failure, not on every retry: `told(status, message, kind)` says whether the status
    /// already tells this one.
    pub(super) fn report_failure(
        &self,
        kind: Option<String>,
        message: String,
        next_retry_at: Option<i64>,
        told: impl FnOnce(&SyncStatus, &str, Option<&str>) -> bool,
    ) {
        let first = {
            let mut s = self.status.lock().expect("status");
            let first = !told(&s, &message, kind.as_deref());
            s.state = "error".into();
            s.error = Some(message.clone());
            s.error_kind = kind.clone();
            s.next_retry_at = next_retry_at;
            first
        };
        self.status_changed();
        if first {
            let _ = self.shared.events.send(SyncEvent::Failed {
                user_id: self.user_id,
                account_id: self.account_id,
                kind,
                message,
            });
        }
    }

    /// Tells the live channel that `status` changed (the settings page shows it).
    pub(super) fn status_changed(&self) {
        let _ = self.shared.events.send(SyncEvent::Status {
            user_id: self.user_id,
            account_id: self.account_id,
        });
    }
}
