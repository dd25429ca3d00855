//! Listing the cache: which folders a listing reads ([`Selector`]), which rows it keeps
//! (triage rules plus the toolbar's filter), in what order, paged; the same rows grouped into
//! threads; and the folder counts. Everything here walks the index (one small row per
//! message) and decodes records only for the page it returns.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::account_ids;
use crate::error::{AppError, Result};
use crate::mailstore::{FolderState, MailRead, MessageMeta, Row, flags};
use crate::messages;
use crate::store::Store;

/// Statuses that send mail to a virtual folder, out of the real folder's listing.
pub const AWAY: [&str; 5] = ["processed", "spam", "suspicious", "advertisement", "info"];

/// The virtual folder a status lists mail under (spec 000 §2), if any.
pub fn virtual_folder(status: Option<&str>) -> Option<&'static str> {
    match status? {
        "processed" => Some("Archive"),
        "spam" | "suspicious" => Some("Spam"),
        "advertisement" => Some("Promotions"),
        "info" => Some("Updates"),
        _ => None,
    }
}

/// Which messages a listing wants.
#[derive(Debug, Clone, PartialEq)]
pub enum Selector {
    /// Folders with this role: inbox, sent, drafts, junk, trash, archive.
    Role(&'static str),
    /// A folder by its IMAP name or display name.
    Named(String),
    /// Flagged mail in any folder, whatever its status.
    Starred,
    /// Every folder.
    All,
    /// A virtual folder: these statuses anywhere, plus mail without a status in the folder of
    /// `also_role`.
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

    /// `/api/threads/{folder}`: a virtual folder by its name, else a real one.
    pub fn for_any(name: &str) -> Self {
        Self::for_virtual(name).unwrap_or_else(|| Self::for_folder(name))
    }

    fn folder_matches(&self, f: &FolderState) -> bool {
        match self {
            Self::Role(role) => f.role == *role,
            Self::Named(name) => f.name == *name || f.display_name == *name,
            Self::Starred | Self::All | Self::Status { .. } => true,
        }
    }

    pub fn row_matches(&self, role: &str, bits: u16) -> bool {
        if bits & flags::HIDDEN != 0 {
            return false;
        }
        let status = flags::status_of(bits);
        match self {
            Self::Starred => bits & flags::FLAGGED != 0,
            Self::All => true,
            Self::Status {
                statuses,
                also_role,
            } => match status {
                Some(s) => statuses.contains(&s),
                None => also_role.is_some_and(|r| role == r),
            },
            Self::Role(_) | Self::Named(_) => match status {
                Some(s) if AWAY.contains(&s) => {
                    // Junk keeps its spam and Archive its processed mail.
                    (role == "junk" && matches!(s, "spam" | "suspicious"))
                        || (role == "archive" && s == "processed")
                }
                _ => true,
            },
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum SortKey {
    #[default]
    Date,
    Sender,
    Subject,
}

/// The toolbar's filter and sort (`filter`, `status`, `sort`, `order`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListOptions {
    pub unread: bool,
    pub starred: bool,
    pub attachment: bool,
    /// A status, or "urgent" for the priority.
    pub status: Option<String>,
    pub sort: SortKey,
    pub ascending: bool,
}

impl ListOptions {
    /// From the query values; unknown values are a 400 with the Hebrew message.
    pub fn parse(
        filter: Option<&str>,
        status: Option<&str>,
        sort: Option<&str>,
        order: Option<&str>,
    ) -> Result<Self> {
        let bad = || AppError::BadRequest(messages::LIST_OPTION_INVALID.into());
        let mut o = Self::default();
        for f in filter.unwrap_or("").split(',').map(str::trim) {
            match f {
                "" => {}
                "unread" => o.unread = true,
                "starred" => o.starred = true,
                "attachment" | "has_attachment" | "attachments" => o.attachment = true,
                _ => return Err(bad()),
            }
        }
        if let Some(s) = status
            .map(str::trim)
            .filter(|s| !s.is_empty() && *s != "all")
        {
            if s != "urgent" && !flags::STATUSES.contains(&s) {
                return Err(bad());
            }
            o.status = Some(s.to_string());
        }
        o.sort = match sort.map(str::trim).unwrap_or("") {
            "" | "date" => SortKey::Date,
            "sender" | "from" => SortKey::Sender,
            "subject" => SortKey::Subject,
            _ => return Err(bad()),
        };
        o.ascending = match order.map(str::trim).unwrap_or("") {
            "" => o.sort != SortKey::Date,
            "asc" => true,
            "desc" => false,
            _ => return Err(bad()),
        };
        Ok(o)
    }

    pub fn keeps(&self, bits: u16) -> bool {
        if self.unread && bits & flags::SEEN != 0
            || self.starred && bits & flags::FLAGGED == 0
            || self.attachment && bits & flags::ATTACHMENT == 0
        {
            return false;
        }
        match self.status.as_deref() {
            None => true,
            Some("urgent") => bits & flags::PRIORITY_URGENT != 0,
            Some("unread") => is_unread_status(bits),
            Some(s) => flags::status_of(bits) == Some(s),
        }
    }
}

/// Folders whose mail never waits for the user: needs-reply, urgent and overdue leave them out
/// (a needs-reply mail moved to Trash keeps its keyword there).
pub fn waits_for_user(role: &str) -> bool {
    !matches!(role, "trash" | "junk" | "sent" | "drafts")
}

/// The spec's "unread" status: set explicitly, or unseen mail nobody has triaged.
pub fn is_unread_status(bits: u16) -> bool {
    match flags::status_of(bits) {
        Some("unread") => true,
        None => bits & flags::SEEN == 0,
        _ => false,
    }
}

pub(super) fn folders_of(mail: &MailRead, account: u64) -> Result<Vec<FolderState>> {
    Ok(mail.folders(account)?)
}

/// Calls `f(account, folder, row)` for every indexed message of the user.
pub(super) fn for_each_row(
    store: &Store,
    user_id: u64,
    mut f: impl FnMut(u64, &FolderState, &Row),
) -> Result<()> {
    let accounts = account_ids(store, user_id)?;
    let mail = MailRead::new(store)?;
    for account in accounts {
        for folder in folders_of(&mail, account)? {
            for row in mail.rows(account, &folder.name)? {
                let row = row?;
                f(account, &folder, &row);
            }
        }
    }
    Ok(())
}

/// One listed message, enough to order, group and page without its record.
#[derive(Debug, Clone)]
struct Hit {
    date: i64,
    id: u64,
    thread: u64,
    sort: String,
}

fn sources(mail: &MailRead, accounts: &[u64], sel: &Selector) -> Result<Vec<(u64, FolderState)>> {
    let mut out = Vec::new();
    for account in accounts {
        for f in folders_of(mail, *account)? {
            if sel.folder_matches(&f) {
                out.push((*account, f));
            }
        }
    }
    Ok(out)
}

/// A snapshot of the user's mail and the folders a listing reads.
fn open(
    store: &Store,
    user_id: u64,
    sel: &Selector,
) -> Result<(MailRead, Vec<(u64, FolderState)>)> {
    let accounts = account_ids(store, user_id)?;
    let mail = MailRead::new(store)?;
    let sources = sources(&mail, &accounts, sel)?;
    Ok((mail, sources))
}

/// Every row the listing keeps, in the listing's order.
fn hits(
    mail: &MailRead,
    sources: &[(u64, FolderState)],
    sel: &Selector,
    opts: &ListOptions,
) -> Result<Vec<Hit>> {
    let mut out = Vec::new();
    for (account, f) in sources {
        for r in mail.rows(*account, &f.name)? {
            let r = r?;
            let row = r.view();
            let bits = row.bits();
            if !sel.row_matches(&f.role, bits) || !opts.keeps(bits) {
                continue;
            }
            out.push(Hit {
                date: r.date(),
                id: r.id(),
                thread: row.thread(),
                sort: match opts.sort {
                    SortKey::Date => String::new(),
                    SortKey::Sender => row.sender().to_string(),
                    SortKey::Subject => row.subject().to_string(),
                },
            });
        }
    }
    // Ties (same sender or subject) newest first either way.
    match (opts.sort, opts.ascending) {
        (SortKey::Date, false) => out.sort_unstable_by_key(|h| std::cmp::Reverse((h.date, h.id))),
        (SortKey::Date, true) => out.sort_unstable_by_key(|h| (h.date, h.id)),
        (_, asc) => out.sort_by(|a, b| {
            let by_key = if asc {
                a.sort.cmp(&b.sort)
            } else {
                b.sort.cmp(&a.sort)
            };
            by_key.then((b.date, b.id).cmp(&(a.date, a.id)))
        }),
    }
    Ok(out)
}

pub struct Page {
    pub emails: Vec<MessageMeta>,
    pub total: usize,
}

/// `per_page` messages from `page` (1-based).
pub fn list(
    store: &Store,
    user_id: u64,
    sel: &Selector,
    opts: &ListOptions,
    page: usize,
    per_page: usize,
) -> Result<Page> {
    let (mail, sources) = open(store, user_id, sel)?;
    let skip = page.saturating_sub(1) * per_page;
    if sources.len() == 1 && opts.sort == SortKey::Date && !opts.ascending {
        // One folder newest first (the common case): walk it, decode only the page.
        let (account, f) = &sources[0];
        let mut ids = Vec::new();
        let mut total = 0;
        for row in mail.rows(*account, &f.name)?.rev() {
            let row = row?;
            let bits = row.view().bits();
            if sel.row_matches(&f.role, bits) && opts.keeps(bits) {
                if total >= skip && ids.len() < per_page {
                    ids.push(row.id());
                }
                total += 1;
            }
        }
        return Ok(Page {
            emails: mail.metas(ids)?,
            total,
        });
    }
    let all = hits(&mail, &sources, sel, opts)?;
    let total = all.len();
    let ids = all.iter().skip(skip).take(per_page).map(|h| h.id);
    Ok(Page {
        emails: mail.metas(ids)?,
        total,
    })
}

/// A conversation in a listing (spec 000 §3 Thread): its mail newest first.
pub struct Thread {
    pub emails: Vec<MessageMeta>,
}

pub struct ThreadPage {
    pub threads: Vec<Thread>,
    pub total: usize,
}

/// The listing's mail grouped by thread, threads in the order of their first mail.
pub fn threads(
    store: &Store,
    user_id: u64,
    sel: &Selector,
    opts: &ListOptions,
    page: usize,
    per_page: usize,
) -> Result<ThreadPage> {
    let (mail, sources) = open(store, user_id, sel)?;
    let all = hits(&mail, &sources, sel, opts)?;
    let mut order: Vec<u64> = Vec::new();
    let mut seen: HashSet<u64> = HashSet::with_capacity(all.len());
    for h in &all {
        if seen.insert(h.thread) {
            order.push(h.thread);
        }
    }
    let skip = page.saturating_sub(1) * per_page;
    let wanted: Vec<u64> = order.iter().skip(skip).take(per_page).copied().collect();
    let slot: HashMap<u64, usize> = wanted.iter().enumerate().map(|(i, t)| (*t, i)).collect();
    let mut members: Vec<Vec<(i64, u64)>> = vec![Vec::new(); wanted.len()];
    for h in &all {
        if let Some(i) = slot.get(&h.thread) {
            members[*i].push((h.date, h.id));
        }
    }
    let mut threads = Vec::with_capacity(members.len());
    for mut m in members {
        m.sort_unstable_by(|a, b| b.cmp(a));
        let emails = mail.metas(m.into_iter().map(|(_, id)| id))?;
        if !emails.is_empty() {
            threads.push(Thread { emails });
        }
    }
    Ok(ThreadPage {
        threads,
        total: order.len(),
    })
}

/// The spec's folder counts (000 §3), plus `unread` and `urgent`. The badges count what the
/// listings show: `processed`, `spam`, `advertisements` and `info` are the sizes of the
/// virtual folders; `unread` counts inbox mail that is unread and untriaged, so the inbox
/// badge `needsReply + unread` counts no mail twice.
#[derive(Debug, Default, Serialize, PartialEq, Clone, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "EmailCountsResponse")]
pub struct Counts {
    pub inbox: usize,
    pub unread: usize,
    pub starred: usize,
    pub needs_reply: usize,
    pub urgent: usize,
    pub processed: usize,
    pub spam: usize,
    pub advertisements: usize,
    pub info: usize,
    pub sent: usize,
    pub drafts: usize,
    pub trash: usize,
}

pub fn counts(store: &Store, user_id: u64) -> Result<Counts> {
    let mut c = Counts::default();
    let inbox = Selector::Role("inbox");
    let real = |role: &'static str| Selector::Role(role);
    let (sent, drafts, trash) = (real("sent"), real("drafts"), real("trash"));
    let spam = Selector::for_virtual("spam").expect("virtual");
    let archive = Selector::for_virtual("archive").expect("virtual");
    for_each_row(store, user_id, |_, f, r| {
        let bits = r.view().bits();
        if bits & flags::HIDDEN != 0 {
            return;
        }
        let role = f.role.as_str();
        match role {
            "inbox" if inbox.row_matches(role, bits) => {
                c.inbox += 1;
                if is_unread_status(bits) {
                    c.unread += 1;
                }
            }
            "sent" if sent.row_matches(role, bits) => c.sent += 1,
            "drafts" if drafts.row_matches(role, bits) => c.drafts += 1,
            "trash" if trash.row_matches(role, bits) => c.trash += 1,
            _ => {}
        }
        if bits & flags::FLAGGED != 0 {
            c.starred += 1;
        }
        let waits = waits_for_user(role);
        if waits && bits & flags::PRIORITY_URGENT != 0 {
            c.urgent += 1;
        }
        match flags::status_of(bits) {
            Some("needs_reply") if waits => c.needs_reply += 1,
            Some("advertisement") => c.advertisements += 1,
            Some("info") => c.info += 1,
            _ => {}
        }
        if spam.row_matches(role, bits) {
            c.spam += 1;
        }
        if archive.row_matches(role, bits) {
            c.processed += 1;
        }
    })?;
    Ok(c)
}

/// `meta`'s thread as the listing `sel` (with `opts`) shows it after a change: its mail that
/// the listing keeps, newest first. When the listing no longer keeps any of it (the mail moved
/// away), the mail itself, so the answer still describes it.
pub fn thread_in(
    store: &Store,
    user_id: u64,
    sel: &Selector,
    opts: &ListOptions,
    meta: &MessageMeta,
) -> Result<Thread> {
    let (mail, sources) = open(store, user_id, sel)?;
    let hash = crate::mailstore::thread_hash(&meta.thread_id);
    let mut members: Vec<(i64, u64)> = hits(&mail, &sources, sel, opts)?
        .into_iter()
        .filter(|h| h.thread == hash)
        .map(|h| (h.date, h.id))
        .collect();
    members.sort_unstable_by(|a, b| b.cmp(a));
    let mut emails = mail.metas(members.into_iter().map(|(_, id)| id))?;
    if emails.is_empty() {
        emails.push(meta.clone());
    }
    Ok(Thread { emails })
}

/// The user's folders with their roles and counts, for the sidebar's own-folders list.
#[derive(Debug, Serialize, ts_rs::TS)]
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
    let mail = MailRead::new(store)?;
    let mut out = Vec::new();
    for account in accounts {
        for f in folders_of(&mail, account)? {
            let (mut total, mut unread) = (0, 0);
            for row in mail.rows(account, &f.name)? {
                let bits = row?.view().bits();
                if bits & flags::HIDDEN == 0 {
                    total += 1;
                    if bits & flags::SEEN == 0 {
                        unread += 1;
                    }
                }
            }
            out.push(FolderInfo {
                account_id: account,
                display_name: f.display_name,
                name: f.name,
                role: f.role,
                total,
                unread,
            });
        }
    }
    Ok(out)
}
