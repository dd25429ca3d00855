//! Follow-ups on a real Dovecot + Postfix and the local AI provider: a sent question is awaited
//! (the rules without a key), a thank-you is not; a mail marked by hand with a short wait gets
//! its reminder once (a notice); a nudge draft lands in Drafts in the mail's language, replying
//! to it; an answer delivered to Dovecot clears the question; with a key the AI decides, and
//! the nudge is asked for in English for an English mail.

mod common;

use std::time::Duration;

use common::TestApp;
use common::llm::FakeLlm;
use common::mailflow::{ADMIN_PASSWORD, connect, eventually, list, wait_synced};
use common::mailserver::MailServer;
use mailclient::notices::{Notice, Notices};
use serde_json::{Value, json};

async fn send(app: &TestApp, token: &str, subject: &str, body: &str) {
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/send",
            Some(token),
            Some(json!({"to": ["user2@example.test"], "subject": subject, "body": body})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
}

/// The follow-ups list, after the job ran.
async fn followups(app: &TestApp, token: &str) -> Value {
    app.state.jobs().trigger(&app.state, "followups");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (s, v) = app.json("GET", "/api/followups", Some(token), None).await;
    assert_eq!(s, 200, "{v}");
    v
}

fn find<'a>(list: &'a Value, key: &str, subject: &str) -> Option<&'a Value> {
    list[key]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["subject"] == subject)
}

async fn sent_mail(app: &TestApp, token: &str, subject: &str) -> Value {
    eventually(Duration::from_secs(30), subject, || async {
        list(app, token, "sent")
            .await
            .into_iter()
            .find(|m| m["subject"] == subject)
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sent_questions_are_awaited_reminded_nudged_and_cleared_by_an_answer() {
    let ms = MailServer::start();
    let llm = FakeLlm::start().await;
    let app = TestApp::with_config(&format!(
        "{}\n[ai]\nbase_url = \"{}\"\ntimeout_secs = 5\n[compose]\nundo_send_secs = 0\n",
        ms.config_toml(),
        llm.base
    ));
    let token = app.admin_token("dana", ADMIN_PASSWORD).await;
    let (s, v) = connect(&app, &token, ms.account("user1")).await;
    assert_eq!(s, 200, "{v}");
    wait_synced(&app, &token).await;
    let mut notices = app.state.service::<Notices>().subscribe();

    // Without an AI key the rules decide: the question is awaited, the thank-you is not.
    send(
        &app,
        &token,
        "תקציב הרבעון",
        "<p>היי, מתי תוכל לשלוח לי את הטבלה?</p>",
    )
    .await;
    send(&app, &token, "תודה", "<p>תודה רבה, קיבלתי את הקבצים.</p>").await;
    let question = sent_mail(&app, &token, "תקציב הרבעון").await;
    let thanks = sent_mail(&app, &token, "תודה").await;
    let v = eventually(Duration::from_secs(30), "the question awaited", || async {
        let v = followups(&app, &token).await;
        find(&v, "awaiting", "תקציב הרבעון").is_some().then_some(v)
    })
    .await;
    let q = find(&v, "awaiting", "תקציב הרבעון").unwrap();
    assert_eq!(q["source"], "question");
    assert_eq!(q["days"], 3, "the preference's default");
    assert_eq!(q["overdue"], false);
    assert!(find(&v, "awaiting", "תודה").is_none(), "{v}");
    assert!(llm.requests().is_empty(), "no AI without a key");

    // Marked by hand with a short wait: reminded once, with a notice.
    let remind_at = (time::OffsetDateTime::now_utc() + time::Duration::seconds(3))
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let (s, v) = app
        .json(
            "POST",
            "/api/followups",
            Some(&token),
            Some(json!({"emailId": thanks["id"], "remindAt": remind_at})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["followUp"]["source"], "mark");
    let id = v["followUp"]["id"].as_str().unwrap().to_string();
    // A received mail is not "sent": refused in Hebrew.
    let (s, v) = app
        .json(
            "POST",
            "/api/followups",
            Some(&token),
            Some(json!({"emailId": question["id"], "days": 0})),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    let due = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            if let Ok((_, Notice::FollowUpDue(f))) = notices.recv().await {
                return f;
            }
        }
    })
    .await
    .expect("the reminder");
    assert_eq!(
        (due.id.as_str(), due.subject.as_str()),
        (id.as_str(), "תודה")
    );
    assert_eq!(due.message, "לא התקבלה תשובה להודעה ששלחת");
    let v = followups(&app, &token).await;
    assert_eq!(v["overdue"], 1, "{v}");
    assert_eq!(find(&v, "awaiting", "תודה").unwrap()["overdue"], true);
    // Once only.
    followups(&app, &token).await;
    assert!(
        tokio::time::timeout(Duration::from_millis(500), async {
            loop {
                if let Ok((_, Notice::FollowUpDue(_))) = notices.recv().await {
                    return;
                }
            }
        })
        .await
        .is_err(),
        "reminded twice"
    );

    // A nudge: a Hebrew draft replying to the sent mail, to its recipient, without AI.
    let (s, v) = app
        .json(
            "POST",
            &format!("/api/followups/{id}/nudge"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["byAi"].as_bool(), v["language"].as_str()),
        (Some(false), Some("hebrew"))
    );
    let drafts = eventually(Duration::from_secs(20), "the nudge in Drafts", || async {
        let d = ms.messages("user1", "Drafts");
        (!d.is_empty()).then_some(d)
    })
    .await;
    let raw = String::from_utf8_lossy(&drafts[0].1).into_owned();
    let m = mail_parser::MessageParser::default()
        .parse(raw.as_bytes())
        .unwrap();
    assert_eq!(m.subject(), Some("Re: תודה"));
    assert_eq!(
        m.in_reply_to().as_text(),
        thanks["messageId"].as_str(),
        "{raw}"
    );
    assert!(m.to().unwrap().first().unwrap().address().unwrap() == "user2@example.test");
    let html = m.body_html(0).unwrap();
    assert!(
        html.contains("dir=\"rtl\"") && html.contains("אשמח לתשובה"),
        "{html}"
    );

    // user2 answers the question: cleared.
    ms.deliver(
        "user1@example.test",
        &format!(
            "From: user2@example.test\r\nTo: user1@example.test\r\nSubject: Re: תקציב הרבעון\r\n\
             Message-ID: <answer1@example.test>\r\nIn-Reply-To: <{0}>\r\nReferences: <{0}>\r\n\
             Content-Type: text/plain; charset=utf-8\r\n\r\nשלחתי עכשיו.\r\n",
            question["messageId"].as_str().unwrap()
        ),
    );
    let v = eventually(Duration::from_secs(30), "the answer clears it", || async {
        let v = followups(&app, &token).await;
        find(&v, "ended", "תקציב הרבעון").is_some().then_some(v)
    })
    .await;
    assert_eq!(
        find(&v, "ended", "תקציב הרבעון").unwrap()["state"],
        "answered"
    );
    assert!(find(&v, "awaiting", "תקציב הרבעון").is_none());

    // With a key the AI decides, and a nudge to an English mail is asked for in English.
    let (s, _) = app
        .json(
            "POST",
            "/api/settings/claude-api-key",
            Some(&token),
            Some(json!({"apiKey": "sk-ant-test"})),
        )
        .await;
    assert_eq!(s, 200);
    send(
        &app,
        &token,
        "Tuesday",
        "<p>Hi Sam, could we meet on Tuesday at ten?</p>",
    )
    .await;
    let v = eventually(Duration::from_secs(30), "decided by the AI", || async {
        let v = followups(&app, &token).await;
        find(&v, "awaiting", "Tuesday").cloned()
    })
    .await;
    assert_eq!(v["source"], "ai");
    let asked = llm
        .requests()
        .into_iter()
        .find(|r| r.system().contains("You sort the emails"))
        .expect("the decision was asked");
    assert!(
        asked.user().contains("could we meet on Tuesday"),
        "{}",
        asked.user()
    );
    let (s, n) = app
        .json(
            "POST",
            &format!("/api/followups/{}/nudge", v["id"].as_str().unwrap()),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200, "{n}");
    assert_eq!(
        (n["byAi"].as_bool(), n["language"].as_str()),
        (Some(true), Some("english"))
    );
    let r = llm.last();
    assert!(r.system().contains("Write in English"), "{}", r.system());
    assert!(r.user().contains("could we meet on Tuesday"));
}
