//! Sending, drafts and the outbox against a private Dovecot + Postfix: a Hebrew reply with an
//! attachment arrives threaded and is filed in Sent; drafts are real `\Draft` mail in Drafts;
//! undo takes a send back; with the mail server down a send waits in the outbox and goes out
//! when it is back. The scheduled send across a restart is in tests/scheduled.rs (the binary).

mod common;

use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use common::mailflow::{ADMIN_PASSWORD, connect, eventually, list, wait_synced};
use common::mailserver::MailServer;
use common::{TestApp, body_text};
use mail_parser::{MessageParser, MimeHeaders};
use serde_json::{Value, json};

async fn app(ms: &MailServer, compose: &str) -> (TestApp, String) {
    let app = TestApp::with_config(&format!("{}\n[compose]\n{compose}\n", ms.config_toml()));
    let token = app.admin_token("dana", ADMIN_PASSWORD).await;
    let (s, v) = connect(&app, &token, ms.account("user1")).await;
    assert_eq!(s, 200, "{v}");
    wait_synced(&app, &token).await;
    (app, token)
}

/// Delivers a Hebrew mail from user2 to user1 and returns its id once synced.
async fn original(app: &TestApp, token: &str, ms: &MailServer, mid: &str) -> Value {
    ms.deliver(
        "user1@example.test",
        &format!(
            "From: =?utf-8?B?15nXldeh15k=?= <user2@example.test>\r\nTo: user1@example.test\r\n\
             Subject: =?utf-8?B?16TXkteZ16nXqiDXpteV15XXqg==?=\r\nMessage-ID: <{mid}>\r\n\
             References: <root-{mid}>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nשלום\r\n"
        ),
    );
    eventually(
        Duration::from_secs(30),
        "the original in the inbox",
        || async {
            list(app, token, "inbox")
                .await
                .into_iter()
                .find(|m| m["messageId"] == mid)
        },
    )
    .await
}

async fn upload(
    app: &TestApp,
    token: &str,
    name: &str,
    ctype: &str,
    data: Vec<u8>,
) -> (u16, Value) {
    let resp = app
        .send(
            Request::post(format!("/api/attachments?name={}", urlencode(name)))
                .header("authorization", token)
                .header("content-type", ctype)
                .body(Body::from(data))
                .unwrap(),
        )
        .await;
    let status = resp.status().as_u16();
    (
        status,
        serde_json::from_str(&body_text(resp).await).unwrap(),
    )
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'.' {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn parse(raw: &[u8]) -> mail_parser::Message<'_> {
    MessageParser::default().parse(raw).expect("a message")
}

async fn outbox(app: &TestApp, token: &str) -> Vec<Value> {
    let (s, v) = app.json("GET", "/api/outbox", Some(token), None).await;
    assert_eq!(s, 200, "{v}");
    v["items"].as_array().unwrap().clone()
}

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
