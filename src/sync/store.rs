//! The mail cache: what the sync engine writes and the email routes read. Tables are keyed by
//! account so one account's mail can be listed, counted or forgotten by a range; every reader
//! checks that the account belongs to the signed-in user first.
//!
//! Per message: a JSON [`MessageMeta`] (what the list shows), its raw bytes (the reading pane
//! parses them on demand, and a restart never refetches them), its place in its folder by UID
//! and by date, and its thread key.

use redb::{ReadableTable, TableDefinition, WriteTransaction};
use serde::{Deserialize, Serialize};

use crate::mail::parse::Summary;
use crate::mail::threading;
use crate::store::record;

/// (account, folder name) → JSON [`FolderState`].
pub const FOLDERS: TableDefinition<(u64, &str), &[u8]> = TableDefinition::new("mail_folders");
/// message id → JSON [`MessageMeta`].
pub const MESSAGES: TableDefinition<u64, &[u8]> = TableDefinition::new("mail_messages");
/// message id → raw RFC 822 bytes.
pub const RAW: TableDefinition<u64, &[u8]> = TableDefinition::new("mail_raw");
/// (account, folder, uid) → message id.
pub const UIDS: TableDefinition<(u64, &str, u32), u64> = TableDefinition::new("mail_uids");
/// (account, folder, date, message id) → flag byte ([`flags`]): listing newest first and
/// counting without decoding a record.
pub const BY_DATE: TableDefinition<(u64, &str, i64, u64), u8> =
    TableDefinition::new("mail_by_date");
/// (account, Message-ID) → thread id.
pub const MSGIDS: TableDefinition<(u64, &str), &str> = TableDefinition::new("mail_msgids");
/// (account, normalized subject) → thread id, for mail without reference headers.
pub const SUBJECTS: TableDefinition<(u64, &str), &str> = TableDefinition::new("mail_subjects");
/// (account, message id) → JSON [`PendingFlags`]: flag changes made here and not yet stored on
/// the server.
pub const PENDING: TableDefinition<(u64, u64), &[u8]> = TableDefinition::new("mail_pending_flags");

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(FOLDERS)?;
    txn.open_table(MESSAGES)?;
    txn.open_table(RAW)?;
    txn.open_table(UIDS)?;
    txn.open_table(BY_DATE)?;
    txn.open_table(MSGIDS)?;
    txn.open_table(SUBJECTS)?;
    txn.open_table(PENDING)?;
    Ok(())
}

/// The flag byte in [`BY_DATE`]: bits for the IMAP flags the list needs, and the status code.
pub mod flags {
    pub const SEEN: u8 = 1;
    pub const FLAGGED: u8 = 2;
    pub const HIDDEN: u8 = 4;
    pub const DRAFT: u8 = 8;
    pub const ANSWERED: u8 = 16;
    pub const STATUS_SHIFT: u8 = 5;

    /// Status names in code order; 0 means none.
    pub const STATUSES: [&str; 7] = [
        "needs_reply",
        "processed",
        "unread",
        "info",
        "spam",
        "suspicious",
        "advertisement",
    ];

    pub fn status_code(status: Option<&str>) -> u8 {
        status
            .and_then(|s| STATUSES.iter().position(|x| *x == s))
            .map_or(0, |i| i as u8 + 1)
    }

    pub fn status_of(byte: u8) -> Option<&'static str> {
        let code = byte >> STATUS_SHIFT;
        (code > 0).then(|| STATUSES[code as usize - 1])
    }
}

/// Sync state of one folder.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct FolderState {
    pub name: String,
    /// Decoded (modified UTF-7) name for display.
    pub display_name: String,
    /// inbox, sent, drafts, junk, trash, archive, or "" for the user's own folders.
    pub role: String,
    pub uidvalidity: u32,
    /// UIDNEXT seen when the newest messages were last fetched: everything at or above it is
    /// new.
    pub top: u32,
    /// The lowest UID of the range [down_to, top) already fetched; the initial sync walks it
    /// down to 1, newest first, and resumes from here after a restart.
    pub down_to: u32,
    pub highest_modseq: u64,
    pub exists: u32,
    #[serde(default)]
    pub last_sync: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MessageMeta {
    pub id: u64,
    pub account_id: u64,
    pub folder: String,
    pub uid: u32,
    pub thread_id: String,
    /// Date header, else INTERNALDATE (unix seconds): the list's order.
    pub date: i64,
    pub size: u32,
    pub seen: bool,
    pub flagged: bool,
    #[serde(default)]
    pub answered: bool,
    #[serde(default)]
    pub draft: bool,
    /// Other IMAP keywords ($Junk, the statuses later, ...).
    #[serde(default)]
    pub keywords: Vec<String>,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub priority: Option<String>,
    #[serde(default)]
    pub hidden: bool,
    pub summary: Summary,
}

impl MessageMeta {
    pub fn flag_byte(&self) -> u8 {
        let mut b = 0;
        if self.seen {
            b |= flags::SEEN;
        }
        if self.flagged {
            b |= flags::FLAGGED;
        }
        if self.hidden {
            b |= flags::HIDDEN;
        }
        if self.draft {
            b |= flags::DRAFT;
        }
        if self.answered {
            b |= flags::ANSWERED;
        }
        b | (flags::status_code(self.status.as_deref()) << flags::STATUS_SHIFT)
    }
}

/// IMAP flags of a message as the server reported them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ServerFlags {
    pub seen: bool,
    pub flagged: bool,
    pub answered: bool,
    pub draft: bool,
    pub keywords: Vec<String>,
}

/// A message fetched from the server, not yet stored.
pub struct Fetched {
    pub uid: u32,
    pub flags: ServerFlags,
    pub internal_date: Option<i64>,
    pub raw: Vec<u8>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct PendingFlags {
    pub folder: String,
    pub uid: u32,
    pub uidvalidity: u32,
    #[serde(default)]
    pub seen: Option<bool>,
    #[serde(default)]
    pub flagged: Option<bool>,
}

pub fn load_folder(
    txn: &WriteTransaction,
    account: u64,
    name: &str,
) -> anyhow::Result<Option<FolderState>> {
    let t = txn.open_table(FOLDERS)?;
    let v = t.get((account, name))?;
    Ok(match v {
        Some(v) => Some(record::decode(v.value())?),
        None => None,
    })
}

pub fn save_folder(
    txn: &WriteTransaction,
    account: u64,
    state: &FolderState,
) -> anyhow::Result<()> {
    txn.open_table(FOLDERS)?.insert(
        (account, state.name.as_str()),
        record::encode(state).as_slice(),
    )?;
    Ok(())
}

/// Stores fetched messages (skipping UIDs already stored) in the caller's transaction.
/// Returns how many were new.
pub fn insert_messages(
    txn: &WriteTransaction,
    account: u64,
    folder: &str,
    batch: &[Fetched],
) -> anyhow::Result<usize> {
    let mut uids = txn.open_table(UIDS)?;
    let mut messages = txn.open_table(MESSAGES)?;
    let mut raw_t = txn.open_table(RAW)?;
    let mut by_date = txn.open_table(BY_DATE)?;
    let mut msgids = txn.open_table(MSGIDS)?;
    let mut subjects = txn.open_table(SUBJECTS)?;
    let mut new = 0;
    for f in batch {
        if uids.get((account, folder, f.uid))?.is_some() {
            continue;
        }
        let id = crate::store::next_id(txn, "mail_messages")?;
        let summary = crate::mail::parse::summary(&f.raw);
        let date = summary
            .date
            .or(f.internal_date)
            .unwrap_or_else(|| time::OffsetDateTime::now_utc().unix_timestamp());
        let thread_id = thread_for(&msgids, &subjects, account, id, &summary)?;
        let meta = MessageMeta {
            id,
            account_id: account,
            folder: folder.to_string(),
            uid: f.uid,
            thread_id: thread_id.clone(),
            date,
            size: f.raw.len() as u32,
            seen: f.flags.seen,
            flagged: f.flags.flagged,
            answered: f.flags.answered,
            draft: f.flags.draft,
            keywords: f.flags.keywords.clone(),
            status: None,
            priority: None,
            hidden: false,
            summary,
        };
        if let Some(mid) = meta.summary.message_id.as_deref()
            && msgids.get((account, mid))?.is_none()
        {
            msgids.insert((account, mid), thread_id.as_str())?;
        }
        let (norm, _) = threading::normalize_subject(&meta.summary.subject);
        if !norm.is_empty() && subjects.get((account, norm.as_str()))?.is_none() {
            subjects.insert((account, norm.as_str()), thread_id.as_str())?;
        }
        uids.insert((account, folder, f.uid), id)?;
        by_date.insert((account, folder, date, id), meta.flag_byte())?;
        raw_t.insert(id, f.raw.as_slice())?;
        messages.insert(id, record::encode(&meta).as_slice())?;
        new += 1;
    }
    Ok(new)
}

/// The thread key of a new message: its root's thread when the root is known, the root
/// Message-ID otherwise; without reference headers, a reply joins the thread of its
/// normalized subject.
fn thread_for(
    msgids: &impl ReadableTable<(u64, &'static str), &'static str>,
    subjects: &impl ReadableTable<(u64, &'static str), &'static str>,
    account: u64,
    id: u64,
    s: &Summary,
) -> anyhow::Result<String> {
    let root = s.references.first().or(s.in_reply_to.as_ref());
    if let Some(root) = root {
        for candidate in [Some(root), s.in_reply_to.as_ref()].into_iter().flatten() {
            if let Some(t) = msgids.get((account, candidate.as_str()))? {
                return Ok(t.value().to_string());
            }
        }
        return Ok(root.clone());
    }
    let (norm, is_reply) = threading::normalize_subject(&s.subject);
    if is_reply
        && !norm.is_empty()
        && let Some(t) = subjects.get((account, norm.as_str()))?
    {
        return Ok(t.value().to_string());
    }
    Ok(s.message_id
        .clone()
        .unwrap_or_else(|| format!("local-{id}")))
}

pub fn read_meta(
    table: &impl ReadableTable<u64, &'static [u8]>,
    id: u64,
) -> anyhow::Result<Option<MessageMeta>> {
    Ok(match table.get(id)? {
        Some(v) => Some(record::decode(v.value())?),
        None => None,
    })
}

/// Rewrites a message's record and its flag byte after a change.
pub fn write_meta(txn: &WriteTransaction, meta: &MessageMeta) -> anyhow::Result<()> {
    txn.open_table(MESSAGES)?
        .insert(meta.id, record::encode(meta).as_slice())?;
    txn.open_table(BY_DATE)?.insert(
        (meta.account_id, meta.folder.as_str(), meta.date, meta.id),
        meta.flag_byte(),
    )?;
    Ok(())
}

/// Applies server flags to stored messages by UID; skips messages with local changes still
/// pending (they win until written to the server). Returns how many changed.
pub fn update_flags(
    txn: &WriteTransaction,
    account: u64,
    folder: &str,
    updates: &[(u32, ServerFlags)],
) -> anyhow::Result<usize> {
    let uids = txn.open_table(UIDS)?;
    let pending = txn.open_table(PENDING)?;
    let mut changed = 0;
    for (uid, f) in updates {
        let Some(id) = uids.get((account, folder, *uid))?.map(|v| v.value()) else {
            continue;
        };
        if pending.get((account, id))?.is_some() {
            continue;
        }
        let Some(mut meta) = read_meta(&txn.open_table(MESSAGES)?, id)? else {
            continue;
        };
        if meta.seen == f.seen
            && meta.flagged == f.flagged
            && meta.answered == f.answered
            && meta.draft == f.draft
            && meta.keywords == f.keywords
        {
            continue;
        }
        meta.seen = f.seen;
        meta.flagged = f.flagged;
        meta.answered = f.answered;
        meta.draft = f.draft;
        meta.keywords = f.keywords.clone();
        write_meta(txn, &meta)?;
        changed += 1;
    }
    Ok(changed)
}

/// Deletes one stored message everywhere.
fn delete_message(txn: &WriteTransaction, id: u64) -> anyhow::Result<()> {
    let Some(meta) = read_meta(&txn.open_table(MESSAGES)?, id)? else {
        return Ok(());
    };
    txn.open_table(MESSAGES)?.remove(id)?;
    txn.open_table(RAW)?.remove(id)?;
    txn.open_table(UIDS)?
        .remove((meta.account_id, meta.folder.as_str(), meta.uid))?;
    txn.open_table(BY_DATE)?
        .remove((meta.account_id, meta.folder.as_str(), meta.date, id))?;
    txn.open_table(PENDING)?.remove((meta.account_id, id))?;
    Ok(())
}

/// The UIDs stored for a folder.
pub fn stored_uids(
    txn: &WriteTransaction,
    account: u64,
    folder: &str,
) -> anyhow::Result<Vec<(u32, u64)>> {
    let uids = txn.open_table(UIDS)?;
    let mut out = Vec::new();
    for e in uids.range((account, folder, 0)..=(account, folder, u32::MAX))? {
        let (k, v) = e?;
        out.push((k.value().2, v.value()));
    }
    Ok(out)
}

/// Removes the stored messages of `folder` whose UIDs are not in `keep` (expunged on the
/// server). Returns how many went.
pub fn remove_missing(
    txn: &WriteTransaction,
    account: u64,
    folder: &str,
    keep: &std::collections::HashSet<u32>,
) -> anyhow::Result<usize> {
    let gone: Vec<u64> = stored_uids(txn, account, folder)?
        .into_iter()
        .filter(|(uid, _)| !keep.contains(uid))
        .map(|(_, id)| id)
        .collect();
    for id in &gone {
        delete_message(txn, *id)?;
    }
    Ok(gone.len())
}

/// Forgets a folder's messages (UIDVALIDITY changed, or the folder is gone).
pub fn clear_folder(txn: &WriteTransaction, account: u64, folder: &str) -> anyhow::Result<usize> {
    remove_missing(txn, account, folder, &Default::default())
}

/// Forgets everything cached for an account.
pub fn clear_account(txn: &WriteTransaction, account: u64) -> anyhow::Result<()> {
    let folders: Vec<String> = {
        let t = txn.open_table(FOLDERS)?;
        let mut names = Vec::new();
        for e in t.range((account, "")..)? {
            let (k, _) = e?;
            let (a, name) = k.value();
            if a != account {
                break;
            }
            names.push(name.to_string());
        }
        names
    };
    for f in &folders {
        clear_folder(txn, account, f)?;
        txn.open_table(FOLDERS)?.remove((account, f.as_str()))?;
    }
    for table in [MSGIDS, SUBJECTS] {
        let mut t = txn.open_table(table)?;
        let mut keys = Vec::new();
        for e in t.range((account, "")..)? {
            let (k, _) = e?;
            let (a, key) = k.value();
            if a != account {
                break;
            }
            keys.push(key.to_string());
        }
        for k in keys {
            t.remove((account, k.as_str()))?;
        }
    }
    let mut pending = txn.open_table(PENDING)?;
    pending.retain_in((account, 0)..=(account, u64::MAX), |_, _| false)?;
    Ok(())
}
