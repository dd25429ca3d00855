//! Triage against a real Dovecot: every status and its `movedTo`, the keywords and folder moves
//! on the server, statuses surviving a full re-sync, deleting (site only) and Trash, bulk
//! actions, threads with filters and sort, Inbox Zero's overdue and auto-archive around their
//! day boundaries, counts, and isolation between users.

#[path = "../common/mod.rs"]
mod common;

use std::time::Duration;

use common::TestApp;
use common::mailflow::*;
use common::mailserver::MailServer;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc2822;

mod deleting;
mod inbox_zero;
mod statuses;
mod threads;

const DAY: i64 = 86_400;

/// A plain message dated `age` seconds ago.
fn mail(subject: &str, id: &str, age: i64) -> String {
    let date = (OffsetDateTime::now_utc() - time::Duration::seconds(age))
        .format(&Rfc2822)
        .unwrap();
    format!(
        "From: Sender <sender@outside.test>\r\nTo: user1@example.test\r\nSubject: {subject}\r\n\
         Message-ID: <{id}@outside.test>\r\nDate: {date}\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\nbody of {subject}\r\n"
    )
}

/// Percent-encodes a path segment (thread ids are Message-IDs: `<`, `>`, `@`).
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn seed(ms: &MailServer, user: &str, mails: &[(&str, String)]) {
    let dir = tempfile::tempdir().unwrap();
    for (name, raw) in mails {
        std::fs::write(dir.path().join(format!("{name}.eml")), raw).unwrap();
    }
    ms.seed(user, dir.path(), "INBOX");
}

/// The IMAP flags Dovecot holds for the message with this subject in `folder`.
fn server_flags(ms: &MailServer, user: &str, folder: &str, subject: &str) -> Option<String> {
    let out = ms.doveadm(&[
        "-f",
        "flow",
        "fetch",
        "-u",
        &format!("{user}@example.test"),
        "flags",
        "mailbox",
        folder,
        "subject",
        subject,
    ]);
    out.lines()
        .find_map(|l| l.strip_prefix("flags="))
        .map(str::to_string)
}

async fn get(app: &TestApp, token: &str, path: &str) -> Value {
    let (s, v) = app.json("GET", path, Some(token), None).await;
    assert_eq!(s, 200, "{path}: {v}");
    v
}

async fn id_in(app: &TestApp, token: &str, listing: &str, subject: &str) -> Option<String> {
    let sep = if listing.contains('?') { '&' } else { '?' };
    let rows = get(app, token, &format!("{listing}{sep}perPage=500")).await;
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r["subject"] == subject)
        .map(|r| r["id"].as_str().unwrap().to_string())
}

/// The id of the inbox mail with this subject (it must be there).
async fn inbox_id(app: &TestApp, token: &str, subject: &str) -> String {
    id_in(app, token, "/api/emails/inbox", subject)
        .await
        .unwrap_or_else(|| panic!("{subject} in the inbox"))
}

async fn status(app: &TestApp, token: &str, id: &str, body: Value) -> (u16, Value) {
    app.json(
        "PUT",
        &format!("/api/emails/{id}/status"),
        Some(token),
        Some(body),
    )
    .await
}

async fn refresh(app: &TestApp, token: &str) {
    let (s, v) = app
        .json("POST", "/api/sync/refresh", Some(token), None)
        .await;
    assert_eq!(s, 200, "{v}");
}

/// Waits until `subject` is listed in `listing` (syncing as it goes); returns its id.
async fn wait_listed(app: &TestApp, token: &str, listing: &str, subject: &str) -> String {
    eventually(Duration::from_secs(30), subject, || async {
        refresh(app, token).await;
        id_in(app, token, listing, subject).await
    })
    .await
}

async fn wait_server(ms: &MailServer, folder: &str, subject: &str, keyword: Option<&str>) {
    eventually(
        Duration::from_secs(30),
        &format!("{subject} in {folder} with {keyword:?}"),
        || async {
            server_flags(ms, "user1", folder, subject)
                .filter(|f| keyword.is_none_or(|k| f.split_whitespace().any(|x| x == k)))
        },
    )
    .await;
}

async fn relogin(app: &TestApp, token: &str, ms: &MailServer) {
    let (_, accounts) = app
        .json("GET", "/api/auth/accounts", Some(token), None)
        .await;
    let session = accounts["accounts"][0]["sessionId"].clone();
    let (s, v) = app
        .json(
            "POST",
            "/api/auth/logout",
            Some(token),
            Some(json!({ "sessionId": session })),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(connect(app, token, ms.account("user1")).await.0, 200);
    wait_synced(app, token).await;
}
