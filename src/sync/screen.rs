//! What the sync asks before it stores new mail: spam detection (a feature above the sync)
//! registers a [`Screen`] when the application is built, and the sync stores each new mail of
//! an inbox with its verdict in the same transaction, so no listing ever shows it unjudged.

use std::sync::Arc;

use mail_parser::Message;
use redb::WriteTransaction;

use crate::mail::parse::Summary;
use crate::mailstore::{Detection, MessageMeta};
use crate::store::Store;

/// The new mail of one batch, for one account's folder.
pub struct Batch<'a> {
    pub account: u64,
    pub user_id: u64,
    /// The folder's role (inbox, junk, …; "" for the user's own folders).
    pub role: &'a str,
    /// The account's first sync is still running: its history is scored, never moved.
    pub first_sync: bool,
}

pub trait Screen: Send + Sync {
    /// The judge of a batch, or None when detection does not look at this folder or user.
    fn judge_for(&self, store: &Store, batch: &Batch<'_>) -> Option<Arc<dyn Judge>>;
}

pub trait Judge: Send + Sync {
    /// One new mail's verdict (called on the parse threads, before the write transaction,
    /// with the message its summary was parsed from; None when it did not parse as mail).
    fn judge(&self, msg: Option<&Message<'_>>, raw: &[u8], summary: &Summary) -> Option<Detection>;
    /// The stored mail with its verdicts, inside the batch's write transaction (the
    /// feature's own records: its activity list).
    fn stored(&self, txn: &WriteTransaction, stored: &[MessageMeta]) -> anyhow::Result<()>;
    /// After the commit (notifications).
    fn committed(&self, stored: &[MessageMeta]);
}
