//! The HTTP API through `app()` with `oneshot`: error shapes, authentication, first run,
//! sign-in, throttling, security headers and the embedded web app.

mod common;

use axum::body::Body;
use axum::http::Request;
use common::{TestApp, body_text};
use serde_json::json;

const HEBREW_BAD_LOGIN: &str = "שם משתמש או סיסמה שגויים";

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

#[tokio::test]
async fn login_me_logout() {
    let app = TestApp::new();
    let token = app.admin_token("dana", "correct horse").await;
    assert!(token.len() >= 32, "at least 128 bits");

    let (s, v) = app.json("GET", "/api/app/me", Some(&token), None).await;
    assert_eq!(s, 200);
    assert_eq!(v["user"]["username"], "dana");
    // "Bearer" form works too.
    let (s, _) = app
        .json("GET", "/api/app/me", Some(&format!("Bearer {token}")), None)
        .await;
    assert_eq!(s, 200);

    // Usernames are not case-sensitive.
    let other = app.login("DANA", "correct horse").await;
    assert_ne!(other, token);

    let (s, v) = app
        .json("POST", "/api/app/logout", Some(&token), None)
        .await;
    assert_eq!(s, 200);
    assert_eq!(v["success"], true);
    let (s, _) = app.json("GET", "/api/app/me", Some(&token), None).await;
    assert_eq!(s, 401, "a revoked token stops working");
    let (s, _) = app.json("GET", "/api/app/me", Some(&other), None).await;
    assert_eq!(s, 200, "other sessions are unaffected");
}

#[tokio::test]
async fn wrong_credentials_get_the_spec_message() {
    let app = TestApp::new();
    app.admin_token("dana", "correct horse").await;
    for (u, p) in [("dana", "wrong password"), ("nobody", "correct horse")] {
        let (s, v) = app
            .json(
                "POST",
                "/api/app/login",
                None,
                Some(json!({"username": u, "password": p})),
            )
            .await;
        assert_eq!(s, 401);
        assert_eq!(v["success"], false);
        assert_eq!(v["message"], HEBREW_BAD_LOGIN);
        assert!(v.get("token").is_none());
    }
    let (s, v) = app
        .json(
            "POST",
            "/api/app/login",
            None,
            Some(json!({"username": "dana"})),
        )
        .await;
    assert_eq!(s, 400);
    assert_eq!(v["message"], "נא למלא שם משתמש וסיסמה");
}

#[tokio::test]
async fn repeated_failures_are_throttled() {
    let app = TestApp::with_config("[auth]\nmax_failed_logins = 3\nlockout_minutes = 2\n");
    app.admin_token("dana", "correct horse").await;
    let attempt = |p: &'static str| {
        app.json(
            "POST",
            "/api/app/login",
            None,
            Some(json!({"username": "dana", "password": p})),
        )
    };
    for _ in 0..3 {
        assert_eq!(attempt("wrong password").await.0, 401);
    }
    // Locked: even the right password is refused, with a Hebrew message and Retry-After.
    let (s, v) = attempt("correct horse").await;
    assert_eq!(s, 429);
    assert_eq!(v["error"], "too_many_attempts");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("נסה שוב בעוד 2 דקות"),
        "{v}"
    );
    assert!(v["retryAfterSecs"].as_u64().unwrap() > 60);

    let req = Request::post("/api/app/login")
        .header("content-type", "application/json")
        .body(Body::from(
            json!({"username": "dana", "password": "x"}).to_string(),
        ))
        .unwrap();
    let resp = app.send(req).await;
    assert_eq!(resp.status(), 429);
    assert!(resp.headers().contains_key("retry-after"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_burst_of_concurrent_guesses_is_counted_before_hashing() {
    let app = TestApp::with_config(
        "[auth]
max_failed_logins = 3
lockout_minutes = 2
",
    );
    app.admin_token("dana", "correct horse").await;
    // Twelve wrong logins at once: each attempt counts when it starts, so only the first three
    // reach the (slow, memory-hungry) password hash; the rest are refused at once.
    let burst = (0..12).map(|_| {
        app.json(
            "POST",
            "/api/app/login",
            None,
            Some(json!({"username": "dana", "password": "wrong password"})),
        )
    });
    let statuses: Vec<u16> = futures_util::future::join_all(burst)
        .await
        .into_iter()
        .map(|(s, _)| s)
        .collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == 401).count(),
        3,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 429).count(),
        9,
        "{statuses:?}"
    );
}

/// A login as it reaches the server from TCP peer `peer`, with `X-Forwarded-For: xff` if given.
async fn login_from(app: &TestApp, peer: &str, xff: Option<&str>, password: &str) -> u16 {
    let peer: std::net::SocketAddr = format!("{peer}:40000").parse().unwrap();
    let mut req = Request::post("/api/app/login")
        .header("content-type", "application/json")
        .extension(axum::extract::ConnectInfo(peer));
    if let Some(x) = xff {
        req = req.header("x-forwarded-for", x);
    }
    let body = json!({"username": "dana", "password": password}).to_string();
    app.send(req.body(Body::from(body)).unwrap())
        .await
        .status()
        .as_u16()
}

#[tokio::test]
async fn behind_a_trusted_proxy_a_strangers_failures_do_not_lock_the_owner_out() {
    let app = TestApp::with_config(
        "[server]\ntrusted_proxies = [\"127.0.0.1\"]\n[auth]\nmax_failed_logins = 3\n",
    );
    app.admin_token("dana", "correct horse").await;
    // Everyone comes through the proxy on 127.0.0.1; the stranger guesses the owner's name.
    for _ in 0..3 {
        let s = login_from(&app, "127.0.0.1", Some("198.51.100.7"), "wrong password").await;
        assert_eq!(s, 401);
    }
    assert_eq!(
        login_from(&app, "127.0.0.1", Some("198.51.100.7"), "correct horse").await,
        429
    );
    // The owner, at home, still signs in through the same proxy.
    assert_eq!(
        login_from(&app, "127.0.0.1", Some("192.168.1.20"), "correct horse").await,
        200
    );
    // And straight from another address too.
    assert_eq!(
        login_from(&app, "192.168.1.21", None, "correct horse").await,
        200
    );
}

#[tokio::test]
async fn forwarded_for_from_an_untrusted_peer_is_ignored() {
    let app = TestApp::with_config("[auth]\nmax_failed_logins = 3\n");
    app.admin_token("dana", "correct horse").await;
    // A new made-up address each time: the peer is what counts, so the fourth is refused.
    for n in 0..3 {
        let xff = format!("10.9.9.{n}");
        let s = login_from(&app, "203.0.113.5", Some(&xff), "wrong password").await;
        assert_eq!(s, 401);
    }
    assert_eq!(
        login_from(&app, "203.0.113.5", Some("10.9.9.99"), "correct horse").await,
        429
    );
}

#[tokio::test]
async fn ai_search_and_refresh_are_rate_limited_per_user() {
    let app = TestApp::with_config(
        "[limits]\nai_per_minute = 2\nsearch_per_minute = 3\nrefresh_per_minute = 1\n",
    );
    let dana = app.admin_token("dana", "correct horse").await;
    for (method, path, body, allowed, message) in [
        ("GET", "/api/search?q=x", None, 3, "יותר מדי חיפושים."),
        (
            "POST",
            "/api/claude/generate-subject",
            Some(json!({"emailBody": "שלום"})),
            2,
            "יותר מדי בקשות לעזרת AI.",
        ),
        (
            "POST",
            "/api/smart/compose",
            Some(json!({"description": "פגישה"})),
            0, // the AI calls share one bucket
            "יותר מדי בקשות לעזרת AI.",
        ),
        (
            "POST",
            "/api/sync/refresh",
            None,
            1,
            "יותר מדי בקשות סנכרון.",
        ),
    ] {
        // The calls themselves may fail (no AI key here): each still took its turn.
        common::assert_limited(&app, &dana, (method, path, body), allowed, message).await;
    }
    // Another user has buckets of their own; other calls are not limited.
    let (s, _) = app
        .json(
            "POST",
            "/api/admin/users",
            Some(&dana),
            Some(json!({"username": "yossi", "password": "password-2"})),
        )
        .await;
    assert_eq!(s, 200);
    let yossi = app.login("yossi", "password-2").await;
    let (s, _) = app.json("GET", "/api/search?q=x", Some(&yossi), None).await;
    assert_eq!(s, 200);
    let (s, _) = app.json("GET", "/api/app/me", Some(&dana), None).await;
    assert_eq!(s, 200);
    // Without a session: 401, not a bucket.
    let (s, _) = app.json("GET", "/api/search?q=x", None, None).await;
    assert_eq!(s, 401);
}

#[tokio::test]
async fn a_request_past_the_timeout_is_answered_503_in_hebrew() {
    let llm = common::llm::FakeLlm::start().await;
    let app = TestApp::with_config(&format!(
        "[server]\nrequest_timeout_secs = 5\n[ai]\nprovider = \"openai\"\nbase_url = \"{}/v1\"\ntimeout_secs = 60\n",
        llm.base
    ));
    let token = app.admin_token("dana", "correct horse").await;
    llm.push(common::llm::Reply::Slow(std::time::Duration::from_secs(8)));
    let started = std::time::Instant::now();
    let (s, v) = app
        .json(
            "POST",
            "/api/claude/generate-subject",
            Some(&token),
            Some(json!({"emailBody": "שלום"})),
        )
        .await;
    assert_eq!((s, v["error"].as_str()), (503, Some("timeout")), "{v}");
    assert_eq!(v["message"], mailclient::messages::REQUEST_TIMEOUT);
    assert!(started.elapsed() < std::time::Duration::from_secs(7));
}

#[tokio::test]
async fn hsts_only_when_the_server_has_its_own_certificate() {
    let get = || Request::get("/api/health").body(Body::empty()).unwrap();
    let plain = TestApp::new().send(get()).await;
    assert!(!plain.headers().contains_key("strict-transport-security"));
    // (The files are read by `serve`; the router only needs to know HTTPS is on.)
    let tls =
        TestApp::with_config("[server]\ntls_cert = \"/x/cert.pem\"\ntls_key = \"/x/key.pem\"\n");
    let resp = tls.send(get()).await;
    assert_eq!(
        resp.headers()["strict-transport-security"],
        "max-age=31536000"
    );
}

#[tokio::test]
async fn security_headers_on_every_response() {
    let app = TestApp::new();
    for path in ["/api/health", "/api/nope", "/", "/index.html"] {
        let resp = app
            .send(Request::get(path).body(Body::empty()).unwrap())
            .await;
        let h = resp.headers();
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        // Inline styles are allowed only as attributes (sanitized mail); never inline script
        // or style elements.
        for directive in csp.split(';').map(str::trim) {
            if directive.contains("unsafe-inline") {
                assert!(directive.starts_with("style-src-attr "), "{path}: {csp}");
            }
        }
        assert!(!csp.contains("unsafe-eval"), "{path}: {csp}");
        // The browser fetches only from us (the page-builder's content comes through the server).
        assert!(csp.contains("connect-src 'self';"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["referrer-policy"], "no-referrer", "{path}");
        if path.starts_with("/api/") {
            assert_eq!(h["cache-control"], "no-store", "{path}");
        }
    }
    // A signed-in answer too (the user's own data).
    let token = app.admin_token("dana", "password1").await;
    let resp = app
        .send(
            Request::get("/api/settings/sync")
                .header("authorization", &token)
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["cache-control"], "no-store");
    // A search page far out is refused rather than collected.
    let (s, v) = app
        .json(
            "GET",
            "/api/search?q=x&page=100000&perPage=100",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert!(v["message"].as_str().unwrap().contains("10,000"), "{v}");
    let (s, _) = app
        .json(
            "GET",
            "/api/search?q=x&page=100&perPage=100",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200);
}

#[tokio::test]
async fn spa_is_served_with_the_right_caching() {
    let app = TestApp::new();
    let resp = app
        .send(Request::get("/").body(Body::empty()).unwrap())
        .await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["cache-control"], "no-cache");
    assert!(
        resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let etag = resp.headers()["etag"].clone();
    let index = body_text(resp).await;
    assert!(index.contains("lang=\"he\"") && index.contains("dir=\"rtl\""));
    assert!(
        !index.contains("<script>"),
        "no inline script in index.html"
    );

    // Any other path falls back to the app.
    let resp = app
        .send(Request::get("/some/deep/link").body(Body::empty()).unwrap())
        .await;
    assert_eq!(resp.status(), 200);
    assert_eq!(body_text(resp).await, index);

    // Revalidation answers 304.
    let resp = app
        .send(
            Request::get("/")
                .header("if-none-match", etag)
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(resp.status(), 304);

    // Hashed bundle files are immutable (when the web app is built, as in CI).
    let assets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web/dist/assets");
    if let Some(file) = std::fs::read_dir(&assets).ok().and_then(|mut d| d.next()) {
        let name = file.unwrap().file_name().into_string().unwrap();
        let resp = app
            .send(
                Request::get(format!("/assets/{name}"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(resp.status(), 200, "{name}");
        assert_eq!(
            resp.headers()["cache-control"],
            "public, max-age=31536000, immutable"
        );
        if name.ends_with(".js") {
            assert_eq!(
                resp.headers()["content-type"],
                "text/javascript; charset=utf-8"
            );
        }
    } else {
        assert!(
            index.contains("npm run build"),
            "without a bundle the notice page is served"
        );
    }
}

#[tokio::test]
async fn admins_manage_users_while_serving() {
    let app = TestApp::new();
    let admin = app.admin_token("dana", "correct horse").await;

    let (s, v) = app
        .json(
            "POST",
            "/api/admin/users",
            Some(&admin),
            Some(json!({"username": "yossi", "name": "יוסי", "password": "yossi-password"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["user"]["role"], "user");
    let yossi_id = v["user"]["id"].as_u64().unwrap();
    let yossi = app.login("yossi", "yossi-password").await;

    // A plain user is refused every admin route.
    for (m, p) in [
        ("GET", "/api/admin/users".to_string()),
        ("DELETE", format!("/api/admin/users/{yossi_id}")),
    ] {
        let (s, v) = app.json(m, &p, Some(&yossi), None).await;
        assert_eq!(s, 403, "{m} {p}");
        assert_eq!(v["error"], "forbidden");
    }

    let (_, v) = app
        .json("GET", "/api/admin/users", Some(&admin), None)
        .await;
    let names: Vec<&str> = v["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["username"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["dana", "yossi"]);
    assert!(
        !v.to_string().contains("argon2"),
        "no hashes leave the server"
    );

    // Rename and promote; a password reset ends the user's sessions.
    let (s, v) = app
        .json(
            "PUT",
            &format!("/api/admin/users/{yossi_id}"),
            Some(&admin),
            Some(json!({"name": "יוסי לוי", "role": "admin", "password": "reset-password"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["user"]["name"], "יוסי לוי");
    assert_eq!(v["user"]["role"], "admin");
    assert_eq!(
        app.json("GET", "/api/app/me", Some(&yossi), None).await.0,
        401
    );
    let yossi = app.login("yossi", "reset-password").await;

    // Nobody removes themselves; the last admin stays an admin.
    let dana_id = 1;
    let (s, v) = app
        .json(
            "DELETE",
            &format!("/api/admin/users/{dana_id}"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(s, 400);
    assert_eq!(v["message"], "אי אפשר למחוק את המשתמש שאיתו אתה מחובר");
    let (s, _) = app
        .json(
            "DELETE",
            &format!("/api/admin/users/{dana_id}"),
            Some(&yossi),
            None,
        )
        .await;
    assert_eq!(s, 200, "another admin can remove dana");
    assert_eq!(
        app.json("GET", "/api/app/me", Some(&admin), None).await.0,
        401
    );
    let (s, v) = app
        .json(
            "PUT",
            &format!("/api/admin/users/{yossi_id}"),
            Some(&yossi),
            Some(json!({"role": "user"})),
        )
        .await;
    assert_eq!(s, 400);
    assert_eq!(v["message"], "חייב להישאר לפחות מנהל מערכת אחד");

    let (s, _) = app
        .json("DELETE", "/api/admin/users/999", Some(&yossi), None)
        .await;
    assert_eq!(s, 404);
}

#[tokio::test]
async fn users_change_their_own_password() {
    let app = TestApp::new();
    let here = app.admin_token("dana", "correct horse").await;
    let elsewhere = app.login("dana", "correct horse").await;
    let change = |current: &str, new: &str| {
        app.json(
            "POST",
            "/api/app/password",
            Some(&here),
            Some(json!({"currentPassword": current, "newPassword": new})),
        )
    };
    let (s, v) = change("wrong", "a brand new one").await;
    assert_eq!(s, 400);
    assert_eq!(v["message"], "הסיסמה הנוכחית שגויה");
    let (s, _) = change("correct horse", "short").await;
    assert_eq!(s, 400);

    let (s, _) = change("correct horse", "a brand new one").await;
    assert_eq!(s, 200);
    assert_eq!(
        app.json("GET", "/api/app/me", Some(&here), None).await.0,
        200,
        "this session stays"
    );
    assert_eq!(
        app.json("GET", "/api/app/me", Some(&elsewhere), None)
            .await
            .0,
        401,
        "others end"
    );
    app.login("dana", "a brand new one").await;
}
