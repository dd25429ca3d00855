//! Answers without a session: health, the JSON 404 and 400 shapes, protected routes, first run.

use super::*;

#[tokio::test]
async fn health_answers_without_auth() {
    let app = TestApp::new();
    let (s, v) = app.json("GET", "/api/health", None, None).await;
    assert_eq!(s, 200);
    assert_eq!(v["status"], "ok");
    // Nothing that tells a stranger which version runs here.
    for field in ["version", "schemaVersion", "webBuild"] {
        assert!(
            v.get(field).is_none(),
            "{field} for an anonymous caller: {v}"
        );
    }
    // A signed-in user sees them.
    let token = app.admin_token("dana", "admin-password-1").await;
    let (s, v) = app.json("GET", "/api/health", Some(&token), None).await;
    assert_eq!(s, 200);
    assert_eq!(v["schemaVersion"], mailclient::schema::SCHEMA_VERSION);
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
}

#[tokio::test]
async fn unknown_api_path_is_json_404() {
    let app = TestApp::new();
    for path in ["/api/nope", "/api", "/api/app/nothing/here"] {
        let (s, v) = app.json("GET", path, None, None).await;
        assert_eq!(s, 404, "{path}");
        assert_eq!(v["success"], false);
        assert_eq!(v["error"], "not_found");
        assert!(v["message"].as_str().unwrap().contains("לא נמצאה"));
    }
}

#[tokio::test]
async fn malformed_json_is_400_json() {
    let app = TestApp::new();
    let req = Request::post("/api/app/login")
        .header("content-type", "application/json")
        .body(Body::from("{\"username\": "))
        .unwrap();
    let resp = app.send(req).await;
    assert_eq!(resp.status(), 400);
    let v: serde_json::Value = serde_json::from_str(&body_text(resp).await).unwrap();
    assert_eq!(v["error"], "bad_request");
    assert!(v["message"].as_str().unwrap().contains("JSON"));

    // Wrong field types are the same shape.
    let (s, v) = app
        .json(
            "POST",
            "/api/app/login",
            None,
            Some(json!({"username": 5, "password": []})),
        )
        .await;
    assert_eq!(s, 400);
    assert_eq!(v["error"], "bad_request");

    // No JSON content type.
    let req = Request::post("/api/app/login")
        .body(Body::from("username=a"))
        .unwrap();
    let resp = app.send(req).await;
    assert_eq!(resp.status(), 415);
    assert!(body_text(resp).await.contains("\"success\":false"));
}

#[tokio::test]
async fn protected_routes_need_a_token() {
    let app = TestApp::new();
    for (method, path) in [("GET", "/api/app/me"), ("POST", "/api/app/logout")] {
        for token in [None, Some("garbage"), Some("Bearer garbage"), Some("")] {
            let (s, v) = app.json(method, path, token, None).await;
            assert_eq!(s, 401, "{method} {path} {token:?}");
            assert_eq!(v["error"], "unauthorized");
            assert_eq!(v["message"], "עליך להתחבר תחילה");
        }
    }
}

#[tokio::test]
async fn first_run_setup_needs_the_token_and_works_once() {
    let app = TestApp::new();
    let (_, v) = app.json("GET", "/api/setup/status", None, None).await;
    assert_eq!(v["needsSetup"], true);
    let token = app
        .state
        .service::<mailclient::auth::setup::SetupGate>()
        .token()
        .unwrap();
    assert!(token.len() >= 32);

    let body =
        |t: &str| json!({"token": t, "username": "dana", "name": "דנה", "password": "long enough"});
    for bad in ["", "wrong", &token[..token.len() - 1]] {
        let (s, v) = app
            .json("POST", "/api/setup/admin", None, Some(body(bad)))
            .await;
        assert_eq!(s, 403, "{bad}");
        assert_eq!(v["error"], "forbidden");
    }
    // Validation happens before the token is spent.
    let (s, v) = app
        .json(
            "POST",
            "/api/setup/admin",
            None,
            Some(json!({"token": token, "username": "dana", "password": "short"})),
        )
        .await;
    assert_eq!(s, 400);
    assert_eq!(v["message"], "הסיסמה חייבת להכיל לפחות 8 תווים");

    let (s, v) = app
        .json("POST", "/api/setup/admin", None, Some(body(&token)))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["user"]["role"], "admin");
    assert_eq!(v["user"]["name"], "דנה");
    assert!(v["user"].get("passwordHash").is_none() && v["user"].get("password_hash").is_none());

    let (_, v) = app.json("GET", "/api/setup/status", None, None).await;
    assert_eq!(v["needsSetup"], false);
    assert!(
        app.state
            .service::<mailclient::auth::setup::SetupGate>()
            .token()
            .is_none()
    );
    let (s, _) = app
        .json("POST", "/api/setup/admin", None, Some(body(&token)))
        .await;
    assert_eq!(s, 409);
}
