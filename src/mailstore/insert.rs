//! Storing new messages: the record, the raw bytes, the UID and index rows, the thread, and
//! the triage a queued move carried over; one `Added` entry in the change log each.

use redb::ReadableTable;

use super::changes::{self, Kind, Reason};
use super::derived::Derived;
use super::index::thread_hash;
use super::keywords;
use super::model::{Carried, Detection, Fetched, MessageMeta, hidden_key};
use super::raw::{Packed, RawTable, put_packed, put_raw};
use super::read::read_meta;
use super::tables::{CARRIED, HIDDEN_KEYS, IDENTITIES, INDEX, MESSAGES, MSGIDS, RAW_Z, SUBJECTS};
use super::uids::Uids;
use super::write::MailWrite;
use crate::mail::parse::Summary;
use crate::mail::threading;
use crate::store::record;

impl<'t> MailWrite<'t> {
    /// The tables a new message goes into, opened once for a batch.
    pub fn inserter(self) -> anyhow::Result<Inserter<'t>> {
        Inserter::new(self)
    }
}

/// The tables a new message goes into, opened once for a batch (the sync's and the
/// importer's).
pub struct Inserter<'t> {
    pub(super) w: MailWrite<'t>,
    pub(super) uids: Uids<'t>,
    pub(super) messages: redb::Table<'t, u64, &'static [u8]>,
    raw: RawTable<'t>,
    pub(super) index: redb::Table<'t, (u64, &'static str, i64, u64), &'static [u8]>,
    pub(super) hidden: redb::Table<'t, (u64, &'static str, &'static str), i64>,
    pub(super) carried: redb::Table<'t, (u64, &'static str), &'static [u8]>,
    msgids: redb::Table<'t, (u64, &'static str), &'static str>,
    subjects: redb::Table<'t, (u64, &'static str), &'static str>,
    pub(super) identities: redb::Table<'t, (u64, &'static str), u64>,
    pub(super) derived: Derived<'t>,
}

/// How many of a new message's ids (its own, its references) are checked for threads to merge.
const MERGE_KEYS: usize = 24;

impl<'t> Inserter<'t> {
    pub(super) fn new(w: MailWrite<'t>) -> anyhow::Result<Self> {
        let txn = w.txn;
        Ok(Self {
            w,
            uids: Uids::open(txn)?,
            messages: txn.open_table(MESSAGES)?,
            raw: txn.open_table(RAW_Z)?,
            index: txn.open_table(INDEX)?,
            hidden: txn.open_table(HIDDEN_KEYS)?,
            carried: txn.open_table(CARRIED)?,
            msgids: txn.open_table(MSGIDS)?,
            subjects: txn.open_table(SUBJECTS)?,
            identities: txn.open_table(IDENTITIES)?,
            derived: Derived::open(txn)?,
        })
    }

    pub fn has_uid(&self, account: u64, folder: &str, uid: u32) -> anyhow::Result<bool> {
        Ok(self.uids.get(account, folder, uid)?.is_some())
    }

    /// Stores one message whose summary the caller parsed (and whose raw bytes it packed, when
    /// `packed` is given); returns its record.
    pub fn insert(
        &mut self,
        account: u64,
        folder: &str,
        f: &Fetched,
        summary: Summary,
        packed: Option<Packed>,
    ) -> anyhow::Result<MessageMeta> {
        self.insert_detected(account, folder, f, summary, None, packed)
    }

    /// Stores one message with what spam detection decided for it: the mail is stored with its
    /// verdict, so no listing ever shows it without (its keywords and move are queued for the
    /// mailbox in this same transaction).
    pub fn insert_detected(
        &mut self,
        account: u64,
        folder: &str,
        f: &Fetched,
        summary: Summary,
        detection: Option<&Detection>,
        packed: Option<Packed>,
    ) -> anyhow::Result<MessageMeta> {
        let txn = self.w.txn;
        let id = crate::store::next_id(txn, "mail_messages")?;
        let date = summary
            .date
            .or(f.internal_date)
            .unwrap_or_else(crate::kit::now);
        let thread_id = match &f.thread {
            Some(t) => t.clone(),
            None => thread_for(&self.msgids, &self.subjects, account, id, &summary)?,
        };
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
            spam_score: None,
            advertisement: false,
            summary,
            places: Vec::new(),
            identity: f.identity.clone(),
            gm_labels: f.flags.labels.clone().unwrap_or_default(),
        };
        meta.take_triage_from_keywords();
        let mut carried_copy = false;
        if let Some(mid) = meta.summary.message_id.as_deref() {
            let carry: Option<Carried> = match self.carried.remove((account, mid))? {
                Some(v) => record::decode(v.value()).ok(),
                None => None,
            };
            if let Some(c) = carry {
                carried_copy = true;
                if !keywords::has_triage(&meta.keywords) {
                    meta.status = c.status;
                    meta.priority = c.priority;
                }
                meta.last_activity = c.last_activity;
                meta.spam_score = c.spam_score;
                meta.advertisement = c.advertisement;
                if let Some(date) = c.date {
                    meta.date = date;
                }
            }
        }
        // The copy a move made here yields keeps what it carried: a mail the user marked 'not
        // spam' (moved back to the inbox) is not judged again and sent back to Junk.
        let detected = !carried_copy && detection.is_some_and(|d| meta.take_detection(d));
        self.merge_threads(account, &meta)?;
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
        self.uids.insert(account, folder, f.uid, id)?;
        self.index.insert(
            (account, folder, meta.date, id),
            meta.index_row().encode().as_slice(),
        )?;
        self.derived.apply(None, Some(&meta.entry()))?;
        match &packed {
            Some(p) => put_packed(&mut self.raw, id, p)?,
            None => put_raw(&mut self.raw, id, &f.raw)?,
        }
        self.messages.insert(id, record::encode(&meta).as_slice())?;
        self.remember_identity(&meta)?;
        // A copy our own move yields is not new mail (rules, the auto-reply and "new mail"
        // notices leave it alone).
        let reason = match self.w.reason {
            Reason::Sync if carried_copy => Reason::Moved,
            r => r,
        };
        changes::append(txn, account, id, folder, Kind::Added, reason)?;
        if let (true, Some(d)) = (detected, detection)
            && let Some(carried) = self.w.queue_detected(&meta, d)?
            && let Some(mid) = meta.summary.message_id.as_deref()
        {
            self.carried
                .insert((account, mid), record::encode(&carried).as_slice())?;
        }
        Ok(meta)
    }
}

impl Inserter<'_> {
    /// Joins into the new message's thread the threads it links: mail that arrived before it
    /// and named it (or one of its references) as its root, and the threads its references
    /// are in. Without this, replies that arrive before their root stay a thread of their own.
    fn merge_threads(&mut self, account: u64, meta: &MessageMeta) -> anyhow::Result<()> {
        let s = &meta.summary;
        let into = meta.thread_id.as_str();
        let keys = s
            .message_id
            .iter()
            .chain(&s.references)
            .chain(&s.in_reply_to)
            .take(MERGE_KEYS);
        let mut others: Vec<String> = Vec::new();
        for key in keys {
            others.push(key.clone());
            if let Some(t) = self.msgids.get((account, key.as_str()))? {
                others.push(t.value().to_string());
            }
        }
        others.sort();
        others.dedup();
        for other in others.iter().filter(|o| o.as_str() != into) {
            for (_, id, _) in self.derived.members_of(account, thread_hash(other))? {
                self.relabel(id, other, into)?;
            }
        }
        Ok(())
    }

    /// Moves message `id` from thread `from` to thread `into`.
    fn relabel(&mut self, id: u64, from: &str, into: &str) -> anyhow::Result<()> {
        let Some(mut m) = read_meta(&self.messages, id)? else {
            return Ok(());
        };
        if m.thread_id != from {
            return Ok(());
        }
        let old = m.clone();
        m.thread_id = into.to_string();
        self.messages.insert(id, record::encode(&m).as_slice())?;
        self.index.insert(
            (m.account_id, m.folder.as_str(), m.date, id),
            m.index_row().encode().as_slice(),
        )?;
        self.derived.apply(Some(&old.entry()), Some(&m.entry()))?;
        let account = m.account_id;
        if let Some(mid) = m.summary.message_id.as_deref()
            && self
                .msgids
                .get((account, mid))?
                .is_some_and(|t| t.value() == from)
        {
            self.msgids.insert((account, mid), into)?;
        }
        let (norm, _) = threading::normalize_subject(&m.summary.subject);
        if !norm.is_empty()
            && self
                .subjects
                .get((account, norm.as_str()))?
                .is_some_and(|t| t.value() == from)
        {
            self.subjects.insert((account, norm.as_str()), into)?;
        }
        changes::append(
            self.w.txn,
            account,
            id,
            &m.folder,
            Kind::Updated,
            self.w.reason,
        )
        .map_err(Into::into)
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
