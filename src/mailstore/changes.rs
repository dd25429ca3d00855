//! The change log: every change to stored mail (a message added, updated or removed) appends
//! an entry in the same redb transaction as the change, numbered from one counter. Readers
//! follow it instead of being called from inside the store: the search indexer (a durable
//! cursor, `search`), the live `/ws` events (the [`ChangeFeed`], in memory), and the features
//! that act on incoming mail after it. A crash anywhere leaves store and log consistent: an
//! entry exists exactly when its change was committed; a reader that died before recording its
//! cursor reads the entries again (handling one must be idempotent).
//!
//! Entries are dropped once every reader has passed them: the durable cursors in
//! `mail_change_cursors` and the feed's in-memory one.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use redb::{ReadableDatabase, ReadableTable, WriteTransaction};
use tokio::sync::broadcast;

use super::tables::{CHANGES, CURSORS};
use crate::store::{Store, next_id};

/// META counter of the log's sequence numbers.
pub(super) const COUNTER: &str = "mail_changes";
/// The search index's cursor.
pub const SEARCH: &str = "search";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Added,
    Updated,
    Removed,
}

/// Who made a change: the live events tell the user's sessions why their lists changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The mailbox: new mail, server flags, expunges, a folder reset.
    Sync,
    /// The user's \Seen / \Flagged change.
    Flags,
    /// The user's triage (status, priority, auto-archive).
    Status,
    /// The user deleted or trashed mail.
    Delete,
    /// Mail this client wrote (a sent copy, a draft), stored at once.
    Outgoing,
    /// `mailclient import`.
    Import,
    /// An account or user forgotten.
    Forget,
    /// Spam detection classified stored mail (a folder after the fact, the AI's review).
    Detection,
    /// The copy a move made here yields, stored by the sync: mail the user (or a feature)
    /// moved, not new mail ('not spam' back to the inbox, a snoozed mail woken).
    Moved,
}

impl Reason {
    const ALL: [Reason; 9] = [
        Reason::Sync,
        Reason::Flags,
        Reason::Status,
        Reason::Delete,
        Reason::Outgoing,
        Reason::Import,
        Reason::Forget,
        Reason::Detection,
        Reason::Moved,
    ];

    fn code(self) -> u8 {
        Self::ALL.iter().position(|r| *r == self).unwrap_or(0) as u8
    }

    fn of(code: u8) -> Self {
        Self::ALL
            .get(code as usize)
            .copied()
            .unwrap_or(Reason::Sync)
    }
}

/// One entry of the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub seq: u64,
    pub account: u64,
    pub message: u64,
    /// The folder the message is in (was in, when removed).
    pub folder: String,
    pub kind: Kind,
    pub reason: Reason,
}

impl Change {
    /// kind, reason, account, message, folder (UTF-8, the rest).
    pub(super) fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(18 + self.folder.len());
        out.push(match self.kind {
            Kind::Added => 0,
            Kind::Updated => 1,
            Kind::Removed => 2,
        });
        out.push(self.reason.code());
        out.extend_from_slice(&self.account.to_le_bytes());
        out.extend_from_slice(&self.message.to_le_bytes());
        out.extend_from_slice(self.folder.as_bytes());
        out
    }

    fn decode(seq: u64, b: &[u8]) -> Self {
        let num = |at: usize| {
            b.get(at..at + 8)
                .and_then(|s| s.try_into().ok())
                .map(u64::from_le_bytes)
                .unwrap_or(0)
        };
        Self {
            seq,
            kind: match b.first() {
                Some(0) => Kind::Added,
                Some(2) => Kind::Removed,
                _ => Kind::Updated,
            },
            reason: Reason::of(b.get(1).copied().unwrap_or(0)),
            account: num(2),
            message: num(10),
            folder: String::from_utf8_lossy(b.get(18..).unwrap_or_default()).into_owned(),
        }
    }
}

/// Appends one entry in the caller's transaction.
pub(super) fn append(
    txn: &WriteTransaction,
    account: u64,
    message: u64,
    folder: &str,
    kind: Kind,
    reason: Reason,
) -> Result<(), redb::Error> {
    let seq = next_id(txn, COUNTER)?;
    let change = Change {
        seq,
        account,
        message,
        folder: folder.to_string(),
        kind,
        reason,
    };
    txn.open_table(CHANGES)?
        .insert(seq, change.encode().as_slice())?;
    Ok(())
}

/// The highest sequence number handed out so far.
pub fn last_seq(store: &Store) -> anyhow::Result<u64> {
    crate::store::counter(store, COUNTER)
}

/// Up to `limit` entries after `seq`, oldest first.
pub fn after(store: &Store, seq: u64, limit: usize) -> anyhow::Result<Vec<Change>> {
    let txn = store.db().begin_read()?;
    let table = txn.open_table(CHANGES)?;
    let mut out = Vec::new();
    for e in table.range(seq.saturating_add(1)..)?.take(limit) {
        let (k, v) = e?;
        out.push(Change::decode(k.value(), v.value()));
    }
    Ok(out)
}

/// The last sequence number the durable reader `name` has handled (0: none).
pub fn cursor(store: &Store, name: &str) -> anyhow::Result<u64> {
    let txn = store.db().begin_read()?;
    Ok(txn
        .open_table(CURSORS)?
        .get(name)?
        .map(|v| v.value())
        .unwrap_or(0))
}

/// The cursor of the durable reader `name`; a reader seen for the first time starts at the end
/// of the log (a new reader is not told about the past).
pub fn join(store: &Store, name: &str) -> anyhow::Result<u64> {
    let known = {
        let txn = store.db().begin_read()?;
        txn.open_table(CURSORS)?.get(name)?.map(|v| v.value())
    };
    if let Some(seq) = known {
        return Ok(seq);
    }
    let last = last_seq(store)?;
    let txn = store.begin_write()?;
    let seq = {
        let mut t = txn.open_table(CURSORS)?;
        let existing = t.get(name)?.map(|v| v.value());
        match existing {
            Some(seq) => seq,
            None => {
                t.insert(name, last)?;
                last
            }
        }
    };
    txn.commit()?;
    Ok(seq)
}

/// Records that the durable reader `name` has handled everything up to `seq` (never moves a
/// cursor back).
pub fn ack(store: &Store, name: &str, seq: u64) -> anyhow::Result<()> {
    let txn = store.begin_write()?;
    {
        let mut t = txn.open_table(CURSORS)?;
        let current = t.get(name)?.map(|v| v.value()).unwrap_or(0);
        if seq > current {
            t.insert(name, seq)?;
        }
    }
    txn.commit()?;
    Ok(())
}

/// Drops the entries every durable reader has passed, and none after `keep_after` (the
/// in-memory readers' position). Returns how many went.
pub fn prune(store: &Store, keep_after: u64) -> anyhow::Result<u64> {
    let upto = {
        let txn = store.db().begin_read()?;
        let mut upto = keep_after;
        for e in txn.open_table(CURSORS)?.iter()? {
            upto = upto.min(e?.1.value());
        }
        let first = txn.open_table(CHANGES)?.first()?.map(|(k, _)| k.value());
        match first {
            Some(first) if first <= upto => upto,
            _ => return Ok(0),
        }
    };
    let txn = store.begin_write()?;
    let mut gone = 0;
    txn.open_table(CHANGES)?.retain_in(..=upto, |_, _| {
        gone += 1;
        false
    })?;
    txn.commit()?;
    Ok(gone)
}

/// How many entries one round of the feed reads at most.
const FEED_BATCH: usize = 5_000;
/// The feed drops passed entries at most this often (a write transaction each time).
const PRUNE_EVERY: Duration = Duration::from_secs(1);

/// The longest the feed sleeps between two looks at the log while nothing is written. Every
/// write through the store's transactions (`Store::begin_write`, `Store::write`) says it
/// committed, so this is a safety net only (a write made through redb directly: the offline
/// import, which runs without a server).
pub const IDLE_POLL: Duration = Duration::from_secs(30);

/// The log as a stream in this process: a task reads new entries and broadcasts them in
/// batches; the live channel subscribes. It starts at the end of the log (a new process has
/// no sessions to tell about older changes).
pub struct ChangeFeed {
    store: Store,
    tx: broadcast::Sender<Arc<Vec<Change>>>,
    cursor: AtomicU64,
}

impl ChangeFeed {
    pub fn new(store: Store) -> anyhow::Result<Arc<Self>> {
        let (tx, _) = broadcast::channel(256);
        let cursor = AtomicU64::new(last_seq(&store)?);
        Ok(Arc::new(Self { store, tx, cursor }))
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Vec<Change>>> {
        self.tx.subscribe()
    }

    /// Calls `f` on a task for every batch the feed broadcasts (`None` when this reader fell
    /// behind and missed some: treat it as "anything may have changed"), until the feed ends.
    pub fn on_batch(&self, f: impl Fn(Option<&[Change]>) + Send + 'static) {
        let mut feed = self.subscribe();
        tokio::spawn(async move {
            use tokio::sync::broadcast::error::RecvError;
            loop {
                match feed.recv().await {
                    Ok(batch) => f(Some(&batch)),
                    Err(RecvError::Lagged(_)) => f(None),
                    Err(RecvError::Closed) => return,
                }
            }
        });
    }

    /// Reads and broadcasts what is new. Returns whether a full batch was read (more may wait).
    pub fn step(&self) -> anyhow::Result<bool> {
        let from = self.cursor.load(Ordering::Relaxed);
        let batch = after(&self.store, from, FEED_BATCH)?;
        let Some(last) = batch.last().map(|c| c.seq) else {
            return Ok(false);
        };
        let full = batch.len() == FEED_BATCH;
        self.cursor.store(last, Ordering::Relaxed);
        let _ = self.tx.send(Arc::new(batch));
        Ok(full)
    }

    /// Follows the log: at once after a write said it committed ([`Store::committed`]),
    /// every `poll` while entries keep coming, and less and less often (up to [`IDLE_POLL`])
    /// while nothing does, so an idle server sleeps. Ends when the last handle to the feed is
    /// dropped.
    pub fn spawn(self: &Arc<Self>, poll: Duration) {
        let weak = Arc::downgrade(self);
        let store = self.store.clone();
        tokio::spawn(async move {
            let mut pruned = tokio::time::Instant::now();
            let mut wait = poll;
            loop {
                let Some(feed) = weak.upgrade() else { return };
                let prune_now = pruned.elapsed() >= PRUNE_EVERY;
                if prune_now {
                    pruned = tokio::time::Instant::now();
                }
                let more = tokio::task::spawn_blocking(move || {
                    let before = feed.cursor.load(Ordering::Relaxed);
                    let more = feed.step()?;
                    let found = feed.cursor.load(Ordering::Relaxed) != before;
                    if prune_now {
                        prune(&feed.store, feed.cursor.load(Ordering::Relaxed))?;
                    }
                    Ok::<_, anyhow::Error>((more, found))
                })
                .await;
                let (more, found) = match more {
                    Ok(Ok(step)) => step,
                    Ok(Err(e)) => {
                        tracing::error!(error = %format!("{e:#}"), "mail change feed failed; retrying");
                        (false, false)
                    }
                    Err(_) => (false, false),
                };
                if more {
                    continue;
                }
                wait = if found {
                    poll
                } else {
                    (wait * 2).min(IDLE_POLL.max(poll))
                };
                tokio::select! {
                    _ = tokio::time::sleep(wait) => {}
                    _ = store.next_commit() => wait = poll,
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_encode_and_decode() {
        for (kind, reason) in [
            (Kind::Added, Reason::Sync),
            (Kind::Updated, Reason::Status),
            (Kind::Removed, Reason::Forget),
        ] {
            let c = Change {
                seq: 7,
                account: 3,
                message: 1 << 40,
                folder: "טיוטות/INBOX".into(),
                kind,
                reason,
            };
            assert_eq!(Change::decode(7, &c.encode()), c);
        }
    }
}
