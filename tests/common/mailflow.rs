//! Helpers for tests that drive a real mailbox through the API: an app trusting the test
//! server, connecting an account, waiting for sync, listing.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::TestApp;
use super::mailserver::MailServer;

pub const ADMIN_PASSWORD: &str = "correct horse 1";

pub async fn app_with(ms: &MailServer) -> (TestApp, String) {
    let app = TestApp::with_config(&ms.config_toml());
    let token = app.admin_token("dana", ADMIN_PASSWORD).await;
    (app, token)
}

pub async fn connect(app: &TestApp, token: &str, body: Value) -> (u16, Value) {
    app.json("POST", "/api/auth/login", Some(token), Some(body))
        .await
}

/// Polls `check` every 100 ms until it returns Some, or panics after `limit`.
pub async fn eventually<T, F, Fut>(limit: Duration, what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + limit;
    loop {
        if let Some(v) = check().await {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub async fn inbox_total(app: &TestApp, token: &str) -> usize {
    let resp = app
        .send(
            axum::http::Request::get("/api/emails/inbox?perPage=1")
                .header("authorization", token)
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(resp.status(), 200);
    resp.headers()["x-total-count"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

pub async fn wait_synced(app: &TestApp, token: &str) -> Value {
    eventually(Duration::from_secs(120), "the initial sync", || async {
        let (_, v) = app
            .json("GET", "/api/auth/accounts", Some(token), None)
            .await;
        let sync = v["accounts"][0]["sync"].clone();
        (sync["initialSyncDone"] == true && sync["state"] == "idle").then_some(sync)
    })
    .await
}

pub fn fixtures(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

pub async fn list(app: &TestApp, token: &str, folder: &str) -> Vec<Value> {
    let (s, v) = app
        .json(
            "GET",
            &format!("/api/emails/{folder}?perPage=500"),
            Some(token),
            None,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    v.as_array().unwrap().clone()
}

/// An app with the admin signed in and `user`'s mailbox connected and synced.
pub async fn synced_app(ms: &MailServer, user: &str) -> (TestApp, String) {
    let (app, token) = app_with(ms).await;
    let (s, v) = connect(&app, &token, ms.account(user)).await;
    assert_eq!(s, 200, "{v}");
    wait_synced(&app, &token).await;
    (app, token)
}

/// A second user, created by the admin, signed in with `user`'s mailbox connected and synced.
pub async fn second_user(app: &TestApp, admin: &str, ms: &MailServer, user: &str) -> String {
    let (s, v) = app
        .json(
            "POST",
            "/api/admin/users",
            Some(admin),
            Some(serde_json::json!({"username": "yossi", "name": "יוסי", "password": "another pass 2"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let yossi = app.login("yossi", "another pass 2").await;
    let (s, v) = connect(app, &yossi, ms.account(user)).await;
    assert_eq!(s, 200, "{v}");
    wait_synced(app, &yossi).await;
    yossi
}
