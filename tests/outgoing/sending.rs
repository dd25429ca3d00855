//! Sending: a Hebrew reply with an attachment arrives threaded and is filed in Sent; lines
//! starting with a dot and Hebrew names arrive as written.

use super::*;

#[tokio::test]
async fn a_hebrew_reply_with_an_attachment_arrives_threaded_and_is_filed_in_sent() {
    let ms = MailServer::start();
    let (app, token) = app(&ms, "undo_send_secs = 0").await;
    // "Sent today" below, in a zone where it is midday: the day cannot turn between the send
    // and the count.
    app.set_midday_zone(&token).await;
    let orig = original(&app, &token, &ms, "orig-1@example.test").await;

    let pdf: Vec<u8> = (0..=255u8).cycle().take(300_000).collect();
    let name = "דוח רבעוני — סיכום שנת 2026 לצוות הפיתוח והשיווק.pdf";
    let (s, up) = upload(&app, &token, name, "application/pdf", pdf.clone()).await;
    assert_eq!(s, 200, "{up}");
    assert_eq!(up["size"], 300_000);

    // Validation first: nothing is queued for a mail without a subject.
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/send",
            Some(&token),
            Some(json!({"to": ["user2@example.test"], "subject": " ", "body": "<p>x</p>"})),
        )
        .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some("אנא מלא את שדות הנמען, הנושא והתוכן"))
    );
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/send",
            Some(&token),
            Some(json!({"to": ["user2@example"], "subject": "x", "body": "x"})),
        )
        .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some("כתובת מייל לא תקינה: user2@example"))
    );

    let (s, v) = app
        .json(
            "POST",
            "/api/emails/send",
            Some(&token),
            Some(json!({
                "to": ["user2@example.test"],
                "cc": ["\"שלישי, משתמש\" <user3@example.test>"],
                "subject": "Re: פגישת צוות",
                "body": "<p>שלום, <b>מצורף</b> הדוח</p>",
                "priority": "high",
                "originalId": orig["id"],
                "attachments": [up["id"]],
            })),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["undoSeconds"], 0);

    let raw = eventually(
        Duration::from_secs(30),
        "the reply in user2's inbox",
        || async {
            ms.messages("user2", "INBOX")
                .into_iter()
                .next()
                .map(|(_, raw)| raw)
        },
    )
    .await;
    let m = parse(&raw);
    assert_eq!(m.subject(), Some("Re: פגישת צוות"));
    assert_eq!(m.in_reply_to().as_text(), Some("orig-1@example.test"));
    assert_eq!(
        m.references().as_text_list().unwrap(),
        ["root-orig-1@example.test", "orig-1@example.test"]
    );
    assert_eq!(
        m.from().unwrap().first().unwrap().address(),
        Some("user1@example.test")
    );
    assert_eq!(m.header_raw("X-Priority").map(str::trim), Some("2 (High)"));
    assert!(m.body_html(0).unwrap().contains("<body dir=\"rtl\">"));
    assert!(m.body_text(0).unwrap().contains("שלום, מצורף הדוח"));
    let att = m.attachment(0).expect("the attachment");
    assert_eq!(att.attachment_name(), Some(name));
    assert_eq!(att.contents(), pdf.as_slice(), "attachment bytes intact");
    assert!(m.bcc().is_none());
    let cc = eventually(Duration::from_secs(30), "the copy to user3", || async {
        ms.messages("user3", "INBOX").into_iter().next()
    })
    .await;
    assert_eq!(parse(&cc.1).message_id(), m.message_id());

    // Filed in Sent (seen), shown in the sent list, the original answered, the outbox empty.
    let sent = eventually(Duration::from_secs(30), "the copy in Sent", || async {
        ms.messages("user1", "Sent").into_iter().next()
    })
    .await;
    assert!(sent.0.contains("\\Seen"), "{}", sent.0);
    assert_eq!(parse(&sent.1).message_id(), m.message_id());
    // The copy in Sent is the bytes that went out (there is no Bcc): what user2 got ends with
    // it, Postfix and Dovecot having put only their trace headers in front.
    let head = |b: &[u8]| String::from_utf8_lossy(&b[..b.len().min(2500)]).to_string();
    assert!(
        raw.ends_with(&sent.1),
        "sent:\n{}\nreceived:\n{}",
        head(&sent.1),
        head(&raw)
    );
    let listed = eventually(
        Duration::from_secs(30),
        "the mail in the sent list",
        || async { Some(list(&app, &token, "sent").await).filter(|l| !l.is_empty()) },
    )
    .await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["subject"], "Re: פגישת צוות");
    // The settings page's quick stats: sent today, in the user's time zone.
    let (_, counts) = app
        .json("GET", "/api/emails/counts", Some(&token), None)
        .await;
    assert_eq!(counts["sentToday"], 1, "{counts}");
    assert_eq!(counts["sent"], 1, "{counts}");
    // \Answered comes last, after the copy is filed.
    eventually(Duration::from_secs(30), "the original answered", || async {
        ms.messages("user1", "INBOX")
            .iter()
            .any(|(f, _)| f.contains("\\Answered"))
            .then_some(())
    })
    .await;
    eventually(Duration::from_secs(30), "the outbox empty", || async {
        outbox(&app, &token).await.is_empty().then_some(())
    })
    .await;

    // Compose's people: the two recipients, named as written.
    let (_, v) = app
        .json("GET", "/api/compose/recent-contacts", Some(&token), None)
        .await;
    let emails: Vec<&str> = v["contacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["email"].as_str().unwrap())
        .collect();
    assert_eq!(emails.len(), 2, "{v}");
    assert!(emails.contains(&"user2@example.test") && emails.contains(&"user3@example.test"));
    let (_, v) = app
        .json(
            "GET",
            "/api/compose/address-book?q=%D7%A9%D7%9C%D7%99%D7%A9%D7%99",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(v["contacts"][0]["email"], "user3@example.test", "{v}");
}

#[tokio::test]
async fn lines_starting_with_a_dot_and_hebrew_names_arrive_as_written() {
    let ms = MailServer::start();
    let (app, token) = app(&ms, "undo_send_secs = 0").await;
    let data = b"%PDF-1.4\n.\n..\n%%EOF\n".to_vec();
    let name = "הצעת מחיר \"סופית\" – שלב א׳.pdf";
    let (s, up) = upload(&app, &token, name, "application/pdf", data.clone()).await;
    assert_eq!(s, 200, "{up}");
    // An English body goes as 7-bit text: its lines reach SMTP as written, a lone "." among
    // them (which without dot-stuffing would end the DATA early).
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/send",
            Some(&token),
            Some(json!({
                "to": ["\"אבי לוי\" <user2@example.test>"],
                "subject": "נקודות . בתחילת שורה",
                "body": "<p>.hidden</p><p>.</p><p>..two</p><p>end</p>",
                "attachments": [up["id"]],
            })),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let raw = eventually(Duration::from_secs(30), "the mail at user2", || async {
        ms.messages("user2", "INBOX")
            .into_iter()
            .next()
            .map(|(_, raw)| raw)
    })
    .await;
    let text = String::from_utf8_lossy(&raw);
    assert!(text.contains("\n.hidden\n.\n..two\n"), "{text}");
    let m = parse(&raw);
    assert_eq!(m.subject(), Some("נקודות . בתחילת שורה"));
    assert_eq!(
        m.to().unwrap().first().unwrap().name(),
        Some("אבי לוי"),
        "{text}"
    );
    assert_eq!(
        m.body_text(0).as_deref(),
        Some(".hidden\n.\n..two\nend\n"),
        "{text}"
    );
    let att = m.attachment(0).expect("the attachment");
    assert_eq!(att.attachment_name(), Some(name));
    assert_eq!(att.contents(), data.as_slice());
}
