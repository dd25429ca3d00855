//! Full-text search (issue 7): the Hebrew golden set (`tests/fixtures/search/`) and the
//! development corpus, imported into local accounts (no mail server) and searched through
//! `GET /api/search`; every operator, phrases, negation, dates, folders, Hebrew prefixes,
//! niqqud, final letters, precision of the prefix rule, and user isolation.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::TestApp;
use common::mailflow::eventually;
use serde_json::{Value, json};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/search")
}

/// `mailclient import` of `path` into folder `folder` of `user`'s local account, in process.
fn import_path(app: &TestApp, user: &str, path: &Path, folder: &str) -> mailclient::import::Report {
    mailclient::import::run(
        &app.state.store,
        &app.state.service::<mailclient::search::Search>(),
        &mailclient::import::Options {
            path: path.to_path_buf(),
            username: user.into(),
            account: None,
            folder: folder.into(),
            show_progress: false,
            log_every: std::time::Duration::from_secs(5),
        },
    )
    .unwrap()
}

/// Imports `files` of `dir` into folder `folder` of `user`'s local account.
fn import(app: &TestApp, user: &str, dir: &Path, files: &[String], folder: &str) {
    let tmp = tempfile::tempdir().unwrap();
    for f in files {
        std::fs::copy(dir.join(f), tmp.path().join(f)).unwrap();
    }
    let report = import_path(app, user, tmp.path(), folder);
    assert_eq!(report.imported as usize, files.len(), "{:?}", report.failed);
}

fn message_id_of(path: &Path) -> String {
    let raw = std::fs::read(path).unwrap();
    mailclient::mail::parse::summary(&raw)
        .message_id
        .expect("fixture has a Message-ID")
}

fn eml_files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".eml"))
        .collect();
    v.sort();
    v
}

async fn search(app: &TestApp, token: &str, query: &str) -> (u16, Value) {
    let q: String = url_encode(query);
    app.json(
        "GET",
        &format!("/api/search?q={q}&tz=120&perPage=100"),
        Some(token),
        None,
    )
    .await
}

fn url_encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The files a search returned, by Message-ID.
async fn found(
    app: &TestApp,
    token: &str,
    query: &str,
    by_id: &HashMap<String, String>,
) -> BTreeSet<String> {
    let (s, v) = search(app, token, query).await;
    assert_eq!(s, 200, "{query}: {v}");
    let rows = v["results"].as_array().unwrap();
    assert_eq!(v["total"].as_u64().unwrap() as usize, rows.len(), "{query}");
    rows.iter()
        .map(|r| {
            let mid = r["messageId"].as_str().unwrap_or_default();
            by_id.get(mid).cloned().unwrap_or_else(|| format!("?{mid}"))
        })
        .collect()
}

fn names(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// Waits until the index has everything (`indexing` false and `check` true).
async fn settled(app: &TestApp, token: &str, query: &str, total: u64) {
    eventually(Duration::from_secs(30), "the index to catch up", || async {
        let (s, v) = search(app, token, query).await;
        (s == 200 && v["indexing"] == false && v["total"] == total).then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hebrew_golden_set() {
    // Hundreds of queries in a row: past the per-user search limit.
    let app = TestApp::with_config("[limits]\nsearch_per_minute = 100000\n");
    let dana = app.admin_token("dana", "correct horse 1").await;
    let (s, v) = app
        .json(
            "POST",
            "/api/admin/users",
            Some(&dana),
            Some(json!({"username": "yossi", "name": "יוסי", "password": "another pass 2"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let yossi = app.login("yossi", "another pass 2").await;

    let golden: Value = serde_json::from_str(
        &std::fs::read_to_string(fixtures().join("hebrew-queries.json")).unwrap(),
    )
    .unwrap();
    let dir = fixtures().join("hebrew");
    let other_dir = fixtures().join("hebrew-other-user");
    let all = eml_files(&dir);
    let sent: Vec<String> = names(&golden["folders"]["sent"]).into_iter().collect();
    let trash: Vec<String> = names(&golden["folders"]["trash"]).into_iter().collect();
    let inbox: Vec<String> = all
        .iter()
        .filter(|f| !sent.contains(f) && !trash.contains(f))
        .cloned()
        .collect();
    import(&app, "dana", &dir, &inbox, "INBOX");
    import(&app, "dana", &dir, &sent, "Sent");
    import(&app, "dana", &dir, &trash, "Trash");
    import(&app, "yossi", &other_dir, &eml_files(&other_dir), "INBOX");

    let mut by_id = HashMap::new();
    for f in &all {
        by_id.insert(message_id_of(&dir.join(f)), f.clone());
    }
    let mut other_by_id = HashMap::new();
    for f in eml_files(&other_dir) {
        other_by_id.insert(message_id_of(&other_dir.join(&f)), f.clone());
    }
    settled(&app, &dana, "in:all", all.len() as u64).await;

    // Flags through the API, as a user sets them (imported mail is read and not starred).
    let ids: HashMap<String, String> = {
        let (_, v) = search(&app, &dana, "in:all").await;
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    by_id[r["messageId"].as_str().unwrap()].clone(),
                    r["id"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    for f in names(&golden["flags"]["unread"]) {
        let (s, v) = app
            .json(
                "PUT",
                &format!("/api/emails/{}", ids[&f]),
                Some(&dana),
                Some(json!({"is_read": false})),
            )
            .await;
        assert_eq!(s, 200, "{v}");
    }
    for f in names(&golden["flags"]["starred"]) {
        let (s, v) = app
            .json(
                "PUT",
                &format!("/api/emails/{}", ids[&f]),
                Some(&dana),
                Some(json!({"is_starred": true})),
            )
            .await;
        assert_eq!(s, 200, "{v}");
    }
    let starred = names(&golden["flags"]["starred"]).len() as u64;
    settled(&app, &dana, "is:starred", starred).await;
    settled(
        &app,
        &dana,
        "is:unread",
        names(&golden["flags"]["unread"]).len() as u64,
    )
    .await;

    let mut failures = Vec::new();
    let cases = golden["cases"].as_array().unwrap();
    for c in cases {
        let q = c["q"].as_str().unwrap();
        let got = found(&app, &dana, q, &by_id).await;
        let want = names(&c["expect"]);
        if got != want {
            failures.push(format!(
                "{q:?} ({}):\n    missing {:?}\n    extra   {:?}",
                c["why"].as_str().unwrap_or(""),
                want.difference(&got).collect::<Vec<_>>(),
                got.difference(&want).collect::<Vec<_>>()
            ));
        }
    }
    for c in golden["otherUser"]["cases"].as_array().unwrap() {
        let q = c["q"].as_str().unwrap();
        let got = found(&app, &yossi, q, &other_by_id).await;
        let want = names(&c["expect"]);
        if got != want {
            failures.push(format!("as yossi {q:?}: got {got:?}, want {want:?}"));
        }
    }

    // Precision of the prefix rule: what it must find, and what it is known to add.
    let (mut relevant, mut returned) = (0usize, 0usize);
    for c in golden["precision"].as_array().unwrap() {
        let q = c["q"].as_str().unwrap();
        let got = found(&app, &dana, q, &by_id).await;
        let want = names(&c["expect"]);
        let allowed: BTreeSet<String> = want.union(&names(&c["tolerated"])).cloned().collect();
        if !want.is_subset(&got) || !got.is_subset(&allowed) {
            failures.push(format!(
                "precision {q:?}: got {got:?}, want {want:?} (+ tolerated)"
            ));
        }
        relevant += got.intersection(&want).count();
        returned += got.len();
    }
    let precision = relevant as f64 / returned.max(1) as f64;
    println!(
        "golden set: {} cases, {} as the other user; prefix-trap precision {relevant}/{returned} = {precision:.2}",
        cases.len(),
        golden["otherUser"]["cases"].as_array().unwrap().len()
    );
    assert!(
        failures.is_empty(),
        "{} failing cases:\n{}",
        failures.len(),
        failures.join("\n")
    );

    // Malformed queries are a clear 400, never a 500; an empty search is refused.
    for (q, code) in [
        ("\"open", "bad_query"),
        ("(a b", "bad_query"),
        ("a OR", "bad_query"),
        ("after:32/01/2024", "bad_query"),
        ("has:pdf", "bad_query"),
        ("   ", "empty_query"),
        ("!!!", "empty_query"),
    ] {
        let (s, v) = search(&app, &dana, q).await;
        assert_eq!((s, v["error"].as_str()), (400, Some(code)), "{q}: {v}");
        assert!(!v["message"].as_str().unwrap().is_empty());
    }
    // Snippets: the hit is marked inside 150 characters; the thread id is there.
    let (_, v) = search(&app, &dana, "פגישה").await;
    let row = &v["results"][0];
    assert!(row["threadId"].is_string(), "{row}");
    let parts = row["snippet"].as_array().unwrap();
    let text: String = parts.iter().map(|p| p["text"].as_str().unwrap()).collect();
    assert!(text.chars().count() <= 150, "{text}");
    assert!(
        parts
            .iter()
            .any(|p| p["hit"] == true && p["text"].as_str().unwrap().contains("פגיש")),
        "{parts:?}"
    );
    // Panel filters: sender, folder, flags, dates, paging.
    let (s, v) = app
        .json(
            "GET",
            "/api/search?from=dan&folder=inbox&perPage=1&page=2&tz=120",
            Some(&dana),
            None,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let total = v["total"].as_u64().unwrap();
    assert!(total >= 2, "{v}");
    assert_eq!(v["results"].as_array().unwrap().len(), 1);
    let (s, v) = app
        .json("GET", "/api/search?perPage=abc", Some(&dana), None)
        .await;
    assert_eq!((s, v["error"].as_str()), (400, Some("bad_request")), "{v}");
    // A local account has no mail server: sending says so (and queues nothing).
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/send",
            Some(&dana),
            Some(json!({"to": ["noa@example.test"], "subject": "שלום", "body": "<p>x</p>"})),
        )
        .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some(mailclient::messages::LOCAL_ACCOUNT_NO_SERVER)),
        "{v}"
    );
    // A query too long or nested too deep is a 400, not a crash.
    let (s, v) = search(&app, &dana, &"(".repeat(5_000)).await;
    assert_eq!((s, v["error"].as_str()), (400, Some("bad_query")), "{v}");
    let (s, v) = search(&app, &dana, &"-(a ".repeat(40)).await;
    assert_eq!((s, v["error"].as_str()), (400, Some("bad_query")), "{v}");
    // Without a session: 401.
    let (s, _) = app.json("GET", "/api/search?q=x", None, None).await;
    assert_eq!(s, 401);
}

/// The development corpus (3,250 SpamAssassin messages): each operator's results checked
/// against the messages themselves, and the totals against the recorded golden counts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corpus_queries() {
    let corpus = std::process::Command::new("bash")
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/corpus.sh"))
        .arg("dir")
        .output()
        .unwrap();
    assert!(corpus.status.success());
    let corpus = PathBuf::from(String::from_utf8_lossy(&corpus.stdout).trim().to_string());
    // Hundreds of queries in a row: past the per-user search limit.
    let app = TestApp::with_config("[limits]\nsearch_per_minute = 100000\n");
    let dana = app.admin_token("dana", "correct horse 1").await;
    let files = eml_files(&corpus);
    let report = import_path(&app, "dana", &corpus, "INBOX");
    assert_eq!(report.imported, 3_250, "{:?}", report.failed);
    assert_eq!(files.len(), 3_250);
    settled(&app, &dana, "in:inbox", 3_250).await;

    // Re-running adds nothing.
    let again = import_path(&app, "dana", &corpus, "INBOX");
    assert_eq!((again.imported, again.already), (0, 3_250));

    let golden: Value = serde_json::from_str(
        &std::fs::read_to_string(fixtures().join("corpus-queries.json")).unwrap(),
    )
    .unwrap();
    let mut failures = Vec::new();
    let mut recorded = serde_json::Map::new();
    for (q, check) in corpus_checks() {
        let (s, v) = app
            .json(
                "GET",
                &format!("/api/search?q={}&tz=0&perPage=100", url_encode(q)),
                Some(&dana),
                None,
            )
            .await;
        assert_eq!(s, 200, "{q}: {v}");
        let total = v["total"].as_u64().unwrap();
        recorded.insert(q.to_string(), json!(total));
        if golden[q].as_u64() != Some(total) {
            failures.push(format!("{q:?}: total {total}, golden {}", golden[q]));
        }
        if total == 0 {
            failures.push(format!("{q:?}: no results"));
        }
        for row in v["results"].as_array().unwrap() {
            if let Err(why) = check(row) {
                failures.push(format!("{q:?}: {} {}: {why}", row["id"], row["subject"]));
                break;
            }
        }
    }
    // A Message-ID finds exactly its message.
    let (_, v) = app
        .json(
            "GET",
            "/api/search?q=spambayes&perPage=1",
            Some(&dana),
            None,
        )
        .await;
    let mid = v["results"][0]["messageId"].as_str().unwrap().to_string();
    let (_, v) = app
        .json(
            "GET",
            &format!("/api/search?q={}", url_encode(&format!("id:<{mid}>"))),
            Some(&dana),
            None,
        )
        .await;
    assert_eq!(v["total"], 1, "{v}");
    assert_eq!(v["results"][0]["messageId"], mid.as_str());
    if std::env::var("SEARCH_GOLDEN_WRITE").is_ok() {
        std::fs::write(
            fixtures().join("corpus-queries.json"),
            serde_json::to_string_pretty(&recorded).unwrap() + "\n",
        )
        .unwrap();
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

type Check = fn(&Value) -> Result<(), String>;

fn text_of(row: &Value, key: &str) -> String {
    match &row[key] {
        Value::Array(a) => a
            .iter()
            .map(|v| v.as_str().unwrap_or_default())
            .collect::<Vec<_>>()
            .join(" "),
        v => v.as_str().unwrap_or_default().to_string(),
    }
    .to_lowercase()
}

/// A result's To and Cc addresses, lower-cased.
fn recipients(row: &Value) -> Vec<String> {
    (text_of(row, "to") + " " + &text_of(row, "cc"))
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

fn date_of(row: &Value) -> String {
    row["date"].as_str().unwrap_or_default().to_string()
}

fn corpus_checks() -> Vec<(&'static str, Check)> {
    vec![
        ("python", |_| Ok(())),
        ("from:tim.one", |r| {
            text_of(r, "from")
                .contains("tim.one")
                .then_some(())
                .ok_or_else(|| text_of(r, "from"))
        }),
        ("to:ilug@linux.ie", |r| {
            (text_of(r, "to") + &text_of(r, "cc"))
                .contains("ilug@linux.ie")
                .then_some(())
                .ok_or_else(|| text_of(r, "to"))
        }),
        // An address is looked up whole: typed in full, as far as typed, or quoted (exactly).
        ("from:tim.one@comcast.net", |r| {
            (text_of(r, "from") == "tim.one@comcast.net")
                .then_some(())
                .ok_or_else(|| text_of(r, "from"))
        }),
        ("to:ilug@linux", |r| {
            recipients(r)
                .iter()
                .any(|a| a.starts_with("ilug@linux"))
                .then_some(())
                .ok_or_else(|| text_of(r, "to"))
        }),
        ("to:\"ilug@linux.ie\"", |r| {
            recipients(r)
                .iter()
                .any(|a| a == "ilug@linux.ie")
                .then_some(())
                .ok_or_else(|| text_of(r, "to"))
        }),
        ("subject:spambayes", |r| {
            text_of(r, "subject")
                .contains("spambayes")
                .then_some(())
                .ok_or_else(|| text_of(r, "subject"))
        }),
        ("\"open source\"", |_| Ok(())),
        ("after:2002-08-01 before:2002-09-01", |r| {
            let d = date_of(r);
            (d.as_str() >= "2002-08-01" && d.as_str() < "2002-09-01")
                .then_some(())
                .ok_or(d)
        }),
        ("python after:01/09/2002 before:01/10/2002", |r| {
            let d = date_of(r);
            (d.as_str() >= "2002-09-01" && d.as_str() < "2002-10-01")
                .then_some(())
                .ok_or(d)
        }),
        ("has:attachment", |r| {
            (r["hasAttachments"] == true)
                .then_some(())
                .ok_or_else(|| "no attachment".into())
        }),
        ("software -microsoft", |r| {
            (!text_of(r, "subject").contains("microsoft"))
                .then_some(())
                .ok_or_else(|| text_of(r, "subject"))
        }),
        ("razor OR spamassassin", |_| Ok(())),
        ("subject:spambayes -from:tim", |r| {
            (!text_of(r, "from").starts_with("tim"))
                .then_some(())
                .ok_or_else(|| text_of(r, "from"))
        }),
        ("in:inbox is:read", |r| {
            (r["is_read"] == true)
                .then_some(())
                .ok_or_else(|| "unread".into())
        }),
        ("meetings", |_| Ok(())),
        ("linu*", |_| Ok(())),
    ]
}

/// While the store is bulk loading (a mailbox's first sync), the indexer leaves the change log
/// for later and searches say it is catching up; when the load ends, it catches up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_indexer_waits_for_a_bulk_load_then_catches_up() {
    let app = TestApp::new();
    let dana = app.admin_token("dana", "correct horse 1").await;
    let dir = fixtures().join("hebrew");
    let files: Vec<String> = eml_files(&dir).into_iter().take(3).collect();
    import(&app, "dana", &dir, &files, "INBOX");
    settled(&app, &dana, "in:all", 3).await;
    let (_, v) = search(&app, &dana, "in:all").await;
    let id = v["results"][0]["id"].as_str().unwrap().to_string();

    let load = app.state.store.bulk_load();
    let (s, v) = app
        .json(
            "PUT",
            &format!("/api/emails/{id}"),
            Some(&dana),
            Some(json!({"is_starred": true})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    // The indexer polls every 50 ms here: a second is twenty rounds it did not take.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (s, v) = search(&app, &dana, "is:starred").await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["total"].as_u64(), v["indexing"].as_bool()),
        (Some(0), Some(true)),
        "{v}"
    );

    drop(load);
    settled(&app, &dana, "is:starred", 1).await;
}
