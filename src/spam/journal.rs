//! The activity list (`logActivity`: each decision detection made, newest first, the last
//! [`KEEP`] per user) and the mail waiting for the AI's review (`useAI`).

use redb::{ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::engine::Verdict;
use crate::mailstore::MessageMeta;
use crate::store::{Store, record};

/// (user, sequence) → [`Decision`] (JSON).
const ACTIVITY: TableDefinition<(u64, u64), &[u8]> = TableDefinition::new("spam_activity");
/// (user, message id) → when it was queued: suspicious mail for the AI.
const REVIEW: TableDefinition<(u64, u64), i64> = TableDefinition::new("spam_review");

pub const KEEP: usize = 200;
/// Mail waiting for the AI per user at most (the rest is decided by points alone).
pub const REVIEW_MAX: usize = 500;

/// One decision, as the activity list shows it.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SpamDecision")]
pub struct Decision {
    /// Unix seconds.
    pub at: i64,
    pub message: u64,
    pub from: String,
    pub subject: String,
    pub verdict: String,
    pub score: f32,
    /// sync (new mail), classify ('load and classify'), ai (the provider's review), user (the
    /// user's own marking, learned).
    pub source: String,
}

impl Decision {
    pub fn of(meta: &MessageMeta, verdict: &str, source: &str) -> Self {
        Decision {
            at: crate::kit::now(),
            message: meta.id,
            from: meta.summary.from.clone(),
            subject: meta.summary.subject.chars().take(200).collect(),
            verdict: verdict.to_string(),
            score: meta.spam_score.unwrap_or(0.0),
            source: source.to_string(),
        }
    }

    pub fn verdict_of(meta: &MessageMeta) -> Option<Verdict> {
        match meta.status.as_deref() {
            Some("spam") => Some(Verdict::Spam),
            Some("suspicious") => Some(Verdict::Suspicious),
            Some("advertisement") => Some(Verdict::Advertisement),
            _ => None,
        }
    }
}

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(ACTIVITY)?;
    txn.open_table(REVIEW)?;
    Ok(())
}

pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    txn.open_table(ACTIVITY)?
        .extract_from_if((user_id, 0)..=(user_id, u64::MAX), |_, _| true)?
        .for_each(drop);
    txn.open_table(REVIEW)?
        .extract_from_if((user_id, 0)..=(user_id, u64::MAX), |_, _| true)?
        .for_each(drop);
    Ok(())
}

/// Appends decisions, keeping the newest [`KEEP`].
pub fn log(txn: &WriteTransaction, user_id: u64, decisions: &[Decision]) -> anyhow::Result<()> {
    if decisions.is_empty() {
        return Ok(());
    }
    let mut t = txn.open_table(ACTIVITY)?;
    let mut next = t
        .range((user_id, 0)..=(user_id, u64::MAX))?
        .next_back()
        .transpose()?
        .map_or(1, |(k, _)| k.value().1 + 1);
    for d in decisions {
        t.insert((user_id, next), record::encode(d).as_slice())?;
        next += 1;
    }
    let count = t.range((user_id, 0)..=(user_id, u64::MAX))?.count();
    if count > KEEP {
        let drop_below = next - KEEP as u64;
        t.extract_from_if((user_id, 0)..(user_id, drop_below), |_, _| true)?
            .for_each(drop);
    }
    Ok(())
}

/// The newest decisions first.
pub fn activity(store: &Store, user_id: u64, limit: usize) -> anyhow::Result<Vec<Decision>> {
    let txn = store.db().begin_read()?;
    let t = txn.open_table(ACTIVITY)?;
    let mut out = Vec::new();
    for e in t
        .range((user_id, 0)..=(user_id, u64::MAX))?
        .rev()
        .take(limit)
    {
        let (_, v) = e?;
        if let Ok(d) = record::decode(v.value()) {
            out.push(d);
        }
    }
    Ok(out)
}

pub fn clear(store: &Store, user_id: u64) -> anyhow::Result<()> {
    let txn = store.begin_write()?;
    txn.open_table(ACTIVITY)?
        .extract_from_if((user_id, 0)..=(user_id, u64::MAX), |_, _| true)?
        .for_each(drop);
    txn.commit()?;
    Ok(())
}

pub fn queue_review(txn: &WriteTransaction, user_id: u64, ids: &[u64]) -> anyhow::Result<()> {
    let mut t = txn.open_table(REVIEW)?;
    let now = crate::kit::now();
    let waiting = t.range((user_id, 0)..=(user_id, u64::MAX))?.count();
    for id in ids.iter().take(REVIEW_MAX.saturating_sub(waiting)) {
        t.insert((user_id, *id), now)?;
    }
    Ok(())
}

/// Users with mail waiting for the AI, and up to `per_user` of each one's.
pub fn waiting(store: &Store, per_user: usize) -> anyhow::Result<Vec<(u64, Vec<u64>)>> {
    let txn = store.db().begin_read()?;
    let t = txn.open_table(REVIEW)?;
    let mut out: Vec<(u64, Vec<u64>)> = Vec::new();
    for e in t.iter()? {
        let (k, _) = e?;
        let (user, id) = k.value();
        match out.last_mut() {
            Some((u, ids)) if *u == user => {
                if ids.len() < per_user {
                    ids.push(id);
                }
            }
            _ => out.push((user, vec![id])),
        }
    }
    Ok(out)
}

pub fn reviewed(store: &Store, user_id: u64, id: u64) -> anyhow::Result<()> {
    let txn = store.begin_write()?;
    txn.open_table(REVIEW)?.remove((user_id, id))?;
    txn.commit()?;
    Ok(())
}
