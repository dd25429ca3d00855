//! What the user's invitations are now, by UID: the latest version seen (a higher SEQUENCE
//! replaces, RFC 5546 §2.1.4), whether it was cancelled, its upcoming occurrences (for
//! conflicts), the user's own answer, and, for events the user organised, the answers that
//! came back. Versions come from mail in any order (the sync is newest first), so every rule
//! compares sequences and DTSTAMPs, never arrival order. At most [`MAX_RECORDS`] per user.

use redb::{ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::event::{Answer, Event, Method};
use crate::error::Result;
use crate::store::{Store, record};

/// (user id, UID) → JSON [`Record`].
const INVITES: TableDefinition<(u64, &str), &[u8]> = TableDefinition::new("invites");

/// Invitations kept per user (the least recently changed go first).
pub const MAX_RECORDS: usize = 2000;
/// Answers from attendees kept per event.
const MAX_REPLIES: usize = 200;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Record {
    pub uid: String,
    pub sequence: i64,
    pub dtstamp: i64,
    pub title: String,
    pub cancelled: bool,
    /// Takes the user's time (timed and not transparent).
    pub busy: bool,
    /// Upcoming occurrences (start, end), Unix seconds.
    pub occurrences: Vec<(i64, i64)>,
    pub answer: Option<Answer>,
    pub comment: String,
    pub answered_at: Option<i64>,
    /// The SEQUENCE the answer was given to: a later one may have moved the event.
    pub answered_sequence: i64,
    /// Attendees' answers to an event the user organised (address, answer).
    pub replies: Vec<(String, Answer)>,
    /// Unix seconds.
    pub updated: i64,
}

/// Whether `e` is at least as new as what `r` holds.
fn newer_or_same(e: &Event, r: &Record) -> bool {
    (e.sequence, e.dtstamp) >= (r.sequence, r.dtstamp)
}

fn details(r: &mut Record, e: &Event, from: i64) {
    r.sequence = e.sequence;
    r.dtstamp = e.dtstamp;
    r.title = e.title.clone();
    r.busy = e.busy();
    r.occurrences = e.upcoming(from);
    r.cancelled = e.cancelled;
}

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(INVITES)?;
    Ok(())
}

pub fn forget_user(txn: &WriteTransaction, user: u64) -> anyhow::Result<()> {
    let mut t = txn.open_table(INVITES)?;
    let keys: Vec<String> = t
        .range((user, "")..(user + 1, ""))?
        .filter_map(|e| e.ok().map(|(k, _)| k.value().1.to_string()))
        .collect();
    for uid in keys {
        t.remove((user, uid.as_str()))?;
    }
    Ok(())
}

/// The user's record of `uid`.
pub fn get(store: &Store, user: u64, uid: &str) -> Result<Option<Record>> {
    let txn = store.db().begin_read()?;
    let t = txn.open_table(INVITES)?;
    Ok(match t.get((user, uid))? {
        Some(v) => Some(record::decode(v.value())?),
        None => None,
    })
}

/// Every record of the user.
pub fn all(store: &Store, user: u64) -> Result<Vec<Record>> {
    let txn = store.db().begin_read()?;
    let t = txn.open_table(INVITES)?;
    let mut out = Vec::new();
    for e in t.range((user, "")..(user + 1, ""))? {
        out.push(record::decode(e?.1.value())?);
    }
    Ok(out)
}

/// Takes what one mail says about an event into the user's record (in the caller's
/// transaction; harmless twice). `now` bounds the occurrences kept to those still to come
/// (a month back). Returns the record as it is after.
pub fn register(txn: &WriteTransaction, user: u64, e: &Event, now: i64) -> Result<Option<Record>> {
    if e.uid.is_empty() {
        return Ok(None);
    }
    let from = now - 30 * 86_400;
    let mut t = txn.open_table(INVITES)?;
    let found: Option<Record> = match t.get((user, e.uid.as_str()))? {
        Some(v) => Some(record::decode(v.value())?),
        None => None,
    };
    let after = match (e.method, found) {
        (Method::Request | Method::Publish, None) => {
            let mut r = Record {
                uid: e.uid.clone(),
                ..Record::default()
            };
            details(&mut r, e, from);
            Some(r)
        }
        (Method::Request | Method::Publish, Some(mut r)) => {
            // An update of one occurrence changes that occurrence only, not the series.
            if e.recurrence_id.is_none() && newer_or_same(e, &r) {
                details(&mut r, e, from);
            }
            Some(r)
        }
        (Method::Cancel, found) => {
            let mut r = found.unwrap_or_else(|| Record {
                uid: e.uid.clone(),
                title: e.title.clone(),
                ..Record::default()
            });
            match e.recurrence_id {
                // One occurrence cancelled: it no longer takes the user's time.
                Some(at) => r.occurrences.retain(|(start, _)| *start != at),
                None if newer_or_same(e, &r) => {
                    r.cancelled = true;
                    r.sequence = e.sequence;
                    r.dtstamp = e.dtstamp;
                }
                None => {}
            }
            Some(r)
        }
        (Method::Reply, Some(mut r)) => {
            for a in e.attendees.iter().take(1) {
                r.replies
                    .retain(|(who, _)| !who.eq_ignore_ascii_case(&a.email));
                if r.replies.len() < MAX_REPLIES {
                    r.replies.push((a.email.clone(), a.answer));
                }
            }
            Some(r)
        }
        (Method::Reply | Method::Counter, _) => None,
    };
    let Some(mut r) = after else {
        return Ok(None);
    };
    r.updated = now;
    t.insert((user, e.uid.as_str()), record::encode(&r).as_slice())?;
    trim(&mut t, user)?;
    Ok(Some(r))
}

/// Drops the least recently changed records beyond [`MAX_RECORDS`].
fn trim(t: &mut redb::Table<(u64, &str), &[u8]>, user: u64) -> Result<()> {
    let mut all: Vec<(i64, String)> = Vec::new();
    for e in t.range((user, "")..(user + 1, ""))? {
        let (k, v) = e?;
        let updated = record::decode::<Record>(v.value())
            .map(|r| r.updated)
            .unwrap_or(0);
        all.push((updated, k.value().1.to_string()));
    }
    if all.len() <= MAX_RECORDS {
        return Ok(());
    }
    all.sort();
    for (_, uid) in all.iter().take(all.len() - MAX_RECORDS) {
        t.remove((user, uid.as_str()))?;
    }
    Ok(())
}

/// Records the user's answer to the version `sequence` of `uid`.
pub fn answered(
    store: &Store,
    user: u64,
    e: &Event,
    answer: Answer,
    comment: &str,
    now: i64,
) -> Result<Record> {
    let txn = store.begin_write()?;
    register(&txn, user, e, now)?;
    let r = {
        let mut t = txn.open_table(INVITES)?;
        let mut r: Record = match t.get((user, e.uid.as_str()))? {
            Some(v) => record::decode(v.value())?,
            None => Record {
                uid: e.uid.clone(),
                ..Record::default()
            },
        };
        r.answer = Some(answer);
        r.comment = comment.to_string();
        r.answered_at = Some(now);
        r.answered_sequence = e.sequence;
        r.updated = now;
        t.insert((user, e.uid.as_str()), record::encode(&r).as_slice())?;
        r
    };
    txn.commit()?;
    Ok(r)
}

/// Puts back a backed-up answer beside what the user has (a record of the same UID keeps its
/// event; the answer is the backup's when the user has none).
pub fn restore_answer(store: &Store, user: u64, backed: Record) -> Result<()> {
    let txn = store.begin_write()?;
    {
        let mut t = txn.open_table(INVITES)?;
        let uid = crate::kit::cut(&backed.uid, 255).to_string();
        let current: Option<Record> = match t.get((user, uid.as_str()))? {
            Some(v) => Some(record::decode(v.value())?),
            None => None,
        };
        let r = match current {
            Some(mut r) if r.answer.is_none() => {
                r.answer = backed.answer;
                r.comment = backed.comment;
                r.answered_at = backed.answered_at;
                r.answered_sequence = backed.answered_sequence;
                r
            }
            Some(r) => r,
            None => backed,
        };
        t.insert((user, uid.as_str()), record::encode(&r).as_slice())?;
        trim(&mut t, user)?;
    }
    txn.commit()?;
    Ok(())
}

/// The accepted events (other than `uid`) that overlap one of `occurrences`, with the first
/// overlapping occurrence of each; at most `max`.
pub fn conflicts(
    records: &[Record],
    uid: &str,
    occurrences: &[(i64, i64)],
    max: usize,
) -> Vec<(String, (i64, i64))> {
    let mut out = Vec::new();
    for r in records {
        if r.uid == uid || r.cancelled || !r.busy || r.answer != Some(Answer::Accepted) {
            continue;
        }
        let hit = r.occurrences.iter().find(|(s, e)| {
            occurrences
                .iter()
                .any(|(os, oe)| *s < *oe && *os < *e && s < e && os < oe)
        });
        if let Some(at) = hit {
            out.push((r.title.clone(), *at));
            if out.len() >= max {
                break;
            }
        }
    }
    out
}
