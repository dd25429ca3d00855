//! The user's own folders changed by another client, on a real Dovecot (issue 38): a folder
//! deleted there (`doveadm mailbox delete`) goes from the tree after the next sync with its
//! mail, its search entries and its counts, and the user's sessions hear `folders_changed`; a
//! folder renamed there is found under its new name with the same mail (not downloaded again,
//! nothing twice).

mod common;

use std::time::Duration;

use common::TestApp;
use common::folders::{node, post, segment, tree};
use common::mailflow::{eventually, list, synced_app};
use common::mailserver::MailServer;
use mailclient::notices::{Notice, Notices};
use serde_json::json;

fn mail(n: u32, subject: &str, word: &str) -> String {
    format!(
        "From: Shop <shop@example.test>\r\nTo: user1@example.test\r\nSubject: {subject}\r\n\
         Message-ID: <elsewhere{n}@example.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{word}\r\n"
    )
}

/// user1's mailbox as another mail program would change it.
fn doveadm(ms: &MailServer, args: &[&str]) {
    let mut all = vec![args[0], args[1], "-u", "user1@example.test"];
    all.extend_from_slice(&args[2..]);
    ms.doveadm(&all);
}

/// The ids of the mail listed in the folder at `path`.
async fn ids(app: &TestApp, token: &str, path: &str) -> Vec<String> {
    let mut out: Vec<String> = list(app, token, &segment(path))
        .await
        .iter()
        .map(|m| m["id"].as_str().unwrap().to_string())
        .collect();
    out.sort();
    out
}

/// How many mails a search for `word` finds, once the index has caught up.
async fn found(app: &TestApp, token: &str, word: &str) -> u64 {
    let (s, v) = app
        .json(
            "GET",
            &format!("/api/search?q={word}&tz=120&perPage=100"),
            Some(token),
            None,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    if v["indexing"] == true {
        return u64::MAX;
    }
    v["total"].as_u64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn folders_deleted_or_renamed_by_another_client_are_followed() {
    let ms = MailServer::start();
    for (n, subject, word) in [
        (1, "proj one", "zebrafolder"),
        (2, "proj two", "zebrafolder"),
        (3, "old one", "walrusfolder"),
        (4, "inbox one", "inboxword"),
    ] {
        ms.deliver("user1@example.test", &mail(n, subject, word));
    }
    doveadm(&ms, &["mailbox", "create", "Projects", "Old", "Old/Inner"]);
    doveadm(&ms, &["move", "Projects", "mailbox", "INBOX", "subject", "proj"]);
    doveadm(&ms, &["move", "Old/Inner", "mailbox", "INBOX", "subject", "old"]);
    let (app, token) = synced_app(&ms, "user1").await;
    let account = tree(&app, &token).await[0]["accountId"].as_u64().unwrap();
    let projects = ids(&app, &token, "Projects").await;
    assert_eq!(projects.len(), 2);
    assert_eq!(ids(&app, &token, "Old/Inner").await.len(), 1);
    eventually(Duration::from_secs(60), "the index", || async {
        (found(&app, &token, "walrusfolder").await == 1).then_some(())
    })
    .await;
    let mut notices = app.state.service::<Notices>().subscribe();

    // Another mail program deletes one folder (and the one under it) and renames the other.
    doveadm(&ms, &["mailbox", "delete", "-r", "Old"]);
    doveadm(&ms, &["mailbox", "rename", "Projects", "Clients"]);
    let (s, v) = post(&app, &token, "/api/sync/refresh", json!({})).await;
    assert_eq!(s, 200, "{v}");

    eventually(Duration::from_secs(60), "the tree after the sync", || async {
        let gone = node(&app, &token, "Old/Inner").await.is_none()
            && node(&app, &token, "Old").await.is_none()
            && node(&app, &token, "Projects").await.is_none();
        let clients = node(&app, &token, "Clients").await?;
        (gone && clients["total"] == 2).then_some(())
    })
    .await;
    // The renamed folder's mail is the same mail: kept, not fetched again.
    assert_eq!(ids(&app, &token, "Clients").await, projects);
    // Nothing twice, nothing left over: every mail of the mailbox once.
    let all = list(&app, &token, "all").await;
    assert_eq!(all.len(), 3, "{all:?}");
    let (s, v) = app
        .json("GET", "/api/emails/Old%2FInner", Some(&token), None)
        .await;
    assert!(s == 404 || v.as_array().is_some_and(|a| a.is_empty()), "{s} {v}");
    // Search forgets the deleted folder's mail and keeps the renamed one's.
    eventually(Duration::from_secs(60), "the index after the sync", || async {
        (found(&app, &token, "walrusfolder").await == 0).then_some(())
    })
    .await;
    assert_eq!(found(&app, &token, "zebrafolder").await, 2);
    // The user's sessions were told the folders changed.
    let mut told = false;
    while let Ok((_, notice)) = notices.try_recv() {
        told |= matches!(notice, Notice::FoldersChanged(f) if f.account_id == account);
    }
    assert!(told, "folders_changed");

}
