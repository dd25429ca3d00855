//! The user's own folders changed by another client, on a real Dovecot (issue 38): a folder
//! deleted there (`doveadm mailbox delete`) goes from the tree after the next sync with its
//! mail, its search entries and its counts, and the user's sessions hear `folders_changed`; a
//! folder renamed there is found under its new name with the same mail (not downloaded again,
//! nothing twice); the rules that move mail into them follow the rename, or say the folder is
//! missing.

mod common;

use std::time::Duration;

use common::TestApp;
use common::folders::{node, post, segment, tree};
use common::mailflow::{eventually, list, synced_app};
use common::mailserver::MailServer;
use mailclient::notices::{Notice, Notices};
use serde_json::{Value, json};

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

/// A rule moving the shop's mail into `folder`.
async fn rule_into(app: &TestApp, token: &str, name: &str, folder: &str) {
    let body = json!({
        "name": name,
        "conditions": [{"field": "from", "value": "nobody-matches@example.test"}],
        "actions": [{"kind": "move_to_folder", "value": folder}],
    });
    let (s, v) = post(app, token, "/api/rules", body).await;
    assert_eq!(s, 200, "{v}");
}

/// The user's rules by name.
async fn rules(app: &TestApp, token: &str) -> Vec<Value> {
    let (s, v) = app.json("GET", "/api/rules", Some(token), None).await;
    assert_eq!(s, 200, "{v}");
    v["rules"].as_array().unwrap().clone()
}

fn named<'a>(rules: &'a [Value], name: &str) -> &'a Value {
    rules.iter().find(|r| r["name"] == name).unwrap()
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
    doveadm(
        &ms,
        &["move", "Projects", "mailbox", "INBOX", "subject", "proj"],
    );
    doveadm(
        &ms,
        &["move", "Old/Inner", "mailbox", "INBOX", "subject", "old"],
    );
    let (app, token) = synced_app(&ms, "user1").await;
    let account = tree(&app, &token).await[0]["accountId"].as_u64().unwrap();
    let projects = ids(&app, &token, "Projects").await;
    assert_eq!(projects.len(), 2);
    assert_eq!(ids(&app, &token, "Old/Inner").await.len(), 1);
    eventually(Duration::from_secs(60), "the index", || async {
        (found(&app, &token, "walrusfolder").await == 1).then_some(())
    })
    .await;
    rule_into(&app, &token, "to projects", "Projects").await;
    rule_into(&app, &token, "to old", "Old/Inner").await;
    let mut notices = app.state.service::<Notices>().subscribe();

    // Another mail program deletes one folder (and the one under it) and renames the other.
    doveadm(&ms, &["mailbox", "delete", "-r", "Old"]);
    doveadm(&ms, &["mailbox", "rename", "Projects", "Clients"]);
    let (s, v) = post(&app, &token, "/api/sync/refresh", json!({})).await;
    assert_eq!(s, 200, "{v}");

    eventually(
        Duration::from_secs(60),
        "the tree after the sync",
        || async {
            let gone = node(&app, &token, "Old/Inner").await.is_none()
                && node(&app, &token, "Old").await.is_none()
                && node(&app, &token, "Projects").await.is_none();
            let clients = node(&app, &token, "Clients").await?;
            (gone && clients["total"] == 2).then_some(())
        },
    )
    .await;
    // The renamed folder's mail is the same mail: kept, not fetched again.
    assert_eq!(ids(&app, &token, "Clients").await, projects);
    // Nothing twice, nothing left over: every mail of the mailbox once.
    let all = list(&app, &token, "all").await;
    assert_eq!(all.len(), 3, "{all:?}");
    let (s, v) = app
        .json("GET", "/api/emails/Old%2FInner", Some(&token), None)
        .await;
    assert!(
        s == 404 || v.as_array().is_some_and(|a| a.is_empty()),
        "{s} {v}"
    );
    // Search forgets the deleted folder's mail and keeps the renamed one's.
    eventually(
        Duration::from_secs(60),
        "the index after the sync",
        || async { (found(&app, &token, "walrusfolder").await == 0).then_some(()) },
    )
    .await;
    assert_eq!(found(&app, &token, "zebrafolder").await, 2);
    // The user's sessions were told the folders changed.
    let mut told = false;
    while let Ok((_, notice)) = notices.try_recv() {
        told |= matches!(notice, Notice::FoldersChanged(f) if f.account_id == account);
    }
    assert!(told, "folders_changed");

    // The rules follow: the renamed folder's name; the deleted one said to be missing.
    let rules = rules(&app, &token).await;
    let to_projects = named(&rules, "to projects");
    assert_eq!(
        to_projects["actions"][0]["value"], "Clients",
        "{to_projects}"
    );
    assert!(to_projects["missing_folder"].is_null(), "{to_projects}");
    assert_eq!(named(&rules, "to old")["missing_folder"], "Old/Inner");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rules_follow_a_folder_renamed_here_and_tell_when_it_is_deleted() {
    let ms = MailServer::start();
    let (app, token) = synced_app(&ms, "user1").await;
    let account = tree(&app, &token).await[0]["accountId"].as_u64().unwrap();
    let (s, v) = common::folders::create(&app, &token, account, "Bills", None).await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = common::folders::create(&app, &token, account, "Inner", Some("Bills")).await;
    assert_eq!(s, 200, "{v}");
    rule_into(&app, &token, "to bills", "Bills").await;
    rule_into(&app, &token, "to inner", "Bills/Inner").await;
    assert!(named(&rules(&app, &token).await, "to bills")["missing_folder"].is_null());

    // Renamed here: the rule takes the new name, and the one under it follows too.
    let body = json!({"accountId": account, "path": "Bills", "name": "Invoices"});
    let (s, v) = post(&app, &token, "/api/folders/rename", body).await;
    assert_eq!(s, 200, "{v}");
    let after = rules(&app, &token).await;
    assert_eq!(named(&after, "to bills")["actions"][0]["value"], "Invoices");
    assert_eq!(
        named(&after, "to inner")["actions"][0]["value"],
        "Invoices/Inner"
    );
    assert!(named(&after, "to bills")["missing_folder"].is_null());

    // Deleted here: the rule says its folder is missing (and is not moved into a new one).
    let body = json!({"accountId": account, "path": "Invoices"});
    let (s, v) = post(&app, &token, "/api/folders/delete", body).await;
    assert_eq!(s, 200, "{v}");
    let after = rules(&app, &token).await;
    assert_eq!(named(&after, "to bills")["missing_folder"], "Invoices");
    assert_eq!(
        named(&after, "to inner")["missing_folder"],
        "Invoices/Inner"
    );
}
