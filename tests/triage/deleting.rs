//! Delete hides for good, Trash moves, bulk actions apply.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delete_hides_for_good_trash_moves_and_bulk_applies() {
    let ms = MailServer::start();
    let names = ["hide-me", "trash-me", "bulk-a", "bulk-b", "keep", "read-me"];
    let mails: Vec<(&str, String)> = names.iter().map(|n| (*n, mail(n, n, 600))).collect();
    seed(&ms, "user1", &mails);
    let (app, token) = synced_app(&ms, "user1").await;
    let id = |s: &'static str| inbox_id(&app, &token, s);

    let hide = id("hide-me").await;
    let (s, v) = app
        .json("DELETE", &format!("/api/emails/{hide}"), Some(&token), None)
        .await;
    assert_eq!(s, 200, "{v}");
    assert!(
        id_in(&app, &token, "/api/emails/inbox", "hide-me")
            .await
            .is_none()
    );
    let (s, _) = app
        .json("GET", &format!("/api/emails/{hide}"), Some(&token), None)
        .await;
    assert_eq!(s, 404);
    // The mailbox is untouched…
    refresh(&app, &token).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(server_flags(&ms, "user1", "INBOX", "hide-me").is_some());
    // …and a full re-sync of the folder (new UIDVALIDITY: every message fetched again under
    // a new id) keeps it hidden.
    let keep_before = id("keep").await;
    ms.doveadm(&[
        "mailbox",
        "update",
        "-u",
        "user1@example.test",
        "--uid-validity",
        "4242",
        "INBOX",
    ]);
    eventually(Duration::from_secs(30), "the re-sync", || async {
        refresh(&app, &token).await;
        id_in(&app, &token, "/api/emails/inbox", "keep")
            .await
            .filter(|k| *k != keep_before)
    })
    .await;
    assert!(
        id_in(&app, &token, "/api/emails/inbox", "hide-me")
            .await
            .is_none()
    );
    assert_eq!(get(&app, &token, "/api/emails/counts").await["inbox"], 5);

    // Needs reply, then trashed: no longer counted as waiting.
    let trash = id("trash-me").await;
    status(&app, &token, &trash, json!({"status": "needs_reply"})).await;
    assert_eq!(
        get(&app, &token, "/api/emails/counts").await["needsReply"],
        1
    );
    let (s, v) = app
        .json(
            "POST",
            &format!("/api/emails/{trash}/trash"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!((s, v["movedTo"].as_str()), (200, Some("trash")), "{v}");
    assert!(
        id_in(&app, &token, "/api/emails/inbox", "trash-me")
            .await
            .is_none()
    );
    wait_server(&ms, "Trash", "trash-me", None).await;
    assert!(server_flags(&ms, "user1", "INBOX", "trash-me").is_none());
    wait_listed(&app, &token, "/api/emails/trash", "trash-me").await;
    assert_eq!(
        get(&app, &token, "/api/emails/counts").await["needsReply"],
        0
    );

    // Marked spam and deleted at once: whether the move went first or not, it stays gone.
    let doomed = id("keep").await;
    status(&app, &token, &doomed, json!({"status": "spam"})).await;
    let (s, _) = app
        .json(
            "DELETE",
            &format!("/api/emails/{doomed}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200);
    refresh(&app, &token).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    refresh(&app, &token).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    for listing in [
        "/api/emails/session/Spam",
        "/api/emails/junk",
        "/api/emails/inbox",
    ] {
        assert!(
            id_in(&app, &token, listing, "keep").await.is_none(),
            "{listing}"
        );
    }

    // Bulk: a status for two, then read; unknown and foreign ids are skipped.
    let (a, b) = (id("bulk-a").await, id("bulk-b").await);
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/bulk",
            Some(&token),
            Some(json!({"ids": [a, b, "424242"], "action": "status", "status": "spam"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["updated"].as_u64(), v["movedTo"].as_str()),
        (Some(2), Some("Spam"))
    );
    // The changed mail as it is now, so the web shows the server's state.
    let changed: Vec<(&str, &str)> = v["emails"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["id"].as_str().unwrap(), e["status"].as_str().unwrap()))
        .collect();
    assert_eq!(changed, [(a.as_str(), "spam"), (b.as_str(), "spam")]);
    wait_server(&ms, "Junk", "bulk-a", Some("$Junk")).await;
    wait_server(&ms, "Junk", "bulk-b", Some("$Junk")).await;
    let keep = id("read-me").await;
    let (_, v) = app
        .json(
            "POST",
            "/api/emails/bulk",
            Some(&token),
            Some(json!({"ids": [keep], "action": "read"})),
        )
        .await;
    assert_eq!(v["updated"], 1);
    wait_server(&ms, "INBOX", "read-me", Some("\\Seen")).await;
    for bad in [
        json!({"ids": [], "action": "read"}),
        json!({"ids": [keep], "action": "explode"}),
        json!({"ids": [keep], "action": "status", "status": "bogus"}),
    ] {
        let (s, v) = app
            .json("POST", "/api/emails/bulk", Some(&token), Some(bad))
            .await;
        assert_eq!(s, 400, "{v}");
    }
}

/// A phone's swipe: bulk `archive` moves the mail to the mailbox's Archive folder (created when
/// missing), and mail already there stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bulk_archive_moves_to_the_mailbox_archive() {
    let ms = MailServer::start();
    seed(&ms, "user1", &[("swiped", mail("swiped", "swiped", 600))]);
    let (app, token) = synced_app(&ms, "user1").await;
    let swiped = inbox_id(&app, &token, "swiped").await;
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/bulk",
            Some(&token),
            Some(json!({"ids": [swiped], "action": "archive"})),
        )
        .await;
    assert_eq!((s, v["updated"].as_u64()), (200, Some(1)), "{v}");
    assert_eq!(v["movedTo"], "archive", "{v}");
    assert!(
        id_in(&app, &token, "/api/emails/inbox", "swiped")
            .await
            .is_none()
    );
    wait_server(&ms, "Archive", "swiped", None).await;
    assert!(server_flags(&ms, "user1", "INBOX", "swiped").is_none());
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/bulk",
            Some(&token),
            Some(json!({"ids": [swiped], "action": "shred"})),
        )
        .await;
    assert_eq!(s, 400, "{v}");
}
