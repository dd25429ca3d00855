//! Provider failures as Hebrew reasons, a missing server, and retries within time.

use super::*;

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
