//! The whole story on one Dovecot, one stand-in and one binary: Microsoft's device code,
//! Google's pasted redirect, sync and send with XOAUTH2, refresh, revoke, sign in again, and
//! no token anywhere it should not be.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn device_code_and_pasted_redirect_sync_send_refresh_and_revoke() {
    let op = OAuthServer::start(3600, 1).await;
    let ms = MailServer::start_with(&[(
        "MAILTEST_OAUTH2_INTROSPECTION_URL",
        &format!("{}/introspect", op.url),
    )]);
    let env = BinaryEnv::with_config(&ms, &oauth_toml(&ms, &op, ""));
    let server = Server::start_logged(&env.data, &["--config", &env.config], "info");
    let api = Api::login(&server).await;
    let mut seen = Seen::default();

    let (s, p) = seen.json(api.get("/api/oauth/providers").await).await;
    assert_eq!(s, 200);
    assert_eq!(
        p,
        json!({ "providers": [
            { "id": "google", "flow": "paste" },
            { "id": "microsoft", "flow": "device" },
        ]})
    );

    // The live channel, to hear the notice later.
    let ws_url = format!("{}/ws", server.base.replacen("http", "ws", 1));
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_url).await.unwrap();
    ws.send(tokio_tungstenite::tungstenite::Message::Text(
        json!({ "type": "auth", "token": api.token })
            .to_string()
            .into(),
    ))
    .await
    .unwrap();

    // 1. Microsoft: the device code, approved on the provider's page.
    ms.deliver(
        "user1@example.test",
        "From: a@example.test\r\nTo: user1@example.test\r\nSubject: before sign-in\r\n\r\nhello\r\n",
    );
    device_sign_in(&api, &mut seen, &op, "user1@example.test").await;
    // 2. Google: the pasted redirect.
    paste_sign_in(&api, &mut seen, "user2@example.test").await;

    let a1 = synced(&api, &mut seen, "user1@example.test").await;
    let a2 = synced(&api, &mut seen, "user2@example.test").await;
    assert_eq!(
        (a1["auth"].as_str(), a1["needsSignIn"].as_bool()),
        (Some("microsoft"), Some(false))
    );
    assert_eq!(
        (a2["auth"].as_str(), a2["needsSignIn"].as_bool()),
        (Some("google"), Some(false))
    );
    assert!(a1.get("password").is_none() && a1.get("sealed_password").is_none());
    assert!(
        inbox_subjects(&api, &mut seen, "user1@example.test")
            .await
            .contains(&"before sign-in".to_string())
    );
    // Signed in with XOAUTH2, as Dovecot's log says.
    let log = std::fs::read_to_string(ms.dir.path().join("dovecot/dovecot.log")).unwrap();
    assert!(
        log.contains("user=<user1@example.test>, method=XOAUTH2")
            && log.contains("user=<user2@example.test>, method=XOAUTH2"),
        "{log}"
    );

    // 3. Send from the Google account (SMTP XOAUTH2 through Postfix + Dovecot SASL) to user1:
    // delivered, and the copy in Sent.
    let (s, v) = seen
        .json(
            api.post(
                "/api/emails/send",
                json!({ "from": "user2@example.test", "to": ["user1@example.test"],
                        "subject": "נשלח עם OAuth", "body": "<p>שלום</p>" }),
            )
            .await,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    eventually(Duration::from_secs(60), "the Sent copy", async || {
        (ms.message_count("user2", "Sent") >= 1).then_some(())
    })
    .await;
    eventually(Duration::from_secs(60), "the mail at user1", async || {
        // Delivered through Postfix into user1's mailbox (the spam check may file it anywhere
        // in the app; the delivery is what this checks).
        (ms.message_count("user1", "INBOX") + ms.message_count("user1", "Junk") >= 2).then_some(())
    })
    .await;
    let postfix = std::fs::read_to_string(ms.dir.path().join("postfix/maillog")).unwrap();
    assert!(postfix.contains("sasl_method=XOAUTH2"), "{postfix}");

    // 4. Access tokens now die after 2 s though the answer says an hour: the server's refusal
    // is what tells. The IMAP connection is cut (the sync reconnects) and a mail is sent:
    // each gets one new token and works, and no error shows.
    op.set_access_ttl(2, Some(3600));
    let refreshes = op.count("token:refresh_token");
    op.expire_access_tokens();
    kick(&ms, &api, &["user1@example.test", "user2@example.test"]).await;
    deliver_and_see(&ms, &api, &mut seen, "user1@example.test", "after the kick").await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let (s, v) = seen
        .json(
            api.post(
                "/api/emails/send",
                json!({ "from": "user2@example.test", "to": ["user1@example.test"],
                        "subject": "second", "body": "<p>again</p>" }),
            )
            .await,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    eventually(
        Duration::from_secs(60),
        "the second Sent copy",
        async || (ms.message_count("user2", "Sent") >= 2).then_some(()),
    )
    .await;
    // Microsoft rotated user1's refresh token and retired the old one: the new one was kept
    // (sealed), as the next refresh shows.
    op.expire_access_tokens();
    kick(&ms, &api, &["user1@example.test"]).await;
    deliver_and_see(&ms, &api, &mut seen, "user1@example.test", "after rotation").await;
    let a1 = synced(&api, &mut seen, "user1@example.test").await;
    assert!(a1["sync"]["error"].is_null(), "{a1}");
    assert_eq!(a1["needsSignIn"], false, "{a1}");
    let used = op.count("token:refresh_token") - refreshes;
    assert!((3..=10).contains(&used), "{used} refreshes");
    let (_, outbox) = seen.json(api.get("/api/outbox").await).await;
    assert!(!outbox.to_string().contains("error\":\"ה"), "{outbox}");

    // 5. user1 removes the app's access at the provider: the next sign-in fails for good.
    op.revoke_user("user1@example.test");
    kick(&ms, &api, &["user1@example.test"]).await;
    let a1 = eventually(Duration::from_secs(30), "needs sign-in", async || {
        let a = account(&api, &mut seen, "user1@example.test").await;
        (a["needsSignIn"] == true).then_some(a)
    })
    .await;
    let notice = live_notice(&mut ws, Duration::from_secs(10))
        .await
        .expect("the oauth_sign_in_needed notice");
    assert!(
        notice.to_string().contains("user1@example.test"),
        "{notice}"
    );
    assert!(notice.to_string().contains("microsoft"), "{notice}");
    let status = eventually(Duration::from_secs(10), "the sign-in status", async || {
        let a = account(&api, &mut seen, "user1@example.test").await;
        (a["sync"]["errorKind"] == "oauth_sign_in_needed").then_some(a["sync"].clone())
    })
    .await;
    assert!(
        status["error"].as_str().unwrap().contains("להתחבר מחדש"),
        "{status}"
    );
    assert!(status["nextRetryAt"].is_null(), "{status}");
    let _ = a1;
    // No more token requests for it: not by itself, not on a refresh request.
    let after = op.count("token:refresh_token");
    api.post("/api/sync/refresh", json!({})).await;
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert_eq!(
        op.count("token:refresh_token"),
        after,
        "the token endpoint was asked again"
    );

    // 6. Signing in again (the same start call) resumes the sync. Access tokens now honestly
    // live 3 s: they are renewed before they expire, so no server sees an expired one.
    op.set_access_ttl(3, None);
    device_sign_in(&api, &mut seen, &op, "user1@example.test").await;
    deliver_and_see(
        &ms,
        &api,
        &mut seen,
        "user1@example.test",
        "after signing in again",
    )
    .await;
    let a1 = account(&api, &mut seen, "user1@example.test").await;
    assert_eq!(a1["needsSignIn"], false, "{a1}");
    let refused = op.count("introspect:inactive");
    let refreshes = op.count("token:refresh_token");
    tokio::time::sleep(Duration::from_millis(3500)).await;
    let (s, v) = seen
        .json(
            api.post(
                "/api/emails/send",
                json!({ "from": "user1@example.test", "to": ["user2@example.test"],
                        "subject": "from outlook", "body": "<p>x</p>" }),
            )
            .await,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    eventually(Duration::from_secs(60), "user1's Sent copy", async || {
        (ms.message_count("user1", "Sent") >= 1).then_some(())
    })
    .await;
    assert!(
        op.count("token:refresh_token") > refreshes,
        "renewed before use"
    );
    assert_eq!(
        op.count("introspect:inactive"),
        refused,
        "a mail server was shown an expired token"
    );

    // 7. No token anywhere: the store file, the server's log, any answer the API gave.
    let log = server.stdout.lock().unwrap().join("\n");
    assert!(
        log.contains("OAuth access token refreshed"),
        "the log was not kept"
    );
    drop(server);
    let tokens = op.issued();
    assert!(tokens.len() >= 6, "{tokens:?}");
    let mut files = Vec::new();
    let mut stack = vec![env.data.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    assert!(!files.is_empty());
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        for t in &tokens {
            assert!(
                !bytes.windows(t.len()).any(|w| w == t.as_bytes()),
                "a token in {}",
                f.display()
            );
        }
    }
    let answers = seen.0.join("\n");
    for t in &tokens {
        assert!(!log.contains(t.as_str()), "a token in the log");
        assert!(!answers.contains(t.as_str()), "a token in an API answer");
    }
}
