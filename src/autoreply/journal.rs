//! The monitor's own tables: the mail waiting for a decision, and the decisions. A mail is
//! decided once (its key: the account and its Message-ID); the last decisions are the card's
//! activity list and the day's counts (the daily maximum, no-repeat) survive a restart.

use std::collections::HashSet;

use redb::{ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::rules::{Day, Reason};
use crate::error::Result;
use crate::store::{Store, next_id, record};

/// (user, stored message id) → [`Pending`].
const PENDING: TableDefinition<(u64, u64), &[u8]> = TableDefinition::new("auto_reply_pending");
/// (user, sequence) → [`Decision`].
const DECISIONS: TableDefinition<(u64, u64), &[u8]> = TableDefinition::new("auto_reply_decisions");
/// (user, mail key) → when it was decided (Unix seconds).
const DECIDED: TableDefinition<(u64, &str), i64> = TableDefinition::new("auto_reply_decided");
const COUNTER: &str = "auto_reply_decisions";

/// Decisions kept per user (the activity list shows the last 100), and how long a decided
/// mail's key is remembered.
const KEEP_DECISIONS: usize = 1000;
const KEEP_DECIDED_SECS: i64 = 30 * 86_400;
/// The most mail waiting per user: beyond it the oldest waiting mail is dropped (a flood
/// must not grow the table without end).
pub const MAX_PENDING: usize = 5000;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Pending {
    /// When the monitor saw it arrive (Unix seconds).
    pub arrived: i64,
    /// Failed tries (the provider or the mailbox).
    #[serde(default)]
    pub attempts: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Decision {
    pub seq: u64,
    /// Unix seconds.
    pub at: i64,
    pub message: u64,
    pub key: String,
    pub from: String,
    pub from_name: String,
    pub subject: String,
    pub reason: Reason,
    /// The failure, for `Failed`.
    #[serde(default)]
    pub detail: Option<String>,
    pub thread: String,
    /// The draft's Message-ID, for `Answered`.
    #[serde(default)]
    pub draft: Option<String>,
    /// The draft goes to this Reply-To, whose domain is not the sender's: a stranger may have
    /// written someone else's address there (flagged in the activity).
    #[serde(default)]
    pub reply_to_elsewhere: Option<String>,
}

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(PENDING)?;
    txn.open_table(DECISIONS)?;
    txn.open_table(DECIDED)?;
    Ok(())
}

pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    txn.open_table(PENDING)?
        .retain_in((user_id, 0)..=(user_id, u64::MAX), |_, _| false)?;
    txn.open_table(DECISIONS)?
        .retain_in((user_id, 0)..=(user_id, u64::MAX), |_, _| false)?;
    let keys: Vec<String> = {
        let t = txn.open_table(DECIDED)?;
        t.range((user_id, "")..)?
            .map_while(|e| e.ok())
            .take_while(|(k, _)| k.value().0 == user_id)
            .map(|(k, _)| k.value().1.to_string())
            .collect()
    };
    let mut t = txn.open_table(DECIDED)?;
    for k in keys {
        t.remove((user_id, k.as_str()))?;
    }
    Ok(())
}

/// Adds mail to wait for the user's next check (mail already waiting stays as it is).
pub fn queue(store: &Store, items: &[(u64, u64, i64)]) -> Result<()> {
    if items.is_empty() {
        return Ok(());
    }
    let txn = store.begin_write()?;
    {
        let mut t = txn.open_table(PENDING)?;
        for (user, message, arrived) in items {
            if t.get((*user, *message))?.is_none() {
                let p = Pending {
                    arrived: *arrived,
                    attempts: 0,
                };
                t.insert((*user, *message), record::encode(&p).as_slice())?;
            }
        }
        // Bounded per user: the oldest waiting mail goes first.
        let users: HashSet<u64> = items.iter().map(|(u, _, _)| *u).collect();
        for user in users {
            let n = t.range((user, 0)..=(user, u64::MAX))?.count();
            if n > MAX_PENDING {
                let drop: Vec<u64> = t
                    .range((user, 0)..=(user, u64::MAX))?
                    .take(n - MAX_PENDING)
                    .filter_map(|e| e.ok().map(|(k, _)| k.value().1))
                    .collect();
                for m in drop {
                    t.remove((user, m))?;
                }
            }
        }
    }
    txn.commit()?;
    Ok(())
}

/// The user's waiting mail, oldest first.
pub fn pending(store: &Store, user_id: u64) -> Result<Vec<(u64, Pending)>> {
    let txn = store.db().begin_read()?;
    let t = txn.open_table(PENDING)?;
    let mut out = Vec::new();
    for e in t.range((user_id, 0)..=(user_id, u64::MAX))? {
        let (k, v) = e?;
        out.push((k.value().1, record::decode(v.value())?));
    }
    Ok(out)
}

/// Drops the user's waiting mail (auto-reply turned off: what came meanwhile is not answered
/// when it is turned on again).
pub fn drop_pending(store: &Store, user_id: u64) -> Result<()> {
    let txn = store.begin_write()?;
    txn.open_table(PENDING)?
        .retain_in((user_id, 0)..=(user_id, u64::MAX), |_, _| false)?;
    txn.commit()?;
    Ok(())
}

/// Drops one waiting mail (decided already under its key).
pub fn drop_one(store: &Store, user_id: u64, message: u64) -> Result<()> {
    let txn = store.begin_write()?;
    txn.open_table(PENDING)?.remove((user_id, message))?;
    txn.commit()?;
    Ok(())
}

/// A failed try: the mail waits for the next check.
pub fn failed_try(store: &Store, user_id: u64, message: u64) -> Result<()> {
    let txn = store.begin_write()?;
    {
        let mut t = txn.open_table(PENDING)?;
        let p = t
            .get((user_id, message))?
            .map(|v| record::decode::<Pending>(v.value()))
            .transpose()?;
        if let Some(mut p) = p {
            p.attempts += 1;
            t.insert((user_id, message), record::encode(&p).as_slice())?;
        }
    }
    txn.commit()?;
    Ok(())
}

/// Whether the mail with this key was decided already.
pub fn decided(store: &Store, user_id: u64, key: &str) -> Result<bool> {
    let txn = store.db().begin_read()?;
    Ok(txn.open_table(DECIDED)?.get((user_id, key))?.is_some())
}

/// Records a decision: the mail stops waiting, its key is remembered, the decision joins the
/// list (the oldest beyond the kept number leave it). One transaction.
pub fn record_decision(store: &Store, user_id: u64, mut d: Decision) -> Result<Decision> {
    let txn = store.begin_write()?;
    {
        d.seq = next_id(&txn, COUNTER)?;
        txn.open_table(PENDING)?.remove((user_id, d.message))?;
        let mut decided = txn.open_table(DECIDED)?;
        decided.insert((user_id, d.key.as_str()), d.at)?;
        let stale: Vec<String> = decided
            .range((user_id, "")..)?
            .map_while(|e| e.ok())
            .take_while(|(k, _)| k.value().0 == user_id)
            .filter(|(_, v)| v.value() < d.at - KEEP_DECIDED_SECS)
            .map(|(k, _)| k.value().1.to_string())
            .collect();
        for k in stale {
            decided.remove((user_id, k.as_str()))?;
        }
        let mut t = txn.open_table(DECISIONS)?;
        t.insert((user_id, d.seq), record::encode(&d).as_slice())?;
        let n = t.range((user_id, 0)..=(user_id, u64::MAX))?.count();
        if n > KEEP_DECISIONS {
            let old: Vec<u64> = t
                .range((user_id, 0)..=(user_id, u64::MAX))?
                .take(n - KEEP_DECISIONS)
                .filter_map(|e| e.ok().map(|(k, _)| k.value().1))
                .collect();
            for s in old {
                t.remove((user_id, s))?;
            }
        }
    }
    txn.commit()?;
    Ok(d)
}

/// The last `limit` decisions, newest first.
pub fn recent(store: &Store, user_id: u64, limit: usize) -> Result<Vec<Decision>> {
    let txn = store.db().begin_read()?;
    let t = txn.open_table(DECISIONS)?;
    let mut out = Vec::new();
    for e in t
        .range((user_id, 0)..=(user_id, u64::MAX))?
        .rev()
        .take(limit)
    {
        out.push(record::decode(e?.1.value())?);
    }
    Ok(out)
}

/// The user's day since `day_start` (Unix seconds): answers, their senders, and every thread
/// that ever got an auto-reply among the kept decisions.
pub fn day(store: &Store, user_id: u64, day_start: i64) -> Result<Day> {
    let mut day = Day::default();
    for d in recent(store, user_id, KEEP_DECISIONS)? {
        if d.reason != Reason::Answered {
            continue;
        }
        if !d.thread.is_empty() {
            day.threads.insert(d.thread.clone());
        }
        if d.at >= day_start {
            day.answered += 1;
            day.senders.insert(d.from.clone());
        }
    }
    Ok(day)
}
