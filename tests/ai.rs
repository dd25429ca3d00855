//! AI help against a local provider that speaks the real wire formats (tests/common/llm.rs): the
//! exact requests of each call (headers, model, system prompt, messages, max tokens,
//! temperature) as the AI-training settings shape them, the key sealed at rest, the spec's
//! Hebrew messages for a missing key and an empty body, and every provider failure mapped to a
//! Hebrew reason (401, 429 then success, overload, timeout, malformed answers, no server).
//! Calls about stored mail, the smart-features page and insights: tests/ai_mail.rs.

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

#[tokio::test]
async fn the_key_is_sealed_never_returned_and_required_for_anthropic() {
    let llm = FakeLlm::start().await;
    let (app, token) = app(&llm, "").await;
    let key = "sk-ant-api03-THE-SECRET-KEY-1234567890";

    let (s, v) = app
        .json(
            "GET",
            "/api/settings/claude-api-key/exists",
            Some(&token),
            None,
        )
        .await;
    assert_eq!((s, v), (200, json!({"exists": false})));
    // No key: the spec's message, and the provider is never asked. An empty body is told first.
    let (s, v) = subject(&app, &token, "<p><br></p>").await;
    assert_message((s, &v), 400, messages::AI_BODY_REQUIRED);
    let (s, v) = subject(&app, &token, "<p>נפגשים מחר בעשר</p>").await;
    assert_eq!(s, 400);
    assert_eq!(v["error"], "ai_key_missing");
    assert_eq!(
        v["message"],
        "לא הוגדר מפתח API של Claude. אנא הגדר בהגדרות."
    );
    assert!(llm.requests().is_empty());
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/claude-api-key",
            Some(&token),
            Some(json!({"apiKey": "  "})),
        )
        .await;
    assert_message((s, &v), 400, messages::AI_KEY_BLANK);

    with_key(&app, &token, key).await;
    let (_, v) = app
        .json(
            "GET",
            "/api/settings/claude-api-key/exists",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(v, json!({"exists": true}));
    let (_, settings) = app
        .json("GET", "/api/settings/ai", Some(&token), None)
        .await;
    assert_eq!(settings["keyStored"], true);
    assert_eq!(
        settings["provider"], "anthropic",
        "the server's provider until the user picks one"
    );
    assert_eq!(settings["model"], "");
    assert!(
        !settings.to_string().contains(key),
        "the key is never returned"
    );

    // Sealed at rest: the store file does not hold the key's bytes.
    let db = std::fs::read(app.state.config.storage.data_dir.join("mailclient.redb")).unwrap();
    assert!(
        !db.windows(key.len()).any(|w| w == key.as_bytes()),
        "the key is sealed in the store"
    );

    // The key goes to the provider, in its header, and nowhere else.
    let (s, v) = subject(&app, &token, "<p>נפגשים מחר בעשר</p>").await;
    assert_eq!(
        (s, v["subject"].as_str()),
        (200, Some("פגישת צוות ביום ראשון")),
        "{v}"
    );
    assert_eq!(llm.last().header("x-api-key"), Some(key));

    // Another user has no key; deleting ours brings the message back.
    let (s, _) = app
        .json(
            "POST",
            "/api/admin/users",
            Some(&token),
            Some(json!({"username": "yossi", "name": "יוסי", "password": "another pass 2"})),
        )
        .await;
    assert_eq!(s, 200);
    let yossi = app.login("yossi", "another pass 2").await;
    let (_, v) = app
        .json(
            "GET",
            "/api/settings/claude-api-key/exists",
            Some(&yossi),
            None,
        )
        .await;
    assert_eq!(v, json!({"exists": false}));
    let (s, v) = app
        .json("DELETE", "/api/settings/claude-api-key", Some(&token), None)
        .await;
    assert_eq!((s, &v["exists"]), (200, &json!(false)));
    let (s, v) = subject(&app, &token, "טקסט").await;
    assert_eq!((s, v["error"].as_str()), (400, Some("ai_key_missing")));
}

#[tokio::test]
async fn anthropic_requests_follow_the_training_settings() {
    let llm = FakeLlm::start().await;
    let (app, token) = app(&llm, "").await;
    with_key(&app, &token, "sk-ant-test").await;

    // Defaults (spec 000 §9): professional, auto language, creativity 0.7, 500 words, context,
    // auto-correct. A Hebrew mail asks for a Hebrew reply.
    let (s, v) = app
        .json(
            "POST",
            "/api/claude/smart-reply",
            Some(&token),
            Some(json!({"emailContent": {"from": "דנה <dana@example.test>", "subject": "פגישה", "body": "שלום, אפשר להיפגש מחר בעשר?", "date": "2026-11-22"}})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["reply"], "תודה על ההודעה, מחר בעשר מתאים לי.\n\nבברכה");
    let r = llm.last();
    assert_eq!(r.path, "/v1/messages");
    assert_eq!(r.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.body["model"], "claude-test");
    assert_eq!(r.body["max_tokens"], 1600);
    assert_eq!(r.body["temperature"], 0.7);
    assert_eq!(r.body["messages"].as_array().unwrap().len(), 1);
    assert_eq!(r.body["messages"][0]["role"], "user");
    let system = r.system();
    assert!(
        system.starts_with(mailclient::ai::training::DEFAULT_SYSTEM_PROMPT),
        "{system}"
    );
    assert!(
        system.contains("Write the reply in Hebrew (עברית)"),
        "{system}"
    );
    assert!(system.contains("professional") && system.contains("At most 500 words"));
    assert!(system.contains("spelling and grammar"));
    assert!(
        r.user().contains("שלום, אפשר להיפגש מחר בעשר?") && r.user().contains("Subject: פגישה")
    );

    // Saved settings change the next request.
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/ai-training",
            Some(&token),
            Some(json!({"systemPrompt": "אתה העוזר של דנה.", "tone": "friendly", "language": "english", "creativity": 0.2, "maxLength": 100, "autoCorrect": false})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["settings"]["tone"], "friendly");
    assert_eq!(
        v["settings"]["includeContext"], true,
        "missing fields keep their defaults"
    );
    let (_, got) = app
        .json("GET", "/api/settings/ai-training", Some(&token), None)
        .await;
    assert_eq!(got["maxLength"], 100);
    assert!(got["updatedAt"].is_string());
    let (s, _) = app
        .json(
            "POST",
            "/api/claude/smart-reply",
            Some(&token),
            Some(json!({"emailContent": "שלום, מה שלומך?"})),
        )
        .await;
    assert_eq!(s, 200);
    let r = llm.last();
    assert!(r.system().starts_with("אתה העוזר של דנה.\n\nRules:"));
    assert!(r.system().contains("in English") && r.system().contains("friendly"));
    assert!(!r.system().contains("spelling"));
    assert_eq!(
        (
            r.body["temperature"].as_f64(),
            r.body["max_tokens"].as_u64()
        ),
        (Some(0.2), Some(400))
    );

    // A call's own settings and system prompt win for that call only.
    let (s, _) = app
        .json(
            "POST",
            "/api/claude/improve-email",
            Some(&token),
            Some(json!({"emailContent": "<p>היי, מה קורה עם הדוח?</p>", "style": "concise", "settings": {"language": "auto", "creativity": 0.5}, "customSystemPrompt": "SYSTEM-X"})),
        )
        .await;
    assert_eq!(s, 200);
    let r = llm.last();
    assert!(r.system().starts_with("SYSTEM-X\n\nRules:"));
    assert!(r.system().contains("shorter") && r.system().contains("in Hebrew (עברית)"));
    assert_eq!(r.body["temperature"], 0.5);
    assert!(r.user().contains("היי, מה קורה עם הדוח?") && !r.user().contains("<p>"));
    let (_, got) = app
        .json("GET", "/api/settings/ai-training", Some(&token), None)
        .await;
    assert_eq!(
        (got["creativity"].as_f64(), got["language"].as_str()),
        (Some(0.2), Some("english"))
    );

    // Invalid settings are refused with the field's message.
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/ai-training",
            Some(&token),
            Some(json!({"maxLength": 10})),
        )
        .await;
    assert_message((s, &v), 400, messages::AI_MAX_LENGTH_RANGE);
    // Settings are an object of the fields to change; anything else is refused, nothing saved.
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/ai-training",
            Some(&token),
            Some(json!(["maxLength", 600])),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .starts_with(messages::MALFORMED_JSON),
        "{v}"
    );
    let (_, v) = app
        .json("GET", "/api/settings/ai-training", Some(&token), None)
        .await;
    assert_ne!(v["maxLength"], 600);
}

#[tokio::test]
async fn improve_gives_editor_html_in_each_style_and_subject_is_one_line() {
    let llm = FakeLlm::start().await;
    let (app, token) = app(&llm, "").await;
    with_key(&app, &token, "sk-ant-test").await;
    let mut instructions = Vec::new();
    for style in ["professional", "friendly", "concise"] {
        let (s, v) = app
            .json(
                "POST",
                "/api/claude/improve-email",
                Some(&token),
                Some(json!({"emailContent": "<p>רציתי לשאול אם אפשר להיפגש</p>", "style": style})),
            )
            .await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(
            v["improved"],
            "<p>שלום רב,</p><p>אשמח לקבוע פגישה מחר בשעה עשר.</p><p>בברכה</p>"
        );
        assert_eq!(
            v["improvedText"],
            "שלום רב,\n\nאשמח לקבוע פגישה מחר בשעה עשר.\n\nבברכה"
        );
        instructions.push(llm.last().system());
    }
    assert!(instructions[0].contains("professional"));
    assert!(instructions[1].contains("friendly"));
    assert!(instructions[2].contains("shorter"));
    let (s, v) = app
        .json(
            "POST",
            "/api/claude/improve-email",
            Some(&token),
            Some(json!({"emailContent": "x", "style": "angry"})),
        )
        .await;
    assert_message((s, &v), 400, messages::AI_STYLE_UNKNOWN);

    llm.push(Reply::Text(
        "Subject: \"דוח רבעוני — סיכום\"\nשורה נוספת".into(),
    ));
    let (s, v) = subject(&app, &token, "הנה הדוח הרבעוני").await;
    assert_eq!(
        (s, v["subject"].as_str()),
        (200, Some("דוח רבעוני — סיכום"))
    );
    assert_eq!(llm.last().body["max_tokens"], 100);
}

#[tokio::test]
async fn an_openai_compatible_server_needs_no_key_and_gets_one_when_stored() {
    let llm = FakeLlm::start().await;
    let (app, token) = app(&llm, "").await;
    let (s, v) = app
        .json(
            "PUT",
            "/api/settings/ai",
            Some(&token),
            Some(json!({"provider": "openai", "model": "llama-test", "baseUrl": format!("{}/v1", llm.base)})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["effective"]["provider"], "openai");
    assert_eq!(v["keyRequired"], false);
    assert_eq!(v["defaults"]["model"], "claude-test");

    let (s, v) = subject(&app, &token, "Can we meet on Sunday to plan the release?").await;
    assert_eq!(
        (s, v["subject"].as_str()),
        (200, Some("Team meeting on Sunday")),
        "{v}"
    );
    let r = llm.last();
    assert_eq!(r.path, "/v1/chat/completions");
    assert_eq!(r.header("authorization"), None);
    assert_eq!(r.body["model"], "llama-test");
    assert_eq!(r.body["messages"][0]["role"], "system");
    assert_eq!(r.body["messages"][1]["role"], "user");
    assert_eq!(r.body["max_tokens"], 100);
    assert!(r.system().contains("in English, the language of the email"));

    with_key(&app, &token, "sk-local").await;
    subject(&app, &token, "שלום").await;
    assert_eq!(llm.last().header("authorization"), Some("Bearer sk-local"));

    // The key is bound to the endpoint it was stored for: back on Anthropic it is not there,
    // and it never travels to the other provider.
    let (s, v) = app
        .json(
            "PUT",
            "/api/settings/ai",
            Some(&token),
            Some(json!({"provider": "anthropic"})),
        )
        .await;
    assert_eq!((s, &v["keyStored"]), (200, &json!(false)), "{v}");
    let (s, v) = subject(&app, &token, "שלום").await;
    assert_eq!((s, v["error"].as_str()), (400, Some("ai_key_missing")));
    let (_, v) = app
        .json(
            "GET",
            "/api/settings/claude-api-key/exists",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(v, json!({"exists": false}));
    for bad in [
        "http://user:pw@127.0.0.1:1/v1",
        "http://127.0.0.1:1/v1?token=x",
    ] {
        let (s, v) = app
            .json(
                "PUT",
                "/api/settings/ai",
                Some(&token),
                Some(json!({"provider": "openai", "baseUrl": bad})),
            )
            .await;
        assert_eq!(
            (s, v["message"].as_str()),
            (400, Some(messages::AI_BASE_URL_INVALID)),
            "{bad}"
        );
    }

    let (s, v) = app
        .json(
            "PUT",
            "/api/settings/ai",
            Some(&token),
            Some(json!({"provider": "openai", "baseUrl": "file:///etc"})),
        )
        .await;
    assert_message((s, &v), 400, messages::AI_BASE_URL_INVALID);
}

#[tokio::test]
async fn provider_failures_become_hebrew_reasons() {
    let llm = FakeLlm::start().await;
    let (app, token) = app(&llm, "max_retries = 2").await;
    with_key(&app, &token, "sk-ant-test").await;
    // 401: the key was refused.
    llm.push(Reply::error(
        401,
        "authentication_error",
        "invalid x-api-key",
        None,
    ));
    let (s, v) = reply(&app, &token).await;
    assert_eq!((s, v["error"].as_str()), (502, Some("ai_failed")));
    assert_eq!(
        v["message"].as_str().unwrap(),
        format!(
            "{}: {}",
            messages::AI_SMART_REPLY_FAILED,
            messages::ai_key_refused(401)
        )
    );
    assert_eq!(llm.requests().len(), 1, "a refused key is not retried");

    // 429 then success: retried after Retry-After, the user sees the answer.
    llm.clear();
    llm.push(Reply::error(429, "rate_limit_error", "slow down", Some(0)));
    let (s, v) = reply(&app, &token).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(llm.requests().len(), 2);

    // Overloaded three times: given up after the configured retries.
    llm.clear();
    for _ in 0..3 {
        llm.push(Reply::error(529, "overloaded_error", "Overloaded", Some(0)));
    }
    let (s, v) = reply(&app, &token).await;
    assert_eq!(s, 502);
    assert_reason(&v, messages::AI_OVERLOADED);
    assert_eq!(llm.requests().len(), 3);

    // Another 4xx carries the provider's own words (a wrong model name).
    llm.clear();
    llm.push(Reply::error(
        404,
        "not_found_error",
        "model: claude-test",
        None,
    ));
    let (_, v) = reply(&app, &token).await;
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("(404): model: claude-test"),
        "{v}"
    );

    // Too slow: the timeout of [ai] timeout_secs.
    llm.clear();
    llm.push(Reply::Slow(std::time::Duration::from_secs(4)));
    let (s, v) = reply(&app, &token).await;
    assert_eq!(s, 502);
    assert_reason(&v, &messages::ai_timeout(2));

    // Malformed: not the provider's answer shape, or an empty answer.
    llm.clear();
    llm.push(Reply::Raw("<html>proxy error</html>".into()));
    let (_, v) = reply(&app, &token).await;
    assert_reason(&v, messages::AI_MALFORMED);
    llm.push(Reply::Text("   ".into()));
    let (s, v) = reply(&app, &token).await;
    assert_eq!(s, 502);
    assert_reason(&v, messages::AI_MALFORMED);
}

#[tokio::test]
async fn no_server_at_the_address_is_said_plainly() {
    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let app = TestApp::with_config(&format!("[ai]\nbase_url = \"http://127.0.0.1:{port}\"\n"));
    let token = app.admin_token("dana", PASSWORD).await;
    with_key(&app, &token, "sk-ant-test").await;
    let (s, v) = subject(&app, &token, "שלום").await;
    assert_eq!(s, 502);
    assert_eq!(
        v["message"].as_str().unwrap(),
        format!(
            "{}: {}",
            messages::AI_SUBJECT_FAILED,
            messages::ai_unreachable(&format!("http://127.0.0.1:{port}"))
        )
    );
}

#[tokio::test]
async fn a_stored_key_never_follows_a_changed_address() {
    let llm = FakeLlm::start().await;
    let (app, token) = app(&llm, "").await;
    with_key(&app, &token, "sk-ant-bound").await;
    // Pointed elsewhere (another origin, same provider): the key stays behind.
    let other = FakeLlm::start().await;
    let (s, v) = app
        .json(
            "PUT",
            "/api/settings/ai",
            Some(&token),
            Some(json!({"provider": "anthropic", "baseUrl": other.base})),
        )
        .await;
    assert_eq!((s, &v["keyStored"]), (200, &json!(false)), "{v}");
    let (s, _) = subject(&app, &token, "שלום").await;
    assert_eq!(s, 400);
    assert!(other.requests().is_empty() && llm.requests().is_empty());
    // Back at the address it was stored for, it works again.
    let (_, v) = app
        .json(
            "PUT",
            "/api/settings/ai",
            Some(&token),
            Some(json!({"provider": "anthropic", "baseUrl": ""})),
        )
        .await;
    assert_eq!(v["keyStored"], true);
    let (s, _) = subject(&app, &token, "שלום").await;
    assert_eq!(s, 200);
    assert_eq!(llm.last().header("x-api-key"), Some("sk-ant-bound"));

    // Users who are not admins choose provider and model, not the address.
    let (s, v) = app
        .json(
            "POST",
            "/api/admin/users",
            Some(&token),
            Some(json!({"username": "yossi", "name": "יוסי", "password": "another pass 2"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let yossi_id = v["user"]["id"].clone();
    let yossi = app.login("yossi", "another pass 2").await;
    let (_, v) = app
        .json("GET", "/api/settings/ai", Some(&yossi), None)
        .await;
    assert_eq!(v["baseUrlEditable"], false);
    let (s, v) = app
        .json(
            "PUT",
            "/api/settings/ai",
            Some(&yossi),
            Some(json!({"provider": "openai", "baseUrl": other.base})),
        )
        .await;
    assert_message((s, &v), 403, messages::AI_BASE_URL_ADMIN_ONLY);
    let (s, v) = app
        .json(
            "PUT",
            "/api/settings/ai",
            Some(&yossi),
            Some(json!({"provider": "anthropic", "model": "claude-other"})),
        )
        .await;
    assert_eq!(
        (s, v["effective"]["model"].as_str()),
        (200, Some("claude-other")),
        "{v}"
    );

    // A removed user's sealed key goes with them.
    with_key(&app, &yossi, "sk-ant-yossi").await;
    let id = yossi_id.as_u64().map_or_else(
        || yossi_id.as_str().unwrap_or_default().to_string(),
        |n| n.to_string(),
    );
    let (s, v) = app
        .json(
            "DELETE",
            &format!("/api/admin/users/{id}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let txn = redb::ReadableDatabase::begin_read(app.state.store.db()).unwrap();
    let keys = txn.open_table(mailclient::ai::key::AI_KEYS).unwrap();
    assert_eq!(
        redb::ReadableTableMetadata::len(&keys).unwrap(),
        1,
        "only dana's key is left"
    );
}

#[tokio::test]
async fn retries_follow_the_provider_and_give_up_in_time() {
    let llm = FakeLlm::start().await;
    let (app, token) = app(&llm, "max_retries = 2").await;
    with_key(&app, &token, "sk-ant-test").await;
    // A 500 without Retry-After: tried again after a second.
    llm.push(Reply::error(500, "api_error", "boom", None));
    let started = std::time::Instant::now();
    let (s, _) = reply(&app, &token).await;
    assert_eq!(s, 200);
    assert_eq!(llm.requests().len(), 2);
    assert!(started.elapsed() >= std::time::Duration::from_millis(900));
    // Rate limited every time: the rate-limit reason after 1 + max_retries tries.
    llm.clear();
    for _ in 0..3 {
        llm.push(Reply::error(429, "rate_limit_error", "slow", Some(0)));
    }
    let (s, v) = reply(&app, &token).await;
    assert_eq!(s, 502);
    assert_reason(&v, messages::AI_RATE_LIMITED);
    assert_eq!(llm.requests().len(), 3);
    // "Come back in a minute" is not worth holding the user's request for.
    llm.clear();
    llm.push(Reply::error(429, "rate_limit_error", "slow", Some(60)));
    let (s, _) = reply(&app, &token).await;
    assert_eq!(s, 502);
    assert_eq!(llm.requests().len(), 1);
}

/// Replies in the thread's language (issue 40): whatever the UI's language, the smart reply is
/// asked for in the mail's own (Hebrew, English, Arabic, Russian) and comes back with its
/// direction; a training that names a language wins.
#[tokio::test]
async fn a_reply_is_asked_in_the_language_of_the_mail() {
    let llm = FakeLlm::start().await;
    let (app, token) = app(&llm, "").await;
    with_key(&app, &token, "sk-ant-test").await;
    let mails = [
        (
            "פגישה",
            "שלום, אפשר להיפגש מחר בעשר?",
            "Hebrew (עברית)",
            "hebrew",
            "rtl",
        ),
        (
            "Meeting",
            "Hi, can we meet tomorrow at ten?",
            "English",
            "english",
            "ltr",
        ),
        (
            "اجتماع",
            "مرحبا، هل يمكننا أن نلتقي غدا في العاشرة؟",
            "Arabic (العربية)",
            "arabic",
            "rtl",
        ),
        (
            "Встреча",
            "Привет, можем встретиться завтра в десять?",
            "Russian (русский)",
            "russian",
            "ltr",
        ),
    ];
    for (subject, body, name, language, dir) in mails {
        let (s, v) = app
            .json(
                "POST",
                "/api/claude/smart-reply",
                Some(&token),
                Some(json!({"emailContent": {"from": "x <x@example.test>", "subject": subject, "body": body}})),
            )
            .await;
        assert_eq!(s, 200, "{v}");
        let system = llm.last().system();
        assert!(
            system.contains(&format!(
                "Write the reply in {name}, the language of the email."
            )),
            "{language}: {system}"
        );
        assert_eq!(
            (v["language"].as_str(), v["dir"].as_str()),
            (Some(language), Some(dir)),
            "{v}"
        );
    }
    // The training names English: an Arabic mail is answered in English.
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/ai-training",
            Some(&token),
            Some(json!({"language": "english"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (_, v) = app
        .json(
            "POST",
            "/api/claude/smart-reply",
            Some(&token),
            Some(json!({"emailContent": {"from": "x <x@example.test>", "subject": "اجتماع", "body": "مرحبا، هل يمكننا أن نلتقي غدا؟"}})),
        )
        .await;
    assert!(llm.last().system().contains("Write the reply in English."));
    assert_eq!(v["dir"], "ltr", "{v}");
}
