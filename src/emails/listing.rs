//! Listing the cache: which folders a listing reads ([`Selector`]), which rows it keeps
//! (triage rules plus the toolbar's filter), in what order, paged; the same rows grouped into
//! threads; one thread whole. A page walks only as far as it needs (`walk.rs`), the totals
//! come from the store's counters (`counting.rs`), and records are decoded only for the page.

use std::collections::{HashMap, HashSet};

use super::account_ids;
use super::counting::{Counted, kept_total};
use super::walk::{Item, Source, walk};
use crate::error::{AppError, Result};
use crate::mailstore::{FolderState, MailRead, MessageMeta, flags, thread_hash};
use crate::messages;
use crate::store::Store;

pub use super::counting::{Counts, FolderInfo, counts, folders};
pub use crate::mailstore::is_unread_status;

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

/// The role a listing gives a Gmail label folder (its stored role is ""): its mail is listed
/// whatever its status, as Gmail shows an archived mail under its labels.
pub const LABEL: &str = "label";

/// How a listing's URL names one folder by its server path, whatever its name
/// (`/api/threads/box:{path}`): the web opens the user's own folders so.
pub const BOX_PREFIX: &str = "box:";

/// Which messages a listing wants.
#[derive(Debug, Clone, PartialEq)]
pub enum Selector {
    /// Folders with this role: inbox, sent, drafts, junk, trash, archive.
    Role(&'static str),
    /// A folder by its IMAP name or display name.
    Named(String),
    /// A folder by its server path and nothing else (`box:{path}`): a user's own folder called
    /// "Sent", "Spam" or "Archive" is itself, never the fixed or virtual folder of that name.
    Path(String),
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
    /// The spec's folder names (`/api/emails/{folder}`), or `box:{path}`: one folder by its
    /// server path.
    pub fn for_folder(name: &str) -> Self {
        if let Some(path) = name.strip_prefix(BOX_PREFIX) {
            return Self::Path(path.to_string());
        }
        match name.to_lowercase().as_str() {
            "inbox" | "" => Self::Role("inbox"),
            "sent" => Self::Role("sent"),
            "drafts" => Self::Role("drafts"),
            "trash" => Self::Role("trash"),
            "junk" => Self::Role("junk"),
            "archive" => Self::Role("archive"),
            "snoozed" => Self::Role("snoozed"),
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
        if name.starts_with(BOX_PREFIX) {
            return Self::for_folder(name);
        }
        Self::for_virtual(name).unwrap_or_else(|| Self::for_folder(name))
    }

    fn folder_matches(&self, f: &FolderState) -> bool {
        match self {
            Self::Role(role) => f.role == *role,
            Self::Named(name) => f.name == *name || f.display_name == *name,
            Self::Path(path) => f.name == *path,
            // A Gmail label folder's mail is stored under its home folder too: listed there.
            Self::Starred | Self::All | Self::Status { .. } => !f.labels,
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
            // Snoozed mail is out of sight until it wakes, whatever its status.
            Self::Status { .. } if role == "snoozed" => false,
            Self::Status {
                statuses,
                also_role,
            } => match status {
                Some(s) => statuses.contains(&s),
                None => also_role.is_some_and(|r| role == r),
            },
            Self::Role(_) | Self::Named(_) | Self::Path(_) => match status {
                Some(s) if AWAY.contains(&s) => {
                    // Junk keeps its spam, Archive its processed mail, Snoozed all of its own,
                    // a Gmail label all but spam (archived mail keeps its labels).
                    (role == "junk" && matches!(s, "spam" | "suspicious"))
                        || (role == "archive" && s == "processed")
                        || role == "snoozed"
                        || (role == LABEL && !matches!(s, "spam" | "suspicious"))
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
/// (a needs-reply mail moved to Trash keeps its keyword there; a snoozed one waits for its
/// time).
pub fn waits_for_user(role: &str) -> bool {
    !matches!(role, "trash" | "junk" | "sent" | "drafts" | "snoozed")
}

/// Every message of the sources the listing keeps, sorted by sender or subject (ties newest
/// first): these orders need every row, so they cost the folder.
fn sorted_by_key(
    mail: &MailRead,
    sources: &[Source],
    sel: &Selector,
    opts: &ListOptions,
) -> Result<Vec<Item>> {
    let mut out: Vec<(String, Item)> = Vec::new();
    for (i, s) in sources.iter().enumerate() {
        for r in mail.rows(s.account, &s.folder.name)? {
            let r = r?;
            let row = r.view();
            let bits = row.bits();
            if !sel.row_matches(&s.folder.role, bits) || !opts.keeps(bits) {
                continue;
            }
            let key = match opts.sort {
                SortKey::Sender => row.sender(),
                _ => row.subject(),
            };
            out.push((
                key.to_string(),
                Item {
                    date: r.date(),
                    id: r.id(),
                    source: i,
                    bits,
                    thread: row.thread(),
                },
            ));
        }
    }
    let asc = opts.ascending;
    out.sort_by(|(ka, a), (kb, b)| {
        let by_key = if asc { ka.cmp(kb) } else { kb.cmp(ka) };
        by_key.then((b.date, b.id).cmp(&(a.date, a.id)))
    });
    Ok(out.into_iter().map(|(_, it)| it).collect())
}

/// The listing's messages in its order, read lazily when the order is by date.
fn ordered<'a>(
    mail: &'a MailRead,
    sources: &'a [Source],
    sel: &'a Selector,
    opts: &'a ListOptions,
) -> Result<Box<dyn Iterator<Item = Result<Item>> + 'a>> {
    Ok(match opts.sort {
        SortKey::Date => Box::new(walk(mail, sources, sel, opts, opts.ascending)?),
        _ => Box::new(sorted_by_key(mail, sources, sel, opts)?.into_iter().map(Ok)),
    })
}

/// A snapshot of the user's mail and the folders a listing reads.
fn open(store: &Store, user_id: u64, sel: &Selector) -> Result<(MailRead, Vec<Source>)> {
    let accounts = account_ids(store, user_id)?;
    let mail = MailRead::new(store)?;
    let mut sources = Vec::new();
    for account in accounts {
        for mut folder in mail.folders(account)? {
            if sel.folder_matches(&folder) {
                // A Gmail label lists its mail whatever its status (see `row_matches`).
                if folder.labels && folder.role.is_empty() {
                    folder.role = LABEL.to_string();
                }
                sources.push(Source { account, folder });
            }
        }
    }
    Ok((mail, sources))
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
    let mut ids = Vec::with_capacity(per_page);
    for item in ordered(&mail, &sources, sel, opts)?
        .skip(skip)
        .take(per_page)
    {
        ids.push(item?.id);
    }
    Ok(Page {
        emails: mail.metas(ids)?,
        total: kept_total(&mail, &sources, sel, opts, Counted::Mail)?,
    })
}

/// What a thread's row shows about all of its mail the listing keeps.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ThreadTotals {
    pub count: usize,
    /// Every kept mail is read.
    pub is_read: bool,
    pub is_starred: bool,
    pub has_attachments: bool,
    pub urgent: bool,
    /// The statuses its mail carries.
    pub statuses: Vec<&'static str>,
    /// Display names (or addresses) of the senders, the newest mail's first.
    pub participants: Vec<String>,
}

impl ThreadTotals {
    fn add_bits(&mut self, bits: u16, n: usize) {
        if self.count == 0 {
            self.is_read = true;
        }
        self.count += n;
        self.is_read &= bits & flags::SEEN != 0;
        self.is_starred |= bits & flags::FLAGGED != 0;
        self.has_attachments |= bits & flags::ATTACHMENT != 0;
        self.urgent |= bits & flags::PRIORITY_URGENT != 0;
        if let Some(s) = flags::status_of(bits)
            && !self.statuses.contains(&s)
        {
            self.statuses.push(s);
        }
    }

    fn add_participant(&mut self, name: &str) {
        let name = name.trim();
        if !name.is_empty() && !self.participants.iter().any(|p| p == name) {
            self.participants.push(name.to_string());
        }
    }

    /// The totals of mail at hand (a thread read whole).
    pub fn of(emails: &[MessageMeta]) -> Self {
        let mut t = Self::default();
        for m in emails {
            t.add_bits(m.bits(), 1);
            t.add_participant(m.sender_name());
        }
        t
    }
}

/// A conversation in a listing (spec 000 §3 Thread): its mail newest first, all of it or (in a
/// page of threads) only the newest, and the totals over all of it.
pub struct Thread {
    pub emails: Vec<MessageMeta>,
    pub totals: ThreadTotals,
}

impl Thread {
    fn whole(emails: Vec<MessageMeta>) -> Self {
        Self {
            totals: ThreadTotals::of(&emails),
            emails,
        }
    }
}

pub struct ThreadPage {
    pub threads: Vec<Thread>,
    pub total: usize,
}

/// The listing's mail grouped by thread, threads in the order of their first mail; each
/// thread carries its newest kept mail and the totals of the rest (members on demand:
/// [`thread_by_id`]).
pub fn threads(
    store: &Store,
    user_id: u64,
    sel: &Selector,
    opts: &ListOptions,
    page: usize,
    per_page: usize,
) -> Result<ThreadPage> {
    let (mail, sources) = open(store, user_id, sel)?;
    let skip = page.saturating_sub(1) * per_page;
    let mut seen: HashSet<u64> = HashSet::new();
    let mut firsts: Vec<Item> = Vec::new();
    for item in ordered(&mail, &sources, sel, opts)? {
        let item = item?;
        if seen.insert(item.thread) {
            firsts.push(item);
            if firsts.len() == skip + per_page {
                break;
            }
        }
    }
    let mut threads = Vec::new();
    for first in firsts.into_iter().skip(skip) {
        let Some(newest) = mail.meta(first.id)? else {
            continue;
        };
        let totals = totals_from_records(&mail, &sources, sel, opts, &newest, first.thread)?;
        threads.push(Thread {
            emails: vec![newest],
            totals,
        });
    }
    Ok(ThreadPage {
        threads,
        total: kept_total(&mail, &sources, sel, opts, Counted::Threads)?,
    })
}

/// A thread's totals from its records in the listing's folders.
fn totals_from_records(
    mail: &MailRead,
    sources: &[Source],
    sel: &Selector,
    opts: &ListOptions,
    newest: &MessageMeta,
    thread: u64,
) -> Result<ThreadTotals> {
    let mut t = ThreadTotals::default();
    t.add_participant(newest.sender_name());
    for s in sources.iter().filter(|s| s.account == newest.account_id) {
        let rec = mail.thread(s.account, &s.folder.name, thread)?;
        let mut kept = false;
        for (bits, n) in &rec.bits {
            if sel.row_matches(&s.folder.role, *bits) && opts.keeps(*bits) {
                t.add_bits(*bits, *n as usize);
                kept = true;
            }
        }
        if kept {
            for (name, _) in &rec.names {
                t.add_participant(name);
            }
        }
    }
    if t.count == 0 {
        // Records not built yet (never after a start): count the mail at hand.
        t = ThreadTotals::of(std::slice::from_ref(newest));
    }
    Ok(t)
}

/// The mail of thread `hash` (of `account`) that the listing keeps, newest first.
fn members(
    mail: &MailRead,
    sources: &[Source],
    sel: &Selector,
    opts: &ListOptions,
    account: u64,
    hash: u64,
) -> Result<Vec<MessageMeta>> {
    let roles: HashMap<&str, &str> = sources
        .iter()
        .filter(|s| s.account == account)
        .map(|s| (s.folder.name.as_str(), s.folder.role.as_str()))
        .collect();
    let mut kept: Vec<(i64, u64)> = Vec::new();
    for (date, id, folder) in mail.members(account, hash)? {
        let Some(role) = roles.get(folder.as_str()) else {
            continue;
        };
        if let Some(e) = mail.index_entry(account, &folder, date, id)?
            && sel.row_matches(role, e.bits)
            && opts.keeps(e.bits)
        {
            kept.push((date, id));
        }
    }
    kept.sort_unstable_by(|a, b| b.cmp(a));
    Ok(mail.metas(kept.into_iter().map(|(_, id)| id))?)
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
    let hash = thread_hash(&meta.thread_id);
    let mut emails = members(&mail, &sources, sel, opts, meta.account_id, hash)?;
    if emails.is_empty() {
        emails.push(meta.clone());
    }
    Ok(Thread::whole(emails))
}

/// `GET /api/threads/{folder}/{threadId}`: every mail of the thread the listing keeps, newest
/// first; `None` when it keeps none.
pub fn thread_by_id(
    store: &Store,
    user_id: u64,
    sel: &Selector,
    opts: &ListOptions,
    thread_id: &str,
) -> Result<Option<Thread>> {
    let (mail, sources) = open(store, user_id, sel)?;
    let hash = thread_hash(thread_id);
    let mut emails = Vec::new();
    for account in account_ids(store, user_id)? {
        emails.extend(members(&mail, &sources, sel, opts, account, hash)?);
    }
    emails.sort_by_key(|m| std::cmp::Reverse((m.date, m.id)));
    Ok((!emails.is_empty()).then(|| Thread::whole(emails)))
}
