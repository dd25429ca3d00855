//! Drafts are real `\Draft` mail in the mailbox: edited, sent and deleted.

use super::*;

#[tokio::test]
async fn drafts_are_real_mailbox_drafts_edited_sent_and_deleted() {
    let ms = MailServer::start();
    let (app, token) = app(&ms, "undo_send_secs = 0").await;
    let orig = original(&app, &token, &ms, "orig-2@example.test").await;

    let (s, v) = app
        .json(
            "POST",
            "/api/drafts/save",
            Some(&token),
            Some(
                json!({"originalEmail": {"id": orig["id"], "messageId": "orig-2@example.test",
                "from": "user2@example.test", "from_name": "יוסי", "subject": "פגישת צוות"},
                "draftContent": "   "}),
            ),
        )
        .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some("לא ניתן לשמור טיוטה ריקה"))
    );

    let (s, v) = app
        .json(
            "POST",
            "/api/drafts/save",
            Some(&token),
            Some(
                json!({"originalEmail": {"id": orig["id"], "messageId": "orig-2@example.test",
                "from": "user2@example.test", "from_name": "יוסי", "subject": "פגישת צוות"},
                "draftContent": "<p>טיוטה ראשונה</p>"}),
            ),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["savedInGmail"].as_bool(), v["shouldNavigate"].as_bool()),
        (Some(true), Some(true))
    );
    let in_drafts = ms.messages("user1", "Drafts");
    assert_eq!(in_drafts.len(), 1);
    assert!(in_drafts[0].0.contains("\\Draft"), "{}", in_drafts[0].0);
    let m = parse(&in_drafts[0].1);
    assert_eq!(m.subject(), Some("Re: פגישת צוות"));
    assert_eq!(m.in_reply_to().as_text(), Some("orig-2@example.test"));

    let (_, v) = app.json("GET", "/api/drafts", Some(&token), None).await;
    assert_eq!(v["total"], 1, "{v}");
    let draft = &v["drafts"][0];
    assert_eq!(draft["originalEmail"]["id"], orig["id"], "{draft}");
    assert_eq!(draft["to"], "user2@example.test");
    assert!(
        draft["draftContent"]
            .as_str()
            .unwrap()
            .contains("טיוטה ראשונה")
    );

    // Editing replaces the draft in the mailbox.
    let (s, v) = app
        .json(
            "PUT",
            &format!("/api/drafts/{}", draft["id"].as_str().unwrap()),
            Some(&token),
            Some(json!({"draftContent": "<p>טיוטה מתוקנת</p>"})),
        )
        .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (200, Some("הטיוטה עודכנה בהצלחה")),
        "{v}"
    );
    let new_id = v["id"].as_str().unwrap().to_string();
    let in_drafts = ms.messages("user1", "Drafts");
    assert_eq!(in_drafts.len(), 1, "the old version is gone");
    assert!(
        parse(&in_drafts[0].1)
            .body_html(0)
            .unwrap()
            .contains("טיוטה מתוקנת")
    );
    assert_eq!(
        parse(&in_drafts[0].1).in_reply_to().as_text(),
        Some("orig-2@example.test")
    );

    // Sending it: out to user2, gone from Drafts.
    let (s, v) = app
        .json(
            "POST",
            &format!("/api/drafts/{new_id}/send"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (200, Some("התשובה נשלחה בהצלחה!")),
        "{v}"
    );
    let raw = eventually(
        Duration::from_secs(30),
        "the sent draft at user2",
        || async {
            ms.messages("user2", "INBOX")
                .into_iter()
                .next()
                .map(|(_, r)| r)
        },
    )
    .await;
    assert!(parse(&raw).body_html(0).unwrap().contains("טיוטה מתוקנת"));
    eventually(
        Duration::from_secs(30),
        "the draft gone from Drafts",
        || async { ms.messages("user1", "Drafts").is_empty().then_some(()) },
    )
    .await;
    let (_, v) = app.json("GET", "/api/drafts", Some(&token), None).await;
    assert_eq!(v["total"], 0, "{v}");

    // A new mail saved as a draft from compose, another reply draft, then delete-all.
    let (s, v) = app
        .json("POST", "/api/emails/send", Some(&token),
            Some(json!({"to": [], "subject": "רעיון", "body": "<p>לכתוב אחר כך</p>", "folder": "drafts"})))
        .await;
    assert_eq!((s, v["savedInGmail"].as_bool()), (200, Some(true)), "{v}");
    let (s, _) = app
        .json("POST", "/api/drafts/save", Some(&token),
            Some(json!({"originalEmail": {"id": orig["id"], "from": "user2@example.test", "subject": "x"},
                "draftContent": "עוד טיוטה"})))
        .await;
    assert_eq!(s, 200);
    assert_eq!(ms.messages("user1", "Drafts").len(), 2);
    let (s, v) = app
        .json("DELETE", "/api/drafts/delete-all", Some(&token), None)
        .await;
    assert_eq!((s, v["deletedCount"].as_u64()), (200, Some(2)), "{v}");
    assert!(ms.messages("user1", "Drafts").is_empty());
    let (_, v) = app.json("GET", "/api/drafts", Some(&token), None).await;
    assert_eq!(v["total"], 0, "{v}");

    // "Send now" on a scheduled draft replaces its schedule: one send, not two.
    let later = (time::OffsetDateTime::now_utc() + time::Duration::hours(1))
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let (s, v) = app
        .json("POST", "/api/emails/send", Some(&token),
            Some(json!({"to": ["user2@example.test"], "subject": "מתוזמן", "body": "<p>x</p>", "snoozed_until": later})))
        .await;
    assert_eq!((s, v["scheduled"].as_bool()), (200, Some(true)), "{v}");
    let (_, v) = app.json("GET", "/api/drafts", Some(&token), None).await;
    let scheduled = v["drafts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["scheduledAt"].is_string())
        .expect("the scheduled draft")
        .clone();
    let (s, _) = app
        .json(
            "POST",
            &format!("/api/drafts/{}/send", scheduled["id"].as_str().unwrap()),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200);
    eventually(
        Duration::from_secs(30),
        "one copy of the scheduled mail at user2",
        || async { (ms.messages("user2", "INBOX").len() == 2).then_some(()) },
    )
    .await;
    eventually(Duration::from_secs(30), "the outbox empty", || async {
        outbox(&app, &token).await.is_empty().then_some(())
    })
    .await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(ms.messages("user2", "INBOX").len(), 2, "sent once");

    // Templates: three defaults, then create, edit, delete; a name is required.
    let (_, v) = app.json("GET", "/api/templates", Some(&token), None).await;
    assert_eq!(v["templates"].as_array().unwrap().len(), 3, "{v}");
    let (s, v) = app
        .json(
            "POST",
            "/api/templates",
            Some(&token),
            Some(json!({"name": " ", "subject": "s", "body": "b"})),
        )
        .await;
    assert_eq!((s, v["message"].as_str()), (400, Some("שם התבנית חסר")));
    let (s, v) = app.json("POST", "/api/templates", Some(&token),
        Some(json!({"name": "תודה", "subject": "Re: {{original_subject}}", "body": "<p>תודה!</p>"}))).await;
    assert_eq!(s, 200, "{v}");
    let id = v["template"]["id"].as_str().unwrap().to_string();
    let (s, v) = app.json("PUT", &format!("/api/templates/{id}"), Some(&token),
        Some(json!({"name": "תודה רבה", "subject": "Re: {{original_subject}}", "body": "<p>תודה רבה!</p>"}))).await;
    assert_eq!((s, v["template"]["name"].as_str()), (200, Some("תודה רבה")));
    let (s, _) = app
        .json(
            "DELETE",
            &format!("/api/templates/{id}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200);
    let (_, v) = app.json("GET", "/api/templates", Some(&token), None).await;
    assert_eq!(v["templates"].as_array().unwrap().len(), 3);
}
