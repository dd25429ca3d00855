//! The mail store: the only code that opens the mail tables. The sync engine, the importer and
//! the features read and change stored mail through this API, and follow its change log.
//!
//! - `MailRead`: a read snapshot (folders, records, raw bytes, index rows, queued changes).
//! - `MailWrite`: changes inside a caller's write transaction, each logged with a `Reason`.
//! - `changes`: the change log, its durable cursors, and the in-process `ChangeFeed`.
//!
//! Per message: a JSON `MessageMeta` (what the list shows), its raw bytes (the reading pane
//! parses them on demand, and a restart never refetches them), its place in its folder by UID
//! and by date (`IndexRow`), and its thread key. A mail the server holds in several folders
//! (Gmail: INBOX, All Mail and each label) is one message whose other copies are its places
//! (`places.rs`): their UIDs map to the same id, a place in a label folder has an index row
//! there, and an expunge removes one place (the mail goes with its last). Every reader checks that the account belongs
//! to the signed-in user first: the store itself knows accounts, not users.
//!
//! Reading: `MailRead::new(&store)`; changing: `MailWrite::new(&txn, Reason::…)` inside the
//! caller's transaction. A new durable reader of the change log takes a cursor name, reads
//! `changes::after`, acks, and must handle an entry twice harmlessly; a feature acting on new
//! inbox mail uses `emails::arrivals` instead. The derived tables (`derived.rs`: counters, tags,
//! thread members and summaries, idle mail) arrived with schemas 8 and 14; a store from before
//! them gets them from `finish_build`, run by `schema::open_and_migrate` in committed steps, and
//! `mailclient migrate --rebuild-counters` rebuilds them on request.

pub mod changes;
mod derived;
#[cfg(test)]
mod derived_tests;
mod folders;
mod index;
mod insert;
pub mod keywords;
mod model;
mod places;
mod raw;
mod read;
mod tables;
mod uids;
mod write;

pub use changes::{Change, ChangeFeed, Kind, Reason};
pub use derived::{
    ThreadRec, build_step, create_derived_tables, create_idle_table, forget_derived, is_archivable,
    is_unread_status, signature_bits, tag_of_status, tags, tags_of,
};
pub use index::{IndexRow, IndexView, flags, thread_hash};
pub use insert::Inserter;
pub use model::{
    Carried, Detection, Fetched, FolderState, Identity, MessageMeta, PendingFlags, Place,
    ServerFlags, created_name, hidden_key, role_by_name, roles,
};
pub use raw::{Packed, pack};
pub use read::{Idle, IndexEntry, MailRead, Row, Rows, Tagged, TaggedRow};
pub use tables::{
    create_identities, create_legacy_search_queue, create_tables, migrate_to_change_log,
    migrate_to_compressed_raw, migrate_to_index,
};
pub use uids::create_uid_counts;
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

/// Messages added to the derived tables per transaction while an older store is brought up to
/// date: small enough that a transaction's dirty pages stay a few MB at any mailbox size.
const BUILD_STEP: usize = 2_000;

/// Finishes building the derived tables (counters, tags, thread members and summaries) of a
/// store migrated from before them, one committed step at a time: memory stays bounded, and a
/// kill at any point leaves a cursor the next start continues from.
pub fn finish_build(store: &crate::store::Store) -> anyhow::Result<()> {
    // For the kill -9 test: stop (and wait to be killed) after this many committed steps.
    let pause_after: Option<usize> = std::env::var("MAILSTORE_TEST_BUILD_PAUSE_AFTER")
        .ok()
        .and_then(|v| v.parse().ok());
    let (mut steps, mut added) = (0usize, 0usize);
    loop {
        let txn = store.begin_write()?;
        let Some(n) = build_step(&txn, BUILD_STEP)? else {
            break;
        };
        txn.commit()?;
        steps += 1;
        added += n;
        if steps % 50 == 0 {
            tracing::info!(
                messages = added,
                "building the mail counters and thread records"
            );
        }
        if pause_after == Some(steps) {
            eprintln!("build paused after {steps} steps");
            loop {
                std::thread::sleep(std::time::Duration::from_secs(60));
            }
        }
    }
    if added > 0 {
        tracing::info!(messages = added, "mail counters and thread records built");
    }
    Ok(())
}
