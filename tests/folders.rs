//! The user's own folders on a real Dovecot (issue 38): a nested Hebrew folder made from the
//! API is on the server (doveadm), shows in the tree with its plain name and parent; bad names
//! and the special folders are refused in Hebrew; mail moved in is moved on the server and
//! counted; a rename and a move (re-parent) keep the folder's mail here and on the server;
//! mail moves back out; a delete removes the folder and what is under it; another user can
//! neither see nor touch them (404).

mod common;

use common::folders::{create, node, on_server, post, rename, segment, server_count, tree};
use common::mailflow::{eventually, list, second_user, synced_app};
use common::mailserver::MailServer;
use mailclient::messages;
use serde_json::json;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hebrew_folders_are_made_renamed_moved_and_deleted_on_the_server() {
    let ms = MailServer::start();
    for n in 1..=2 {
        ms.deliver(
            "user1@example.test",
            &format!(
                "From: Shop <shop@example.test>\r\nTo: user1@example.test\r\nSubject: חשבונית {n}\r\n\
                 Message-ID: <inv{n}@example.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nמצורפת\r\n"
            ),
        );
    }
    let (app, token) = synced_app(&ms, "user1").await;
    let account = tree(&app, &token).await[0]["accountId"].as_u64().unwrap();

    // Bad names and the special folders: refused in Hebrew.
    let long = messages::folder_name_too_long(mailclient::folders::path::MAX_NAME);
    for (route, body, status, message) in [
        (
            "/api/folders/create",
            json!({"accountId": account, "name": " "}),
            400,
            messages::FOLDER_NAME_REQUIRED,
        ),
        (
            "/api/folders/create",
            json!({"accountId": account, "name": "a/b"}),
            400,
            messages::FOLDER_NAME_INVALID,
        ),
        (
            "/api/folders/create",
            json!({"accountId": account, "name": "א".repeat(81)}),
            400,
            long.as_str(),
        ),
        (
            "/api/folders/create",
            json!({"accountId": account, "name": "x", "parent": "INBOX"}),
            400,
            messages::FOLDER_SPECIAL,
        ),
        (
            "/api/folders/rename",
            json!({"accountId": account, "path": "INBOX", "name": "x"}),
            400,
            messages::FOLDER_SPECIAL,
        ),
        (
            "/api/folders/delete",
            json!({"accountId": account, "path": "Sent"}),
            400,
            messages::FOLDER_SPECIAL,
        ),
        (
            "/api/folders/delete",
            json!({"accountId": account, "path": "nothing"}),
            404,
            messages::FOLDER_NOT_FOUND,
        ),
    ] {
        let (s, v) = post(&app, &token, route, body).await;
        assert_eq!(
            (s, v["message"].as_str()),
            (status, Some(message)),
            "{route} {v}"
        );
    }

    // A Hebrew folder with a Hebrew folder inside it: on the server, and in the tree.
    let (s, v) = create(&app, &token, account, "חשבוניות 2024", None).await;
    assert_eq!(s, 200, "{v}");
    let parent = node(&app, &token, "חשבוניות 2024")
        .await
        .expect("the new folder");
    let parent_path = parent["path"].as_str().unwrap().to_string();
    assert_ne!(
        parent_path, "חשבוניות 2024",
        "the server path is modified UTF-7"
    );
    assert_eq!(
        (parent["name"].as_str(), parent["role"].as_str()),
        (Some("חשבוניות 2024"), Some(""))
    );
    let (s, v) = create(&app, &token, account, "ארכיון", Some(&parent_path)).await;
    assert_eq!(s, 200, "{v}");
    let child = node(&app, &token, "חשבוניות 2024/ארכיון")
        .await
        .expect("the nested folder");
    assert_eq!(
        (child["name"].as_str(), child["parent"].as_str()),
        (Some("ארכיון"), Some(parent_path.as_str()))
    );
    on_server(&ms, &["חשבוניות 2024", "חשבוניות 2024/ארכיון"], &[]);
    let (s, v) = create(&app, &token, account, "חשבוניות 2024", None).await;
    assert_eq!(
        (s, v["message"].as_str()),
        (409, Some(messages::FOLDER_NAME_TAKEN)),
        "{v}"
    );

    // Mail moved in: one from the API, the other in the same bulk call.
    let inbox = list(&app, &token, "inbox").await;
    let ids: Vec<String> = inbox
        .iter()
        .filter(|m| m["subject"].as_str().unwrap_or("").starts_with("חשבונית"))
        .map(|m| {
            m["id"]
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| m["id"].to_string())
        })
        .collect();
    assert_eq!(ids.len(), 2, "{inbox:?}");
    let (s, v) = post(
        &app,
        &token,
        "/api/folders/move-mail",
        json!({"ids": ids, "folder": parent_path}),
    )
    .await;
    assert_eq!((s, v["moved"].as_u64()), (200, Some(2)), "{v}");
    server_count(&ms, "חשבוניות 2024", 2).await;
    eventually(Duration::from_secs(60), "the folder's count", || async {
        let n = node(&app, &token, "חשבוניות 2024").await?;
        (n["total"] == 2 && n["unread"] == 2).then_some(())
    })
    .await;
    let listed = list(&app, &token, &segment(&parent_path)).await;
    assert_eq!(listed.len(), 2, "{listed:?}");

    // A rename takes the folder under it along, and keeps the mail here at once.
    let (s, v) = rename(&app, &token, account, &parent_path, "חשבוניות 2025", None).await;
    assert_eq!(s, 200, "{v}");
    let renamed = node(&app, &token, "חשבוניות 2025")
        .await
        .expect("the renamed folder");
    assert_eq!(renamed["total"], 2, "{renamed}");
    assert!(node(&app, &token, "חשבוניות 2024").await.is_none());
    assert!(node(&app, &token, "חשבוניות 2025/ארכיון").await.is_some());
    on_server(&ms, &["חשבוניות 2025/ארכיון"], &["חשבוניות 2024"]);
    assert_eq!(ms.message_count("user1", "חשבוניות 2025"), 2);
    let renamed_path = renamed["path"].as_str().unwrap().to_string();
    let listed = list(&app, &token, &segment(&renamed_path)).await;
    assert_eq!(listed.len(), 2, "{listed:?}");

    // A move (re-parent) of the inner folder to the top; never into itself.
    let inner = node(&app, &token, "חשבוניות 2025/ארכיון").await.unwrap();
    let inner_path = inner["path"].as_str().unwrap().to_string();
    let (s, v) = rename(
        &app,
        &token,
        account,
        &renamed_path,
        "חשבוניות 2025",
        Some(&inner_path),
    )
    .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some(messages::FOLDER_INTO_ITSELF)),
        "{v}"
    );
    let (s, v) = rename(&app, &token, account, &inner_path, "ארכיון", None).await;
    assert_eq!(s, 200, "{v}");
    let top = node(&app, &token, "ארכיון")
        .await
        .expect("moved to the top");
    assert!(top["parent"].is_null(), "{top}");
    on_server(&ms, &["ארכיון"], &[]);

    // Another user sees none of it and touches none of it.
    let yossi = second_user(&app, &token, &ms, "user2").await;
    let theirs = tree(&app, &yossi).await;
    assert!(
        theirs.iter().all(|m| m["accountId"] != account),
        "{theirs:?}"
    );
    for (route, body) in [
        (
            "/api/folders/create",
            json!({"accountId": account, "name": "זר"}),
        ),
        (
            "/api/folders/rename",
            json!({"accountId": account, "path": renamed_path, "name": "זר"}),
        ),
        (
            "/api/folders/delete",
            json!({"accountId": account, "path": renamed_path}),
        ),
        (
            "/api/folders/move-mail",
            json!({"ids": [listed[0]["id"]], "folder": "INBOX"}),
        ),
    ] {
        let (s, v) = post(&app, &yossi, route, body).await;
        assert_eq!(s, 404, "{route} {v}");
    }
    on_server(&ms, &["חשבוניות 2025"], &[]);

    // One mail back out to the inbox.
    let (s, v) = post(
        &app,
        &token,
        "/api/folders/move-mail",
        json!({"ids": [listed[0]["id"]], "folder": "INBOX"}),
    )
    .await;
    assert_eq!((s, v["moved"].as_u64()), (200, Some(1)), "{v}");
    server_count(&ms, "חשבוניות 2025", 1).await;
    eventually(
        Duration::from_secs(60),
        "the folder's count after the move out",
        || async {
            let n = node(&app, &token, "חשבוניות 2025").await?;
            (n["total"] == 1).then_some(())
        },
    )
    .await;

    // Delete: the folder with its mail, gone here and on the server.
    let (s, v) = post(
        &app,
        &token,
        "/api/folders/delete",
        json!({"accountId": account, "path": renamed_path}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["folders"].as_u64(), v["mails"].as_u64()),
        (Some(1), Some(1)),
        "{v}"
    );
    assert!(node(&app, &token, "חשבוניות 2025").await.is_none());
    on_server(&ms, &["ארכיון"], &["חשבוניות 2025"]);
}

/// The subjects a thread listing (`/api/threads/{segment}`) shows.
async fn thread_subjects(app: &common::TestApp, token: &str, segment: &str) -> Vec<String> {
    let (s, v) = app
        .json("GET", &format!("/api/threads/{segment}"), Some(token), None)
        .await;
    assert_eq!(s, 200, "{v}");
    let mut out: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["subject"].as_str().unwrap_or("").to_string())
        .collect();
    out.sort();
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn own_folders_named_like_fixed_ones_open_as_themselves() {
    // The server marks "Sent Messages" \Sent: "Sent" is free for a folder of the user's own.
    let ms = MailServer::start_with(&[("MAILTEST_SENT_NAME", "Sent Messages")]);
    let names = ["Sent", "Spam", "Starred", "Clients/Archive"];
    for (n, name) in names.iter().enumerate() {
        ms.deliver(
            "user1@example.test",
            &format!(
                "From: Shop <shop@example.test>\r\nTo: user1@example.test\r\nSubject: into {name}\r\n\
                 Message-ID: <own{n}@example.test>\r\n\r\nbody\r\n"
            ),
        );
    }
    let (app, token) = synced_app(&ms, "user1").await;
    let account = tree(&app, &token).await[0]["accountId"].as_u64().unwrap();
    for (name, parent) in [
        ("Sent", None),
        ("Spam", None),
        ("Starred", None),
        ("Clients", None),
        ("Archive", Some("Clients")),
    ] {
        let (s, v) = create(&app, &token, account, name, parent).await;
        assert_eq!(s, 200, "{name} {v}");
    }
    // Roles come from SPECIAL-USE: the same names are the user's own folders.
    let fixed = node(&app, &token, "Sent Messages").await.unwrap();
    assert_eq!(fixed["role"], "sent", "{fixed}");
    for name in names {
        let own = node(&app, &token, name).await.unwrap();
        assert_eq!(
            (own["role"].as_str(), own["path"].as_str()),
            (Some(""), Some(name))
        );
    }

    // One mail into each.
    let inbox = list(&app, &token, "inbox").await;
    for name in names {
        let id = inbox
            .iter()
            .find(|m| m["subject"] == format!("into {name}"))
            .unwrap()["id"]
            .clone();
        let body = json!({"ids": [id], "folder": name});
        let (s, v) = post(&app, &token, "/api/folders/move-mail", body).await;
        assert_eq!((s, v["moved"].as_u64()), (200, Some(1)), "{v}");
    }
    for name in names {
        server_count(&ms, name, 1).await;
    }

    // Each opens as itself (by its path), with its own mail, threads and plain listing alike.
    for name in names {
        let own = segment(&format!("box:{name}"));
        eventually(Duration::from_secs(60), name, || async {
            (thread_subjects(&app, &token, &own).await == [format!("into {name}")]).then_some(())
        })
        .await;
        let listed = list(&app, &token, &own).await;
        assert_eq!(listed.len(), 1, "{name}: {listed:?}");
        assert_eq!(listed[0]["subject"], format!("into {name}"));
    }
    // The fixed folders of those names keep to themselves.
    assert!(thread_subjects(&app, &token, "sent").await.is_empty());
    let spam = thread_subjects(&app, &token, "Spam").await;
    assert!(!spam.contains(&"into Spam".to_string()), "{spam:?}");
    assert!(thread_subjects(&app, &token, "starred").await.is_empty());
}
