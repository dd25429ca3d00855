//! The index's to-do list, kept in the store: every change to a stored message (new, changed,
//! deleted) adds its id here in the same transaction as the change. The indexer works through
//! the list, commits the index with the last sequence number it covered, then drops those
//! entries; a crash anywhere in between leaves entries that are simply indexed again (indexing a
//! message is idempotent: delete by id, add the current state).

use redb::{ReadableTable, TableDefinition, WriteTransaction};

use crate::store::{META, next_id};

/// sequence number → message id.
pub const QUEUE: TableDefinition<u64, u64> = TableDefinition::new("search_queue");

/// META key: the last sequence number whose entries were dropped after an index commit. An
/// index whose own commit says less is older than the store (restored, copied): rebuilt.
pub const INDEXED_SEQ: &str = "search_indexed_seq";
/// META counter of [`QUEUE`] sequence numbers.
const COUNTER: &str = "search_queue";

pub fn create_table(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(QUEUE)?;
    Ok(())
}

/// Marks message `id` for (re)indexing, in the caller's transaction.
pub fn enqueue(txn: &WriteTransaction, id: u64) -> Result<(), redb::Error> {
    let seq = next_id(txn, COUNTER)?;
    txn.open_table(QUEUE)?.insert(seq, id)?;
    Ok(())
}

/// The highest sequence number handed out so far.
pub fn last_seq(meta: &impl ReadableTable<&'static str, u64>) -> Result<u64, redb::Error> {
    Ok(meta.get(COUNTER)?.map(|v| v.value()).unwrap_or(0))
}

pub fn indexed_seq(meta: &impl ReadableTable<&'static str, u64>) -> Result<u64, redb::Error> {
    Ok(meta.get(INDEXED_SEQ)?.map(|v| v.value()).unwrap_or(0))
}

/// Drops the entries up to `seq` (the index now covers them) and records it.
pub fn done_up_to(txn: &WriteTransaction, seq: u64) -> Result<(), redb::Error> {
    txn.open_table(QUEUE)?.retain_in(..=seq, |_, _| false)?;
    let mut meta = txn.open_table(META)?;
    if indexed_seq(&meta)? < seq {
        meta.insert(INDEXED_SEQ, seq)?;
    }
    Ok(())
}
