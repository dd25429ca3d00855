//! Signing in: the spec's messages, throttling (also a concurrent burst and behind proxies).

use super::*;

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
