//! The per-user limits of issue 37 (`[limits]`; tests/api/shell.rs checks the first ones, AI help,
//! search and "sync now"):
//!
//! - a rule's preview and "run now", the spam check's explanation and contacts imports are
//!   rate-limited per user, with a Hebrew 429 naming which;
//! - one AI budget per user for every AI call (`ai_per_day`), on a real Dovecot + Postfix with
//!   the local provider of tests/common/llm.rs: the background work (here the auto-reply's
//!   drafts for strangers' mail) takes from the same budget as the pages' AI help, so mail from
//!   strangers cannot spend more of the household's key than the day allows. Past it, nothing
//!   reaches the provider: the auto-reply records the mail with the Hebrew reason, and a page's
//!   call is answered 429 in Hebrew.

mod common;

use std::time::Duration;

use common::TestApp;
use common::llm::FakeLlm;
use common::mailflow::{ADMIN_PASSWORD, connect, eventually, wait_synced};
use common::mailserver::MailServer;
use serde_json::{Value, json};
use time::format_description::well_known::Rfc2822;

#[tokio::test]
async fn rule_runs_spam_explanations_and_contact_imports_are_limited_per_user() {
    let app = TestApp::with_config(
        "[limits]\nrules_per_minute = 2\nspam_debug_per_minute = 1\ncontacts_import_per_minute = 1\n",
    );
    let dana = app.admin_token("dana", "correct horse").await;
    let vcard = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:x\r\nEMAIL:x@example.test\r\nEND:VCARD\r\n";
    // (method, path, body, calls allowed, the message's start). No such rule or mail here:
    // each call still took its turn.
    for (method, path, body, allowed, message) in [
        (
            "POST",
            "/api/rules/1/preview",
            Some(json!({})),
            2,
            "יותר מדי הרצות של כללים.",
        ),
        // Preview and "run now" share one bucket.
        (
            "POST",
            "/api/rules/1/run",
            Some(json!({})),
            0,
            "יותר מדי הרצות של כללים.",
        ),
        (
            "GET",
            "/api/spam/debug/1",
            None,
            1,
            "יותר מדי בקשות להסבר בדיקת הספאם.",
        ),
    ] {
        common::assert_limited(&app, &dana, (method, path, body), allowed, message).await;
    }
    let import = || {
        axum::http::Request::post("/api/contacts/import")
            .header("authorization", dana.as_str())
            .header("content-type", "text/vcard")
            .body(axum::body::Body::from(vcard))
            .unwrap()
    };
    assert_eq!(app.send(import()).await.status(), 200);
    let refused = app.send(import()).await;
    assert_eq!(refused.status(), 429);
    let v: Value = serde_json::from_str(&common::body_text(refused).await).unwrap();
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .starts_with("יותר מדי ייבואים של אנשי קשר."),
        "{v}"
    );
}

fn mail(from: &str, subject: &str, id: &str) -> String {
    let date = time::OffsetDateTime::now_utc().format(&Rfc2822).unwrap();
    format!(
        "From: {from}\r\nTo: user1@example.test\r\nSubject: {subject}\r\nMessage-ID: <{id}@example.test>\r\n\
         Date: {date}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nשלום, אפשר לקבוע פגישה ביום שלישי?\r\n"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_background_and_the_pages_share_one_daily_ai_budget() {
    let ms = MailServer::start();
    let llm = FakeLlm::start().await;
    // An OpenAI-compatible provider: no key to store.
    let app = TestApp::with_config(&format!(
        "{}\n[ai]\nprovider = \"openai\"\nbase_url = \"{}/v1\"\ntimeout_secs = 5\n\
         [limits]\nai_per_day = 2\n",
        ms.config_toml(),
        llm.base
    ));
    let token = app.admin_token("dana", ADMIN_PASSWORD).await;
    app.set_midday_zone(&token).await;
    let (s, v) = connect(&app, &token, ms.account("user1")).await;
    assert_eq!(s, 200, "{v}");
    wait_synced(&app, &token).await;
    let (s, v) = app
        .json(
            "POST",
            "/api/auto-reply/settings",
            Some(&token),
            Some(json!({"autoReplyEnabled": true, "autoReplyCheckInterval": 0.1})),
        )
        .await;
    assert_eq!(s, 200, "{v}");

    // Three strangers write: the budget of the day drafts two answers.
    for (i, from) in ["a@strangers.test", "b@strangers.test", "c@strangers.test"]
        .iter()
        .enumerate()
    {
        ms.deliver(
            "user1@example.test",
            &mail(from, &format!("stranger {i}"), &format!("s{i}")),
        );
    }
    let items: Vec<Value> = eventually(Duration::from_secs(120), "three decisions", || async {
        let (_, v) = app
            .json("GET", "/api/auto-reply/activity", Some(&token), None)
            .await;
        let items = v["items"].as_array().cloned().unwrap_or_default();
        (items.len() >= 3).then_some(items)
    })
    .await;
    let answered = items.iter().filter(|i| i["reason"] == "answered").count();
    let spent: Vec<&Value> = items.iter().filter(|i| i["reason"] == "failed").collect();
    assert_eq!((answered, spent.len()), (2, 1), "{items:?}");
    assert!(
        spent[0]["detail"]
            .as_str()
            .unwrap()
            .contains("מכסת בקשות ה-AI היומית"),
        "{:?}",
        spent[0]
    );
    assert_eq!(
        llm.requests().len(),
        2,
        "the provider was asked past the budget"
    );

    // The pages' AI help is out of the same budget: 429 in Hebrew, nothing sent.
    let (s, v) = app
        .json(
            "POST",
            "/api/claude/generate-subject",
            Some(&token),
            Some(json!({"emailBody": "שלום"})),
        )
        .await;
    assert_eq!((s, v["error"].as_str()), (429, Some("rate_limited")), "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .starts_with("מכסת בקשות ה-AI היומית"),
        "{v}"
    );
    assert!(v["retryAfterSecs"].as_u64().unwrap() > 60, "{v}");
    assert_eq!(llm.requests().len(), 2);
}
