//! The mailbox connection: each failure told apart, a certificate accepted only by its
//! fingerprint, the password sealed at rest and forgotten on logout.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connect_reports_each_failure_distinctly() {
    let ms = MailServer::start();
    let (app, token) = app_with(&ms).await;

    let mut bad = ms.account("user1");
    bad["password"] = json!("wrong");
    let (s, v) = connect(&app, &token, bad).await;
    assert_eq!(s, 422, "{v}");
    assert_eq!(v["imap"]["kind"], "auth", "{v}");
    assert_eq!(v["smtp"]["kind"], "auth", "{v}");
    assert!(v["message"].as_str().unwrap().contains("סיסמה"), "{v}");

    let mut unreachable = ms.account("user1");
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closed_port = closed.local_addr().unwrap().port();
    drop(closed);
    unreachable["imap_port"] = json!(closed_port);
    let (s, v) = connect(&app, &token, unreachable).await;
    assert_eq!(s, 422);
    assert_eq!(v["imap"]["kind"], "unreachable", "{v}");
    assert_eq!(v["smtp"]["ok"], true, "{v}");

    // Plain IMAP port with SSL on: the TLS handshake fails.
    let mut wrong_tls = ms.account("user1");
    wrong_tls["imap_port"] = json!(ms.imap_port());
    let (_, v) = connect(&app, &token, wrong_tls).await;
    assert!(
        matches!(
            v["imap"]["kind"].as_str(),
            Some("tls" | "timeout" | "protocol")
        ),
        "{v}"
    );

    // A server that accepts and never greets: a timeout, not a hang.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let silent_port = silent.local_addr().unwrap().port();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((s, _)) = silent.accept().await {
            held.push(s);
        }
    });
    let mut slow = ms.account("user1");
    slow["imap_port"] = json!(silent_port);
    slow["imap_ssl"] = json!(false);
    let started = Instant::now();
    let (_, v) = connect(&app, &token, slow).await;
    assert_eq!(v["imap"]["kind"], "timeout", "{v}");
    assert!(started.elapsed() < Duration::from_secs(15));

    // The same on the SMTP side (lettre's session over our stream): unreachable, silent, and
    // implicit TLS against a plain port.
    let mut smtp = ms.account("user1");
    smtp["smtp_port"] = json!(closed_port);
    let (_, v) = connect(&app, &token, smtp).await;
    assert_eq!(v["smtp"]["kind"], "unreachable", "{v}");
    assert_eq!(v["imap"]["ok"], true, "{v}");
    let mut smtp = ms.account("user1");
    smtp["smtp_port"] = json!(silent_port);
    smtp["smtp_ssl"] = json!(false);
    let started = Instant::now();
    let (_, v) = connect(&app, &token, smtp).await;
    assert_eq!(v["smtp"]["kind"], "timeout", "{v}");
    assert!(started.elapsed() < Duration::from_secs(15));
    let mut smtp = ms.account("user1");
    smtp["smtp_port"] = json!(ms.submission_port());
    let (_, v) = connect(&app, &token, smtp).await;
    assert!(
        matches!(
            v["smtp"]["kind"].as_str(),
            Some("tls" | "timeout" | "protocol")
        ),
        "{v}"
    );

    // Bad input: the spec's rules before any network.
    let mut bad_port = ms.account("user1");
    bad_port["imap_port"] = json!("99999");
    let (s, v) = connect(&app, &token, bad_port).await;
    assert_eq!(s, 400, "{v}");

    // The good one, with a reversed address flipped by the spec's rule and ports as strings.
    let mut good = ms.account("user1");
    good["email_address"] = json!("example.test@user1");
    good["smtp_port"] = json!(ms.submissions_port().to_string());
    let (s, v) = connect(&app, &token, good).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["success"], true);
    assert_eq!(v["account"]["email_address"], "user1@example.test");
    assert!(v["sessionId"].as_str().is_some());
    assert!(
        !v.to_string().contains("pass1"),
        "no secret in the response"
    );

    // STARTTLS on the plain ports works too (test-connection, nothing saved).
    let mut starttls = ms.account("user2");
    starttls["imap_port"] = json!(ms.imap_port());
    starttls["imap_ssl"] = json!(false);
    starttls["smtp_port"] = json!(ms.submission_port());
    starttls["smtp_ssl"] = json!(false);
    let (s, v) = app
        .json(
            "POST",
            "/api/auth/test-connection",
            Some(&token),
            Some(starttls),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (_, v) = app
        .json("GET", "/api/auth/accounts", Some(&token), None)
        .await;
    assert_eq!(v["accounts"].as_array().unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn untrusted_certificate_is_accepted_only_by_its_fingerprint() {
    let ms = MailServer::start();
    // No extra CA: the test CA is unknown.
    let app = TestApp::with_config("[mail]\ntimeout_secs = 5\n");
    let token = app.admin_token("dana", ADMIN_PASSWORD).await;
    let (s, v) = connect(&app, &token, ms.account("user1")).await;
    assert_eq!(s, 422);
    assert_eq!(v["imap"]["kind"], "tls", "{v}");
    let print = v["imap"]["fingerprint"]
        .as_str()
        .expect("fingerprint shown")
        .to_string();
    assert_eq!(print.len(), 95, "{print}");
    assert!(v["imap"]["message"].as_str().unwrap().contains("תעודת"));
    // SMTP (implicit TLS to Postfix) the same: its certificate's fingerprint, checked in the
    // handshake.
    assert_eq!(v["smtp"]["kind"], "tls", "{v}");
    assert_eq!(
        v["smtp"]["fingerprint"].as_str().map(str::len),
        Some(95),
        "{v}"
    );
    assert!(v["smtp"]["message"].as_str().unwrap().contains("תעודת"));

    let mut wrong = ms.account("user1");
    wrong["imap_fingerprint"] = json!("00:".repeat(31) + "00");
    wrong["smtp_fingerprint"] = json!(v["smtp"]["fingerprint"]);
    let (s, _) = connect(&app, &token, wrong).await;
    assert_eq!(s, 422, "a different fingerprint is not accepted");

    let mut pinned = ms.account("user1");
    pinned["imap_fingerprint"] = json!(print.to_lowercase().replace(':', " "));
    pinned["smtp_fingerprint"] = json!(v["smtp"]["fingerprint"]);
    let (s, v) = connect(&app, &token, pinned).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["account"]["imap_fingerprint"], json!(print));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn password_is_sealed_at_rest_and_forgotten_on_logout() {
    let ms = MailServer::start();
    let (app, token) = app_with(&ms).await;
    let (s, v) = connect(&app, &token, ms.account("user1")).await;
    assert_eq!(s, 200, "{v}");
    let id = v["sessionId"].as_str().unwrap().to_string();
    wait_synced(&app, &token).await;
    let db = std::fs::read(app.state.store.path()).unwrap();
    assert!(
        !db.windows(5).any(|w| w == b"pass1"),
        "the mailbox password is not in the store in the clear"
    );
    let key = app.state.config.storage.data_dir.join("server.key");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(key).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }

    // The saved password goes only to the saved servers.
    let mut elsewhere = ms.account("user1");
    elsewhere["password"] = json!("");
    elsewhere["imap_server"] = json!("localhost");
    let (s, _) = app
        .json(
            "POST",
            "/api/auth/test-connection",
            Some(&token),
            Some(elsewhere),
        )
        .await;
    assert_eq!(s, 400, "an empty password with other servers is refused");
    let mut same = ms.account("user1");
    same["password"] = json!("");
    let (s, v) = app
        .json(
            "POST",
            "/api/auth/test-connection",
            Some(&token),
            Some(same),
        )
        .await;
    assert_eq!(
        s, 200,
        "the saved password is reused for the same servers: {v}"
    );

    // A malformed session id never means "all of them".
    let (s, _) = app
        .json(
            "POST",
            "/api/auth/logout",
            Some(&token),
            Some(json!({"sessionId": "acc-1"})),
        )
        .await;
    assert_eq!(s, 404);
    let (_, v) = app
        .json("GET", "/api/auth/accounts", Some(&token), None)
        .await;
    assert_eq!(v["accounts"].as_array().unwrap().len(), 1);

    let (s, v) = app
        .json(
            "POST",
            "/api/auth/logout",
            Some(&token),
            Some(json!({"sessionId": id})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (_, v) = app
        .json("GET", "/api/auth/accounts", Some(&token), None)
        .await;
    assert!(v["accounts"].as_array().unwrap().is_empty());
    assert_eq!(inbox_total(&app, &token).await, 0);
}
