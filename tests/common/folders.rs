//! The user's own folders through the API and on Dovecot: shared by the folder tests.

use std::time::Duration;

use super::TestApp;
use super::mailflow::eventually;
use super::mailserver::MailServer;
use serde_json::{Value, json};

/// Every byte but letters and digits as %XX: a folder path in a URL segment.
pub fn segment(path: &str) -> String {
    path.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// The user's mailboxes in the tree.
pub async fn tree(app: &TestApp, token: &str) -> Vec<Value> {
    let (s, v) = app
        .json("GET", "/api/folders/tree", Some(token), None)
        .await;
    assert_eq!(s, 200, "{v}");
    v["mailboxes"].as_array().unwrap().clone()
}

/// The node of the first mailbox whose plain full name is `full`.
pub async fn node(app: &TestApp, token: &str, full: &str) -> Option<Value> {
    tree(app, token).await[0]["folders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["fullName"] == full)
        .cloned()
}

/// The folders Dovecot lists for the user (UTF-8 names).
pub fn server_folders(ms: &MailServer, user: &str) -> Vec<String> {
    ms.doveadm(&["mailbox", "list", "-u", &format!("{user}@example.test")])
        .lines()
        .map(|l| l.trim().to_string())
        .collect()
}

pub async fn post(app: &TestApp, token: &str, path: &str, body: Value) -> (u16, Value) {
    app.json("POST", path, Some(token), Some(body)).await
}

/// Makes `name` under `parent` (none: the top) in `account`'s mailbox.
pub async fn create(
    app: &TestApp,
    token: &str,
    account: u64,
    name: &str,
    parent: Option<&str>,
) -> (u16, Value) {
    let body = json!({"accountId": account, "name": name, "parent": parent});
    post(app, token, "/api/folders/create", body).await
}

/// Renames the folder at `path` to `name` under `parent` (none: the top).
pub async fn rename(
    app: &TestApp,
    token: &str,
    account: u64,
    path: &str,
    name: &str,
    parent: Option<&str>,
) -> (u16, Value) {
    let body = json!({"accountId": account, "path": path, "name": name, "parent": parent});
    post(app, token, "/api/folders/rename", body).await
}

/// Dovecot lists each of `present` for user1 and none of `absent`.
pub fn on_server(ms: &MailServer, present: &[&str], absent: &[&str]) {
    let listed = server_folders(ms, "user1");
    for name in present {
        assert!(
            listed.iter().any(|l| l == name),
            "{name} missing: {listed:?}"
        );
    }
    for name in absent {
        assert!(
            !listed.iter().any(|l| l == name),
            "{name} still there: {listed:?}"
        );
    }
}

/// Waits until Dovecot holds `n` messages in user1's `folder`.
pub async fn server_count(ms: &MailServer, folder: &str, n: usize) {
    eventually(
        Duration::from_secs(60),
        "the mail on the server",
        || async { (ms.message_count("user1", folder) == n).then_some(()) },
    )
    .await;
}
