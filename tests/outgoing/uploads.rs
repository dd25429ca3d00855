//! Uploads: one file named thousands of times goes once, and the limits hold.

use super::*;

#[tokio::test]
async fn one_upload_named_thousands_of_times_goes_once_and_the_limits_hold() {
    let ms = MailServer::start();
    let (app, token) = app(
        &ms,
        "undo_send_secs = 0\nmax_attachments = 2\nmax_uploads = 3",
    )
    .await;
    let (s, a) = upload(
        &app,
        &token,
        "חשבונית.pdf",
        "application/pdf",
        b"%PDF-1.4 test".to_vec(),
    )
    .await;
    assert_eq!(s, 200, "{a}");
    let id = a["id"].as_str().unwrap().to_string();
    // A request naming the same upload 5,000 times: one attachment, sent once.
    let many: Vec<Value> = (0..5000).map(|_| json!(id)).collect();
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/send",
            Some(&token),
            Some(json!({"to": ["user2@example.test"], "subject": "קובץ אחד", "body": "<p>מצורף</p>", "attachments": many})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (_, raw) = eventually(Duration::from_secs(30), "the mail at user2", || async {
        ms.messages("user2", "INBOX").into_iter().next()
    })
    .await;
    assert_eq!(parse(&raw).attachments().count(), 1);
    // Filed in Sent too: the outbox lets go of the mail and its upload.
    eventually(Duration::from_secs(30), "the outbox empty", || async {
        outbox(&app, &token).await.is_empty().then_some(())
    })
    .await;

    // Three distinct uploads in one mail: over this install's two.
    let mut ids = Vec::new();
    for n in 0..3 {
        let (s, v) = upload(
            &app,
            &token,
            &format!("f{n}.txt"),
            "text/plain",
            vec![b'x'; 10],
        )
        .await;
        assert_eq!(s, 200, "{v}");
        ids.push(v["id"].clone());
    }
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/send",
            Some(&token),
            Some(json!({"to": ["user2@example.test"], "subject": "שלושה", "body": "<p>x</p>", "attachments": ids})),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["message"], "אפשר לצרף עד 2 קבצים להודעה אחת");
    // Three uploads wait: a fourth is over the user's quota, with a Hebrew message.
    let (s, v) = upload(&app, &token, "f4.txt", "text/plain", vec![b'x'; 10]).await;
    assert_eq!(s, 413, "{v}");
    assert!(
        v["message"].as_str().unwrap().contains("מכסת הקבצים"),
        "{v}"
    );
}
