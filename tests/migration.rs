//! The store's derived tables (folder counters, tags, thread members and summaries) are built for
//! a store that held mail before them in committed steps: the real binary is killed -9 in the
//! middle of that build, and the next start finishes it with exactly the counters that the
//! inserts themselves kept.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use mailclient::mailstore::{self, Fetched, FolderState, MailRead, MailWrite, Reason, ServerFlags};
use mailclient::schema;

/// Mail in two folders: threads of five with replies, some read, some starred or triaged.
fn fill(dir: &Path, n: u32) {
    let (store, _) = schema::open_and_migrate(dir).unwrap();
    for chunk in (1..=n).collect::<Vec<_>>().chunks(1_000) {
        let txn = store.begin_write().unwrap();
        let w = MailWrite::new(&txn, Reason::Sync);
        for folder in ["INBOX", "Archive"] {
            if w.folder(1, folder).unwrap().is_none() {
                w.save_folder(1, &FolderState::local(folder)).unwrap();
            }
        }
        let batch: Vec<Fetched> = chunk
            .iter()
            .map(|&uid| {
                let root = uid - uid % 5;
                let refs = if uid % 5 == 0 {
                    String::new()
                } else {
                    format!("References: <m{root}@x>\r\n")
                };
                let keywords = match uid % 7 {
                    0 => vec!["$NeedsReply".to_string()],
                    1 => vec!["$Info".to_string(), "$Urgent".to_string()],
                    _ => vec![],
                };
                Fetched {
                    uid,
                    flags: ServerFlags {
                        seen: uid % 3 == 0,
                        flagged: uid % 11 == 0,
                        keywords,
                        ..ServerFlags::default()
                    },
                    internal_date: Some(1_600_000_000 + i64::from(uid) * 600),
                    raw: format!(
                        "From: Sender {s} <s{s}@x>\r\nSubject: Topic {root}\r\nMessage-ID: <m{uid}@x>\r\n{refs}\r\nbody\r\n",
                        s = uid % 13
                    )
                    .into_bytes(),
                    identity: None,
                    thread: None,
                }
            })
            .collect();
        let (inbox, archive): (Vec<Fetched>, Vec<Fetched>) =
            batch.into_iter().partition(|f| f.uid % 4 != 0);
        w.insert_messages(1, "INBOX", &inbox).unwrap();
        w.insert_messages(1, "Archive", &archive).unwrap();
        txn.commit().unwrap();
    }
}

/// A folder's counters (index bits → messages) and thread signatures (member bits → threads).
type Counters = Vec<(String, Vec<(u16, u64)>, Vec<(Vec<u8>, u64)>)>;

/// Every counter and thread signature of the two folders.
fn counters(dir: &Path, migrate: bool) -> Counters {
    let store = if migrate {
        schema::open_and_migrate(dir).unwrap().0
    } else {
        schema::open(dir).unwrap().0
    };
    let mail = MailRead::new(&store).unwrap();
    ["INBOX", "Archive"]
        .iter()
        .map(|f| {
            (
                f.to_string(),
                mail.counts(1, f).unwrap(),
                mail.thread_signatures(1, f).unwrap(),
            )
        })
        .collect()
}

fn counted(c: &Counters) -> u64 {
    c.iter()
        .flat_map(|(_, counts, _)| counts)
        .map(|(_, n)| n)
        .sum()
}

#[test]
fn a_kill_during_the_counter_build_is_finished_by_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    fill(&data, 9_000);
    let kept_by_inserts = counters(&data, false);
    assert_eq!(counted(&kept_by_inserts), 9_000);

    // The store as schema 8 finds one that already held mail: no counters, the cursor at 0.
    {
        let (store, _) = schema::open(&data).unwrap();
        let txn = store.begin_write().unwrap();
        mailstore::forget_derived(&txn).unwrap();
        txn.commit().unwrap();
    }
    assert_eq!(counted(&counters(&data, false)), 0);

    // The real binary builds two steps (2,000 messages each), then is killed -9.
    let mut child = Command::new(env!("CARGO_BIN_EXE_mailclient"))
        .args(["--data-dir", data.to_str().unwrap(), "migrate"])
        .env("MAILSTORE_TEST_BUILD_PAUSE_AFTER", "2")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let mut said = String::new();
    loop {
        line.clear();
        let n = stderr.read_line(&mut line).unwrap();
        assert_ne!(n, 0, "the build never paused: {said}");
        if line.contains("build paused") {
            break;
        }
        said.push_str(&line);
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        counted(&counters(&data, false)),
        4_000,
        "the committed steps survive the kill"
    );

    // The next start continues from the cursor: the same counters the inserts kept.
    assert_eq!(counters(&data, true), kept_by_inserts);
}
