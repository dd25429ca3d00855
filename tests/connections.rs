//! Mailbox connection tests as a hostile user would use them, through `app()` with no mail
//! server: the per-user token bucket (429), `[mail] deny_private_ranges` refusing a loopback
//! address before connecting, and a saved password never reused for another pinned
//! certificate.

mod common;

use axum::body::Body;
use axum::http::Request;
use common::TestApp;
use mailclient::accounts::{self, Settings};
use mailclient::auth::users;
use mailclient::mail::servers::MailServers;
use serde_json::{Value, json};

const PASSWORD: &str = "correct horse battery";

/// A loopback port nobody listens on: every try fails at once.
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

fn request(port: u16) -> Value {
    json!({
        "email_address": "dana@example.test",
        "password": "mailbox-pass",
        "imap_server": "127.0.0.1", "imap_port": port, "imap_ssl": false,
        "smtp_server": "127.0.0.1", "smtp_port": port, "smtp_ssl": false,
    })
}

#[tokio::test]
async fn connection_tests_are_rate_limited_per_user() {
    let app = TestApp::with_config("[mail]\ntimeout_secs = 2\n");
    let admin = app.admin_token("dana", PASSWORD).await;
    let port = closed_port();
    let burst = mailclient::accounts::limit::BURST;
    for i in 0..burst {
        // Tests and logins spend the same tries.
        let path = if i % 2 == 0 {
            "/api/auth/test-connection"
        } else {
            "/api/auth/login"
        };
        let (s, v) = app
            .json("POST", path, Some(&admin), Some(request(port)))
            .await;
        assert_eq!(s, 422, "try {i}: {v}");
    }
    let resp = app
        .send(
            Request::post("/api/auth/test-connection")
                .header("authorization", &admin)
                .header("content-type", "application/json")
                .body(Body::from(request(port).to_string()))
                .unwrap(),
        )
        .await;
    assert_eq!(resp.status(), 429);
    let retry: u64 = resp.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=10).contains(&retry), "{retry}");
    let body = common::body_text(resp).await;
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["error"], "too_many_attempts", "{v}");
    assert!(
        v["message"].as_str().unwrap().contains("בדיקות חיבור"),
        "{v}"
    );

    // Another user has tries of their own.
    let (s, _) = app
        .json(
            "POST",
            "/api/admin/users",
            Some(&admin),
            Some(json!({"username": "yossi", "name": "יוסי", "password": PASSWORD})),
        )
        .await;
    assert_eq!(s, 200);
    let other = app.login("yossi", PASSWORD).await;
    let (s, v) = app
        .json(
            "POST",
            "/api/auth/test-connection",
            Some(&other),
            Some(request(port)),
        )
        .await;
    assert_eq!(s, 422, "{v}");
}

#[tokio::test]
async fn private_addresses_are_refused_after_resolution_when_configured() {
    let app = TestApp::with_config("[mail]\ntimeout_secs = 2\ndeny_private_ranges = true\n");
    let token = app.admin_token("dana", PASSWORD).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut by_name = request(port);
    // A name, not an address: its resolved addresses are what is checked.
    by_name["imap_server"] = json!("localhost");
    for body in [request(port), by_name] {
        let (s, v) = app
            .json(
                "POST",
                "/api/auth/test-connection",
                Some(&token),
                Some(body),
            )
            .await;
        assert_eq!(s, 422, "{v}");
        for server in ["imap", "smtp"] {
            assert_eq!(v[server]["kind"], "unreachable", "{v}");
            assert!(
                v[server]["message"].as_str().unwrap().contains("אינו מותר"),
                "{v}"
            );
        }
    }
    let accepted =
        tokio::time::timeout(std::time::Duration::from_millis(300), listener.accept()).await;
    assert!(
        accepted.is_err(),
        "the server connected to a refused address"
    );
}

#[tokio::test]
async fn a_saved_password_is_not_reused_for_another_certificate() {
    let app = TestApp::with_config("[mail]\ntimeout_secs = 2\n");
    let token = app.admin_token("dana", PASSWORD).await;
    let user = users::find_by_username(&app.state.store, "dana")
        .unwrap()
        .unwrap();
    let port = closed_port();
    let pinned = "AB:".repeat(31) + "AB";
    let saved = Settings {
        email: "dana@example.test".into(),
        password: "mailbox-pass".into(),
        servers: MailServers {
            imap_server: "127.0.0.1".into(),
            imap_port: port,
            imap_ssl: false,
            smtp_server: "127.0.0.1".into(),
            smtp_port: port,
            smtp_ssl: false,
        },
        imap_fingerprint: Some(pinned.clone()),
        smtp_fingerprint: None,
        auth: Default::default(),
        household: false,
    };
    accounts::save(&app.state.store, &app.state.key, user.id, &saved, 10).unwrap();

    let try_with = |imap_fingerprint: Option<String>| {
        let mut body = request(port);
        body["password"] = json!("");
        if let Some(f) = imap_fingerprint {
            body["imap_fingerprint"] = json!(f);
        }
        body
    };
    // The same servers and certificate (spelled another way): the saved password is used,
    // and the connection is tried (and fails: nobody listens).
    let same = pinned.to_lowercase().replace(':', " ");
    let (s, v) = app
        .json(
            "POST",
            "/api/auth/test-connection",
            Some(&token),
            Some(try_with(Some(same))),
        )
        .await;
    assert_eq!(s, 422, "{v}");
    // Another certificate, or none: the password must be typed again.
    let other = "CD:".repeat(31) + "CD";
    for fingerprint in [Some(other), None] {
        let (s, v) = app
            .json(
                "POST",
                "/api/auth/test-connection",
                Some(&token),
                Some(try_with(fingerprint)),
            )
            .await;
        assert_eq!(s, 400, "{v}");
        assert!(
            v["message"].as_str().unwrap().contains("תעודת האבטחה"),
            "{v}"
        );
    }
    // Typed again, it is accepted with the new certificate.
    let mut typed = request(port);
    typed["imap_fingerprint"] = json!("CD:".repeat(31) + "CD");
    let (s, v) = app
        .json(
            "POST",
            "/api/auth/test-connection",
            Some(&token),
            Some(typed),
        )
        .await;
    assert_eq!(s, 422, "{v}");
}
