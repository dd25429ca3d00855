//! What an agent and an invitation leave in the store of a user (tests/forget.rs checks none
//! of it survives the user): a token of the agent API, one call of it logged, and an
//! invitation delivered to user2 and shown.

use std::time::Duration;

use super::TestApp;
use super::mailflow::eventually;
use super::mailserver::MailServer;
use serde_json::json;

/// Makes `user` (signed in, with user2's mailbox synced) an agent token, calls `/mcp` with it
/// once, and opens an invitation delivered to the mailbox.
pub async fn leave_traces(app: &TestApp, ms: &MailServer, user: &str) {
    let (s, v) = app
        .json(
            "POST",
            "/api/mcp/tokens",
            Some(user),
            Some(json!({"name": "הסוכן של יוסי", "scopes": ["read"]})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let agent = app
        .send(
            axum::http::Request::post("/mcp")
                .header(
                    "authorization",
                    format!("Bearer {}", v["secret"].as_str().unwrap()),
                )
                .header("content-type", "application/json")
                .body(axum::body::Body::from(
                    r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
                ))
                .unwrap(),
        )
        .await;
    assert_eq!(agent.status(), 200);
    ms.deliver(
        "user2@example.test",
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/invites/google-request.eml"
        ))
        .unwrap(),
    );
    let invited = eventually(Duration::from_secs(30), "his invitation", || async {
        let (_, v) = app.json("GET", "/api/emails/all", Some(user), None).await;
        v.as_array()?
            .iter()
            .find(|m| m["messageId"] == "calendar-7c1f9a2e-0001@google.com")
            .cloned()
    })
    .await;
    let (s, v) = app
        .json(
            "GET",
            &format!("/api/invites/{}", invited["id"].as_str().unwrap()),
            Some(user),
            None,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert!(v["invitation"].is_object(), "{v}");
}
