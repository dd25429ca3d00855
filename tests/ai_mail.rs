//! AI help about the user's real mail (a private Dovecot + Postfix, and the local provider of
//! tests/common/llm.rs): a smart reply to a stored Hebrew mail carries its thread's earlier mail
//! and asks for Hebrew; the smart-features calls (summary, three replies, compose) answer from
//! validated JSON, and a malformed answer is a clear error; insights are computed from the mail
//! that is really there (received, a sent reply and its delay, the backlog, the senders).

mod common;

use std::time::Duration;

use common::TestApp;
use common::llm::{FakeLlm, Reply};
use common::mailflow::{ADMIN_PASSWORD, connect, eventually, list, second_user, wait_synced};
use common::mailserver::MailServer;
use mailclient::messages;
use serde_json::{Value, json};
use time::format_description::well_known::Rfc2822;

/// The Date of a mail `hours_ago` hours before `now` (Unix seconds).
fn date(now: i64, hours_ago: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(now - hours_ago * 3600)
        .unwrap()
        .format(&Rfc2822)
        .unwrap()
}

/// Asks an AI route about one stored mail.
async fn about(app: &TestApp, token: &str, path: &str, id: &Value) -> (u16, Value) {
    app.json("POST", path, Some(token), Some(json!({ "emailId": id })))
        .await
}

async fn found(app: &TestApp, token: &str, mid: &str) -> Value {
    eventually(Duration::from_secs(30), mid, || async {
        list(app, token, "inbox")
            .await
            .into_iter()
            .find(|m| m["messageId"] == mid)
    })
    .await
}

#[tokio::test]
async fn ai_help_about_stored_mail_and_insights_from_it() {
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
    let (s, _) = app
        .json(
            "POST",
            "/api/settings/claude-api-key",
            Some(&token),
            Some(json!({"apiKey": "sk-ant-test"})),
        )
        .await;
    assert_eq!(s, 200);

    // A Hebrew thread from user2, a contact (a stranger's mail gets no earlier mails as context:
    // tests/autoreply.rs): a question, then a follow-up. Their dates are counted from one
    // `now`, which the insights' busiest day below is worked out from too.
    let (s, v) = app
        .json(
            "POST",
            "/api/contacts",
            Some(&token),
            Some(json!({"name": "דנה", "email": "user2@example.test"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    ms.deliver(
        "user1@example.test",
        &format!(
            "From: =?utf-8?B?15PXoNeU?= <user2@example.test>\r\nTo: user1@example.test\r\n\
             Subject: =?utf-8?B?16rXm9eg15XXnyDXlNeo15HXoteV158=?=\r\nMessage-ID: <q1@example.test>\r\n\
             Date: {}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nמתי נוח לך לשבת על תכנון הרבעון?\r\n",
            date(now, 5)
        ),
    );
    ms.deliver(
        "user1@example.test",
        &format!(
            "From: =?utf-8?B?15PXoNeU?= <user2@example.test>\r\nTo: user1@example.test\r\n\
             Subject: =?utf-8?B?UmU6INeq15vXoNeV158g15TXqNeR16LXldef?=\r\nMessage-ID: <q2@example.test>\r\n\
             In-Reply-To: <q1@example.test>\r\nReferences: <q1@example.test>\r\nDate: {}\r\n\
             Content-Type: text/html; charset=utf-8\r\n\r\n<p>אולי מחר בעשר? צריך גם לאשר את התקציב.</p>\r\n",
            date(now, 2)
        ),
    );
    let first = found(&app, &token, "q1@example.test").await;
    let second = found(&app, &token, "q2@example.test").await;

    // Smart reply to the follow-up: the earlier mail is context, the answer is asked in Hebrew.
    let (s, v) = about(&app, &token, "/api/claude/smart-reply", &second["id"]).await;
    assert_eq!(s, 200, "{v}");
    assert!(v["reply"].as_str().unwrap().contains("מחר בעשר"));
    let r = llm.last();
    assert!(
        r.system().contains("Write the reply in Hebrew (עברית)"),
        "{}",
        r.system()
    );
    let user = r.user();
    assert!(
        user.starts_with("Earlier messages in this conversation"),
        "{user}"
    );
    assert!(user.contains("מתי נוח לך לשבת על תכנון הרבעון?"));
    assert!(user.contains("אולי מחר בעשר? צריך גם לאשר את התקציב.") && !user.contains("<p>"));
    assert!(user.contains("on behalf of the user (user1@example.test)"));
    assert!(user.contains("From: דנה <user2@example.test>"), "{user}");
    // Without context, only the mail itself.
    let (s, _) = app
        .json(
            "POST",
            "/api/claude/smart-reply",
            Some(&token),
            Some(json!({"emailId": second["id"], "settings": {"includeContext": false}})),
        )
        .await;
    assert_eq!(s, 200);
    assert!(!llm.last().user().contains("Earlier messages"));
    // Another user of this server, with their own mailbox and key, cannot ask about it.
    let yossi = second_user(&app, &token, &ms, "user3").await;
    let (s, _) = app
        .json(
            "POST",
            "/api/settings/claude-api-key",
            Some(&yossi),
            Some(json!({"apiKey": "sk-ant-yossi"})),
        )
        .await;
    assert_eq!(s, 200);
    for path in [
        "/api/claude/smart-reply",
        "/api/smart/summary",
        "/api/smart/replies",
    ] {
        let (s, v) = about(&app, &yossi, path, &second["id"]).await;
        assert_eq!(s, 404, "{path}: {v}");
    }

    // Summary, with its JSON validated; a malformed answer is a clear 502.
    let (s, v) = about(&app, &token, "/api/smart/summary", &second["id"]).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["sentiment"].as_str(), v["priority"].as_str()),
        (Some("positive"), Some("high"))
    );
    assert!(v["summary"].as_str().unwrap().contains("פגישה"));
    assert_eq!(llm.last().body["temperature"], 0.2);
    assert!(llm.last().system().contains("the summary in Hebrew"));
    for bad in [
        "I think this email is about a meeting.",
        r#"{"summary": "x", "sentiment": "happy", "priority": "high"}"#,
    ] {
        llm.push(Reply::Text(bad.into()));
        let (s, v) = about(&app, &token, "/api/smart/summary", &second["id"]).await;
        assert_eq!(s, 502);
        assert_eq!(
            v["message"].as_str().unwrap(),
            format!(
                "{}: {}",
                messages::AI_SUMMARY_FAILED,
                messages::AI_MALFORMED
            )
        );
    }

    // Three suggested replies; fewer is malformed.
    let (s, v) = about(&app, &token, "/api/smart/replies", &first["id"]).await;
    assert_eq!(s, 200, "{v}");
    let replies = v["replies"].as_array().unwrap();
    assert_eq!(replies.len(), 3);
    assert!(
        replies
            .iter()
            .all(|r| r["label"].is_string() && r["text"].is_string())
    );
    llm.push(Reply::Text(
        r#"{"replies": [{"label": "כן", "text": "כן"}]}"#.into(),
    ));
    let (s, v) = about(&app, &token, "/api/smart/replies", &first["id"]).await;
    assert_eq!((s, v["error"].as_str()), (502, Some("ai_failed")));

    // Smart compose from a short prompt.
    let (s, v) = app
        .json(
            "POST",
            "/api/smart/compose",
            Some(&token),
            Some(json!({"prompt": "  "})),
        )
        .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some(messages::AI_PROMPT_REQUIRED))
    );
    let (s, v) = app
        .json(
            "POST",
            "/api/smart/compose",
            Some(&token),
            Some(json!({"prompt": "בקשה מהצוות לשלוח דוחות עד יום חמישי"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert!(!v["content"].as_str().unwrap().is_empty());
    assert!(
        llm.last()
            .user()
            .contains("בקשה מהצוות לשלוח דוחות עד יום חמישי")
    );

    // Insights from the real mail: mark the question as needing a reply, answer the follow-up.
    let (s, v) = app
        .json(
            "PUT",
            &format!("/api/emails/{}/status", first["id"].as_str().unwrap()),
            Some(&token),
            Some(json!({"status": "needs_reply"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/send",
            Some(&token),
            Some(json!({"to": ["user2@example.test"], "subject": "Re: תכנון הרבעון", "body": "<p>מחר בעשר מתאים</p>", "originalId": second["id"]})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    eventually(Duration::from_secs(30), "the reply in Sent", || async {
        list(&app, &token, "sent")
            .await
            .into_iter()
            .find(|m| m["subject"] == "Re: תכנון הרבעון")
    })
    .await;
    // The original is marked answered once the reply is out (the answered share is then ½).
    let i = eventually(Duration::from_secs(30), "the original answered", || async {
        let (s, i) = app
            .json("GET", "/api/smart/insights?tz=120", Some(&token), None)
            .await;
        assert_eq!(s, 200, "{i}");
        (i["replyRate"].as_f64() == Some(0.5)).then_some(i)
    })
    .await;
    assert_eq!(i["periodDays"], 30);
    assert_eq!(i["received"], 2);
    assert_eq!(i["sent"], 1);
    assert_eq!(i["replyTime"]["samples"], 1);
    let hours = i["replyTime"]["medianHours"].as_f64().unwrap();
    assert!(
        (1.5..=2.5).contains(&hours),
        "replied about two hours after: {hours}"
    );
    assert_eq!(i["needsReply"]["count"], 1);
    assert_eq!(i["needsReply"]["oldestDays"], 0);
    assert_eq!(
        i["busiestSenders"][0],
        json!({"address": "user2@example.test", "name": "דנה", "count": 2})
    );
    // The two mails' weekdays in Israel (UTC+2 here): the same day, or one each (the earlier
    // weekday number wins a tie). From the `now` their dates were made from: read again here,
    // the two-hour-old mail's day would turn (in UTC+2) at 00:00 UTC, the other's at 03:00,
    // since they were made.
    let weekday = |hours_ago: i64| {
        let t = now - hours_ago * 3600 + 7200;
        (t.div_euclid(86_400) + 4).rem_euclid(7)
    };
    let (a, b) = (weekday(5), weekday(2));
    let expected = if a == b {
        json!({"weekday": a, "count": 2})
    } else {
        json!({"weekday": a.min(b), "count": 1})
    };
    assert_eq!(i["busiestDay"], expected);
}
