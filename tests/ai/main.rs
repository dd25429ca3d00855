//! AI help against a local provider that speaks the real wire formats (tests/common/llm.rs): the
//! exact requests of each call (headers, model, system prompt, messages, max tokens,
//! temperature) as the AI-training settings shape them, the key sealed at rest, the spec's
//! Hebrew messages for a missing key and an empty body, and every provider failure mapped to a
//! Hebrew reason (401, 429 then success, overload, timeout, malformed answers, no server).
//! Calls about stored mail, the smart-features page and insights: tests/ai_mail.rs.

#[path = "../common/mod.rs"]
mod common;

use common::TestApp;
use common::llm::{FakeLlm, Reply};
use mailclient::messages;
use serde_json::{Value, json};

const PASSWORD: &str = "correct horse 1";

async fn app(llm: &FakeLlm, extra: &str) -> (TestApp, String) {
    let app = TestApp::with_config(&format!(
        "[ai]\nbase_url = \"{}\"\nmodel = \"claude-test\"\ntimeout_secs = 2\n{extra}\n",
        llm.base
    ));
    let token = app.admin_token("dana", PASSWORD).await;
    (app, token)
}

async fn with_key(app: &TestApp, token: &str, key: &str) {
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/claude-api-key",
            Some(token),
            Some(json!({"apiKey": key})),
        )
        .await;
    assert_eq!((s, &v["exists"]), (200, &json!(true)), "{v}");
}

/// The status and the Hebrew message of an answer.
#[track_caller]
fn assert_message((status, v): (u16, &Value), want_status: u16, message: &str) {
    assert_eq!(
        (status, v["message"].as_str()),
        (want_status, Some(message)),
        "{v}"
    );
}

/// The failure's message ends with this reason.
fn assert_reason(v: &Value, reason: &str) {
    let message = v["message"].as_str().unwrap_or_default();
    assert!(
        message.ends_with(reason),
        "{message} should end with {reason}"
    );
}

async fn reply(app: &TestApp, token: &str) -> (u16, Value) {
    app.json(
        "POST",
        "/api/claude/smart-reply",
        Some(token),
        Some(json!({"emailContent": "שלום"})),
    )
    .await
}

async fn subject(app: &TestApp, token: &str, body: &str) -> (u16, Value) {
    app.json(
        "POST",
        "/api/claude/generate-subject",
        Some(token),
        Some(json!({"emailBody": body})),
    )
    .await
}

mod failures;
mod key;
mod requests;
