//! The derived tables stay equal to a rebuild from the records through every kind of change,
//! and threads that arrived in pieces are joined.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use redb::{ReadableDatabase, ReadableTable};

use super::derived::build_step;
use super::model::{Fetched, FolderState, ServerFlags};
use super::tables::{COUNTS, IDLE, MEMBERS, TAGS, THREAD_SIGS, THREADS, UIDS};
use super::uids::UID_COUNTS;
use super::{MailRead, MailWrite, Reason, ThreadRec, thread_hash};
use crate::store::{Migration, Store};

/// The mail tables as the schema's migrations leave them (the list itself sits above the
/// store, in `crate::schema`).
fn mail_tables(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    crate::store::create_meta(txn)?;
    super::create_tables(txn)?;
    super::migrate_to_index(txn)?;
    super::migrate_to_compressed_raw(txn)?;
    super::create_legacy_search_queue(txn)?;
    super::migrate_to_change_log(txn)?;
    super::create_derived_tables(txn)?;
    super::create_idle_table(txn)?;
    super::create_uid_counts(txn)
}

static MAIL: &[Migration] = &[Migration {
    version: 1,
    name: "mail tables",
    apply: mail_tables,
}];

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let (store, _) = Store::open_with(dir.path(), crate::store::DEFAULT_CACHE_MB, MAIL).unwrap();
    store.migrate().unwrap();
    (dir, store)
}

fn fetched(uid: u32, headers: &str, seen: bool) -> Fetched {
    Fetched {
        uid,
        flags: ServerFlags {
            seen,
            ..ServerFlags::default()
        },
        internal_date: Some(1_700_000_000 + i64::from(uid) * 60),
        raw: format!("{headers}\r\nFrom: Dana <dana@example.test>\r\n\r\nbody {uid}\r\n")
            .into_bytes(),
        identity: None,
        thread: None,
    }
}

fn insert(store: &Store, folder: &str, mails: &[Fetched]) {
    let txn = store.begin_write().unwrap();
    let w = MailWrite::new(&txn, Reason::Sync);
    if w.folder(1, folder).unwrap().is_none() {
        w.save_folder(1, &FolderState::local(folder)).unwrap();
    }
    w.insert_messages(1, folder, mails).unwrap();
    txn.commit().unwrap();
}

/// Everything the derived tables hold, names as sets (their order is join order).
type Snapshot = (
    BTreeMap<(u64, String, u16), u64>,
    BTreeSet<(u64, u8, i64, u64, String)>,
    BTreeSet<(u64, u64, i64, u64, String)>,
    BTreeMap<(u64, String, u64), (Vec<(u16, u32)>, BTreeSet<(String, u32)>)>,
    BTreeMap<(u64, String, Vec<u8>), u64>,
    BTreeSet<(u64, String, i64, u64)>,
);

fn snapshot(store: &Store) -> Snapshot {
    let txn = store.db().begin_read().unwrap();
    assert_uid_counts_are_counts(&txn);
    let mut s = Snapshot::default();
    for e in txn.open_table(COUNTS).unwrap().iter().unwrap() {
        let (k, v) = e.unwrap();
        let (a, f, b) = k.value();
        s.0.insert((a, f.to_string(), b), v.value());
    }
    for e in txn.open_table(TAGS).unwrap().iter().unwrap() {
        let (k, v) = e.unwrap();
        let (a, t, d, id) = k.value();
        s.1.insert((a, t, d, id, v.value().to_string()));
    }
    for e in txn.open_table(MEMBERS).unwrap().iter().unwrap() {
        let (k, v) = e.unwrap();
        let (a, t, d, id) = k.value();
        s.2.insert((a, t, d, id, v.value().to_string()));
    }
    for e in txn.open_table(THREADS).unwrap().iter().unwrap() {
        let (k, v) = e.unwrap();
        let (a, f, t) = k.value();
        let rec = ThreadRec::decode(v.value());
        s.3.insert(
            (a, f.to_string(), t),
            (rec.bits, rec.names.into_iter().collect()),
        );
    }
    for e in txn.open_table(THREAD_SIGS).unwrap().iter().unwrap() {
        let (k, v) = e.unwrap();
        let (a, f, sig) = k.value();
        s.4.insert((a, f.to_string(), sig.to_vec()), v.value());
    }
    for e in txn.open_table(IDLE).unwrap().iter().unwrap() {
        let (k, _) = e.unwrap();
        let (a, f, activity, id) = k.value();
        s.5.insert((a, f.to_string(), activity, id));
    }
    s
}

/// Every folder's count of UIDs (the expunge check's) equals a count of its UIDs.
fn assert_uid_counts_are_counts(txn: &redb::ReadTransaction) {
    let mut counted: BTreeMap<(u64, String), u64> = BTreeMap::new();
    for e in txn.open_table(UIDS).unwrap().iter().unwrap() {
        let (k, _) = e.unwrap();
        let (a, f, _) = k.value();
        *counted.entry((a, f.to_string())).or_default() += 1;
    }
    let mut kept = BTreeMap::new();
    for e in txn.open_table(UID_COUNTS).unwrap().iter().unwrap() {
        let (k, v) = e.unwrap();
        let (a, f) = k.value();
        kept.insert((a, f.to_string()), v.value());
    }
    assert_eq!(kept, counted, "the UID counts kept beside the UIDs");
}

/// Empties the derived tables and builds them again from the records, in small steps.
fn rebuild(store: &Store) {
    let txn = store.begin_write().unwrap();
    super::derived::forget_derived(&txn).unwrap();
    txn.commit().unwrap();
    finish_build(store);
}

/// Runs the builder from its cursor to the end, three messages a step.
fn finish_build(store: &Store) {
    loop {
        let txn = store.begin_write().unwrap();
        let step = build_step(&txn, 3).unwrap();
        txn.commit().unwrap();
        if step.is_none() {
            break;
        }
    }
}

#[test]
fn derived_tables_equal_a_rebuild_after_every_kind_of_change() {
    let (_dir, store) = store();
    let mails: Vec<Fetched> = (1..=12)
        .map(|uid| {
            let headers = match uid % 4 {
                0 => format!("Subject: Plan\r\nMessage-ID: <m{uid}@x>"),
                1 => format!("Subject: Re: Plan\r\nMessage-ID: <m{uid}@x>\r\nReferences: <m4@x>"),
                2 => format!("Subject: Lunch {uid}\r\nMessage-ID: <m{uid}@x>"),
                _ => format!("Subject: Re: Lunch\r\nMessage-ID: <m{uid}@x>\r\nIn-Reply-To: <m2@x>"),
            };
            fetched(uid, &headers, uid % 3 == 0)
        })
        .collect();
    insert(&store, "INBOX", &mails[..8]);
    insert(&store, "Archive", &mails[8..]);
    let before = snapshot(&store);
    assert_eq!(
        before.0.values().sum::<u64>(),
        12,
        "every message counted once"
    );

    // Flags and triage from the server, a hide, a delete, a local move, a folder reset.
    let txn = store.begin_write().unwrap();
    let w = MailWrite::new(&txn, Reason::Sync);
    let updates = vec![
        (
            1,
            ServerFlags {
                seen: true,
                flagged: true,
                keywords: vec!["$NeedsReply".into(), "$Urgent".into()],
                ..ServerFlags::default()
            },
        ),
        (
            2,
            ServerFlags {
                keywords: vec!["$Info".into()],
                ..ServerFlags::default()
            },
        ),
    ];
    w.update_flags(1, "INBOX", &updates, true).unwrap();
    let id3 = w.id_of_uid(1, "INBOX", 3).unwrap().unwrap();
    w.hide(w.meta(id3).unwrap().unwrap(), 1).unwrap();
    let id4 = w.id_of_uid(1, "INBOX", 4).unwrap().unwrap();
    w.delete_message(id4).unwrap();
    let id5 = w.id_of_uid(1, "INBOX", 5).unwrap().unwrap();
    let mut meta5 = w.meta(id5).unwrap().unwrap();
    meta5.status = Some("processed".into());
    let mut archive = w.folder(1, "Archive").unwrap().unwrap();
    w.move_local(meta5, &mut archive).unwrap();
    txn.commit().unwrap();
    let after_changes = snapshot(&store);
    // Idle mail: the info mail in the inbox and the processed one moved to the archive.
    let id2 = MailRead::new(&store)
        .unwrap()
        .id_of_uid(1, "INBOX", 2)
        .unwrap()
        .unwrap();
    let idle: Vec<(&str, u64)> = after_changes
        .5
        .iter()
        .map(|(_, f, _, id)| (f.as_str(), *id))
        .collect();
    assert_eq!(idle, [("Archive", id5), ("INBOX", id2)]);
    rebuild(&store);
    assert_eq!(snapshot(&store), after_changes);
    assert_ne!(after_changes, before);

    let txn = store.begin_write().unwrap();
    MailWrite::new(&txn, Reason::Sync)
        .clear_folder(1, "Archive")
        .unwrap();
    txn.commit().unwrap();
    let after_clear = snapshot(&store);
    assert!(after_clear.0.keys().all(|(_, f, _)| f == "INBOX"));
    rebuild(&store);
    assert_eq!(snapshot(&store), after_clear);
}

/// A reply that names only its parent arrives first, then the parent (which names the root),
/// then the root: one thread in the end, whatever the order.
#[test]
fn threads_join_when_replies_arrive_before_their_root() {
    let (_dir, store) = store();
    insert(
        &store,
        "INBOX",
        &[fetched(
            1,
            "Subject: Re: Re: Trip\r\nMessage-ID: <c@x>\r\nIn-Reply-To: <b@x>",
            false,
        )],
    );
    insert(
        &store,
        "INBOX",
        &[fetched(
            2,
            "Subject: Re: Trip\r\nMessage-ID: <b@x>\r\nReferences: <a@x>",
            false,
        )],
    );
    insert(
        &store,
        "INBOX",
        &[fetched(3, "Subject: Trip\r\nMessage-ID: <a@x>", true)],
    );
    let mail = MailRead::new(&store).unwrap();
    let threads: HashSet<String> = (1..=3)
        .map(|uid| {
            let id = mail.id_of_uid(1, "INBOX", uid).unwrap().unwrap();
            mail.meta(id).unwrap().unwrap().thread_id
        })
        .collect();
    assert_eq!(threads.len(), 1, "{threads:?}");
    let hash = thread_hash(threads.iter().next().unwrap());
    assert_eq!(mail.members(1, hash).unwrap().len(), 3);
    let rec = mail.thread(1, "INBOX", hash).unwrap();
    assert_eq!(rec.bits.iter().map(|(_, n)| n).sum::<u32>(), 3);
    assert_eq!(mail.thread_signatures(1, "INBOX").unwrap().len(), 1);
    let joined = snapshot(&store);
    rebuild(&store);
    assert_eq!(snapshot(&store), joined);
}

/// Schema 14 on a store that already held triaged mail: the idle table starts empty, the
/// builder's steps fill it with the others.
#[test]
fn schema_14_fills_the_idle_table_of_a_store_that_held_mail() {
    let (_dir, store) = store();
    let mails: Vec<Fetched> = (1..=5)
        .map(|uid| {
            let mut f = fetched(
                uid,
                &format!("Subject: S{uid}\r\nMessage-ID: <i{uid}@x>"),
                true,
            );
            if uid % 2 == 1 {
                f.flags.keywords = vec!["$Processed".into()];
            }
            f
        })
        .collect();
    insert(&store, "INBOX", &mails);
    let complete = snapshot(&store);
    assert_eq!(complete.5.len(), 3, "{:?}", complete.5);
    // As a store written before schema 14 looks: no idle rows.
    let txn = store.begin_write().unwrap();
    txn.open_table(IDLE).unwrap().retain(|_, _| false).unwrap();
    super::create_idle_table(&txn).unwrap();
    txn.commit().unwrap();
    assert!(snapshot(&store).5.is_empty());
    finish_build(&store);
    assert_eq!(snapshot(&store), complete);
}

/// Gmail's model: a mail in INBOX, All Mail and a label is one stored mail with two places.
/// It is tagged once, counted in INBOX and in the label (not again in All Mail); an expunge of
/// its home moves the home to All Mail; it goes with its last place; a rebuild agrees.
#[test]
fn a_mail_in_several_folders_is_one_mail_with_places() {
    let (_dir, store) = store();
    let key = "mid:<g@x>:100".to_string();
    let txn = store.begin_write().unwrap();
    let w = MailWrite::new(&txn, Reason::Sync);
    for (name, role, labels, all_mail) in [
        ("INBOX", "inbox", false, false),
        ("[Gmail]/All Mail", "archive", false, true),
        ("Work", "", true, false),
    ] {
        let state = FolderState {
            name: name.into(),
            display_name: name.into(),
            role: role.into(),
            labels,
            all_mail,
            ..FolderState::default()
        };
        w.save_folder(1, &state).unwrap();
    }
    let mut mail = fetched(3, "Message-ID: <g@x>\r\nSubject: s\r\n", false);
    mail.flags.flagged = true;
    mail.identity = Some(key.clone());
    w.insert_messages(1, "INBOX", &[mail]).unwrap();
    let other = (8, "mid:<other@x>:5".to_string());
    let placed = w
        .place_known(1, "[Gmail]/All Mail", &[(7, key.clone()), other])
        .unwrap();
    assert_eq!(placed, [7], "only the copy of a stored mail");
    assert_eq!(w.place_known(1, "Work", &[(2, key.clone())]).unwrap(), [2]);
    txn.commit().unwrap();

    let snap = snapshot(&store);
    let flagged: Vec<_> = snap
        .1
        .iter()
        .filter(|t| t.1 == super::tags::FLAGGED)
        .collect();
    assert_eq!(flagged.len(), 1, "tagged once");
    let counted: BTreeSet<&str> = snap.0.keys().map(|(_, f, _)| f.as_str()).collect();
    assert_eq!(counted, BTreeSet::from(["INBOX", "Work"]));
    rebuild(&store);
    assert_eq!(snapshot(&store), snap);
    let read = MailRead::new(&store).unwrap();
    let id = read.id_of_uid(1, "INBOX", 3).unwrap().unwrap();
    assert_eq!(read.id_of_uid(1, "[Gmail]/All Mail", 7).unwrap(), Some(id));
    assert_eq!(read.id_of_uid(1, "Work", 2).unwrap(), Some(id));
    assert_eq!(read.rows(1, "Work").unwrap().count(), 1);
    drop(read);

    // The label renamed: the mail stays home in INBOX, its place follows.
    let txn = store.begin_write().unwrap();
    let w = MailWrite::new(&txn, Reason::Sync);
    assert_eq!(w.rename_folder(1, "Work", "Clients", "Clients").unwrap(), 1);
    txn.commit().unwrap();
    let meta = MailRead::new(&store).unwrap().meta(id).unwrap().unwrap();
    assert_eq!(meta.folder, "INBOX");
    assert!(
        meta.places
            .iter()
            .any(|p| p.folder == "Clients" && p.listed)
    );
    let renamed = snapshot(&store);
    let counted: BTreeSet<&str> = renamed.0.keys().map(|(_, f, _)| f.as_str()).collect();
    assert_eq!(counted, BTreeSet::from(["Clients", "INBOX"]));
    rebuild(&store);
    assert_eq!(snapshot(&store), renamed);

    // Archived on the server: out of INBOX, home now All Mail, still in its label.
    let txn = store.begin_write().unwrap();
    let w = MailWrite::new(&txn, Reason::Sync);
    assert_eq!(w.remove_missing(1, "INBOX", &HashSet::new()).unwrap(), 1);
    txn.commit().unwrap();
    let meta = MailRead::new(&store).unwrap().meta(id).unwrap().unwrap();
    assert_eq!((meta.folder.as_str(), meta.uid), ("[Gmail]/All Mail", 7));
    assert_eq!(meta.places.len(), 1);
    assert_eq!(meta.places[0].folder, "Clients");
    let snap = snapshot(&store);
    let counted: BTreeSet<&str> = snap.0.keys().map(|(_, f, _)| f.as_str()).collect();
    assert_eq!(counted, BTreeSet::from(["Clients", "[Gmail]/All Mail"]));
    rebuild(&store);
    assert_eq!(snapshot(&store), snap);

    // Gone from every folder: the mail goes, and with it its key.
    let txn = store.begin_write().unwrap();
    let w = MailWrite::new(&txn, Reason::Sync);
    w.remove_missing(1, "Clients", &HashSet::new()).unwrap();
    assert!(w.meta(id).unwrap().is_some(), "still in All Mail");
    w.remove_missing(1, "[Gmail]/All Mail", &HashSet::new())
        .unwrap();
    assert!(w.meta(id).unwrap().is_none());
    assert_eq!(
        w.place_known(1, "Clients", &[(9, key)]).unwrap(),
        Vec::<u32>::new()
    );
    txn.commit().unwrap();
    let snap = snapshot(&store);
    assert!(
        snap.0.is_empty() && snap.1.is_empty() && snap.2.is_empty(),
        "{snap:?}"
    );
}
