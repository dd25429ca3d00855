//! The mail cache: what the sync engine writes and the email routes read. Tables are keyed by
//! account so one account's mail can be listed, counted or forgotten by a range; every reader
//! checks that the account belongs to the signed-in user first.
//!
//! Per message: a JSON [`MessageMeta`] (what the list shows), its raw bytes (the reading pane
//! parses them on demand, and a restart never refetches them), its place in its folder by UID
//! and by date, and its thread key.

use redb::{ReadableTable, TableDefinition, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::keywords;
use crate::mail::parse::Summary;
use crate::mail::threading;
use crate::store::record;

/// (account, folder name) → JSON [`FolderState`].
pub const FOLDERS: TableDefinition<(u64, &str), &[u8]> = TableDefinition::new("mail_folders");
/// message id → JSON [`MessageMeta`].
pub const MESSAGES: TableDefinition<u64, &[u8]> = TableDefinition::new("mail_messages");
/// message id → raw RFC 822 bytes. Replaced by [`RAW_Z`] in schema 6; kept for migrations.
pub const RAW: TableDefinition<u64, &[u8]> = TableDefinition::new("mail_raw");
/// (message id, part) → the raw RFC 822 bytes, zstd-compressed (a third of the size: the
/// store of a big mailbox stays smaller than the mailbox), in parts of at most
/// [`RAW_PART_BYTES`]. Read and write through [`get_raw`], [`put_raw`], [`remove_raw`].
pub const RAW_Z: TableDefinition<(u64, u16), &[u8]> = TableDefinition::new("mail_raw_z");

/// Two parts fill one 4 KiB page: a whole compressed message would take a page of the next
/// power of two and leave a third of it empty on average.
pub const RAW_PART_BYTES: usize = 1_900;

/// The raw-mail table as readers and writers see it.
pub type RawTable<'t> = redb::Table<'t, (u64, u16), &'static [u8]>;

/// Schema 6: raw mail compressed.
pub fn migrate_to_compressed_raw(txn: &WriteTransaction) -> Result<(), redb::Error> {
    let mut out = txn.open_table(RAW_Z)?;
    for e in txn.open_table(RAW)?.iter()? {
        let (k, v) = e?;
        put_raw(&mut out, k.value(), v.value())?;
    }
    drop(out);
    txn.delete_table(RAW)?;
    Ok(())
}

thread_local! {
    static COMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// Level 3: about 300 MB/s on one core, a third of the size on mail.
pub fn compress(raw: &[u8]) -> Vec<u8> {
    COMPRESSOR.with(|c| {
        let mut c = c.borrow_mut();
        if c.is_none() {
            *c = zstd::bulk::Compressor::new(3).ok();
        }
        c.as_mut()
            .and_then(|c| c.compress(raw).ok())
            .unwrap_or_else(|| zstd::stream::encode_all(raw, 3).unwrap_or_default())
    })
}

pub fn put_raw(table: &mut RawTable, id: u64, raw: &[u8]) -> Result<(), redb::Error> {
    let packed = compress(raw);
    // An empty message still has one (empty) part: "stored" and "absent" stay distinct.
    if packed.is_empty() {
        table.insert((id, 0), &[][..])?;
    }
    let parts = packed.len().div_ceil(RAW_PART_BYTES);
    if parts > usize::from(u16::MAX) {
        // Over 120 MB compressed: refused rather than stored wrong.
        return Err(redb::Error::ValueTooLarge(packed.len()));
    }
    for (i, part) in packed.chunks(RAW_PART_BYTES).enumerate() {
        table.insert((id, i as u16), part)?;
    }
    Ok(())
}

/// The raw bytes of message `id`.
pub fn get_raw(
    table: &impl ReadableTable<(u64, u16), &'static [u8]>,
    id: u64,
) -> anyhow::Result<Option<Vec<u8>>> {
    let mut packed = Vec::new();
    let mut found = false;
    for e in table.range((id, 0)..=(id, u16::MAX))? {
        packed.extend_from_slice(e?.1.value());
        found = true;
    }
    if !found {
        return Ok(None);
    }
    Ok(Some(zstd::stream::decode_all(packed.as_slice())?))
}

pub fn remove_raw(table: &mut RawTable, id: u64) -> Result<(), redb::Error> {
    table.retain_in((id, 0)..=(id, u16::MAX), |_, _| false)?;
    Ok(())
}
/// (account, folder, uid) → message id.
pub const UIDS: TableDefinition<(u64, &str, u32), u64> = TableDefinition::new("mail_uids");
/// (account, folder, date, message id) → flag byte. The first index (schema 2); replaced by
/// [`INDEX`] in schema 3 and kept only so migrations can create and drop it.
pub const BY_DATE: TableDefinition<(u64, &str, i64, u64), u8> =
    TableDefinition::new("mail_by_date");
/// (account, folder, date, message id) → an encoded [`IndexRow`]: listing newest first,
/// filtering, sorting, grouping into threads and counting without decoding a record.
pub const INDEX: TableDefinition<(u64, &str, i64, u64), &[u8]> = TableDefinition::new("mail_index");
/// (account, "", Message-ID or content hash) → when: mail deleted from this site only (spec 000
/// §5). Kept apart from the message so a re-sync that refetches it, or a move by another
/// client, hides it again; the folder part is empty: deleted here means in every folder.
pub const HIDDEN_KEYS: TableDefinition<(u64, &str, &str), i64> =
    TableDefinition::new("mail_hidden");
/// (account, Message-ID) → JSON [`Carried`]: the triage of a mail whose move is queued, put
/// back on the copy the target folder yields (its last activity always; its status when the
/// server keeps no keywords there).
pub const CARRIED: TableDefinition<(u64, &str), &[u8]> =
    TableDefinition::new("mail_carried_triage");

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Carried {
    pub status: Option<String>,
    pub priority: Option<String>,
    pub last_activity: Option<i64>,
}

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

/// Schema 3: the richer [`INDEX`] replaces [`BY_DATE`] (rebuilt from the records), and the
/// table of mail hidden from this site.
pub fn migrate_to_index(txn: &WriteTransaction) -> Result<(), redb::Error> {
    let mut index = txn.open_table(INDEX)?;
    txn.open_table(HIDDEN_KEYS)?;
    txn.open_table(CARRIED)?;
    let mut messages = txn.open_table(MESSAGES)?;
    let mut unreadable = std::collections::HashSet::new();
    for e in messages.iter()? {
        let (k, v) = e?;
        match record::decode::<MessageMeta>(v.value()) {
            Ok(meta) => {
                index.insert(
                    (meta.account_id, meta.folder.as_str(), meta.date, meta.id),
                    meta.index_row().encode().as_slice(),
                )?;
            }
            Err(_) => {
                unreadable.insert(k.value());
            }
        }
    }
    // A record this binary cannot read is forgotten whole, so the next sync fetches the mail
    // again (it skips UIDs it has).
    if !unreadable.is_empty() {
        for id in &unreadable {
            messages.remove(*id)?;
            txn.open_table(RAW)?.remove(*id)?;
        }
        txn.open_table(UIDS)?
            .retain(|_, id| !unreadable.contains(&id))?;
        txn.open_table(PENDING)?
            .retain(|(_, id), _| !unreadable.contains(&id))?;
    }
    drop(index);
    drop(messages);
    txn.delete_table(BY_DATE)?;
    Ok(())
}

/// The bits of an [`IndexRow`]: the IMAP flags the list needs, priority, and the status code.
pub mod flags {
    pub const SEEN: u16 = 1;
    pub const FLAGGED: u16 = 2;
    pub const HIDDEN: u16 = 4;
    pub const DRAFT: u16 = 8;
    pub const ANSWERED: u16 = 16;
    pub const ATTACHMENT: u16 = 32;
    pub const PRIORITY_HIGH: u16 = 64;
    pub const PRIORITY_URGENT: u16 = 128;
    pub const STATUS_SHIFT: u16 = 8;

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

    pub fn status_code(status: Option<&str>) -> u16 {
        status
            .and_then(|s| STATUSES.iter().position(|x| *x == s))
            .map_or(0, |i| i as u16 + 1)
    }

    pub fn status_of(bits: u16) -> Option<&'static str> {
        let code = (bits >> STATUS_SHIFT) as usize;
        (code > 0 && code <= STATUSES.len()).then(|| STATUSES[code - 1])
    }

    pub fn priority_of(bits: u16) -> Option<&'static str> {
        if bits & PRIORITY_URGENT != 0 {
            Some("urgent")
        } else if bits & PRIORITY_HIGH != 0 {
            Some("high")
        } else {
            None
        }
    }
}

/// What the index keeps per message besides its key: flag bits, a hash of the thread key,
/// the last activity time, and short sort keys for sender and subject.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexRow {
    pub bits: u16,
    pub thread: u64,
    pub activity: i64,
    pub sender: String,
    pub subject: String,
}

/// Sort keys are cut to this many bytes (at a character boundary): enough to order a list.
const SORT_KEY_BYTES: usize = 48;

impl IndexRow {
    pub fn encode(&self) -> Vec<u8> {
        let sender = cut(&self.sender, SORT_KEY_BYTES);
        let subject = cut(&self.subject, SORT_KEY_BYTES);
        let mut out = Vec::with_capacity(19 + sender.len() + subject.len());
        out.extend_from_slice(&self.bits.to_le_bytes());
        out.extend_from_slice(&self.thread.to_le_bytes());
        out.extend_from_slice(&self.activity.to_le_bytes());
        out.push(sender.len() as u8);
        out.extend_from_slice(sender.as_bytes());
        out.extend_from_slice(subject.as_bytes());
        out
    }
}

/// A borrowed view of an encoded [`IndexRow`], read in the listing loops without copying.
#[derive(Clone, Copy)]
pub struct IndexView<'a>(pub &'a [u8]);

impl<'a> IndexView<'a> {
    fn num<const N: usize>(&self, at: usize) -> [u8; N] {
        self.0
            .get(at..at + N)
            .and_then(|s| s.try_into().ok())
            .unwrap_or([0; N])
    }
    pub fn bits(&self) -> u16 {
        u16::from_le_bytes(self.num(0))
    }
    pub fn thread(&self) -> u64 {
        u64::from_le_bytes(self.num(2))
    }
    pub fn activity(&self) -> i64 {
        i64::from_le_bytes(self.num(10))
    }
    fn sender_len(&self) -> usize {
        self.0.get(18).copied().unwrap_or(0) as usize
    }
    pub fn sender(&self) -> &'a str {
        let end = (19 + self.sender_len()).min(self.0.len());
        std::str::from_utf8(self.0.get(19..end).unwrap_or_default()).unwrap_or("")
    }
    pub fn subject(&self) -> &'a str {
        let start = (19 + self.sender_len()).min(self.0.len());
        std::str::from_utf8(&self.0[start..]).unwrap_or("")
    }
}

fn cut(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// FNV-1a: a stable 64-bit hash of a thread key (stored, so it must not change between builds
/// the way std's hasher may).
pub fn thread_hash(key: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.as_bytes() {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
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
    /// The server lets us set our own keywords here (PERMANENTFLAGS has `\*`): its keywords
    /// then decide the status; without, the status stays local.
    #[serde(default)]
    pub keywords_ok: bool,
}

impl FolderState {
    /// A folder of a local account (no server): UIDs are numbered here from 1, the role comes
    /// from the name, keywords are always ours to set.
    pub fn local(name: &str) -> Self {
        Self {
            name: name.to_string(),
            display_name: name.to_string(),
            role: super::worker::role_by_name(name).to_string(),
            uidvalidity: 1,
            top: 1,
            down_to: 1,
            keywords_ok: true,
            ..Self::default()
        }
    }
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
    /// When its status last changed (spec 000 §3 lastActivity); the date until then.
    #[serde(default)]
    pub last_activity: Option<i64>,
    pub summary: Summary,
}

impl MessageMeta {
    pub fn bits(&self) -> u16 {
        let mut b = 0;
        for (on, bit) in [
            (self.seen, flags::SEEN),
            (self.flagged, flags::FLAGGED),
            (self.hidden, flags::HIDDEN),
            (self.draft, flags::DRAFT),
            (self.answered, flags::ANSWERED),
            (self.has_attachments(), flags::ATTACHMENT),
            (
                self.priority.as_deref() == Some("high"),
                flags::PRIORITY_HIGH,
            ),
            (
                self.priority.as_deref() == Some("urgent"),
                flags::PRIORITY_URGENT,
            ),
        ] {
            if on {
                b |= bit;
            }
        }
        b | (flags::status_code(self.status.as_deref()) << flags::STATUS_SHIFT)
    }

    pub fn has_attachments(&self) -> bool {
        self.summary.attachments.iter().any(|a| !a.inline)
    }

    /// Last status change, else the date.
    pub fn activity(&self) -> i64 {
        self.last_activity.unwrap_or(self.date).max(self.date)
    }

    /// The sender as people read it: the display name, else the address.
    pub fn sender_name(&self) -> &str {
        let s = &self.summary;
        if s.from_name.trim().is_empty() {
            s.from.trim()
        } else {
            s.from_name.trim()
        }
    }

    pub fn index_row(&self) -> IndexRow {
        IndexRow {
            bits: self.bits(),
            thread: thread_hash(&self.thread_id),
            activity: self.activity(),
            sender: self.sender_name().to_lowercase(),
            subject: threading::normalize_subject(&self.summary.subject)
                .0
                .to_lowercase(),
        }
    }

    /// Applies the triage state its keywords carry (the mailbox is the source of truth).
    pub fn take_triage_from_keywords(&mut self) {
        self.status = keywords::status_of(&self.keywords).map(str::to_string);
        self.priority = keywords::priority_of(&self.keywords).map(str::to_string);
    }
}

/// [`hidden_key`] of a stored message (its bytes are read only when it has no Message-ID).
pub fn hidden_key_of(txn: &WriteTransaction, meta: &MessageMeta) -> anyhow::Result<String> {
    let raw = match meta.summary.message_id.as_deref() {
        Some(id) if !id.is_empty() => Vec::new(),
        _ => get_raw(&txn.open_table(RAW_Z)?, meta.id)?.unwrap_or_default(),
    };
    Ok(hidden_key(meta.summary.message_id.as_deref(), &raw))
}

/// The key a hidden message is remembered by: its Message-ID, else a hash of its bytes.
pub fn hidden_key(message_id: Option<&str>, raw: &[u8]) -> String {
    match message_id {
        Some(id) if !id.is_empty() => id.to_string(),
        _ => {
            use sha2::Digest;
            let digest = sha2::Sha256::digest(raw);
            let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
            format!("sha256:{hex}")
        }
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
    /// The managed keywords (status, priority) the message must carry.
    #[serde(default)]
    pub keywords: Option<Vec<String>>,
    /// Move the message to the folder of this role (junk, archive, trash, inbox).
    #[serde(default)]
    pub move_to: Option<String>,
    /// Create the target folder when the mailbox has none (auto-archive).
    #[serde(default)]
    pub create_target: bool,
}

/// The [`INDEX`] keys of one folder.
pub fn folder_range(account: u64, folder: &str) -> std::ops::RangeInclusive<(u64, &str, i64, u64)> {
    (account, folder, i64::MIN, 0)..=(account, folder, i64::MAX, u64::MAX)
}

/// An account's folders, in name order ([`FOLDERS`] is keyed by account first).
pub fn account_folders(
    table: &impl ReadableTable<(u64, &'static str), &'static [u8]>,
    account: u64,
) -> anyhow::Result<Vec<FolderState>> {
    let mut out = Vec::new();
    for e in table.range((account, "")..)? {
        let (k, v) = e?;
        if k.value().0 != account {
            break;
        }
        out.push(record::decode(v.value())?);
    }
    Ok(out)
}

/// Role → folder name: where moves to Junk, Archive, Trash and INBOX go.
pub fn roles(folders: &[FolderState]) -> std::collections::HashMap<String, String> {
    let mut out = std::collections::HashMap::new();
    for f in folders.iter().filter(|f| !f.role.is_empty()) {
        out.entry(f.role.clone()).or_insert_with(|| f.name.clone());
    }
    out
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
    let mut inserter = Inserter::new(txn)?;
    let mut new = 0;
    for f in batch {
        if inserter.has_uid(account, folder, f.uid)? {
            continue;
        }
        let summary = crate::mail::parse::summary(&f.raw);
        inserter.insert(account, folder, f, summary)?;
        new += 1;
    }
    Ok(new)
}

/// The tables a new message goes into, opened once for a batch (the sync's and the
/// importer's).
pub struct Inserter<'t> {
    txn: &'t WriteTransaction,
    uids: redb::Table<'t, (u64, &'static str, u32), u64>,
    messages: redb::Table<'t, u64, &'static [u8]>,
    raw: RawTable<'t>,
    index: redb::Table<'t, (u64, &'static str, i64, u64), &'static [u8]>,
    hidden: redb::Table<'t, (u64, &'static str, &'static str), i64>,
    carried: redb::Table<'t, (u64, &'static str), &'static [u8]>,
    msgids: redb::Table<'t, (u64, &'static str), &'static str>,
    subjects: redb::Table<'t, (u64, &'static str), &'static str>,
}

impl<'t> Inserter<'t> {
    pub fn new(txn: &'t WriteTransaction) -> anyhow::Result<Self> {
        Ok(Self {
            txn,
            uids: txn.open_table(UIDS)?,
            messages: txn.open_table(MESSAGES)?,
            raw: txn.open_table(RAW_Z)?,
            index: txn.open_table(INDEX)?,
            hidden: txn.open_table(HIDDEN_KEYS)?,
            carried: txn.open_table(CARRIED)?,
            msgids: txn.open_table(MSGIDS)?,
            subjects: txn.open_table(SUBJECTS)?,
        })
    }

    pub fn has_uid(&self, account: u64, folder: &str, uid: u32) -> anyhow::Result<bool> {
        Ok(self.uids.get((account, folder, uid))?.is_some())
    }

    /// Stores one message whose summary the caller parsed; returns its record.
    pub fn insert(
        &mut self,
        account: u64,
        folder: &str,
        f: &Fetched,
        summary: Summary,
    ) -> anyhow::Result<MessageMeta> {
        let txn = self.txn;
        let id = crate::store::next_id(txn, "mail_messages")?;
        let date = summary
            .date
            .or(f.internal_date)
            .unwrap_or_else(|| time::OffsetDateTime::now_utc().unix_timestamp());
        let thread_id = thread_for(&self.msgids, &self.subjects, account, id, &summary)?;
        let hidden_key = hidden_key(summary.message_id.as_deref(), &f.raw);
        let is_hidden = self
            .hidden
            .get((account, "", hidden_key.as_str()))?
            .is_some();
        let mut meta = MessageMeta {
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
            hidden: is_hidden,
            last_activity: None,
            summary,
        };
        meta.take_triage_from_keywords();
        if let Some(mid) = meta.summary.message_id.as_deref() {
            let carry: Option<Carried> = match self.carried.remove((account, mid))? {
                Some(v) => record::decode(v.value()).ok(),
                None => None,
            };
            if let Some(c) = carry {
                if !keywords::has_triage(&meta.keywords) {
                    meta.status = c.status;
                    meta.priority = c.priority;
                }
                meta.last_activity = c.last_activity;
            }
        }
        if let Some(mid) = meta.summary.message_id.as_deref()
            && self.msgids.get((account, mid))?.is_none()
        {
            self.msgids.insert((account, mid), thread_id.as_str())?;
        }
        let (norm, _) = threading::normalize_subject(&meta.summary.subject);
        if !norm.is_empty() && self.subjects.get((account, norm.as_str()))?.is_none() {
            self.subjects
                .insert((account, norm.as_str()), thread_id.as_str())?;
        }
        self.uids.insert((account, folder, f.uid), id)?;
        self.index.insert(
            (account, folder, date, id),
            meta.index_row().encode().as_slice(),
        )?;
        put_raw(&mut self.raw, id, &f.raw)?;
        self.messages.insert(id, record::encode(&meta).as_slice())?;
        crate::search::queue::enqueue(txn, id)?;
        Ok(meta)
    }
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

/// Rewrites a message's record and its index row after a change.
pub fn write_meta(txn: &WriteTransaction, meta: &MessageMeta) -> anyhow::Result<()> {
    txn.open_table(MESSAGES)?
        .insert(meta.id, record::encode(meta).as_slice())?;
    txn.open_table(INDEX)?.insert(
        (meta.account_id, meta.folder.as_str(), meta.date, meta.id),
        meta.index_row().encode().as_slice(),
    )?;
    crate::search::queue::enqueue(txn, meta.id)?;
    Ok(())
}

/// Applies server flags to stored messages by UID; skips messages with local changes still
/// pending (they win until written to the server). With `keywords_decide`, the keywords also
/// set the triage status. Returns how many changed.
pub fn update_flags(
    txn: &WriteTransaction,
    account: u64,
    folder: &str,
    updates: &[(u32, ServerFlags)],
    keywords_decide: bool,
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
        // An unreadable record must not stop the folder's sync.
        let Ok(Some(mut meta)) = read_meta(&txn.open_table(MESSAGES)?, id) else {
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
        if keywords_decide {
            let before = (meta.status.clone(), meta.priority.clone());
            meta.take_triage_from_keywords();
            if before != (meta.status.clone(), meta.priority.clone()) {
                meta.last_activity = Some(time::OffsetDateTime::now_utc().unix_timestamp());
            }
        }
        write_meta(txn, &meta)?;
        changed += 1;
    }
    Ok(changed)
}

/// Deletes one stored message everywhere.
pub fn delete_message(txn: &WriteTransaction, id: u64) -> anyhow::Result<()> {
    let Some(meta) = read_meta(&txn.open_table(MESSAGES)?, id)? else {
        return Ok(());
    };
    txn.open_table(MESSAGES)?.remove(id)?;
    remove_raw(&mut txn.open_table(RAW_Z)?, id)?;
    crate::search::queue::enqueue(txn, id)?;
    txn.open_table(UIDS)?
        .remove((meta.account_id, meta.folder.as_str(), meta.uid))?;
    txn.open_table(INDEX)?
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
    let folders = account_folders(&txn.open_table(FOLDERS)?, account)?;
    for f in &folders {
        clear_folder(txn, account, &f.name)?;
        txn.open_table(FOLDERS)?
            .remove((account, f.name.as_str()))?;
    }
    txn.open_table(HIDDEN_KEYS)?
        .retain_in((account, "", "")..(account + 1, "", ""), |_, _| false)?;
    let whole = (account, "")..(account + 1, "");
    txn.open_table(CARRIED)?
        .retain_in(whole.clone(), |_, _| false)?;
    for table in [MSGIDS, SUBJECTS] {
        txn.open_table(table)?
            .retain_in(whole.clone(), |_, _| false)?;
    }
    let mut pending = txn.open_table(PENDING)?;
    pending.retain_in((account, 0)..=(account, u64::MAX), |_, _| false)?;
    crate::import::forget_account(txn, account)?;
    Ok(())
}

/// Shows again a message hidden while its move was pending, when the server refused the move
/// (unless the user deleted it from this site).
pub fn unhide(txn: &WriteTransaction, id: u64) -> anyhow::Result<()> {
    let Some(mut meta) = read_meta(&txn.open_table(MESSAGES)?, id)? else {
        return Ok(());
    };
    if !meta.hidden {
        return Ok(());
    }
    let key = hidden_key_of(txn, &meta)?;
    if txn
        .open_table(HIDDEN_KEYS)?
        .get((meta.account_id, "", key.as_str()))?
        .is_some()
    {
        return Ok(());
    }
    meta.hidden = false;
    write_meta(txn, &meta)
}
