//! Append-only schema migrations. Never edit or reorder a published migration: add a new one
//! at the end. Each runs in one write transaction together with its version bump.

use redb::WriteTransaction;

use crate::auth::{sessions, users};
use crate::{accounts, ai, emails, import, outgoing, search, sync, templates};

pub struct Migration {
    pub version: u64,
    pub name: &'static str,
    pub apply: fn(&WriteTransaction) -> Result<(), redb::Error>,
}

pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "users and sessions",
        apply: m0001_users_and_sessions,
    },
    Migration {
        version: 2,
        name: "mail accounts and the mail cache",
        apply: m0002_mail_accounts_and_cache,
    },
    Migration {
        version: 3,
        name: "mail index with threads and triage; hidden mail; remote-content senders",
        apply: m0003_mail_index,
    },
    Migration {
        version: 4,
        name: "outbox, compose uploads and mail templates",
        apply: m0004_outbox_and_templates,
    },
    Migration {
        version: 5,
        name: "AI: sealed provider keys, provider choice, training settings",
        apply: m0005_ai,
    },
    Migration {
        version: 6,
        name: "search: raw mail compressed, the index's queue, imported mail",
        apply: m0006_search_and_import,
    },
];

/// The schema version this binary writes.
pub const SCHEMA_VERSION: u64 = MIGRATIONS.len() as u64;

fn m0001_users_and_sessions(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(super::META)?;
    txn.open_table(users::USERS)?;
    txn.open_table(users::USERS_BY_NAME)?;
    txn.open_table(sessions::SESSIONS)?;
    Ok(())
}

fn m0002_mail_accounts_and_cache(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(accounts::ACCOUNTS)?;
    txn.open_table(accounts::USER_ACCOUNTS)?;
    sync::store::create_tables(txn)
}

fn m0003_mail_index(txn: &WriteTransaction) -> Result<(), redb::Error> {
    sync::store::migrate_to_index(txn)?;
    txn.open_table(emails::REMOTE_SENDERS)?;
    Ok(())
}

fn m0004_outbox_and_templates(txn: &WriteTransaction) -> Result<(), redb::Error> {
    outgoing::outbox::create_tables(txn)?;
    outgoing::uploads::create_tables(txn)?;
    templates::create_tables(txn)
}

fn m0005_ai(txn: &WriteTransaction) -> Result<(), redb::Error> {
    ai::key::create_tables(txn)?;
    ai::training::create_tables(txn)
}

fn m0006_search_and_import(txn: &WriteTransaction) -> Result<(), redb::Error> {
    sync::store::migrate_to_compressed_raw(txn)?;
    search::queue::create_table(txn)?;
    import::create_tables(txn)
}

#[cfg(test)]
mod tests {
    use redb::ReadableDatabase;

    use super::*;
    use crate::store::{META, Store, record};
    use crate::sync::store::{self as mstore, IndexView, MessageMeta, flags};

    /// A schema-2 store holding one triaged message becomes schema 3 with that message in the
    /// new index (status, priority, thread, sort keys) and the old index dropped.
    #[test]
    fn m0003_rebuilds_the_index_from_the_records() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open(dir.path()).unwrap();
        let txn = store.db().begin_write().unwrap();
        for m in &MIGRATIONS[..2] {
            (m.apply)(&txn).unwrap();
        }
        txn.open_table(META)
            .unwrap()
            .insert("schema_version", 2)
            .unwrap();
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
            summary: crate::mail::parse::summary(raw),
        };
        txn.open_table(mstore::MESSAGES)
            .unwrap()
            .insert(7, record::encode(&meta).as_slice())
            .unwrap();
        txn.open_table(mstore::BY_DATE)
            .unwrap()
            .insert((1, "INBOX", 1_700_000_000, 7), 1)
            .unwrap();
        // A record no longer readable: forgotten whole so the next sync fetches it again.
        txn.open_table(mstore::MESSAGES)
            .unwrap()
            .insert(8, b"{not json".as_slice())
            .unwrap();
        txn.open_table(mstore::UIDS)
            .unwrap()
            .insert((1, "INBOX", 4), 8)
            .unwrap();
        txn.commit().unwrap();

        let ran = store.migrate().unwrap();
        assert_eq!(
            ran.iter().map(|m| m.version).collect::<Vec<_>>(),
            [3, 4, 5, 6]
        );
        let txn = store.db().begin_read().unwrap();
        let index = txn.open_table(mstore::INDEX).unwrap();
        let v = index.get((1, "INBOX", 1_700_000_000, 7)).unwrap().unwrap();
        let row = IndexView(v.value());
        assert_eq!(flags::status_of(row.bits()), Some("needs_reply"));
        assert_eq!(flags::priority_of(row.bits()), Some("urgent"));
        assert_ne!(row.bits() & flags::SEEN, 0);
        assert_eq!(row.thread(), mstore::thread_hash("<root@x>"));
        assert_eq!(row.activity(), 1_700_000_000);
        assert_eq!((row.sender(), row.subject()), ("dana", "plan"));
        assert!(
            txn.open_table(mstore::BY_DATE).is_err(),
            "the old index is gone"
        );
    }

    /// Schema 6 compresses the raw mail already stored; it reads back byte for byte.
    #[test]
    fn m0006_compresses_raw_mail() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open(dir.path()).unwrap();
        let txn = store.db().begin_write().unwrap();
        for m in &MIGRATIONS[..5] {
            (m.apply)(&txn).unwrap();
        }
        txn.open_table(META)
            .unwrap()
            .insert("schema_version", 5)
            .unwrap();
        let raw = "Subject: שלום\r\n\r\n".to_string() + &"גוף ההודעה. ".repeat(200);
        txn.open_table(mstore::RAW)
            .unwrap()
            .insert(9, raw.as_bytes())
            .unwrap();
        txn.commit().unwrap();

        assert_eq!(store.migrate().unwrap().len(), 1);
        let txn = store.db().begin_read().unwrap();
        let t = txn.open_table(mstore::RAW_Z).unwrap();
        let stored: usize = t
            .range((9, 0)..=(9, u16::MAX))
            .unwrap()
            .map(|e| e.unwrap().1.value().len())
            .sum();
        assert!(stored < raw.len() / 4);
        assert_eq!(mstore::get_raw(&t, 9).unwrap().unwrap(), raw.as_bytes());
        assert!(
            txn.open_table(mstore::RAW).is_err(),
            "the old table is gone"
        );
    }
}
