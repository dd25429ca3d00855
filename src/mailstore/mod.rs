//! The mail store: the only code that opens the mail tables. The sync engine, the importer and
//! the features read and change stored mail through this API, and follow its change log.
//!
//! - `MailRead`: a read snapshot (folders, records, raw bytes, index rows, queued changes).
//! - `MailWrite`: changes inside a caller's write transaction, each logged with a `Reason`.
//! - `changes`: the change log, its durable cursors, and the in-process `ChangeFeed`.
//!
//! Per message: a JSON `MessageMeta` (what the list shows), its raw bytes (the reading pane
//! parses them on demand, and a restart never refetches them), its place in its folder by UID
//! and by date (`IndexRow`), and its thread key. Every reader checks that the account belongs
//! to the signed-in user first: the store itself knows accounts, not users.

pub mod changes;
mod index;
mod insert;
pub mod keywords;
mod model;
mod raw;
mod read;
mod tables;
mod write;

pub use changes::{Change, ChangeFeed, Kind, Reason};
pub use index::{IndexRow, IndexView, flags, thread_hash};
pub use insert::Inserter;
pub use model::{
    Carried, Fetched, FolderState, MessageMeta, PendingFlags, ServerFlags, hidden_key,
    role_by_name, roles,
};
pub use read::{MailRead, Row, Rows};
pub use tables::{
    create_legacy_search_queue, create_tables, migrate_to_change_log, migrate_to_compressed_raw,
    migrate_to_index,
};
pub use write::MailWrite;

/// Runs `f` over the mail tables in one write transaction on the blocking pool and commits.
pub async fn write<T: Send + 'static>(
    store: &crate::store::Store,
    reason: Reason,
    f: impl FnOnce(MailWrite) -> anyhow::Result<T> + Send + 'static,
) -> anyhow::Result<T> {
    store.write(move |txn| f(MailWrite::new(txn, reason))).await
}

/// Forgets everything stored for a mail account (its step in forgetting an account).
pub fn forget_account(txn: &redb::WriteTransaction, account: u64) -> anyhow::Result<()> {
    MailWrite::new(txn, Reason::Forget).clear_account(account)
}
