//! Every status moves the mail and is mirrored on the mailbox.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_status_moves_and_is_mirrored_on_the_mailbox() {
    let ms = MailServer::start();
    let names = ["reply-me", "done", "junk", "news", "sale", "other-client"];
    let mails: Vec<(&str, String)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (*n, mail(n, n, 3600 * (i as i64 + 1))))
        .collect();
    seed(&ms, "user1", &mails);
    let (app, token) = synced_app(&ms, "user1").await;
    let id = |s: &'static str| inbox_id(&app, &token, s);

    // needs_reply: stays in the inbox with priority high.
    let reply = id("reply-me").await;
    let (s, v) = status(&app, &token, &reply, json!({"status": "needs_reply"})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["movedTo"], "inbox");
    assert_eq!(v["email"]["status"], "needs_reply");
    assert_eq!(v["email"]["priority"], "high");
    // The answer carries the mail's thread as the list shows it after the change.
    assert_eq!(v["thread"]["emails"][0]["id"], json!(reply));
    assert_eq!(v["thread"]["status"], "needs_reply");
    assert_eq!(v["thread"]["labels"][0], "needs_reply");
    wait_server(&ms, "INBOX", "reply-me", Some("$NeedsReply")).await;
    assert!(
        server_flags(&ms, "user1", "INBOX", "reply-me")
            .unwrap()
            .contains("$HighPriority")
    );
    // urgent keeps the status.
    let (_, v) = status(&app, &token, &reply, json!({"status": "urgent"})).await;
    assert_eq!(
        (
            v["email"]["status"].as_str(),
            v["email"]["priority"].as_str()
        ),
        (Some("needs_reply"), Some("urgent"))
    );
    assert_eq!(v["movedTo"], "inbox");
    assert_eq!(v["thread"]["priority"], "urgent");
    assert_eq!(v["thread"]["labels"], json!(["urgent", "needs_reply"]));
    wait_server(&ms, "INBOX", "reply-me", Some("$Urgent")).await;
    assert!(
        !server_flags(&ms, "user1", "INBOX", "reply-me")
            .unwrap()
            .contains("$HighPriority")
    );

    // processed → Archive (moved on the server, keyword kept on the copy).
    let done = id("done").await;
    let (_, v) = status(&app, &token, &done, json!({"status": "processed"})).await;
    assert_eq!(v["movedTo"], "Archive");
    assert!(
        id_in(&app, &token, "/api/emails/inbox", "done")
            .await
            .is_none()
    );
    wait_server(&ms, "Archive", "done", Some("$Processed")).await;
    assert!(server_flags(&ms, "user1", "INBOX", "done").is_none());
    let archived = wait_listed(&app, &token, "/api/emails/archive", "done").await;
    let row = get(&app, &token, &format!("/api/emails/{archived}")).await;
    assert_eq!(row["status"], "processed");
    assert!(
        id_in(&app, &token, "/api/emails/session/Archive", "done")
            .await
            .is_some()
    );

    // spam → Junk with $Junk; listed under Spam.
    let junk = id("junk").await;
    let (_, v) = status(&app, &token, &junk, json!({"status": "spam"})).await;
    assert_eq!(v["movedTo"], "Spam");
    wait_server(&ms, "Junk", "junk", Some("$Junk")).await;
    let in_junk = wait_listed(&app, &token, "/api/emails/junk", "junk").await;
    assert!(
        id_in(&app, &token, "/api/emails/session/Spam", "junk")
            .await
            .is_some()
    );

    // info → Updates, advertisement → Promotions: listed there, still in INBOX on the server.
    let news = id("news").await;
    let (_, v) = app
        .json(
            "PUT",
            &format!("/api/emails/{news}/status?folder=Updates"),
            Some(&token),
            Some(json!({"status": "info"})),
        )
        .await;
    assert_eq!(v["movedTo"], "Updates");
    // The thread is the one the listing asked about shows: Updates keeps it now.
    assert_eq!(v["thread"]["emails"][0]["id"], json!(news));
    assert_eq!(v["thread"]["labels"], json!(["info"]));
    // Seen from the inbox it left, the answer still describes the mail itself.
    let (_, v) = app
        .json(
            "PUT",
            &format!("/api/emails/{news}/status?folder=inbox"),
            Some(&token),
            Some(json!({"status": "info"})),
        )
        .await;
    assert_eq!(v["thread"]["count"], 1);
    assert_eq!(v["thread"]["emails"][0]["id"], json!(news));
    let sale = id("sale").await;
    let (_, v) = status(&app, &token, &sale, json!({"status": "advertisement"})).await;
    assert_eq!(v["movedTo"], "Promotions");
    assert!(
        id_in(&app, &token, "/api/emails/session/Updates", "news")
            .await
            .is_some()
    );
    assert!(
        id_in(&app, &token, "/api/emails/session/Promotions", "sale")
            .await
            .is_some()
    );
    assert!(
        id_in(&app, &token, "/api/emails/inbox", "news")
            .await
            .is_none()
    );
    wait_server(&ms, "INBOX", "news", Some("$Info")).await;
    wait_server(&ms, "INBOX", "sale", Some("$Advertisement")).await;

    // Not spam after all: back to INBOX on the server.
    let (_, v) = status(&app, &token, &in_junk, json!({"status": "needs_reply"})).await;
    assert_eq!(v["movedTo"], "inbox");
    wait_server(&ms, "INBOX", "junk", Some("$NeedsReply")).await;
    // The copy back in INBOX keeps the time of its last status change, not its date.
    let back = wait_listed(&app, &token, "/api/emails/inbox", "junk").await;
    let row = get(&app, &token, &format!("/api/emails/{back}")).await;
    let activity = OffsetDateTime::parse(
        row["lastActivity"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    assert!(
        OffsetDateTime::now_utc() - activity < time::Duration::minutes(5),
        "{row}"
    );
    assert!(
        !server_flags(&ms, "user1", "INBOX", "junk")
            .unwrap()
            .contains("$Junk")
    );

    // Bad input.
    let (s, v) = status(&app, &token, &news, json!({"status": "bogus"})).await;
    assert_eq!(s, 400);
    assert_eq!(v["message"], "סטטוס לא תקין");
    let (s, _) = status(&app, &token, "999999", json!({"status": "info"})).await;
    assert_eq!(s, 404);

    // Another client sets a keyword: the status follows.
    ms.doveadm(&[
        "flags",
        "add",
        "-u",
        "user1@example.test",
        "$Processed",
        "mailbox",
        "INBOX",
        "subject",
        "other-client",
    ]);
    wait_listed(&app, &token, "/api/emails/session/Archive", "other-client").await;

    // Counts are the listings' sizes.
    let c = get(&app, &token, "/api/emails/counts").await;
    assert_eq!(c["needsReply"], 2, "{c}");
    assert_eq!(c["urgent"], 1, "{c}");
    assert_eq!(c["info"], 1, "{c}");
    assert_eq!(c["advertisements"], 1, "{c}");
    assert_eq!(c["processed"], 2, "{c}");
    assert_eq!(c["inbox"], 2, "{c}");

    // A full re-sync (forget the cache, sync again) restores every status from the keywords.
    relogin(&app, &token, &ms).await;
    let updates = id_in(&app, &token, "/api/emails/session/Updates", "news").await;
    assert!(updates.is_some(), "info survived the re-sync");
    let again = id_in(&app, &token, "/api/emails/inbox", "reply-me")
        .await
        .unwrap();
    let row = get(&app, &token, &format!("/api/emails/{again}")).await;
    assert_eq!(
        (row["status"].as_str(), row["priority"].as_str()),
        (Some("needs_reply"), Some("urgent"))
    );
    let c2 = get(&app, &token, "/api/emails/counts").await;
    assert_eq!(c, c2, "counts after a full re-sync");
}
