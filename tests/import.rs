//! `mailclient import` as a user runs it: the real binary, killed in the middle of an import,
//! then `serve` on the same data (the store and the index must agree), then the import run
//! again (it adds only what is missing).

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::binary_api::{Api, add_admin};
use common::{Server, binary, run_cli};
use serde_json::Value;

/// Big enough that a debug build (about 2,700 msg/s here) is still importing when the test kills
/// it, with a store transaction (5,000 messages) committed before.
const MESSAGES: usize = 20_000;

fn corpus_of(n: usize, out: &Path) {
    let status = Command::new("bash")
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/corpus.sh"))
        .args(["repeat", &n.to_string()])
        .arg(out)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
}

/// Messages stored for the user (the folder list) and messages the index finds.
async fn store_and_index(server: &Server) -> (u64, u64) {
    let api = Api::login(server).await;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let folders = api.get_json("/api/folders").await;
        let stored: u64 = folders["folders"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["total"].as_u64().unwrap())
            .sum();
        let found: Value = api.get_json("/api/search?q=in:all&perPage=1").await;
        if found["indexing"] == false {
            return (stored, found["total"].as_u64().unwrap());
        }
        assert!(
            Instant::now() < deadline,
            "the index never caught up: {found}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn import(data: &Path, corpus: &Path) -> std::process::Output {
    run_cli(
        &[
            "--data-dir",
            data.to_str().unwrap(),
            "import",
            corpus.to_str().unwrap(),
            "--user",
            "dana",
        ],
        &[],
        None,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_import_leaves_store_and_index_in_step_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "").unwrap();
    add_admin(&data, config.to_str().unwrap());
    let corpus = dir.path().join("corpus");
    corpus_of(MESSAGES, &corpus);

    // Kill -9 once the import has committed a store transaction: its progress line (on stderr,
    // after every batch with `--log-every 0`) counts the stored mail, and a count of 5,000 or
    // more means the first transaction of five batches was committed. Read from the import
    // itself, not guessed from a time, so neither a loaded machine (the kill before any commit)
    // nor a fast one (the whole corpus stored before a 5-second line) can change what is tested.
    let mut child = Command::new(binary())
        .args(["--data-dir", data.to_str().unwrap(), "import"])
        .arg(&corpus)
        .args(["--user", "dana", "--log-every", "0"])
        .env_remove("MAILCLIENT_CONFIG")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let progress = BufReader::new(child.stderr.take().unwrap());
    for line in progress.lines() {
        let line = line.unwrap();
        let done: u64 = line
            .split_whitespace()
            .find_map(|w| w.split_once('/'))
            .map(|(d, _)| d.replace(',', ""))
            .and_then(|d| d.parse().ok())
            .unwrap_or(0);
        if done >= 5_000 {
            break;
        }
    }
    child.kill().unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("imported"),
        "the import finished before it was killed; make the corpus bigger"
    );

    // serve: whatever was stored is searchable, nothing more.
    let server = Server::start(&data, &[]);
    let (stored, indexed) = store_and_index(&server).await;
    assert!(
        stored > 0 && (stored as usize) < MESSAGES,
        "stored {stored}"
    );
    assert_eq!(
        indexed, stored,
        "the index and the store disagree after the kill"
    );
    server.stop();

    // The second run adds the rest, and only the rest.
    let out = import(&data, &corpus);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = String::from_utf8_lossy(&out.stdout).to_string();
    let digits = |s: &str| s.replace(',', "").parse::<u64>().unwrap();
    let words: Vec<&str> = summary.split_whitespace().collect();
    let imported = digits(words[1]);
    let already = digits(words[5].trim_start_matches('('));
    assert_eq!(
        (imported + already, already),
        (MESSAGES as u64, stored),
        "{summary}"
    );

    // The import leaves the store's free pages for later writes; `migrate --compact` gives
    // them back, and the mail is all there after it.
    let out = run_cli(
        &["--data-dir", data.to_str().unwrap(), "migrate", "--compact"],
        &[],
        None,
    );
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sizes: Vec<u64> = said
        .lines()
        .find(|l| l.contains("compacted in"))
        .unwrap_or_else(|| panic!("no compaction reported: {said}"))
        .split(": ")
        .nth(1)
        .unwrap()
        .split(" → ")
        .map(|mb| mb.trim_end_matches(" MB").parse().unwrap())
        .collect();
    assert!(sizes[1] <= sizes[0] && sizes[1] > 0, "{said}");

    let server = Server::start(&data, &[]);
    let (stored, indexed) = store_and_index(&server).await;
    assert_eq!((stored, indexed), (MESSAGES as u64, MESSAGES as u64));
    // The local account is there, with its mail searchable by content.
    let api = Api::login(&server).await;
    let v = api.get_json("/api/search?q=spambayes&perPage=5").await;
    assert!(v["total"].as_u64().unwrap() > 0, "{v}");
    let accounts = api.get_json("/api/auth/accounts").await;
    assert_eq!(
        accounts["accounts"][0]["email_address"], "dana@localhost",
        "{accounts}"
    );
    server.stop();
}

#[test]
fn unparseable_messages_are_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "").unwrap();
    add_admin(&data, config.to_str().unwrap());
    let mail = dir.path().join("mail");
    std::fs::create_dir(&mail).unwrap();
    std::fs::write(
        mail.join("good.eml"),
        "From: a@example.test\r\nSubject: שלום\r\n\r\nגוף\r\n",
    )
    .unwrap();
    std::fs::write(mail.join("empty.eml"), "").unwrap();
    std::fs::write(mail.join("garbage.eml"), b"\x00\x01\x02 not mail").unwrap();
    let out = import(&data, &mail);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.starts_with("imported 1 messages"), "{stdout}");
    assert!(stdout.contains("2 could not be read"), "{stdout}");
    assert!(
        stderr.contains("empty.eml") && stderr.contains("garbage.eml"),
        "{stderr}"
    );

    // An unknown user is a clear error.
    let out = run_cli(
        &[
            "--data-dir",
            data.to_str().unwrap(),
            "import",
            mail.to_str().unwrap(),
            "--user",
            "nobody",
        ],
        &[],
        None,
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no user named"));
}

#[test]
fn root_does_not_import_into_another_user_s_data_dir() {
    // Only root can make the situation (and the check is about root).
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: not root");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    std::os::unix::fs::chown(&data, Some(65534), Some(65534)).unwrap();
    let mail = dir.path().join("mail");
    std::fs::create_dir(&mail).unwrap();
    std::fs::write(mail.join("a.eml"), "Subject: a\r\n\r\nx\r\n").unwrap();
    let out = import(&data, &mail);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("refusing to import as root"), "{stderr}");
    assert!(stderr.contains("uid 65534"), "{stderr}");
    // Nothing was written into it.
    assert_eq!(std::fs::read_dir(&data).unwrap().count(), 0);
}
