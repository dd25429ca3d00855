//! The mail tables and their migrations. Private to the mail store: every other module goes
//! through its API (`MailRead`, `MailWrite`, `changes`), so a table's layout can change here
//! alone. Tables are keyed by account first so one account's mail can be listed, counted or
//! forgotten by a range.

use redb::{ReadableTable, TableDefinition, WriteTransaction};

use super::model::MessageMeta;
use super::raw;
use crate::store::record;

/// (account, folder name) → JSON `FolderState`.
pub(super) const FOLDERS: TableDefinition<(u64, &str), &[u8]> =
    TableDefinition::new("mail_folders");
/// message id → JSON `MessageMeta`.
pub(super) const MESSAGES: TableDefinition<u64, &[u8]> = TableDefinition::new("mail_messages");
/// message id → raw RFC 822 bytes. Replaced by [`RAW_Z`] in schema 6; kept for migrations.
pub(super) const RAW: TableDefinition<u64, &[u8]> = TableDefinition::new("mail_raw");
/// (message id, part) → the raw bytes, zstd-compressed, in parts (see `raw.rs`).
pub(super) const RAW_Z: TableDefinition<(u64, u16), &[u8]> = TableDefinition::new("mail_raw_z");
/// (account, folder, uid) → message id.
pub(super) const UIDS: TableDefinition<(u64, &str, u32), u64> = TableDefinition::new("mail_uids");
/// (account, folder, date, message id) → flag byte. The first index (schema 2); replaced by
/// [`INDEX`] in schema 3 and kept only so migrations can create and drop it.
pub(super) const BY_DATE: TableDefinition<(u64, &str, i64, u64), u8> =
    TableDefinition::new("mail_by_date");
/// (account, folder, date, message id) → an encoded `IndexRow`.
pub(super) const INDEX: TableDefinition<(u64, &str, i64, u64), &[u8]> =
    TableDefinition::new("mail_index");
/// (account, "", Message-ID or content hash) → when: mail deleted from this site only (spec 000
/// §5). Kept apart from the message so a re-sync that refetches it, or a move by another
/// client, hides it again; the folder part is empty: deleted here means in every folder.
pub(super) const HIDDEN_KEYS: TableDefinition<(u64, &str, &str), i64> =
    TableDefinition::new("mail_hidden");
/// (account, Message-ID) → JSON `Carried`: the triage of a mail whose move is queued, put
/// back on the copy the target folder yields.
pub(super) const CARRIED: TableDefinition<(u64, &str), &[u8]> =
    TableDefinition::new("mail_carried_triage");
/// (account, Message-ID) → thread id.
pub(super) const MSGIDS: TableDefinition<(u64, &str), &str> = TableDefinition::new("mail_msgids");
/// (account, normalized subject) → thread id, for mail without reference headers.
pub(super) const SUBJECTS: TableDefinition<(u64, &str), &str> =
    TableDefinition::new("mail_subjects");
/// (account, message id) → JSON `PendingFlags`: flag changes made here and not yet stored on
/// the server.
pub(super) const PENDING: TableDefinition<(u64, u64), &[u8]> =
    TableDefinition::new("mail_pending_flags");
/// (account, identity key) → message id: a Gmail-shaped mailbox's copies of one mail (the
/// same key in INBOX, All Mail and its labels) are one stored mail (schema 22; see
/// `model::Identity`).
pub(super) const IDENTITIES: TableDefinition<(u64, &str), u64> =
    TableDefinition::new("mail_identities");
/// sequence number → an encoded `Change` (see `changes.rs`).
pub(super) const CHANGES: TableDefinition<u64, &[u8]> = TableDefinition::new("mail_changes");
/// consumer name → the last sequence number it has handled.
pub(super) const CURSORS: TableDefinition<&str, u64> = TableDefinition::new("mail_change_cursors");

/// (account, folder, index bits) → how many messages of the folder carry those bits
/// (schema 8; see `derived.rs` for these five).
pub(super) const COUNTS: TableDefinition<(u64, &str, u16), u64> =
    TableDefinition::new("mail_folder_counts");
/// (account, tag, date, message id) → folder: messages by status, starred, urgent, unread.
pub(super) const TAGS: TableDefinition<(u64, u8, i64, u64), &str> =
    TableDefinition::new("mail_tags");
/// (account, thread hash, date, message id) → folder: a thread's members in every folder.
pub(super) const MEMBERS: TableDefinition<(u64, u64, i64, u64), &str> =
    TableDefinition::new("mail_thread_members");
/// (account, folder, thread hash) → an encoded `ThreadRec`: the thread's part in the folder.
pub(super) const THREADS: TableDefinition<(u64, &str, u64), &[u8]> =
    TableDefinition::new("mail_threads");
/// (account, folder, signature: the distinct member bits) → how many threads have it.
pub(super) const THREAD_SIGS: TableDefinition<(u64, &str, &[u8]), u64> =
    TableDefinition::new("mail_thread_sigs");
/// (account, folder, last activity, message id): processed and info mail, by how long it has
/// been idle (schema 14): Inbox Zero's auto-archive candidates are a range of it.
pub(super) const IDLE: TableDefinition<(u64, &str, i64, u64), ()> =
    TableDefinition::new("mail_idle");

/// Schema 2: the first mail cache.
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

/// Schema 22: the keys of a Gmail-shaped mailbox's mail.
pub fn create_identities(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(IDENTITIES)?;
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

/// Schema 6: raw mail compressed.
pub fn migrate_to_compressed_raw(txn: &WriteTransaction) -> Result<(), redb::Error> {
    let mut out = txn.open_table(RAW_Z)?;
    for e in txn.open_table(RAW)?.iter()? {
        let (k, v) = e?;
        raw::put_raw(&mut out, k.value(), v.value())?;
    }
    drop(out);
    txn.delete_table(RAW)?;
    Ok(())
}

/// sequence number → message id: the search index's queue of schema 6, turned into the change
/// log by schema 7.
const LEGACY_SEARCH_QUEUE: TableDefinition<u64, u64> = TableDefinition::new("search_queue");

/// Schema 6 made the search index's queue.
pub fn create_legacy_search_queue(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(LEGACY_SEARCH_QUEUE)?;
    Ok(())
}

/// Schema 7: the change log. The search index's queue (sequence number → message id) becomes
/// the first entries of the log, its counter the log's, and the sequence number the index
/// covered the `search` consumer's cursor: an index built before stays valid.
pub fn migrate_to_change_log(txn: &WriteTransaction) -> Result<(), redb::Error> {
    let mut changes = txn.open_table(CHANGES)?;
    let mut cursors = txn.open_table(CURSORS)?;
    for e in txn.open_table(LEGACY_SEARCH_QUEUE)?.iter()? {
        let (seq, id) = e?;
        let change = super::changes::Change {
            seq: seq.value(),
            account: 0,
            message: id.value(),
            folder: String::new(),
            kind: super::changes::Kind::Updated,
            reason: super::changes::Reason::Sync,
        };
        changes.insert(seq.value(), change.encode().as_slice())?;
    }
    txn.delete_table(LEGACY_SEARCH_QUEUE)?;
    crate::store::rename_counter(txn, "search_queue", super::changes::COUNTER)?;
    let indexed = crate::store::take_value(txn, "search_indexed_seq")?;
    cursors.insert(super::changes::SEARCH, indexed)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use redb::ReadableDatabase;

    use super::*;
    use crate::mailstore::{IndexView, changes, flags, thread_hash};
    use crate::store::{META, Store};

    fn empty_store(dir: &std::path::Path) -> Store {
        Store::open_with(dir, crate::store::DEFAULT_CACHE_MB, &[])
            .unwrap()
            .0
    }

    /// A schema-2 mail cache holding one triaged message gets the new index (status,
    /// priority, thread, sort keys) and loses the old one.
    #[test]
    fn m0003_rebuilds_the_index_from_the_records() {
        let dir = tempfile::tempdir().unwrap();
        let store = empty_store(dir.path());
        let txn = store.begin_write().unwrap();
        create_tables(&txn).unwrap();
        let raw = b"From: Dana <dana@example.test>\r\nSubject: Re: Plan\r\nMessage-ID: <a@x>\r\n\r\nhi\r\n";
        let meta = MessageMeta {
            id: 7,
            account_id: 1,
            folder: "INBOX".into(),
            uid: 3,
            thread_id: "<root@x>".into(),
            date: 1_700_000_000,
            size: raw.len() as u32,
            seen: true,
            flagged: false,
            answered: false,
            draft: false,
            keywords: vec![],
            status: Some("needs_reply".into()),
            priority: Some("urgent".into()),
            hidden: false,
            last_activity: None,
            spam_score: None,
            advertisement: false,
            summary: crate::mail::parse::summary(raw),
            places: Vec::new(),
            identity: None,
            gm_labels: Vec::new(),
        };
        txn.open_table(MESSAGES)
            .unwrap()
            .insert(7, record::encode(&meta).as_slice())
            .unwrap();
        txn.open_table(BY_DATE)
            .unwrap()
            .insert((1, "INBOX", 1_700_000_000, 7), 1)
            .unwrap();
        // A record no longer readable: forgotten whole so the next sync fetches it again.
        txn.open_table(MESSAGES)
            .unwrap()
            .insert(8, b"{not json".as_slice())
            .unwrap();
        txn.open_table(UIDS)
            .unwrap()
            .insert((1, "INBOX", 4), 8)
            .unwrap();
        migrate_to_index(&txn).unwrap();
        migrate_to_compressed_raw(&txn).unwrap();
        txn.commit().unwrap();

        let txn = store.db().begin_read().unwrap();
        let index = txn.open_table(INDEX).unwrap();
        let v = index.get((1, "INBOX", 1_700_000_000, 7)).unwrap().unwrap();
        let row = IndexView(v.value());
        assert_eq!(flags::status_of(row.bits()), Some("needs_reply"));
        assert_eq!(flags::priority_of(row.bits()), Some("urgent"));
        assert_ne!(row.bits() & flags::SEEN, 0);
        assert_eq!(row.thread(), thread_hash("<root@x>"));
        assert_eq!(row.activity(), 1_700_000_000);
        assert_eq!((row.sender(), row.subject()), ("dana", "plan"));
        assert!(txn.open_table(BY_DATE).is_err(), "the old index is gone");
        assert!(txn.open_table(MESSAGES).unwrap().get(8).unwrap().is_none());
        assert!(
            txn.open_table(UIDS)
                .unwrap()
                .get((1, "INBOX", 4))
                .unwrap()
                .is_none()
        );
    }

    /// Schema 6 compresses the raw mail already stored; it reads back byte for byte.
    #[test]
    fn m0006_compresses_raw_mail() {
        let dir = tempfile::tempdir().unwrap();
        let store = empty_store(dir.path());
        let txn = store.begin_write().unwrap();
        create_tables(&txn).unwrap();
        migrate_to_index(&txn).unwrap();
        let raw = "Subject: שלום\r\n\r\n".to_string() + &"גוף ההודעה. ".repeat(200);
        txn.open_table(RAW)
            .unwrap()
            .insert(9, raw.as_bytes())
            .unwrap();
        migrate_to_compressed_raw(&txn).unwrap();
        txn.commit().unwrap();

        let txn = store.db().begin_read().unwrap();
        let t = txn.open_table(RAW_Z).unwrap();
        let stored: usize = t
            .range((9, 0)..=(9, u16::MAX))
            .unwrap()
            .map(|e| e.unwrap().1.value().len())
            .sum();
        assert!(stored < raw.len() / 4);
        assert!(txn.open_table(RAW).is_err(), "the old table is gone");
        assert_eq!(raw::get_raw(&t, 9).unwrap().unwrap(), raw.as_bytes());
    }

    /// Schema 7 turns the index's queue into the change log: the same sequence numbers, the
    /// counter carried on, the indexed mark as the `search` cursor.
    #[test]
    fn m0007_turns_the_search_queue_into_the_change_log() {
        let dir = tempfile::tempdir().unwrap();
        let store = empty_store(dir.path());
        let txn = store.begin_write().unwrap();
        txn.open_table(META).unwrap();
        create_legacy_search_queue(&txn).unwrap();
        {
            let mut q = txn.open_table(LEGACY_SEARCH_QUEUE).unwrap();
            q.insert(41, 7).unwrap();
            q.insert(42, 9).unwrap();
            let mut meta = txn.open_table(META).unwrap();
            meta.insert("search_queue", 42).unwrap();
            meta.insert("search_indexed_seq", 40).unwrap();
        }
        migrate_to_change_log(&txn).unwrap();
        txn.commit().unwrap();

        assert_eq!(changes::last_seq(&store).unwrap(), 42);
        assert_eq!(changes::cursor(&store, changes::SEARCH).unwrap(), 40);
        let log = changes::after(&store, 40, 10).unwrap();
        assert_eq!(
            log.iter().map(|c| (c.seq, c.message)).collect::<Vec<_>>(),
            [(41, 7), (42, 9)]
        );
        let txn = store.db().begin_read().unwrap();
        assert!(txn.open_table(LEGACY_SEARCH_QUEUE).is_err());
        assert!(
            txn.open_table(META)
                .unwrap()
                .get("search_queue")
                .unwrap()
                .is_none()
        );
    }
}
