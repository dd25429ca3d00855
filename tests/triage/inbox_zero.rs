//! Inbox Zero's overdue and auto-archive around their day boundaries.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inbox_zero_overdue_and_auto_archive_follow_the_day_boundaries() {
    let ms = MailServer::start();
    let hour = 3600;
    seed(
        &ms,
        "user1",
        &[
            ("old-unread", mail("old-unread", "ou", 3 * DAY + hour)),
            ("young-unread", mail("young-unread", "yu", 3 * DAY - hour)),
            ("urgent-old", mail("urgent-old", "uo", DAY + hour)),
            ("urgent-young", mail("urgent-young", "uy", DAY - hour)),
            (
                "stale-processed",
                mail("stale-processed", "sp", 7 * DAY + hour),
            ),
            (
                "fresh-processed",
                mail("fresh-processed", "fp", 7 * DAY - hour),
            ),
            ("stale-info", mail("stale-info", "si", 30 * DAY)),
        ],
    );
    // Triaged earlier by another client: the keywords come with the mail, so its activity is
    // its date.
    for (subject, keyword) in [
        ("stale-processed", "$Processed"),
        ("fresh-processed", "$Processed"),
        ("stale-info", "$Info"),
        ("young-unread", "\\Seen"),
    ] {
        ms.doveadm(&[
            "flags",
            "add",
            "-u",
            "user1@example.test",
            keyword,
            "mailbox",
            "INBOX",
            "subject",
            subject,
        ]);
    }
    // young-unread is read but marked needs reply below (3 days minus an hour: not overdue).
    let (app, token) = synced_app(&ms, "user1").await;
    for subject in ["urgent-old", "urgent-young"] {
        let id = id_in(&app, &token, "/api/emails/inbox", subject)
            .await
            .unwrap();
        // Read, so only urgency can make them overdue.
        app.json(
            "PUT",
            &format!("/api/emails/{id}"),
            Some(&token),
            Some(json!({"is_read": true})),
        )
        .await;
        let (s, _) = status(&app, &token, &id, json!({"status": "urgent"})).await;
        assert_eq!(s, 200);
    }
    let young = id_in(&app, &token, "/api/emails/inbox", "young-unread")
        .await
        .unwrap();
    status(&app, &token, &young, json!({"status": "needs_reply"})).await;

    let z = get(&app, &token, "/api/emails/inbox-zero").await;
    let reminders: Vec<&str> = z["reminders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["subject"].as_str().unwrap())
        .collect();
    // Oldest first: old-unread (3 days + 1 h), urgent-old (1 day + 1 h).
    assert_eq!(reminders, ["old-unread", "urgent-old"], "{z}");
    assert_eq!(z["overdue"], 2, "{z}");
    assert_eq!(z["reminders"][0]["daysOverdue"], 3);
    assert_eq!(z["reminders"][1]["daysOverdue"], 1);
    assert_eq!(z["needsReply"], 3, "{z}");
    assert_eq!(z["urgent"], 2, "{z}");
    assert_eq!(z["processed"], 2, "{z}");
    let candidates: Vec<&str> = z["autoArchive"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["subject"].as_str().unwrap())
        .collect();
    assert_eq!(candidates, ["stale-info", "stale-processed"], "{z}");
    assert_eq!(z["autoArchiveCount"], 2);

    // Archive them plus a non-candidate: only the candidates go.
    let mut ids: Vec<Value> = z["autoArchive"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].clone())
        .collect();
    ids.push(json!(young));
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/auto-archive",
            Some(&token),
            Some(json!({"emailIds": ids})),
        )
        .await;
    assert_eq!((s, v["archivedCount"].as_u64()), (200, Some(2)), "{v}");
    wait_server(&ms, "Archive", "stale-info", Some("$Info")).await;
    wait_server(&ms, "Archive", "stale-processed", Some("$Processed")).await;
    assert!(server_flags(&ms, "user1", "INBOX", "fresh-processed").is_some());
    let z = get(&app, &token, "/api/emails/inbox-zero").await;
    assert_eq!(z["autoArchiveCount"], 0, "{z}");
}
