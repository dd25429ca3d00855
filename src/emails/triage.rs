//! Triage (spec 000 §4): statuses and priority, where a status lists the mail (`movedTo`),
//! and what goes to the mailbox: the status as a keyword, spam to Junk, processed mail to
//! Archive, an inbox status out of Junk or Archive back to INBOX. Also deleting from this site
//! only (§5), moving to Trash, bulk actions and auto-archive. Each change is written locally in
//! one transaction with its queued server change; the account's sync task pushes it.

use std::collections::{HashMap, HashSet};

use super::listing::virtual_folder;
use super::{apply_flags, owned_meta, user_accounts};
use crate::error::{AppError, Result};
use crate::hooks::Hooks;
use crate::kit::now;
use crate::mailstore::{self as mstore, MailWrite, MessageMeta, Reason, flags, keywords};
use crate::messages;
use crate::store::Store;

pub const DAY: i64 = 86_400;
/// Auto-archive: no activity for this long (spec 000 §9).
pub const AUTO_ARCHIVE_AFTER: i64 = 7 * DAY;
pub const BULK_MAX: usize = 1000;

/// Role → folder name per account, read once per transaction.
type RolesCache = HashMap<u64, HashMap<String, String>>;

fn roles_for<'a>(
    cache: &'a mut RolesCache,
    w: MailWrite,
    account: u64,
) -> Result<&'a HashMap<String, String>> {
    if let std::collections::hash_map::Entry::Vacant(e) = cache.entry(account) {
        e.insert(w.roles(account)?);
    }
    Ok(&cache[&account])
}

/// The status and priority a request asks for, given the message's current ones.
pub fn resolve(
    status: &str,
    priority: Option<&str>,
    current: Option<&str>,
) -> Result<(Option<String>, Option<String>)> {
    let priority = match priority.map(str::trim) {
        Some("urgent") => Some("urgent"),
        Some("high") => Some("high"),
        // low and medium are not shown (spec §4) and not kept.
        Some("low" | "medium" | "" | "none") | None => None,
        Some(_) => return Err(AppError::BadRequest(messages::STATUS_INVALID.into())),
    };
    let status = status.trim();
    Ok(match status {
        "urgent" => (
            Some(current.unwrap_or("needs_reply").to_string()),
            Some("urgent".into()),
        ),
        "needs_reply" => (
            Some(status.into()),
            Some(priority.unwrap_or("high").to_string()),
        ),
        "none" | "" => (None, None),
        s if flags::STATUSES.contains(&s) => (Some(s.into()), priority.map(str::to_string)),
        _ => return Err(AppError::BadRequest(messages::STATUS_INVALID.into())),
    })
}

/// The folder key a real folder's mail is listed under.
fn home_key(role: &str, name: &str) -> String {
    if role.is_empty() {
        name.to_string()
    } else {
        role.to_string()
    }
}

/// Where a status sends the mail on the mailbox: the role of the target folder, if any.
fn move_for(status: Option<&str>, role: &str) -> Option<&'static str> {
    let from_inbox_like = role == "inbox" || role.is_empty();
    match status {
        Some("spam" | "suspicious") if from_inbox_like => Some("junk"),
        Some("processed") if from_inbox_like => Some("archive"),
        Some("spam" | "suspicious") => None,
        Some("processed") if role == "junk" => Some("inbox"),
        Some("processed") => None,
        // Anything else is not spam: out of Junk; an inbox status also out of Archive.
        _ if role == "junk" => Some("inbox"),
        Some("needs_reply" | "unread") | None if role == "archive" => Some("inbox"),
        _ => None,
    }
}

/// The result of a status change.
pub struct Moved {
    pub moved_to: String,
    pub meta: MessageMeta,
}

/// Applies a resolved status to one message in `txn` (with its keywords and move queued).
fn apply(
    w: MailWrite,
    hooks: &Hooks,
    user_id: u64,
    mut meta: MessageMeta,
    status: Option<String>,
    priority: Option<String>,
    roles_cache: &mut RolesCache,
) -> Result<Moved> {
    let before = meta.clone();
    let roles = roles_for(roles_cache, w, meta.account_id)?;
    let role = roles
        .iter()
        .find(|(_, name)| **name == meta.folder)
        .map(|(r, _)| r.clone())
        .unwrap_or_default();
    let target = move_for(status.as_deref(), &role).filter(|r| roles.contains_key(*r));
    meta.status = status;
    meta.priority = priority;
    meta.last_activity = Some(now());
    meta.keywords = keywords::with_triage(
        &meta.keywords,
        meta.status.as_deref(),
        meta.priority.as_deref(),
    );
    let wanted = keywords::for_triage(meta.status.as_deref(), meta.priority.as_deref());
    w.write_meta(&meta)?;
    // A marking in or out of spam trains spam detection, in this transaction.
    hooks.marked(w, user_id, &before, &meta)?;
    w.queue_change(&meta, |op| {
        op.keywords = Some(wanted);
        op.move_to = target.map(str::to_string);
    })?;
    // The copy the move yields is a new message here: it gets this triage back.
    if target.is_some()
        && let Some(mid) = meta.summary.message_id.as_deref()
    {
        let carried = mstore::Carried {
            status: meta.status.clone(),
            priority: meta.priority.clone(),
            last_activity: meta.last_activity,
            spam_score: meta.spam_score,
            advertisement: meta.advertisement,
            date: None,
        };
        w.carry(meta.account_id, mid, &carried)?;
    }
    let moved_to = match virtual_folder(meta.status.as_deref()) {
        Some(v) => v.to_string(),
        None if target == Some("inbox") => "inbox".into(),
        None => home_key(&role, &meta.folder),
    };
    Ok(Moved { moved_to, meta })
}

/// `PUT /api/emails/{id}/status`.
pub fn set_status(
    store: &Store,
    hooks: &Hooks,
    user_id: u64,
    id: u64,
    status: &str,
    priority: Option<&str>,
) -> Result<Moved> {
    let accounts = user_accounts(store, user_id)?;
    let txn = store.begin_write()?;
    let w = MailWrite::new(&txn, Reason::Status);
    let meta = owned_meta(w, &accounts, id)?;
    let (s, p) = resolve(status, priority, meta.status.as_deref())?;
    let moved = apply(w, hooks, user_id, meta, s, p, &mut HashMap::new())?;
    txn.commit()?;
    Ok(moved)
}

/// Hides a message from this site only; remembered by Message-ID so a re-sync keeps it hidden.
fn hide(w: MailWrite, meta: MessageMeta) -> Result<MessageMeta> {
    Ok(w.hide(meta, now())?)
}

/// Hides it here at once and queues the move to the mailbox's folder of `role`.
fn move_hidden(
    w: MailWrite,
    mut meta: MessageMeta,
    role: &str,
    create: bool,
) -> Result<MessageMeta> {
    meta.hidden = true;
    w.write_meta(&meta)?;
    w.queue_change(&meta, |op| {
        op.move_to = Some(role.to_string());
        op.create_target = create;
    })?;
    Ok(meta)
}

/// `DELETE /api/emails/{id}`.
pub fn delete(store: &Store, user_id: u64, id: u64) -> Result<MessageMeta> {
    let accounts = user_accounts(store, user_id)?;
    let txn = store.begin_write()?;
    let w = MailWrite::new(&txn, Reason::Delete);
    let meta = hide(w, owned_meta(w, &accounts, id)?)?;
    txn.commit()?;
    Ok(meta)
}

fn trash_one(w: MailWrite, meta: MessageMeta, roles_cache: &mut RolesCache) -> Result<MessageMeta> {
    let roles = roles_for(roles_cache, w, meta.account_id)?;
    let Some(trash) = roles.get("trash") else {
        return Err(AppError::BadRequest(messages::NO_TRASH_FOLDER.into()));
    };
    if *trash == meta.folder {
        return Ok(meta);
    }
    move_hidden(w, meta, "trash", false)
}

/// To the mailbox's Archive folder (created when it has none), as a phone's swipe asks; mail
/// already there stays.
fn archive_one(
    w: MailWrite,
    meta: MessageMeta,
    roles_cache: &mut RolesCache,
) -> Result<MessageMeta> {
    if roles_for(roles_cache, w, meta.account_id)?.get("archive") == Some(&meta.folder) {
        return Ok(meta);
    }
    move_hidden(w, meta, "archive", true)
}

/// `POST /api/emails/{id}/trash`.
pub fn trash(store: &Store, user_id: u64, id: u64) -> Result<MessageMeta> {
    let accounts = user_accounts(store, user_id)?;
    let txn = store.begin_write()?;
    let w = MailWrite::new(&txn, Reason::Delete);
    let meta = trash_one(w, owned_meta(w, &accounts, id)?, &mut HashMap::new())?;
    txn.commit()?;
    Ok(meta)
}

/// A rule's move: hidden here at once, moved to the mailbox's folder `folder` by the sync.
pub fn move_to_folder(store: &Store, user_id: u64, id: u64, folder: &str) -> Result<MessageMeta> {
    let accounts = user_accounts(store, user_id)?;
    let txn = store.begin_write()?;
    let w = MailWrite::new(&txn, Reason::Status);
    let meta = owned_meta(w, &accounts, id)?;
    if meta.folder == folder {
        return Ok(meta);
    }
    if w.folder(meta.account_id, folder)?.is_none() {
        return Err(AppError::NotFound(messages::FOLDER_NOT_FOUND.into()));
    }
    let meta = move_hidden(w, meta, &format!("folder:{folder}"), false)?;
    txn.commit()?;
    Ok(meta)
}

/// A rule's label: an IMAP keyword on the message, here and (by the sync) in the mailbox.
pub fn add_label(store: &Store, user_id: u64, id: u64, label: &str) -> Result<MessageMeta> {
    let accounts = user_accounts(store, user_id)?;
    let txn = store.begin_write()?;
    let w = MailWrite::new(&txn, Reason::Status);
    let mut meta = owned_meta(w, &accounts, id)?;
    if !meta.keywords.iter().any(|k| k.eq_ignore_ascii_case(label)) {
        meta.keywords.push(label.to_string());
        w.write_meta(&meta)?;
        let label = label.to_string();
        w.queue_change(&meta, move |op| {
            if !op.add_keywords.contains(&label) {
                op.add_keywords.push(label);
            }
        })?;
    }
    txn.commit()?;
    Ok(meta)
}

#[derive(Debug, Clone, PartialEq)]
pub enum BulkAction {
    Status(String, Option<String>),
    Delete,
    Trash,
    Archive,
    Read(bool),
    Star(bool),
}

impl BulkAction {
    /// Why the mail changed, for the change log and the user's other sessions.
    pub fn reason(&self) -> Reason {
        match self {
            BulkAction::Status(..) | BulkAction::Archive => Reason::Status,
            BulkAction::Delete | BulkAction::Trash => Reason::Delete,
            BulkAction::Read(_) | BulkAction::Star(_) => Reason::Flags,
        }
    }

    pub fn parse(action: &str, status: Option<&str>, priority: Option<&str>) -> Result<Self> {
        Ok(match action {
            "status" => Self::Status(
                status
                    .ok_or_else(|| AppError::BadRequest(messages::STATUS_INVALID.into()))?
                    .to_string(),
                priority.map(str::to_string),
            ),
            "delete" => Self::Delete,
            "trash" => Self::Trash,
            "archive" => Self::Archive,
            "read" => Self::Read(true),
            "unread" => Self::Read(false),
            "star" => Self::Star(true),
            "unstar" => Self::Star(false),
            _ => return Err(AppError::BadRequest(messages::BULK_ACTION_INVALID.into())),
        })
    }
}

pub struct BulkOutcome {
    pub updated: usize,
    /// The status's folder, when every message went to the same one.
    pub moved_to: Option<String>,
    pub accounts: HashSet<u64>,
    /// The changed mail as it is now.
    pub emails: Vec<MessageMeta>,
}

/// `POST /api/emails/bulk`: one transaction; ids that are not the user's are skipped.
pub fn bulk(
    store: &Store,
    hooks: &Hooks,
    user_id: u64,
    ids: &[u64],
    action: &BulkAction,
) -> Result<BulkOutcome> {
    if ids.is_empty() {
        return Err(AppError::BadRequest(messages::BULK_IDS_REQUIRED.into()));
    }
    if ids.len() > BULK_MAX {
        return Err(AppError::BadRequest(messages::bulk_too_many(BULK_MAX)));
    }
    if let BulkAction::Status(s, p) = action {
        // Validate once, before touching anything.
        resolve(s, p.as_deref(), None)?;
    }
    let accounts = user_accounts(store, user_id)?;
    let txn = store.begin_write()?;
    let w = MailWrite::new(&txn, action.reason());
    let mut roles = HashMap::new();
    let mut out = BulkOutcome {
        updated: 0,
        moved_to: None,
        accounts: HashSet::new(),
        emails: Vec::new(),
    };
    let mut folders_moved_to = HashSet::new();
    for id in ids {
        let Ok(meta) = owned_meta(w, &accounts, *id) else {
            continue;
        };
        out.accounts.insert(meta.account_id);
        let changed = match action {
            BulkAction::Status(s, p) => {
                let (s, p) = resolve(s, p.as_deref(), meta.status.as_deref())?;
                let moved = apply(w, hooks, user_id, meta, s, p, &mut roles)?;
                folders_moved_to.insert(moved.moved_to);
                moved.meta
            }
            BulkAction::Delete => hide(w, meta)?,
            BulkAction::Trash => {
                folders_moved_to.insert("trash".to_string());
                trash_one(w, meta, &mut roles)?
            }
            BulkAction::Archive => {
                folders_moved_to.insert("archive".to_string());
                archive_one(w, meta, &mut roles)?
            }
            BulkAction::Read(v) => apply_flags(w, meta, Some(*v), None)?,
            BulkAction::Star(v) => apply_flags(w, meta, None, Some(*v))?,
        };
        out.emails.push(changed);
        out.updated += 1;
    }
    txn.commit()?;
    if folders_moved_to.len() == 1 {
        out.moved_to = folders_moved_to.into_iter().next();
    }
    Ok(out)
}

/// Whether a message is an auto-archive candidate (spec 000 §4): status processed or info,
/// still in INBOX, with no activity for 7 days or more.
pub fn is_auto_archive_candidate(role: &str, bits: u16, activity: i64, now: i64) -> bool {
    role == "inbox" && crate::mailstore::is_archivable(bits) && now - activity >= AUTO_ARCHIVE_AFTER
}

/// `POST /api/emails/auto-archive`: each id still a candidate moves to the Archive folder
/// (created on the mailbox when it has none). Returns (archived, accounts touched).
pub fn auto_archive(store: &Store, user_id: u64, ids: &[u64]) -> Result<(usize, HashSet<u64>)> {
    if ids.len() > BULK_MAX {
        return Err(AppError::BadRequest(messages::bulk_too_many(BULK_MAX)));
    }
    let accounts = user_accounts(store, user_id)?;
    let txn = store.begin_write()?;
    let w = MailWrite::new(&txn, Reason::Status);
    let now = now();
    let mut archived = 0;
    let mut touched = HashSet::new();
    let mut roles_cache = RolesCache::new();
    for id in ids {
        let Ok(meta) = owned_meta(w, &accounts, *id) else {
            continue;
        };
        let inbox = roles_for(&mut roles_cache, w, meta.account_id)?
            .get("inbox")
            .cloned();
        let role = if inbox.as_deref() == Some(meta.folder.as_str()) {
            "inbox"
        } else {
            ""
        };
        if !is_auto_archive_candidate(role, meta.bits(), meta.activity(), now) {
            continue;
        }
        touched.insert(meta.account_id);
        move_hidden(w, meta, "archive", true)?;
        archived += 1;
    }
    txn.commit()?;
    Ok((archived, touched))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str, p: Option<&str>, cur: Option<&str>) -> (Option<String>, Option<String>) {
        resolve(s, p, cur).unwrap()
    }

    #[test]
    fn statuses_resolve_per_spec() {
        assert_eq!(
            r("needs_reply", None, None),
            (Some("needs_reply".into()), Some("high".into()))
        );
        assert_eq!(
            r("needs_reply", Some("urgent"), None),
            (Some("needs_reply".into()), Some("urgent".into()))
        );
        assert_eq!(
            r("urgent", None, Some("info")),
            (Some("info".into()), Some("urgent".into()))
        );
        assert_eq!(
            r("urgent", None, None),
            (Some("needs_reply".into()), Some("urgent".into()))
        );
        assert_eq!(
            r("processed", Some("low"), None),
            (Some("processed".into()), None)
        );
        assert_eq!(r("none", None, Some("spam")), (None, None));
        assert!(resolve("bogus", None, None).is_err());
        assert!(resolve("spam", Some("extreme"), None).is_err());
    }

    #[test]
    fn moves_follow_the_status_and_the_folder() {
        assert_eq!(move_for(Some("spam"), "inbox"), Some("junk"));
        assert_eq!(move_for(Some("suspicious"), ""), Some("junk"));
        assert_eq!(move_for(Some("processed"), "inbox"), Some("archive"));
        assert_eq!(move_for(Some("processed"), "sent"), None);
        assert_eq!(move_for(Some("info"), "inbox"), None);
        assert_eq!(move_for(Some("needs_reply"), "junk"), Some("inbox"));
        assert_eq!(move_for(Some("advertisement"), "junk"), Some("inbox"));
        assert_eq!(move_for(Some("spam"), "junk"), None);
        assert_eq!(move_for(Some("needs_reply"), "archive"), Some("inbox"));
        assert_eq!(move_for(Some("info"), "archive"), None);
        assert_eq!(move_for(None, "archive"), Some("inbox"));
    }

    #[test]
    fn auto_archive_boundary_is_seven_days() {
        let processed = flags::status_code(Some("processed")) << flags::STATUS_SHIFT;
        let info = flags::status_code(Some("info")) << flags::STATUS_SHIFT;
        let needs = flags::status_code(Some("needs_reply")) << flags::STATUS_SHIFT;
        let now = 1_800_000_000;
        assert!(is_auto_archive_candidate(
            "inbox",
            processed,
            now - 7 * DAY,
            now
        ));
        assert!(!is_auto_archive_candidate(
            "inbox",
            processed,
            now - 7 * DAY + 1,
            now
        ));
        assert!(is_auto_archive_candidate(
            "inbox",
            info,
            now - 30 * DAY,
            now
        ));
        assert!(!is_auto_archive_candidate(
            "inbox",
            needs,
            now - 30 * DAY,
            now
        ));
        assert!(!is_auto_archive_candidate(
            "archive",
            processed,
            now - 30 * DAY,
            now
        ));
        assert!(!is_auto_archive_candidate(
            "inbox",
            processed | flags::HIDDEN,
            now - 30 * DAY,
            now
        ));
    }
}
