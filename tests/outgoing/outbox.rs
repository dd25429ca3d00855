//! The outbox: undo takes a send back, a send waits out a mail server outage, and editing a
//! queued mail does what the user pressed.

use super::*;

#[tokio::test]
async fn undo_takes_a_send_back_and_the_outbox_waits_out_a_mail_server_outage() {
    let ms = MailServer::start();
    let (app, token) = app(&ms, "undo_send_secs = 2\nmax_attachment_mb = 1").await;
    let (s, v) = upload(
        &app,
        &token,
        "big.bin",
        "application/octet-stream",
        vec![7; 1_100_000],
    )
    .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (413, Some("הקובץ גדול מדי (מקסימום 1MB)"))
    );

    let mail = json!({"to": ["user2@example.test"], "subject": "בדיקה", "body": "<p>גוף</p>"});
    let (s, v) = app
        .json("POST", "/api/emails/send", Some(&token), Some(mail.clone()))
        .await;
    assert_eq!((s, v["undoSeconds"].as_u64()), (200, Some(2)), "{v}");
    let (s, back) = app
        .json(
            "POST",
            &format!("/api/outbox/{}/undo", v["outboxId"].as_str().unwrap()),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200, "{back}");
    assert_eq!(back["mail"]["subject"], "בדיקה");
    assert_eq!(back["mail"]["to"][0], "user2@example.test");
    assert!(outbox(&app, &token).await.is_empty());
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert!(
        ms.messages("user2", "INBOX").is_empty(),
        "an undone mail never leaves"
    );
    let (s, _) = app
        .json(
            "POST",
            &format!("/api/outbox/{}/undo", v["outboxId"].as_str().unwrap()),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 409);

    ms.stop();
    let (s, v) = app
        .json("POST", "/api/emails/send", Some(&token), Some(mail))
        .await;
    assert_eq!(s, 200, "{v}");
    let failed = eventually(
        Duration::from_secs(30),
        "a failed attempt in the outbox",
        || async {
            outbox(&app, &token)
                .await
                .into_iter()
                .find(|i| i["state"] == "failed")
        },
    )
    .await;
    assert!(
        failed["lastError"].as_str().unwrap().contains("127.0.0.1"),
        "{failed}"
    );
    assert_eq!(failed["mail"]["subject"], "בדיקה");
    assert_eq!(failed["retry"], true);
    ms.restart();
    // The automatic retry (30 s backoff) sends it once the server is back.
    let raw = eventually(
        Duration::from_secs(60),
        "the retried mail at user2",
        || async {
            ms.messages("user2", "INBOX")
                .into_iter()
                .next()
                .map(|(_, r)| r)
        },
    )
    .await;
    assert_eq!(parse(&raw).subject(), Some("בדיקה"));
    eventually(Duration::from_secs(30), "the outbox empty", || async {
        outbox(&app, &token).await.is_empty().then_some(())
    })
    .await;
    assert_eq!(ms.messages("user1", "Sent").len(), 1);
}

#[tokio::test]
async fn editing_a_queued_mail_does_what_the_user_pressed() {
    let ms = MailServer::start();
    let (app, token) = app(&ms, "undo_send_secs = 30").await;
    let mail = json!({"to": ["user2@example.test"], "subject": "לעריכה", "body": "<p>גרסה א</p>"});
    let (_, v) = app
        .json("POST", "/api/emails/send", Some(&token), Some(mail))
        .await;
    let id = v["outboxId"].as_str().unwrap().to_string();

    // "Save as draft" on a queued send: into Drafts, out of the outbox, never sent.
    let (s, v) = app
        .json("PUT", &format!("/api/outbox/{id}"), Some(&token),
            Some(json!({"to": ["user2@example.test"], "subject": "לעריכה", "body": "<p>גרסה ב</p>", "folder": "drafts"})))
        .await;
    assert_eq!(s, 200, "{v}");
    assert!(v["item"].is_null(), "{v}");
    assert_eq!(v["savedInGmail"], true);
    assert!(outbox(&app, &token).await.is_empty());
    let drafts = ms.messages("user1", "Drafts");
    assert_eq!(drafts.len(), 1);
    assert!(parse(&drafts[0].1).body_html(0).unwrap().contains("גרסה ב"));

    // A scheduled mail edited and sent now: no longer scheduled, goes after the undo delay,
    // and its copy in Drafts is removed once it is out.
    let later = (time::OffsetDateTime::now_utc() + time::Duration::hours(2))
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let (_, v) = app
        .json("POST", "/api/emails/send", Some(&token),
            Some(json!({"to": ["user2@example.test"], "subject": "מתוזמן", "body": "<p>א</p>", "snoozed_until": later})))
        .await;
    let id = v["outboxId"].as_str().unwrap().to_string();
    assert_eq!(ms.messages("user1", "Drafts").len(), 2);
    // Rescheduling replaces the copy in Drafts with the new text.
    let sooner = (time::OffsetDateTime::now_utc() + time::Duration::hours(1))
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let (s, v) = app
        .json("PUT", &format!("/api/outbox/{id}"), Some(&token),
            Some(json!({"to": ["user2@example.test"], "subject": "מתוזמן", "body": "<p>ב</p>", "snoozed_until": sooner})))
        .await;
    assert_eq!(
        (s, v["item"]["state"].as_str()),
        (200, Some("scheduled")),
        "{v}"
    );
    let copies: Vec<String> = ms
        .messages("user1", "Drafts")
        .iter()
        .filter_map(|(_, raw)| parse(raw).body_html(0).map(|h| h.into_owned()))
        .collect();
    assert_eq!(copies.len(), 2, "one draft and one scheduled copy");
    assert!(
        copies.iter().any(|h| h.contains("<p>ב</p>"))
            && !copies.iter().any(|h| h.contains("<p>א</p>")),
        "{copies:?}"
    );
    let (s, v) = app
        .json("PUT", &format!("/api/outbox/{id}"), Some(&token),
            Some(json!({"to": ["user2@example.test"], "subject": "מתוזמן", "body": "<p>ג</p>", "folder": "sent"})))
        .await;
    assert_eq!(
        (s, v["item"]["state"].as_str()),
        (200, Some("waiting")),
        "{v}"
    );
    let (s, _) = app
        .json(
            "POST",
            &format!("/api/outbox/{id}/retry"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200);
    let raw = eventually(Duration::from_secs(60), "the mail at user2", || async {
        ms.messages("user2", "INBOX")
            .into_iter()
            .next()
            .map(|(_, r)| r)
    })
    .await;
    assert!(parse(&raw).body_html(0).unwrap().contains("<p>ג</p>"));
    eventually(
        Duration::from_secs(30),
        "only the draft left in Drafts",
        || async { (ms.messages("user1", "Drafts").len() == 1).then_some(()) },
    )
    .await;
}
