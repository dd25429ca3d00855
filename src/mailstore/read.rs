//! Reading stored mail: one consistent snapshot of the mail tables.

use std::collections::HashMap;

use redb::{AccessGuard, ReadOnlyTable, ReadTransaction, ReadableDatabase, ReadableTable};

use super::derived::{ThreadRec, members_in};
use super::index::{IndexView, folder_range};
use super::model::{FolderState, MessageMeta, PendingFlags, roles};
use super::raw::get_raw;
use super::tables::{
    COUNTS, FOLDERS, IDLE, INDEX, MEMBERS, MESSAGES, PENDING, RAW_Z, TAGS, THREAD_SIGS, THREADS,
    UIDS,
};
use super::uids::{UID_COUNTS, count_in};
use crate::store::{Store, record};

type IndexKey = (u64, &'static str, i64, u64);

/// A read snapshot of the mail tables. Cheap to make; make one per request.
pub struct MailRead {
    folders: ReadOnlyTable<(u64, &'static str), &'static [u8]>,
    messages: ReadOnlyTable<u64, &'static [u8]>,
    index: ReadOnlyTable<IndexKey, &'static [u8]>,
    raw: ReadOnlyTable<(u64, u16), &'static [u8]>,
    uids: ReadOnlyTable<(u64, &'static str, u32), u64>,
    uid_counts: ReadOnlyTable<(u64, &'static str), u64>,
    pending: ReadOnlyTable<(u64, u64), &'static [u8]>,
    counts: ReadOnlyTable<(u64, &'static str, u16), u64>,
    tags: ReadOnlyTable<TagKey, &'static str>,
    members: ReadOnlyTable<(u64, u64, i64, u64), &'static str>,
    threads: ReadOnlyTable<(u64, &'static str, u64), &'static [u8]>,
    sigs: ReadOnlyTable<(u64, &'static str, &'static [u8]), u64>,
    idle: ReadOnlyTable<IndexKey, ()>,
}

type TagKey = (u64, u8, i64, u64);

impl MailRead {
    pub fn new(store: &Store) -> anyhow::Result<Self> {
        Self::of(&store.db().begin_read()?)
    }

    fn of(txn: &ReadTransaction) -> anyhow::Result<Self> {
        Ok(Self {
            folders: txn.open_table(FOLDERS)?,
            messages: txn.open_table(MESSAGES)?,
            index: txn.open_table(INDEX)?,
            raw: txn.open_table(RAW_Z)?,
            uids: txn.open_table(UIDS)?,
            uid_counts: txn.open_table(UID_COUNTS)?,
            pending: txn.open_table(PENDING)?,
            counts: txn.open_table(COUNTS)?,
            tags: txn.open_table(TAGS)?,
            members: txn.open_table(MEMBERS)?,
            threads: txn.open_table(THREADS)?,
            sigs: txn.open_table(THREAD_SIGS)?,
            idle: txn.open_table(IDLE)?,
        })
    }

    /// An account's folders, in name order.
    pub fn folders(&self, account: u64) -> anyhow::Result<Vec<FolderState>> {
        account_folders(&self.folders, account)
    }

    pub fn folder(&self, account: u64, name: &str) -> anyhow::Result<Option<FolderState>> {
        Ok(match self.folders.get((account, name))? {
            Some(v) => Some(record::decode(v.value())?),
            None => None,
        })
    }

    /// Role → folder name of an account.
    pub fn roles(&self, account: u64) -> anyhow::Result<HashMap<String, String>> {
        Ok(roles(&self.folders(account)?))
    }

    /// Every account that has folders (the search index maps folders to roles with it).
    pub fn all_folders(&self) -> anyhow::Result<Vec<(u64, FolderState)>> {
        let mut out = Vec::new();
        for e in self.folders.iter()? {
            let (k, v) = e?;
            if let Ok(f) = record::decode::<FolderState>(v.value()) {
                out.push((k.value().0, f));
            }
        }
        Ok(out)
    }

    pub fn meta(&self, id: u64) -> anyhow::Result<Option<MessageMeta>> {
        read_meta(&self.messages, id)
    }

    /// The records of `ids` that exist, in the order given.
    pub fn metas(&self, ids: impl IntoIterator<Item = u64>) -> anyhow::Result<Vec<MessageMeta>> {
        let mut out = Vec::new();
        for id in ids {
            if let Some(m) = self.meta(id)? {
                out.push(m);
            }
        }
        Ok(out)
    }

    /// Every stored message id, in id order.
    pub fn message_ids(&self) -> anyhow::Result<impl Iterator<Item = anyhow::Result<u64>>> {
        Ok(self.messages.range::<u64>(..)?.map(|e| Ok(e?.0.value())))
    }

    /// The raw bytes of message `id`.
    pub fn raw(&self, id: u64) -> anyhow::Result<Option<Vec<u8>>> {
        get_raw(&self.raw, id)
    }

    /// The index rows of one folder, oldest first (`.rev()` for newest first).
    pub fn rows(&self, account: u64, folder: &str) -> anyhow::Result<Rows> {
        Ok(Rows(self.index.range(folder_range(account, folder))?))
    }

    /// The index rows of one folder dated `from` or later, oldest first.
    pub fn rows_from(&self, account: u64, folder: &str, from: i64) -> anyhow::Result<Rows> {
        let range = (account, folder, from, 0)..=(account, folder, i64::MAX, u64::MAX);
        Ok(Rows(self.index.range(range)?))
    }

    /// The index rows of every folder of an account (folder by folder, each oldest first).
    pub fn account_rows(&self, account: u64) -> anyhow::Result<Rows> {
        let range = (account, "", i64::MIN, 0)..=(account, "\u{10FFFF}", i64::MAX, u64::MAX);
        Ok(Rows(self.index.range(range)?))
    }

    /// The message stored at `uid` of a folder.
    pub fn id_of_uid(&self, account: u64, folder: &str, uid: u32) -> anyhow::Result<Option<u64>> {
        Ok(self.uids.get((account, folder, uid))?.map(|v| v.value()))
    }

    /// How many UIDs a folder has stored (hidden mail and a Gmail label's places too).
    pub fn stored_count(&self, account: u64, folder: &str) -> anyhow::Result<usize> {
        Ok(count_in(&self.uid_counts, account, folder)? as usize)
    }

    /// How many messages of a folder carry each combination of index bits.
    pub fn counts(&self, account: u64, folder: &str) -> anyhow::Result<Vec<(u16, u64)>> {
        let mut out = Vec::new();
        for e in self
            .counts
            .range((account, folder, 0)..=(account, folder, u16::MAX))?
        {
            let (k, v) = e?;
            out.push((k.value().2, v.value()));
        }
        Ok(out)
    }

    /// How many threads of a folder have each set of member bits (see `signature_bits`).
    pub fn thread_signatures(
        &self,
        account: u64,
        folder: &str,
    ) -> anyhow::Result<Vec<(Vec<u8>, u64)>> {
        let mut out = Vec::new();
        let mut range = self.sigs.range((account, folder, [].as_slice())..)?;
        for e in &mut range {
            let (k, v) = e?;
            let (a, f, sig) = k.value();
            if a != account || f != folder {
                break;
            }
            out.push((sig.to_vec(), v.value()));
        }
        Ok(out)
    }

    /// A thread's part in a folder.
    pub fn thread(&self, account: u64, folder: &str, thread: u64) -> anyhow::Result<ThreadRec> {
        Ok(self
            .threads
            .get((account, folder, thread))?
            .map(|v| ThreadRec::decode(v.value()))
            .unwrap_or_default())
    }

    /// A thread's members in every folder: (date, id, folder), oldest first.
    pub fn members(&self, account: u64, thread: u64) -> anyhow::Result<Vec<(i64, u64, String)>> {
        Ok(members_in(&self.members, account, thread)?)
    }

    /// The messages of an account carrying `tag` (see `tags`), oldest first.
    pub fn tagged(&self, account: u64, tag: u8) -> anyhow::Result<Tagged> {
        self.tagged_from(account, tag, i64::MIN)
    }

    /// The messages of an account carrying `tag` dated `from` or later, oldest first.
    pub fn tagged_from(&self, account: u64, tag: u8, from: i64) -> anyhow::Result<Tagged> {
        let range = (account, tag, from, 0)..=(account, tag, i64::MAX, u64::MAX);
        Ok(Tagged(self.tags.range(range)?))
    }

    /// A folder's processed and info mail idle since `until` or longer (last activity at or
    /// before it), the longest idle first.
    pub fn idle_until(&self, account: u64, folder: &str, until: i64) -> anyhow::Result<Idle> {
        let range = (account, folder, i64::MIN, 0)..=(account, folder, until, u64::MAX);
        Ok(Idle(self.idle.range(range)?))
    }

    /// The index bits, thread hash and last activity of one message, by its index key.
    pub fn index_entry(
        &self,
        account: u64,
        folder: &str,
        date: i64,
        id: u64,
    ) -> anyhow::Result<Option<IndexEntry>> {
        Ok(self.index.get((account, folder, date, id))?.map(|v| {
            let row = IndexView(v.value());
            IndexEntry {
                bits: row.bits(),
                thread: row.thread(),
                activity: row.activity(),
            }
        }))
    }

    /// The account's changes waiting to be written to the mailbox, by message id.
    pub fn pending(&self, account: u64) -> anyhow::Result<Vec<(u64, PendingFlags)>> {
        pending_of(&self.pending, account)
    }
}

/// One index row: the message's date, id and folder (decoded from the key only when asked:
/// a listing that counts or filters 60,000 rows reads the value alone), and its [`IndexView`].
pub struct Row {
    key: AccessGuard<'static, IndexKey>,
    value: AccessGuard<'static, &'static [u8]>,
}

impl Row {
    pub fn view(&self) -> IndexView<'_> {
        IndexView(self.value.value())
    }

    pub fn date(&self) -> i64 {
        self.key.value().2
    }

    pub fn id(&self) -> u64 {
        self.key.value().3
    }

    /// The folder the message is in.
    pub fn folder(&self) -> &str {
        self.key.value().1
    }
}

/// The rows of one folder in date order.
pub struct Rows(redb::Range<'static, IndexKey, &'static [u8]>);

fn row(
    e: Result<
        (
            AccessGuard<'static, IndexKey>,
            AccessGuard<'static, &'static [u8]>,
        ),
        redb::StorageError,
    >,
) -> anyhow::Result<Row> {
    let (key, value) = e?;
    Ok(Row { key, value })
}

impl Iterator for Rows {
    type Item = anyhow::Result<Row>;
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(row)
    }
}

impl DoubleEndedIterator for Rows {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(row)
    }
}

/// What the index says of one message.
#[derive(Debug, Clone, Copy)]
pub struct IndexEntry {
    pub bits: u16,
    pub thread: u64,
    pub activity: i64,
}

/// A message carrying a tag: its date, id and folder.
pub struct TaggedRow {
    pub date: i64,
    pub id: u64,
    pub folder: String,
}

/// Idle processed and info mail of a folder: (last activity, message id), the oldest first.
pub struct Idle(redb::Range<'static, IndexKey, ()>);

impl Iterator for Idle {
    type Item = anyhow::Result<(i64, u64)>;
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|e| {
            let (k, _) = e?;
            let (_, _, activity, id) = k.value();
            Ok((activity, id))
        })
    }
}

/// The messages carrying one tag, in date order.
pub struct Tagged(redb::Range<'static, TagKey, &'static str>);

fn tagged_row(
    e: Result<
        (
            AccessGuard<'static, TagKey>,
            AccessGuard<'static, &'static str>,
        ),
        redb::StorageError,
    >,
) -> anyhow::Result<TaggedRow> {
    let (k, v) = e?;
    let (_, _, date, id) = k.value();
    Ok(TaggedRow {
        date,
        id,
        folder: v.value().to_string(),
    })
}

impl Iterator for Tagged {
    type Item = anyhow::Result<TaggedRow>;
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(tagged_row)
    }
}

impl DoubleEndedIterator for Tagged {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(tagged_row)
    }
}

pub(super) fn read_meta(
    table: &impl ReadableTable<u64, &'static [u8]>,
    id: u64,
) -> anyhow::Result<Option<MessageMeta>> {
    Ok(match table.get(id)? {
        Some(v) => Some(record::decode(v.value())?),
        None => None,
    })
}

/// An account's folders, in name order ([`FOLDERS`] is keyed by account first).
pub(super) fn account_folders(
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

pub(super) fn pending_of(
    table: &impl ReadableTable<(u64, u64), &'static [u8]>,
    account: u64,
) -> anyhow::Result<Vec<(u64, PendingFlags)>> {
    let mut ops = Vec::new();
    for e in table.range((account, 0)..=(account, u64::MAX))? {
        let (k, v) = e?;
        ops.push((k.value().1, record::decode(v.value())?));
    }
    Ok(ops)
}
