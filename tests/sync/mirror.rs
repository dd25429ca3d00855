//! The mirror of the mailbox: a full sync matches the server and IDLE delivers new mail; flags
//! flow both ways, expunges and UIDVALIDITY changes are followed; users never see each other's
//! mail.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_sync_matches_the_server_and_idle_delivers_new_mail() {
    let ms = MailServer::start();
    let corpus = std::process::Command::new("bash")
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/corpus.sh"))
        .arg("dir")
        .output()
        .unwrap();
    assert!(
        corpus.status.success(),
        "{}",
        String::from_utf8_lossy(&corpus.stderr)
    );
    let corpus = PathBuf::from(String::from_utf8_lossy(&corpus.stdout).trim().to_string());
    ms.seed("user1", &corpus, "INBOX");
    ms.seed("user1", &fixtures("hebrew"), "Archive");
    let server_inbox = ms.message_count("user1", "INBOX");
    assert!(server_inbox > 3000, "{server_inbox}");

    let (app, token) = app_with(&ms).await;
    let (s, v) = connect(&app, &token, ms.account("user1")).await;
    assert_eq!(s, 200, "{v}");
    wait_synced(&app, &token).await;
    assert_eq!(inbox_total(&app, &token).await, server_inbox);
    let archive = list(&app, &token, "archive").await;
    assert_eq!(archive.len(), ms.message_count("user1", "Archive"));

    // Newest first.
    let first_page = list(&app, &token, "inbox").await;
    let dates: Vec<&str> = first_page
        .iter()
        .map(|e| e["date"].as_str().unwrap())
        .collect();
    let mut sorted = dates.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(dates, sorted);

    // Counts as the spec names them.
    let (_, counts) = app
        .json("GET", "/api/emails/counts", Some(&token), None)
        .await;
    assert_eq!(counts["inbox"], json!(server_inbox));
    for key in [
        "starred",
        "needsReply",
        "processed",
        "spam",
        "advertisements",
        "info",
        "sent",
        "drafts",
        "trash",
        "unread",
    ] {
        assert!(counts[key].is_u64(), "{key} in {counts}");
    }

    // IDLE: a delivery shows up within 5 s.
    let subject = format!("idle-check {}", std::process::id());
    let sent_at = Instant::now();
    ms.deliver(
        "user1@example.test",
        &format!("From: Outside <outside@sender.test>\nTo: user1@example.test\nSubject: {subject}\nMessage-ID: <idle-{}@sender.test>\n\nhello\n", std::process::id()),
    );
    eventually(Duration::from_secs(5), "IDLE delivery", || async {
        let page = list(&app, &token, "inbox").await;
        page.iter()
            .any(|e| e["subject"] == subject.as_str())
            .then_some(())
    })
    .await;
    eprintln!("IDLE delivery seen after {:?}", sent_at.elapsed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flags_flow_both_ways_and_expunge_and_uidvalidity_are_followed() {
    let ms = MailServer::start();
    ms.seed("user1", &fixtures("hebrew"), "INBOX");
    let (app, token) = app_with(&ms).await;
    let (s, v) = connect(&app, &token, ms.account("user1")).await;
    assert_eq!(s, 200, "{v}");
    wait_synced(&app, &token).await;
    let emails = list(&app, &token, "inbox").await;
    assert!(emails.len() >= 10);
    let target = emails
        .iter()
        .find(|e| e["is_read"] == false)
        .expect("an unread mail")
        .clone();
    let id = target["id"].as_str().unwrap();
    let message_id = target["messageId"].as_str().unwrap().to_string();

    // Local → server.
    let (s, v) = app
        .json(
            "PUT",
            &format!("/api/emails/{id}"),
            Some(&token),
            Some(json!({"is_read": true, "is_starred": true})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["email"]["is_starred"], true);
    eventually(Duration::from_secs(10), "flags on the server", || async {
        let out = inbox_flags(&ms, &["header", "Message-ID", &message_id]);
        (out.contains("\\Seen") && out.contains("\\Flagged")).then_some(())
    })
    .await;

    // Server → local.
    ms.doveadm(&[
        "flags",
        "remove",
        "-u",
        "user1@example.test",
        "\\Flagged",
        "mailbox",
        "INBOX",
        "header",
        "Message-ID",
        &message_id,
    ]);
    app.json("POST", "/api/sync/refresh", Some(&token), None)
        .await;
    eventually(Duration::from_secs(10), "flag removal synced", || async {
        let (_, v) = app
            .json("GET", &format!("/api/emails/{id}"), Some(&token), None)
            .await;
        (v["is_starred"] == false).then_some(())
    })
    .await;

    // Expunge on the server.
    let before = inbox_total(&app, &token).await;
    ms.doveadm(&[
        "expunge",
        "-u",
        "user1@example.test",
        "mailbox",
        "INBOX",
        "header",
        "Message-ID",
        &message_id,
    ]);
    app.json("POST", "/api/sync/refresh", Some(&token), None)
        .await;
    eventually(Duration::from_secs(10), "expunge synced", || async {
        (inbox_total(&app, &token).await == before - 1).then_some(())
    })
    .await;
    let (s, _) = app
        .json("GET", &format!("/api/emails/{id}"), Some(&token), None)
        .await;
    assert_eq!(s, 404);

    // A new UIDVALIDITY: the folder is fetched again, same content, new ids.
    let old_ids: Vec<String> = list(&app, &token, "inbox")
        .await
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    ms.doveadm(&[
        "mailbox",
        "update",
        "-u",
        "user1@example.test",
        "--uid-validity",
        "4242",
        "INBOX",
    ]);
    app.json("POST", "/api/sync/refresh", Some(&token), None)
        .await;
    let new_ids: Vec<String> = eventually(
        Duration::from_secs(15),
        "re-sync after UIDVALIDITY",
        || async {
            let ids: Vec<String> = list(&app, &token, "inbox")
                .await
                .iter()
                .map(|e| e["id"].as_str().unwrap().to_string())
                .collect();
            (ids.len() == old_ids.len() && ids.iter().all(|i| !old_ids.contains(i))).then_some(ids)
        },
    )
    .await;
    assert_eq!(new_ids.len(), before - 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_users_never_see_each_others_mail() {
    let ms = MailServer::start();
    ms.seed("user1", &fixtures("hebrew"), "INBOX");
    ms.deliver(
        "user2@example.test",
        "From: a@sender.test\nTo: user2@example.test\nSubject: only for two\n\nsecret\n",
    );
    let (app, dana) = synced_app(&ms, "user1").await;
    let yossi = second_user(&app, &dana, &ms, "user2").await;
    let dana_mail = list(&app, &dana, "all").await;
    let yossi_mail = list(&app, &yossi, "all").await;
    assert!(!dana_mail.is_empty() && !yossi_mail.is_empty());
    assert!(dana_mail.iter().all(|e| e["subject"] != "only for two"));
    assert!(yossi_mail.iter().any(|e| e["subject"] == "only for two"));
    let theirs = yossi_mail[0]["id"].as_str().unwrap();
    for (method, uri, body) in [
        ("GET", format!("/api/emails/{theirs}"), None),
        (
            "PUT",
            format!("/api/emails/{theirs}"),
            Some(json!({"is_read": true})),
        ),
        ("GET", format!("/api/emails/{theirs}/raw"), None),
        ("GET", format!("/api/emails/{theirs}/attachments/0"), None),
    ] {
        let (s, _) = app.json(method, &uri, Some(&dana), body).await;
        assert_eq!(s, 404, "{method} {uri}");
    }
    let yossi_account = {
        let (_, v) = app
            .json("GET", "/api/auth/accounts", Some(&yossi), None)
            .await;
        v["accounts"][0]["sessionId"].as_str().unwrap().to_string()
    };
    let (s, _) = app
        .json(
            "POST",
            "/api/auth/logout",
            Some(&dana),
            Some(json!({"sessionId": yossi_account})),
        )
        .await;
    assert_eq!(s, 404, "one user cannot disconnect another's mailbox");
}
