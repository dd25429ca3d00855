//! Reading the mail cache for the signed-in user: folder listings (real folders by role or
//! name, and the spec's virtual folders), folder counts, one message whole, flag changes
//! (written locally at once and queued for the server). Every function takes the user id and
//! only touches that user's accounts.

pub mod routes;
pub mod view;

use std::collections::HashSet;

use redb::{ReadTransaction, ReadableDatabase, ReadableTable};
use serde::Serialize;

use crate::accounts;
use crate::error::{AppError, Result};
use crate::messages;
use crate::store::{Store, record};
use crate::sync::store::{self as mstore, FolderState, MessageMeta, PendingFlags, flags};

pub use routes::router;

/// Which messages a listing wants.
#[derive(Debug, Clone, PartialEq)]
pub enum Selector {
    /// Folders with this role: inbox, sent, drafts, junk, trash, archive.
    Role(&'static str),
    /// A folder by its IMAP name or display name.
    Named(String),
    /// Flagged mail in any folder.
    Starred,
    /// Every folder.
    All,
    /// By triage status in any folder, plus the folders of `also_role`.
    Status {
        statuses: &'static [&'static str],
        also_role: Option<&'static str>,
    },
}

impl Selector {
    /// The spec's folder names (`/api/emails/{folder}`).
    pub fn for_folder(name: &str) -> Self {
        match name.to_lowercase().as_str() {
            "inbox" | "" => Self::Role("inbox"),
            "sent" => Self::Role("sent"),
            "drafts" => Self::Role("drafts"),
            "trash" => Self::Role("trash"),
            "junk" => Self::Role("junk"),
            "archive" => Self::Role("archive"),
            "starred" => Self::Starred,
            "all" => Self::All,
            _ => Self::Named(name.to_string()),
        }
    }

    /// The virtual folders of `/api/emails/session/{folder}` (spec 000 §7).
    pub fn for_virtual(name: &str) -> Option<Self> {
        Some(match name.to_lowercase().as_str() {
            "spam" => Self::Status {
                statuses: &["spam", "suspicious"],
                also_role: Some("junk"),
            },
            "promotions" => Self::Status {
                statuses: &["advertisement"],
                also_role: None,
            },
            "archive" => Self::Status {
                statuses: &["processed"],
                also_role: Some("archive"),
            },
            "updates" => Self::Status {
                statuses: &["info"],
                also_role: None,
            },
            _ => return None,
        })
    }

    fn folder_matches(&self, f: &FolderState) -> bool {
        match self {
            Self::Role(role) => f.role == *role,
            Self::Named(name) => f.name == *name || f.display_name == *name,
            Self::Starred | Self::All | Self::Status { .. } => true,
        }
    }

    fn row_matches(&self, f: &FolderState, byte: u8) -> bool {
        if byte & flags::HIDDEN != 0 {
            return false;
        }
        match self {
            Self::Starred => byte & flags::FLAGGED != 0,
            Self::Status {
                statuses,
                also_role,
            } => {
                also_role.is_some_and(|r| f.role == r)
                    || flags::status_of(byte).is_some_and(|s| statuses.contains(&s))
            }
            _ => true,
        }
    }
}

/// Account ids of a user.
fn account_ids(store: &Store, user_id: u64) -> Result<Vec<u64>> {
    Ok(accounts::list_for_user(store, user_id)?
        .into_iter()
        .map(|a| a.id)
        .collect())
}

fn folders_of(txn: &ReadTransaction, account: u64) -> Result<Vec<FolderState>> {
    let t = txn.open_table(mstore::FOLDERS)?;
    let mut out = Vec::new();
    for e in t.range((account, "")..)? {
        let (k, v) = e?;
        if k.value().0 != account {
            break;
        }
        out.push(record::decode(v.value())?);
    }
    Ok(out)
}

pub struct Page {
    pub emails: Vec<MessageMeta>,
    pub total: usize,
}

/// Newest first, `per_page` from `page` (1-based).
pub fn list(
    store: &Store,
    user_id: u64,
    sel: &Selector,
    page: usize,
    per_page: usize,
) -> Result<Page> {
    let accounts = account_ids(store, user_id)?;
    let txn = store.db().begin_read()?;
    let by_date = txn.open_table(mstore::BY_DATE)?;
    let skip = page.saturating_sub(1) * per_page;
    let mut sources = Vec::new();
    for account in &accounts {
        for f in folders_of(&txn, *account)? {
            if sel.folder_matches(&f) {
                sources.push((*account, f));
            }
        }
    }
    let mut ids: Vec<(i64, u64)> = Vec::new();
    let mut total = 0;
    if sources.len() == 1 {
        // One folder (the common case): walk it newest first, decode only the page.
        let (account, f) = &sources[0];
        let range = (*account, f.name.as_str(), i64::MIN, 0)
            ..=(*account, f.name.as_str(), i64::MAX, u64::MAX);
        for e in by_date.range(range)?.rev() {
            let (k, v) = e?;
            if sel.row_matches(f, v.value()) {
                if total >= skip && ids.len() < per_page {
                    let k = k.value();
                    ids.push((k.2, k.3));
                }
                total += 1;
            }
        }
    } else {
        for (account, f) in &sources {
            let range = (*account, f.name.as_str(), i64::MIN, 0)
                ..=(*account, f.name.as_str(), i64::MAX, u64::MAX);
            for e in by_date.range(range)? {
                let (k, v) = e?;
                if sel.row_matches(f, v.value()) {
                    let k = k.value();
                    ids.push((k.2, k.3));
                }
            }
        }
        total = ids.len();
        ids.sort_unstable_by(|a, b| b.cmp(a));
        ids = ids.into_iter().skip(skip).take(per_page).collect();
    }
    let messages = txn.open_table(mstore::MESSAGES)?;
    let mut emails = Vec::with_capacity(ids.len());
    for (_, id) in ids {
        if let Some(m) = mstore::read_meta(&messages, id)? {
            emails.push(m);
        }
    }
    Ok(Page { emails, total })
}

/// The spec's folder counts (000 §3), plus `unread` (the inbox badge is needs-reply + unread).
#[derive(Debug, Default, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    pub inbox: usize,
    pub unread: usize,
    pub starred: usize,
    pub needs_reply: usize,
    pub processed: usize,
    pub spam: usize,
    pub advertisements: usize,
    pub info: usize,
    pub sent: usize,
    pub drafts: usize,
    pub trash: usize,
}

pub fn counts(store: &Store, user_id: u64) -> Result<Counts> {
    let accounts = account_ids(store, user_id)?;
    let txn = store.db().begin_read()?;
    let by_date = txn.open_table(mstore::BY_DATE)?;
    let mut c = Counts::default();
    for account in accounts {
        for f in folders_of(&txn, account)? {
            let range = (account, f.name.as_str(), i64::MIN, 0)
                ..=(account, f.name.as_str(), i64::MAX, u64::MAX);
            for e in by_date.range(range)? {
                let b = e?.1.value();
                if b & flags::HIDDEN != 0 {
                    continue;
                }
                let unread = b & flags::SEEN == 0;
                match f.role.as_str() {
                    "inbox" => {
                        c.inbox += 1;
                        if unread {
                            c.unread += 1;
                        }
                    }
                    "sent" => c.sent += 1,
                    "drafts" => c.drafts += 1,
                    "trash" => c.trash += 1,
                    "junk" => c.spam += 1,
                    _ => {}
                }
                if b & flags::FLAGGED != 0 {
                    c.starred += 1;
                }
                match flags::status_of(b) {
                    Some("needs_reply") => c.needs_reply += 1,
                    Some("processed") => c.processed += 1,
                    Some("spam" | "suspicious") if f.role != "junk" => c.spam += 1,
                    Some("advertisement") => c.advertisements += 1,
                    Some("info") => c.info += 1,
                    _ => {}
                }
            }
        }
    }
    Ok(c)
}

/// The user's folders with their roles and counts, for the sidebar's own-folders list.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FolderInfo {
    pub account_id: u64,
    pub name: String,
    pub display_name: String,
    pub role: String,
    pub total: usize,
    pub unread: usize,
}

pub fn folders(store: &Store, user_id: u64) -> Result<Vec<FolderInfo>> {
    let accounts = account_ids(store, user_id)?;
    let txn = store.db().begin_read()?;
    let by_date = txn.open_table(mstore::BY_DATE)?;
    let mut out = Vec::new();
    for account in accounts {
        for f in folders_of(&txn, account)? {
            let (mut total, mut unread) = (0, 0);
            let range = (account, f.name.as_str(), i64::MIN, 0)
                ..=(account, f.name.as_str(), i64::MAX, u64::MAX);
            for e in by_date.range(range)? {
                let b = e?.1.value();
                if b & flags::HIDDEN == 0 {
                    total += 1;
                    if b & flags::SEEN == 0 {
                        unread += 1;
                    }
                }
            }
            out.push(FolderInfo {
                account_id: account,
                display_name: f.display_name.clone(),
                name: f.name,
                role: f.role,
                total,
                unread,
            });
        }
    }
    Ok(out)
}

/// One message of the user, with its raw bytes.
pub fn get(store: &Store, user_id: u64, id: u64) -> Result<(MessageMeta, Vec<u8>)> {
    let accounts: HashSet<u64> = account_ids(store, user_id)?.into_iter().collect();
    let txn = store.db().begin_read()?;
    let meta = mstore::read_meta(&txn.open_table(mstore::MESSAGES)?, id)?
        .filter(|m| accounts.contains(&m.account_id) && !m.hidden)
        .ok_or_else(|| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))?;
    let raw = txn
        .open_table(mstore::RAW)?
        .get(id)?
        .map(|v| v.value().to_vec())
        .unwrap_or_default();
    Ok((meta, raw))
}

/// Sets \Seen and \Flagged locally and queues them for the server. Returns the new record.
pub fn set_flags(
    store: &Store,
    user_id: u64,
    id: u64,
    seen: Option<bool>,
    flagged: Option<bool>,
) -> Result<MessageMeta> {
    let accounts: HashSet<u64> = account_ids(store, user_id)?.into_iter().collect();
    let txn = store.db().begin_write()?;
    let meta = {
        let mut meta = mstore::read_meta(&txn.open_table(mstore::MESSAGES)?, id)?
            .filter(|m| accounts.contains(&m.account_id) && !m.hidden)
            .ok_or_else(|| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))?;
        if let Some(s) = seen {
            meta.seen = s;
        }
        if let Some(f) = flagged {
            meta.flagged = f;
        }
        mstore::write_meta(&txn, &meta)?;
        let uidvalidity = {
            let t = txn.open_table(mstore::FOLDERS)?;
            let v = t.get((meta.account_id, meta.folder.as_str()))?;
            match v {
                Some(v) => record::decode::<FolderState>(v.value())?.uidvalidity,
                None => 0,
            }
        };
        let mut pending = txn.open_table(mstore::PENDING)?;
        let mut op: PendingFlags = match pending.get((meta.account_id, id))? {
            Some(v) => record::decode(v.value())?,
            None => PendingFlags {
                folder: meta.folder.clone(),
                uid: meta.uid,
                uidvalidity,
                ..PendingFlags::default()
            },
        };
        if seen.is_some() {
            op.seen = seen;
        }
        if flagged.is_some() {
            op.flagged = flagged;
        }
        pending.insert((meta.account_id, id), record::encode(&op).as_slice())?;
        meta
    };
    txn.commit()?;
    Ok(meta)
}
