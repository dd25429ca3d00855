//! What the store keeps up to date beside each index row, in the same transaction as every
//! change (insert, flag, triage, move, hide, expunge, UIDVALIDITY reset), so listings, counts
//! and Inbox Zero cost the page and not the mailbox:
//!
//! - per folder, how many messages carry each combination of index bits ([`COUNTS`]): every
//!   count and listing total is a sum over a few dozen of these;
//! - per tag (a status, starred, urgent, unread), the tagged messages by date ([`TAGS`]): the
//!   virtual folders, Starred and Inbox Zero walk these instead of whole folders;
//! - per thread, its members by date across folders ([`MEMBERS`]): a thread is read or
//!   relabelled without a scan;
//! - per folder, its processed and info mail by last activity ([`IDLE`]): the auto-archive
//!   candidates (idle for a week) are a range, not a walk over every triaged mail;
//! - per folder and thread, a summary ([`ThreadRec`]: the members' bits with counts, the
//!   senders), and per folder how many threads have each set of member bits
//!   ([`THREAD_SIGS`]): the thread total of any filter without grouping the folder.
//!
//! A store older than these tables gets them from a resumable builder ([`build_step`]):
//! messages below its cursor are counted, the rest are added by the builder from their record,
//! so writes made meanwhile never count a message twice.

use redb::{ReadableTable, Table, WriteTransaction};

use super::index::{flags, thread_hash};
use super::model::MessageMeta;
use super::tables::{COUNTS, IDLE, MEMBERS, MESSAGES, TAGS, THREAD_SIGS, THREADS};
use crate::store::record;

/// The META value holding the builder's cursor: messages with a smaller id are in the derived
/// tables. Absent once the build is complete.
pub(super) const BUILT_BELOW: &str = "mail_derived_built_below";

/// Tags of [`TAGS`]: a status's code (1..=7, see `flags::STATUSES`), or one of these.
pub mod tags {
    pub const FLAGGED: u8 = 16;
    pub const URGENT: u8 = 17;
    /// The spec's "unread" status: set explicitly, or unseen mail nobody has triaged.
    pub const UNREAD: u8 = 18;
}

/// The spec's "unread" status: set explicitly, or unseen mail nobody has triaged.
pub fn is_unread_status(bits: u16) -> bool {
    match flags::status_of(bits) {
        Some("unread") => true,
        None => bits & flags::SEEN == 0,
        _ => false,
    }
}

/// The tags a message with `bits` is listed under (none while hidden).
pub fn tags_of(bits: u16) -> impl Iterator<Item = u8> {
    let hidden = bits & flags::HIDDEN != 0;
    let status = (bits >> flags::STATUS_SHIFT) as u8;
    [
        (status != 0).then_some(status),
        (bits & flags::FLAGGED != 0).then_some(tags::FLAGGED),
        (bits & flags::PRIORITY_URGENT != 0).then_some(tags::URGENT),
        is_unread_status(bits).then_some(tags::UNREAD),
    ]
    .into_iter()
    .flatten()
    .filter(move |_| !hidden)
}

/// Whether a message with `bits` is kept in [`IDLE`]: processed or info, not hidden (the
/// statuses auto-archive offers to move out of the inbox once they have been idle a week).
pub fn is_archivable(bits: u16) -> bool {
    bits & flags::HIDDEN == 0 && matches!(flags::status_of(bits), Some("processed" | "info"))
}

/// The tag a listing's status filter (`status=`) reads: a status, "urgent" or "unread".
pub fn tag_of_status(status: &str) -> Option<u8> {
    match status {
        "urgent" => Some(tags::URGENT),
        "unread" => Some(tags::UNREAD),
        s => {
            let code = flags::status_code(Some(s));
            (code != 0).then_some(code as u8)
        }
    }
}

/// Longest sender name kept in a thread summary, and how many names it keeps.
const NAME_BYTES: usize = 64;
const NAMES: usize = 32;

/// One folder's part of a thread: its members' bits with how many carry each (sorted by bits),
/// and its senders with how many mails each sent, in the order they joined.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ThreadRec {
    pub bits: Vec<(u16, u32)>,
    pub names: Vec<(String, u32)>,
}

impl ThreadRec {
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + self.bits.len() * 6 + self.names.len() * 24);
        out.extend_from_slice(&(self.bits.len() as u16).to_le_bytes());
        for (b, n) in &self.bits {
            out.extend_from_slice(&b.to_le_bytes());
            out.extend_from_slice(&n.to_le_bytes());
        }
        for (name, n) in &self.names {
            out.extend_from_slice(&n.to_le_bytes());
            out.push(name.len() as u8);
            out.extend_from_slice(name.as_bytes());
        }
        out
    }

    /// Reads an encoded record; a damaged one reads as far as it is whole.
    pub fn decode(bytes: &[u8]) -> Self {
        let mut rec = Self::default();
        let mut at = 0;
        let take = |at: &mut usize, n: usize| -> Option<&[u8]> {
            let s = bytes.get(*at..*at + n)?;
            *at += n;
            Some(s)
        };
        let Some(count) = take(&mut at, 2) else {
            return rec;
        };
        for _ in 0..u16::from_le_bytes([count[0], count[1]]) {
            let (Some(b), Some(n)) = (take(&mut at, 2), take(&mut at, 4)) else {
                return rec;
            };
            rec.bits.push((
                u16::from_le_bytes([b[0], b[1]]),
                u32::from_le_bytes([n[0], n[1], n[2], n[3]]),
            ));
        }
        while let (Some(n), Some(len)) = (take(&mut at, 4), take(&mut at, 1)) {
            let n = u32::from_le_bytes([n[0], n[1], n[2], n[3]]);
            let Some(name) = take(&mut at, len[0] as usize) else {
                break;
            };
            rec.names
                .push((String::from_utf8_lossy(name).into_owned(), n));
        }
        rec
    }

    /// The distinct member bits, encoded: the key of [`THREAD_SIGS`].
    pub fn signature(&self) -> Vec<u8> {
        self.bits
            .iter()
            .flat_map(|(b, _)| b.to_le_bytes())
            .collect()
    }

    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }

    fn add(&mut self, bits: u16, name: &str) {
        match self.bits.binary_search_by_key(&bits, |(b, _)| *b) {
            Ok(i) => self.bits[i].1 += 1,
            Err(i) => self.bits.insert(i, (bits, 1)),
        }
        let name = crate::mail::preview::cut(name, NAME_BYTES);
        if name.is_empty() {
            return;
        }
        if let Some((_, n)) = self.names.iter_mut().find(|(n, _)| n == name) {
            *n += 1;
        } else if self.names.len() < NAMES {
            self.names.push((name.to_string(), 1));
        }
    }

    fn remove(&mut self, bits: u16, name: &str) {
        if let Ok(i) = self.bits.binary_search_by_key(&bits, |(b, _)| *b) {
            self.bits[i].1 -= 1;
            if self.bits[i].1 == 0 {
                self.bits.remove(i);
            }
        }
        let name = crate::mail::preview::cut(name, NAME_BYTES);
        if let Some(i) = self.names.iter().position(|(n, _)| n == name) {
            self.names[i].1 -= 1;
            if self.names[i].1 == 0 {
                self.names.remove(i);
            }
        }
    }
}

/// Decodes a [`THREAD_SIGS`] key back into the member bits it stands for.
pub fn signature_bits(sig: &[u8]) -> impl Iterator<Item = u16> + '_ {
    sig.chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
}

/// What the derived tables know of one stored message.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Entry<'a> {
    pub account: u64,
    pub folder: &'a str,
    pub date: i64,
    pub id: u64,
    pub bits: u16,
    pub thread: u64,
    pub sender: &'a str,
    /// The last activity (the date, or the last triage when later).
    pub activity: i64,
    /// Another place of the mail (a Gmail label folder): counted in that folder and its
    /// threads there, never again in the tables of mail (tags, thread members, idle mail).
    pub place: bool,
}

impl MessageMeta {
    pub(super) fn entry(&self) -> Entry<'_> {
        Entry {
            account: self.account_id,
            folder: &self.folder,
            date: self.date,
            id: self.id,
            bits: self.bits(),
            thread: thread_hash(&self.thread_id),
            sender: self.sender_name(),
            activity: self.activity(),
            place: false,
        }
    }

    /// What the derived tables know of its place in the label folder `folder`.
    pub(super) fn place_entry<'a>(&'a self, folder: &'a str) -> Entry<'a> {
        Entry {
            folder,
            place: true,
            ..self.entry()
        }
    }
}

/// The derived tables open in a write transaction.
pub(super) struct Derived<'t> {
    counts: Table<'t, (u64, &'static str, u16), u64>,
    tags: Table<'t, (u64, u8, i64, u64), &'static str>,
    members: Table<'t, (u64, u64, i64, u64), &'static str>,
    threads: Table<'t, (u64, &'static str, u64), &'static [u8]>,
    sigs: Table<'t, (u64, &'static str, &'static [u8]), u64>,
    idle: Table<'t, (u64, &'static str, i64, u64), ()>,
    /// Messages with an id from here on are left to the builder.
    built_below: u64,
}

impl<'t> Derived<'t> {
    pub fn open(txn: &'t WriteTransaction) -> Result<Self, redb::Error> {
        Ok(Self {
            counts: txn.open_table(COUNTS)?,
            tags: txn.open_table(TAGS)?,
            members: txn.open_table(MEMBERS)?,
            threads: txn.open_table(THREADS)?,
            sigs: txn.open_table(THREAD_SIGS)?,
            idle: txn.open_table(IDLE)?,
            built_below: crate::store::get_value(txn, BUILT_BELOW)?.unwrap_or(u64::MAX),
        })
    }

    /// Replaces what the tables hold for a message (`old` as it was, `new` as it is now; `None`
    /// when it did not or does not exist).
    pub fn apply(&mut self, old: Option<&Entry>, new: Option<&Entry>) -> Result<(), redb::Error> {
        if old == new {
            return Ok(());
        }
        let id = old.or(new).map_or(0, |e| e.id);
        if id >= self.built_below {
            return Ok(());
        }
        if let Some(e) = old {
            self.count(e, false)?;
        }
        if let Some(e) = old.filter(|e| !e.place) {
            for tag in tags_of(e.bits) {
                self.tags.remove((e.account, tag, e.date, e.id))?;
            }
            self.members.remove((e.account, e.thread, e.date, e.id))?;
            if is_archivable(e.bits) {
                self.idle.remove((e.account, e.folder, e.activity, e.id))?;
            }
        }
        if let Some(e) = new {
            self.count(e, true)?;
        }
        if let Some(e) = new.filter(|e| !e.place) {
            for tag in tags_of(e.bits) {
                self.tags.insert((e.account, tag, e.date, e.id), e.folder)?;
            }
            self.members
                .insert((e.account, e.thread, e.date, e.id), e.folder)?;
            if is_archivable(e.bits) {
                self.idle
                    .insert((e.account, e.folder, e.activity, e.id), ())?;
            }
        }
        match (old, new) {
            (Some(o), Some(n))
                if (o.account, o.folder, o.thread) == (n.account, n.folder, n.thread) =>
            {
                self.thread(o, |rec| {
                    rec.remove(o.bits, o.sender);
                    rec.add(n.bits, n.sender);
                })?;
            }
            _ => {
                if let Some(o) = old {
                    self.thread(o, |rec| rec.remove(o.bits, o.sender))?;
                }
                if let Some(n) = new {
                    self.thread(n, |rec| rec.add(n.bits, n.sender))?;
                }
            }
        }
        Ok(())
    }

    fn count(&mut self, e: &Entry, add: bool) -> Result<(), redb::Error> {
        let key = (e.account, e.folder, e.bits);
        let n = self.counts.get(key)?.map_or(0, |v| v.value());
        let n = if add { n + 1 } else { n.saturating_sub(1) };
        if n == 0 {
            self.counts.remove(key)?;
        } else {
            self.counts.insert(key, n)?;
        }
        Ok(())
    }

    /// Changes the folder's record of `e`'s thread, and moves the thread between signatures.
    fn thread(
        &mut self,
        e: &Entry,
        change: impl FnOnce(&mut ThreadRec),
    ) -> Result<(), redb::Error> {
        let key = (e.account, e.folder, e.thread);
        let mut rec = self
            .threads
            .get(key)?
            .map(|v| ThreadRec::decode(v.value()))
            .unwrap_or_default();
        let before = rec.signature();
        change(&mut rec);
        let after = rec.signature();
        if rec.is_empty() {
            self.threads.remove(key)?;
        } else {
            self.threads.insert(key, rec.encode().as_slice())?;
        }
        if before != after {
            if !before.is_empty() {
                self.sig(e, &before, false)?;
            }
            if !after.is_empty() {
                self.sig(e, &after, true)?;
            }
        }
        Ok(())
    }

    fn sig(&mut self, e: &Entry, sig: &[u8], add: bool) -> Result<(), redb::Error> {
        let key = (e.account, e.folder, sig);
        let n = self.sigs.get(key)?.map_or(0, |v| v.value());
        let n = if add { n + 1 } else { n.saturating_sub(1) };
        if n == 0 {
            self.sigs.remove(key)?;
        } else {
            self.sigs.insert(key, n)?;
        }
        Ok(())
    }

    /// The members of a thread (account, thread hash): (date, id, folder), oldest first.
    pub fn members_of(
        &self,
        account: u64,
        thread: u64,
    ) -> Result<Vec<(i64, u64, String)>, redb::Error> {
        members_in(&self.members, account, thread)
    }
}

/// The members of a thread in a members table: (date, id, folder), oldest first.
pub(super) fn members_in(
    table: &impl ReadableTable<(u64, u64, i64, u64), &'static str>,
    account: u64,
    thread: u64,
) -> Result<Vec<(i64, u64, String)>, redb::Error> {
    let mut out = Vec::new();
    for e in table.range((account, thread, i64::MIN, 0)..=(account, thread, i64::MAX, u64::MAX))? {
        let (k, v) = e?;
        let (_, _, date, id) = k.value();
        out.push((date, id, v.value().to_string()));
    }
    Ok(out)
}

/// Schema 8: the derived tables, empty, and (when mail is stored) the builder's cursor at the
/// first message. The builder fills them in steps ([`build_step`]) so a big store never sits
/// in one transaction.
pub fn create_derived_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(COUNTS)?;
    txn.open_table(TAGS)?;
    txn.open_table(MEMBERS)?;
    txn.open_table(THREADS)?;
    txn.open_table(THREAD_SIGS)?;
    if txn.open_table(MESSAGES)?.first()?.is_some() {
        crate::store::put_value(txn, BUILT_BELOW, 0)?;
    }
    Ok(())
}

/// Schema 14: the idle table ([`IDLE`]). A store that holds mail has its derived tables built
/// again by the builder, in steps, as schema 8 did: it fills the new table with the others.
pub fn create_idle_table(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(IDLE)?;
    if txn.open_table(MESSAGES)?.first()?.is_some() {
        forget_derived(txn)?;
    }
    Ok(())
}

/// Empties the derived tables and puts the builder's cursor at the first message, as schema 8
/// leaves a store that already held mail: the next start builds them again. For the test of
/// that build (and a way out should they ever be found wrong).
#[doc(hidden)]
pub fn forget_derived(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(COUNTS)?.retain(|_, _| false)?;
    txn.open_table(TAGS)?.retain(|_, _| false)?;
    txn.open_table(MEMBERS)?.retain(|_, _| false)?;
    txn.open_table(THREADS)?.retain(|_, _| false)?;
    txn.open_table(THREAD_SIGS)?.retain(|_, _| false)?;
    txn.open_table(IDLE)?.retain(|_, _| false)?;
    crate::store::put_value(txn, BUILT_BELOW, 0)
}

/// Adds up to `limit` messages from the builder's cursor to the derived tables and moves the
/// cursor past them, in the caller's transaction. Returns how many it added, or `None` when
/// the build is complete (the cursor is then gone).
pub fn build_step(txn: &WriteTransaction, limit: usize) -> anyhow::Result<Option<usize>> {
    let Some(from) = crate::store::get_value(txn, BUILT_BELOW)? else {
        return Ok(None);
    };
    let mut metas = Vec::with_capacity(limit);
    let mut next = None;
    {
        let messages = txn.open_table(MESSAGES)?;
        for e in messages.range(from..)? {
            let (k, v) = e?;
            if metas.len() == limit {
                next = Some(k.value());
                break;
            }
            // A record this binary cannot read has no index row either: skip it.
            if let Ok(meta) = record::decode::<MessageMeta>(v.value()) {
                metas.push(meta);
            }
        }
    }
    // The cursor moves first so `apply` counts these messages (they are below it now).
    match next {
        Some(id) => crate::store::put_value(txn, BUILT_BELOW, id)?,
        None => {
            crate::store::take_value(txn, BUILT_BELOW)?;
        }
    }
    let mut d = Derived::open(txn)?;
    for meta in &metas {
        d.apply(None, Some(&meta.entry()))?;
        for p in meta.places.iter().filter(|p| p.listed) {
            d.apply(None, Some(&meta.place_entry(&p.folder)))?;
        }
    }
    Ok(if next.is_none() && metas.is_empty() {
        None
    } else {
        Some(metas.len())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_records_round_trip_and_keep_counts() {
        let mut rec = ThreadRec::default();
        rec.add(flags::SEEN, "דנה כהן");
        rec.add(0, "Avi");
        rec.add(flags::SEEN, "דנה כהן");
        assert_eq!(rec.bits, vec![(0, 1), (flags::SEEN, 2)]);
        assert_eq!(
            rec.names,
            vec![("דנה כהן".to_string(), 2), ("Avi".into(), 1)]
        );
        assert_eq!(ThreadRec::decode(&rec.encode()), rec);
        assert_eq!(
            signature_bits(&rec.signature()).collect::<Vec<_>>(),
            [0, flags::SEEN]
        );
        rec.remove(0, "Avi");
        assert_eq!(rec.names, vec![("דנה כהן".to_string(), 2)]);
        assert_eq!(rec.bits, vec![(flags::SEEN, 2)]);
        // A damaged record reads as far as it is whole, never panics.
        let bytes = rec.encode();
        for cut in 0..bytes.len() {
            ThreadRec::decode(&bytes[..cut]);
        }
    }

    #[test]
    fn tags_follow_the_bits() {
        let needs = flags::status_code(Some("needs_reply")) << flags::STATUS_SHIFT;
        let t: Vec<u8> =
            tags_of(needs | flags::FLAGGED | flags::PRIORITY_URGENT | flags::SEEN).collect();
        assert_eq!(t, [1, tags::FLAGGED, tags::URGENT]);
        assert_eq!(tags_of(0).collect::<Vec<_>>(), [tags::UNREAD]);
        assert_eq!(tags_of(flags::HIDDEN | flags::FLAGGED).count(), 0);
        assert_eq!(tag_of_status("needs_reply"), Some(1));
        assert_eq!(tag_of_status("bogus"), None);
    }
}
