//! Removing a user forgets everything they kept (issue 14): a user with a synced mailbox, a
//! draft, a scheduled mail, an upload, a template, an AI key and a remote-content sender is
//! removed by an admin; then every table of the store is read whole (whatever its types) and
//! searched for the user's name, address and ids, the search index is checked to hold only
//! the mail that is left, and the scheduled mail never reaches the mail server. And nothing of
//! theirs stays readable anywhere in the data dir: every file (the store's free pages, the
//! index's segments) is read as bytes and searched for their marker strings (issue 37).

mod common;

use std::time::Duration;

use common::mailflow::{eventually, fixtures, second_user, synced_app};
use common::mailserver::MailServer;
use redb::{ReadableDatabase, ReadableTable, TableDefinition, TableHandle};
use serde_json::json;

/// Text of a stored key or value, for searching.
trait Show {
    fn show(&self) -> String;
}

macro_rules! show_display {
    ($($t:ty),*) => {$(
        impl Show for $t {
            fn show(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
show_display!(u8, u16, u32, u64, i64, f32, &str);

impl Show for () {
    fn show(&self) -> String {
        String::new()
    }
}

impl Show for &[u8] {
    fn show(&self) -> String {
        String::from_utf8_lossy(self).into_owned()
    }
}

impl<A: Show, B: Show> Show for (A, B) {
    fn show(&self) -> String {
        format!("({}, {})", self.0.show(), self.1.show())
    }
}

impl<A: Show, B: Show, C: Show> Show for (A, B, C) {
    fn show(&self) -> String {
        format!("({}, {}, {})", self.0.show(), self.1.show(), self.2.show())
    }
}

impl<A: Show, B: Show, C: Show, D: Show> Show for (A, B, C, D) {
    fn show(&self) -> String {
        format!(
            "({}, {}, {}, {})",
            self.0.show(),
            self.1.show(),
            self.2.show(),
            self.3.show()
        )
    }
}

/// Opens table `name` with key type `$k` and the first value type that fits; its rows as text.
macro_rules! rows_with_key {
    ($txn:expr, $name:expr, $k:ty, [$($v:ty),*]) => {{
        let mut found: Option<Vec<(String, String)>> = None;
        $(
            if found.is_none() {
                let def: TableDefinition<$k, $v> = TableDefinition::new($name);
                if let Ok(t) = $txn.open_table(def) {
                    let mut rows = Vec::new();
                    for e in t.iter().unwrap() {
                        let (k, v) = e.unwrap();
                        rows.push((k.value().show(), v.value().show()));
                    }
                    found = Some(rows);
                }
            }
        )*
        found
    }};
}

/// Every row of table `name`, whatever its key and value types (from the ones the store
/// uses; a table of other types fails the test, so a new one cannot be skipped).
fn rows_of(txn: &redb::ReadTransaction, name: &str) -> Vec<(String, String)> {
    macro_rules! any_value {
        ($($k:ty),*) => {
            None$(.or_else(|| rows_with_key!(txn, name, $k, [&[u8], u64, i64, &str, (), u8, f32, (i64, u32), (u64, u64)])))*
        };
    }
    any_value!(
        u64,
        &str,
        &[u8],
        (u64, u64),
        (u64, u16),
        (u64, u32),
        (u64, &str),
        (u64, &str, u32),
        (u64, &str, &str),
        (u64, &str, &[u8]),
        (u64, &str, i64, u64),
        (u64, &str, u16),
        (u64, &str, u64),
        (u64, u8, i64, u64),
        (u64, u64, i64, u64)
    )
    .unwrap_or_else(|| panic!("table {name} has key/value types this test cannot read: add them"))
}

/// Words only the removed user's data holds: a mail's subject and text, a template, a contact,
/// a task, a label.
const MARKERS: [&str; 6] = [
    "zqxforgetsubject",
    "zqxforgetbodytext",
    "zqxforgettemplate",
    "zqxforgetcontact",
    "zqxforgettask",
    "zqxforgetlabel",
];

/// The markers found in any file under `dir`, with the file.
fn markers_in(dir: &std::path::Path) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let Ok(bytes) = std::fs::read(&p) else {
                continue;
            };
            for m in MARKERS {
                if bytes.windows(m.len()).any(|w| w == m.as_bytes()) {
                    found.push((p.display().to_string(), m.to_string()));
                }
            }
        }
    }
    found
}

/// When the removed user's scheduled mail was due, after it was queued.
const SCHEDULED_IN: Duration = Duration::from_secs(15);

#[tokio::test(flavor = "multi_thread")]
async fn removing_a_user_forgets_everything_they_kept() {
    let ms = MailServer::start();
    ms.seed("user1", &fixtures("hebrew"), "INBOX");
    ms.seed("user2", &fixtures("hebrew"), "INBOX");
    let (app, admin) = synced_app(&ms, "user1").await;
    let yossi = second_user(&app, &admin, &ms, "user2").await;
    ms.deliver(
        "user2@example.test",
        &format!(
            "From: Noa <noa@example.test>\r\nTo: user2@example.test\r\nSubject: {}\r\n\
             Message-ID: <forget-marker@example.test>\r\nList-Id: <noa.example.test>\r\n\
             List-Unsubscribe: <mailto:{}@example.test>\r\nContent-Type: text/plain\r\n\r\n{} only\r\n",
            MARKERS[0], MARKERS[0], MARKERS[1]
        ),
    );
    let (_, me) = app.json("GET", "/api/app/me", Some(&yossi), None).await;
    let user_id = me["user"]["id"].as_u64().unwrap();
    let (_, accounts) = app
        .json("GET", "/api/auth/accounts", Some(&yossi), None)
        .await;
    let account_id: u64 = accounts["accounts"][0]["id"]
        .as_u64()
        .or_else(|| accounts["accounts"][0]["id"].as_str()?.parse().ok())
        .expect("yossi's account id");

    // What a user keeps: a draft, a scheduled mail, an upload, a template, an AI key, a sender
    // whose remote images they show.
    let mail = |extra: serde_json::Value| {
        let mut m = json!({"to": ["user3@example.test"], "subject": "לא יישלח לעולם",
            "body": "<p>גוף</p>"});
        m.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        m
    };
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/send",
            Some(&yossi),
            Some(mail(json!({"folder": "drafts"}))),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    // Due well after he is removed (a couple of seconds on an idle machine; CI runs on two
    // busy cores), so that it not going out means the removal stopped it.
    let queued = tokio::time::Instant::now();
    let at = time::OffsetDateTime::now_utc() + SCHEDULED_IN;
    let at = at
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/send",
            Some(&yossi),
            Some(mail(json!({"snoozed_until": at}))),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["scheduled"], true, "{v}");
    let upload = axum::http::Request::builder()
        .method("POST")
        .uri("/api/attachments?name=yossi-notes.txt")
        .header("authorization", &yossi)
        .header("content-type", "text/plain")
        .body(axum::body::Body::from("yossi's private notes"))
        .unwrap();
    assert_eq!(app.send(upload).await.status(), 200);
    let (s, v) = app
        .json(
            "POST",
            "/api/templates",
            Some(&yossi),
            Some(json!({"name": format!("תבנית של יוסי {}", MARKERS[2]), "subject": "s", "body": "b"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/claude-api-key",
            Some(&yossi),
            Some(json!({"apiKey": "sk-ant-yossi-secret"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/remote-senders",
            Some(&yossi),
            Some(json!({"address": "news@yossi-shop.test"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    // A label, a contact, a task, a rule, auto-reply settings.
    for (uri, body) in [
        (
            "/api/contacts",
            json!({"name": format!("יוסי אחר {}", MARKERS[3]), "email": "friend-of-yossi@example.test"}),
        ),
        (
            "/api/tasks",
            json!({"title": format!("משימה של יוסי {}", MARKERS[4]), "due_date": "2020-01-01"}),
        ),
        (
            "/api/labels",
            json!({"name": format!("תווית של יוסי {}", MARKERS[5]), "color": "#188038"}),
        ),
        (
            "/api/rules",
            json!({"name": "הכלל של יוסי", "conditions": [{"field": "subject", "value": "yossi"}],
                              "actions": [{"kind": "add_label", "value": "yossi"}]}),
        ),
        (
            "/api/auto-reply/settings",
            json!({"autoReplyEnabled": true, "autoReplyBlacklist": "yossi@example.test"}),
        ),
    ] {
        let (s, v) = app.json("POST", uri, Some(&yossi), Some(body)).await;
        assert_eq!(s, 200, "{uri}: {v}");
    }
    // An agent's token, one call of it logged, and an invitation he saw.
    common::agents::leave_traces(&app, &ms, &yossi).await;
    // A spam example, learned by the spam-learn job: Bayes counts and the logistic
    // regression's steps.
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/ai-training",
            Some(&yossi),
            Some(json!({"spamExamples": [{"id": "1", "text": "FREE money now, click here", "date": "2026-01-01"}]})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let store = app.state.store.clone();
    let his = format!("({user_id}, ");
    eventually(Duration::from_secs(30), "his example is learned", || {
        let store = store.clone();
        let his = his.clone();
        async move {
            let txn = store.db().begin_read().unwrap();
            rows_of(&txn, "spam_lr")
                .iter()
                .any(|(k, _)| k.starts_with(&his))
                .then_some(())
        }
    })
    .await;
    let (s, v) = app
        .json(
            "PUT",
            "/api/settings/sync",
            Some(&yossi),
            Some(json!({"settingsUpdate": {"darkMode": true}, "settingsType": "ui", "baseVersion": 0})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/backup",
            Some(&yossi),
            Some(json!({"masterPassword": "yossi-master-password"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    // The index has caught up with yossi's mail before he goes, the marked mail too.
    let data_dir = app.state.config.storage.data_dir.clone();
    eventually(
        Duration::from_secs(30),
        "the marked mail indexed",
        || async {
            let (_, v) = app
                .json(
                    "GET",
                    &format!("/api/search?q={}&perPage=5", MARKERS[0]),
                    Some(&yossi),
                    None,
                )
                .await;
            (v["total"].as_u64() == Some(1)).then_some(())
        },
    )
    .await;
    // The list mail's sender is in his subscription manager (its mailto names a marker).
    eventually(
        Duration::from_secs(30),
        "his list sender counted",
        || async {
            let (_, v) = app
                .json("GET", "/api/subscriptions", Some(&yossi), None)
                .await;
            (v["subscriptions"][0]["address"] == "noa@example.test").then_some(())
        },
    )
    .await;
    // Before: his markers are in the data dir's files (what the end of this test rules out).
    let before: std::collections::HashSet<String> =
        markers_in(&data_dir).into_iter().map(|(_, m)| m).collect();
    assert_eq!(
        before.len(),
        MARKERS.len(),
        "every marker stored: {before:?}"
    );
    eventually(Duration::from_secs(30), "yossi's mail indexed", || async {
        let (_, v) = app
            .json(
                "GET",
                "/api/search?q=in:inbox&perPage=5",
                Some(&yossi),
                None,
            )
            .await;
        (v["total"].as_u64().unwrap_or(0) > 0 && v["indexing"] == false).then_some(())
    })
    .await;

    let (s, v) = app
        .json(
            "DELETE",
            &format!("/api/admin/users/{user_id}"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (s, _) = app.json("GET", "/api/app/me", Some(&yossi), None).await;
    assert_eq!(s, 401, "his sessions end with him");

    // Every table, read whole: nothing names him, his address, or his ids.
    let needles = [
        MARKERS[0].to_string(),
        MARKERS[1].to_string(),
        "yossi".to_string(),
        "יוסי".to_string(),
        "user2@example.test".to_string(),
        format!("\"user_id\":{user_id},"),
        format!("\"userId\":{user_id},"),
        format!("\"account_id\":{account_id},"),
    ];
    let store = app.state.store.clone();
    let txn = store.db().begin_read().unwrap();
    let mut tables = 0;
    for handle in txn.list_tables().unwrap() {
        let name = handle.name().to_string();
        tables += 1;
        for (k, v) in rows_of(&txn, &name) {
            for needle in &needles {
                assert!(
                    !k.contains(needle.as_str()) && !v.contains(needle.as_str()),
                    "table {name} still holds {needle}: {k} => {}",
                    v.chars().take(300).collect::<String>()
                );
            }
        }
    }
    assert!(tables >= 20, "read {tables} tables");
    // Rows keyed by his account id in the tables keyed by account first.
    for name in [
        "mail_folders",
        "mail_uids",
        "mail_uid_counts",
        "mail_index",
        "mail_hidden",
        "mail_msgids",
        "mail_subjects",
        "mail_pending_flags",
        "mail_carried_triage",
        "imported",
    ] {
        let prefix = format!("({account_id}, ");
        for (k, _) in rows_of(&txn, name) {
            assert!(!k.starts_with(&prefix), "{name} still holds {k}");
        }
    }
    // His spam training: counts, trained keys, the logistic regression's steps; his agents'
    // tokens and their calls; his invitations.
    for name in [
        "spam_tokens",
        "spam_trained",
        "spam_lr",
        "mcp_tokens",
        "mcp_calls",
        "invites",
    ] {
        for (k, _) in rows_of(&txn, name) {
            assert!(!k.starts_with(&his), "{name} still holds {k}");
        }
    }
    for (k, v) in rows_of(&txn, "mcp_token_digests") {
        assert!(!v.starts_with(&his), "a digest of his token is left: {k}");
    }
    // His preferences and their history, and his settings backup, keyed by his id.
    for (name, prefix) in [
        ("user_settings", format!("{user_id}")),
        ("settings_backups", format!("{user_id}")),
        ("settings_history", format!("({user_id}, ")),
    ] {
        for (k, _) in rows_of(&txn, name) {
            assert!(
                k != prefix && !k.starts_with(&prefix),
                "{name} still holds {k}"
            );
        }
    }
    // No raw bytes without their message.
    let messages: std::collections::HashSet<String> = rows_of(&txn, "mail_messages")
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    for (k, _) in rows_of(&txn, "mail_raw_z") {
        let id = k.trim_start_matches('(').split(',').next().unwrap();
        assert!(messages.contains(id), "raw part {k} has no message");
    }
    drop(txn);

    // The index holds exactly the mail that is left (the admin's).
    let left = messages.len() as u64;
    eventually(Duration::from_secs(30), "the index forgot him", || async {
        let search = app.state.service::<mailclient::search::Search>();
        (search.num_docs() == left).then_some(())
    })
    .await;
    let (_, v) = app
        .json(
            "GET",
            "/api/search?q=in:inbox&perPage=5",
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(v["total"].as_u64(), Some(left), "{v}");

    assert!(left > 0, "the admin's mail stays");

    // No byte of his is left readable in the data dir: the index merged his documents away (a
    // delete alone only marks them; its files are compressed, so they are checked through
    // tantivy), and the store was rewritten and its freed pages overwritten.
    eventually(
        Duration::from_secs(60),
        "his documents merged away",
        || async {
            let search = app.state.service::<mailclient::search::Search>();
            (search.deleted_docs() == 0).then_some(())
        },
    )
    .await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let left = markers_in(&data_dir);
        if left.is_empty() {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "left in the data dir: {left:?}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }

    // His scheduled mail never goes out: a few send passes (one a second) after it was due.
    tokio::time::sleep_until(queued + SCHEDULED_IN + Duration::from_secs(4)).await;
    assert_eq!(ms.message_count("user3", "INBOX"), 0);
}

/// A folder of `n` mails whose subject and text say `words`, for `mailclient import`.
fn eml_folder(dir: &std::path::Path, n: usize, id: &str, words: &str) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    for i in 0..n {
        let mail = format!(
            "From: Noa <noa@example.test>\r\nSubject: {words} {i}\r\nMessage-ID: <{id}-{i}@example.test>\r\n\
             Content-Type: text/plain\r\n\r\n{words} {i}\r\n"
        );
        std::fs::write(dir.join(format!("{i}.eml")), mail).unwrap();
    }
    dir.to_path_buf()
}

#[test]
fn user_remove_on_the_command_line_leaves_no_readable_trace() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let d = data.to_str().unwrap();
    // `mailclient --data-dir <data> <args>`, which must succeed.
    let cli = |args: &[&str], stdin: Option<&str>| {
        let all: Vec<&str> = ["--data-dir", d].iter().chain(args).copied().collect();
        let out = common::run_cli(&all, &[], stdin);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    cli(
        &["user", "add", "dana", "--admin"],
        Some("a-password-123\n"),
    );
    cli(&["user", "add", "yossi"], Some("a-password-123\n"));
    // Yossi's mail, imported (stored and indexed), with his marker words; Dana's, which stays.
    let words = format!("{} {}", MARKERS[0], MARKERS[1]);
    let his = eml_folder(&dir.path().join("his"), 20, "his", &words);
    cli(&["import", his.to_str().unwrap(), "--user", "yossi"], None);
    assert!(
        !markers_in(&data).is_empty(),
        "his mail is stored and indexed"
    );
    let hers = eml_folder(&dir.path().join("hers"), 5, "hers", "hers");
    cli(&["import", hers.to_str().unwrap(), "--user", "dana"], None);
    // One segment holding both users' documents, as `serve`'s indexer makes them: removing his
    // then only marks them deleted in it.
    cli(&["migrate", "--rebuild-index"], None);

    cli(&["user", "remove", "yossi"], None);
    let left = markers_in(&data);
    assert!(left.is_empty(), "left in the data dir: {left:?}");
    // The index holds Dana's five, and none of his even as a deleted document (its files are
    // compressed: tantivy is asked).
    let (store, _) = mailclient::schema::open_and_migrate(&data).unwrap();
    let search = mailclient::search::Search::open(
        &data,
        store,
        mailclient::config::Config::default().search.serve_writer(),
    )
    .unwrap();
    assert_eq!((search.num_docs(), search.deleted_docs()), (5, 0));
}
