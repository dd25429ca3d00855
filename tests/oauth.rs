//! OAuth2 sign-in (issue 24) with real parts: the real binary over HTTP, a real Dovecot whose
//! `oauth2` passdb asks the local authorization server's introspection endpoint, Postfix
//! submission authenticating through Dovecot's SASL, and that local server
//! (tests/common/oauth_server.rs) standing in for Google and Microsoft. One Dovecot, one
//! stand-in and one binary serve the whole story, in order:
//! Microsoft's device code → Google's pasted redirect → sync and send with XOAUTH2 (the Sent
//! copy) → an access token that dies early is refreshed with no visible error → a revoked
//! refresh token: needs sign-in, the notice, no more token requests → signing in again resumes
//! the sync → no token anywhere in the store, the log or an API answer. Then Google's redirect
//! mode (the callback hands the code to the app page, which finishes with the session of the
//! user who started the flow, after they confirm the address) on a second binary.

mod common;

use std::time::{Duration, Instant};

use common::Server;
use common::binary_api::{Api, BinaryEnv};
use common::mailserver::MailServer;
use common::oauth_server::{GOOGLE_CLIENT, GOOGLE_SECRET, MICROSOFT_CLIENT, OAuthServer};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};

fn oauth_toml(ms: &MailServer, op: &OAuthServer, public_url: &str) -> String {
    let servers = format!(
        "imap_server = \"127.0.0.1\"\nimap_port = {}\nimap_ssl = true\n\
         smtp_server = \"127.0.0.1\"\nsmtp_port = {}\nsmtp_ssl = true\n",
        ms.imaps_port(),
        ms.submissions_port()
    );
    let u = &op.url;
    format!(
        "[server]\npublic_url = \"{public_url}\"\n\
         [oauth.google]\nclient_id = \"{GOOGLE_CLIENT}\"\nclient_secret = \"{GOOGLE_SECRET}\"\n\
         auth_url = \"{u}/authorize\"\ntoken_url = \"{u}/token\"\nrevoke_url = \"{u}/revoke\"\n{servers}\
         [oauth.microsoft]\nclient_id = \"{MICROSOFT_CLIENT}\"\n\
         device_url = \"{u}/devicecode\"\ntoken_url = \"{u}/token\"\n{servers}"
    )
}

/// Every answer the test read, to look for tokens in at the end.
#[derive(Default)]
struct Seen(Vec<String>);

impl Seen {
    async fn json(&mut self, r: reqwest::Response) -> (u16, Value) {
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        self.0.push(text.clone());
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }
}

async fn account(api: &Api, seen: &mut Seen, email: &str) -> Value {
    let (_, v) = seen.json(api.get("/api/auth/accounts").await).await;
    v["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["email_address"] == email)
        .cloned()
        .unwrap_or(Value::Null)
}

async fn eventually<T>(
    limit: Duration,
    what: &str,
    mut check: impl AsyncFnMut() -> Option<T>,
) -> T {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(v) = check().await {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Waits until `email`'s account has synced once and is idle.
async fn synced(api: &Api, seen: &mut Seen, email: &str) -> Value {
    eventually(
        Duration::from_secs(60),
        &format!("{email} synced"),
        async || {
            let a = account(api, seen, email).await;
            (a["sync"]["initialSyncDone"] == true && a["sync"]["state"] == "idle").then_some(a)
        },
    )
    .await
}

/// Delivers a mail with `subject` to `to` on the server and waits until the app lists it in
/// that mailbox's inbox (the sync, signed in with tokens, saw it).
async fn deliver_and_see(ms: &MailServer, api: &Api, seen: &mut Seen, to: &str, subject: &str) {
    ms.deliver(
        to,
        &format!("From: someone@example.test\r\nTo: {to}\r\nSubject: {subject}\r\n\r\nx\r\n"),
    );
    eventually(Duration::from_secs(60), subject, async || {
        inbox_subjects(api, seen, to)
            .await
            .contains(&subject.to_string())
            .then_some(())
    })
    .await;
}

async fn inbox_subjects(api: &Api, seen: &mut Seen, email: &str) -> Vec<String> {
    let a = account(api, seen, email).await;
    let (_, v) = seen
        .json(
            api.get(&format!(
                "/api/emails/inbox?perPage=50&accountId={}",
                a["id"]
            ))
            .await,
        )
        .await;
    let list = v
        .get("emails")
        .or_else(|| v.get("items"))
        .cloned()
        .unwrap_or(v.clone());
    list.as_array()
        .map(|l| {
            l.iter()
                .filter_map(|m| m["subject"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Microsoft's device code flow for `email`, approved on the stand-in as `email`.
async fn device_sign_in(api: &Api, seen: &mut Seen, op: &OAuthServer, email: &str) {
    let (s, start) = seen
        .json(
            api.post("/api/oauth/microsoft/device", json!({ "email": email }))
                .await,
        )
        .await;
    assert_eq!(s, 200, "{start}");
    assert_eq!(start["interval"], 1);
    assert!(
        start["verificationUri"]
            .as_str()
            .unwrap()
            .ends_with("/device")
    );
    let flow = start["flowId"].as_str().unwrap().to_string();
    let (s, state) = seen
        .json(api.get(&format!("/api/oauth/flows/{flow}")).await)
        .await;
    assert_eq!(
        (s, state["state"].as_str()),
        (200, Some("pending")),
        "{state}"
    );
    assert!(op.approve_device(start["userCode"].as_str().unwrap(), email, true));
    let before = op.count("token:device_code");
    let started = Instant::now();
    // The web polls every half second here: the server asks the token endpoint at most once
    // per interval (1 s) however often it is asked.
    let done = eventually(
        Duration::from_secs(30),
        "the device flow done",
        async || {
            let (_, v) = seen
                .json(api.get(&format!("/api/oauth/flows/{flow}")).await)
                .await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            (v["state"] != "pending").then_some(v)
        },
    )
    .await;
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["email"], email);
    let polls = op.count("token:device_code") - before;
    let allowed = started.elapsed().as_secs() + 2;
    assert!(
        polls >= 1 && polls <= allowed,
        "{polls} token polls in {:?}",
        started.elapsed()
    );
    // Another user's (or an unknown) flow is not found.
    let (s, v) = seen
        .json(api.get("/api/oauth/flows/not-a-flow").await)
        .await;
    assert_eq!(s, 404, "{v}");
}

/// Google's authorization code flow in paste mode for `email`.
async fn paste_sign_in(api: &Api, seen: &mut Seen, email: &str) {
    let (s, start) = seen
        .json(
            api.post("/api/oauth/google/start", json!({ "email": email }))
                .await,
        )
        .await;
    assert_eq!(s, 200, "{start}");
    assert_eq!(start["flow"], "paste");
    assert_eq!(start["redirectUri"], "http://127.0.0.1:8765/");
    let authorize = start["authorizeUrl"].as_str().unwrap();
    let query: Vec<(String, String)> = url::Url::parse(authorize)
        .unwrap()
        .query_pairs()
        .into_owned()
        .collect();
    let param = |k: &str| {
        query
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    assert_eq!(param("code_challenge_method"), "S256");
    assert_eq!(param("login_hint"), email);
    assert_eq!(param("scope"), "https://mail.google.com/");
    // The browser: the stand-in approves and sends it to the loopback address.
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let r = browser.get(authorize).send().await.unwrap();
    assert_eq!(r.status(), 303);
    let landed = r.headers()["location"].to_str().unwrap().to_string();
    assert!(landed.starts_with("http://127.0.0.1:8765/?"), "{landed}");
    let flow = start["flowId"].as_str().unwrap();
    // A pasted address of another flow (wrong state) is refused, and the flow stays usable.
    let forged = landed.replace("state=", "state=x");
    let (s, v) = seen
        .json(
            api.post(
                "/api/oauth/google/finish",
                json!({ "flowId": flow, "redirectedUrl": forged }),
            )
            .await,
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert!(v["message"].as_str().unwrap().contains("אינה שייכת"), "{v}");
    let (s, v) = seen
        .json(
            api.post(
                "/api/oauth/google/finish",
                json!({ "flowId": flow, "redirectedUrl": "not a url" }),
            )
            .await,
        )
        .await;
    assert_eq!(s, 400, "{v}");
    let (s, v) = seen
        .json(
            api.post(
                "/api/oauth/google/finish",
                json!({ "flowId": flow, "redirectedUrl": landed }),
            )
            .await,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v, json!({ "state": "done", "email": email }));
}

/// Cuts the users' IMAP connections (the sync reconnects, signing in again), then asks for a
/// sync at once instead of waiting out the reconnect's backoff.
async fn kick(ms: &MailServer, api: &Api, users: &[&str]) {
    let conf = ms.dir.path().join("dovecot/dovecot.conf");
    for u in users {
        // Nobody connected at that moment (the task between connections) is fine too.
        let _ = std::process::Command::new("doveadm")
            .arg("-c")
            .arg(&conf)
            .args(["kick", u])
            .output();
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    api.post("/api/sync/refresh", json!({})).await;
}

/// The next `oauth_sign_in_needed` notice on the live channel.
async fn live_notice(
    ws: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    limit: Duration,
) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        let msg = tokio::time::timeout_at(deadline, ws.next())
            .await
            .ok()??
            .ok()?;
        if let tokio_tungstenite::tungstenite::Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap_or(Value::Null);
            if v["type"] == "oauth_sign_in_needed" {
                return Some(v);
            }
        }
    }
}

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

/// Google's redirect mode (an HTTPS `public_url`: the callback), a settings backup of an OAuth
/// account restored, the flows that end without an account (denied on either provider, an
/// expired device code, consent given for another mailbox, too many flows), `slow_down`, and
/// the refresh token revoked when the account is removed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirect_mode_and_flows_that_end_without_an_account() {
    let op = OAuthServer::start(3600, 1).await;
    let ms = MailServer::start_with(&[(
        "MAILTEST_OAUTH2_INTROSPECTION_URL",
        &format!("{}/introspect", op.url),
    )]);
    let public = "https://mail.example.test";
    let env = BinaryEnv::with_config(&ms, &oauth_toml(&ms, &op, public));
    let server = env.start();
    let api = Api::login(&server).await;
    let mut seen = Seen::default();
    let (_, p) = seen.json(api.get("/api/oauth/providers").await).await;
    assert_eq!(
        p["providers"][0],
        json!({ "id": "google", "flow": "redirect" })
    );
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    // The browser's trip: the provider's page, then back to the server (the public name is
    // not served here: the same path on the test server).
    let trip = async |authorize: &str| -> String {
        let r = browser.get(authorize).send().await.unwrap();
        assert_eq!(r.status(), 303);
        let back = r.headers()["location"].to_str().unwrap().to_string();
        let path = back
            .strip_prefix(public)
            .unwrap_or_else(|| panic!("back to {back}"));
        assert!(path.starts_with("/api/oauth/google/callback?"), "{back}");
        // No session token: the state is what names the user.
        let r = browser.get(server.url(path)).send().await.unwrap();
        assert_eq!(r.status(), 303);
        r.headers()["location"].to_str().unwrap().to_string()
    };

    // Redirect mode. The callback finishes nothing: it hands the code and the state to the
    // app page (in the fragment), which finishes with the session of the user who started the
    // flow, once they confirmed the address.
    let (s, start) = seen
        .json(
            api.post(
                "/api/oauth/google/start",
                json!({ "email": "user3@example.test" }),
            )
            .await,
        )
        .await;
    assert_eq!(s, 200, "{start}");
    assert_eq!(start["flow"], "redirect");
    assert_eq!(
        start["redirectUri"],
        "https://mail.example.test/api/oauth/google/callback"
    );
    let flow_id = start["flowId"].as_str().unwrap().to_string();
    let exchanges = op.count("token:authorization_code");
    let landed = trip(start["authorizeUrl"].as_str().unwrap()).await;
    let prefix = "https://mail.example.test/#/settings?oauth=return&";
    let returned: std::collections::HashMap<String, String> = url::form_urlencoded::parse(
        landed
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("{landed}"))
            .as_bytes(),
    )
    .into_owned()
    .collect();
    let (code, state) = (returned["code"].clone(), returned["state"].clone());
    // Nothing was saved for the user who started it, and the code was not exchanged.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        account(&api, &mut seen, "user3@example.test")
            .await
            .is_null()
    );
    assert_eq!(op.count("token:authorization_code"), exchanges);
    // Whoever's browser came back with it (here another user of the install, signed in)
    // cannot claim the flow nor finish it: it is not theirs.
    let (s, v) = seen
        .json(
            api.post(
                "/api/admin/users",
                json!({ "username": "yossi", "password": "password-2" }),
            )
            .await,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let other = Api::login_as(&server, "yossi", "password-2").await;
    let (s, v) = seen
        .json(
            other
                .post("/api/oauth/google/claim", json!({ "state": state }))
                .await,
        )
        .await;
    assert_eq!(s, 404, "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("לא התחיל מהחשבון שלך"),
        "{v}"
    );
    let (s, v) = seen
        .json(
            other
                .post(
                    "/api/oauth/google/finish",
                    json!({ "flowId": flow_id, "code": code, "state": state }),
                )
                .await,
        )
        .await;
    assert_eq!(s, 404, "{v}");
    let (_, mine) = seen.json(other.get("/api/auth/accounts").await).await;
    assert_eq!(mine["accounts"], json!([]), "{mine}");
    assert_eq!(op.count("token:authorization_code"), exchanges);
    // The user who started it: the page claims the flow (the address to confirm), then
    // finishes it with its session.
    let (s, v) = seen
        .json(
            api.post("/api/oauth/google/claim", json!({ "state": state }))
                .await,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        v,
        json!({ "flowId": flow_id, "email": "user3@example.test" })
    );
    let (s, v) = seen
        .json(
            api.post(
                "/api/oauth/google/finish",
                json!({ "flowId": flow_id, "code": code, "state": state }),
            )
            .await,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v, json!({ "state": "done", "email": "user3@example.test" }));
    let a3 = synced(&api, &mut seen, "user3@example.test").await;
    assert_eq!(a3["auth"], "google");
    // A settings backup carries the account with its refresh token (sealed with the master
    // password) and its kind; restored, it signs in with OAuth again.
    let master = json!({ "masterPassword": "backup master 1" });
    let (s, v) = seen
        .json(api.post("/api/settings/backup", master.clone()).await)
        .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = seen
        .json(api.post("/api/settings/backup/restore", master).await)
        .await;
    assert_eq!(s, 200, "{v}");
    op.expire_access_tokens();
    let refreshes = op.count("token:refresh_token");
    kick(&ms, &api, &["user3@example.test"]).await;
    deliver_and_see(&ms, &api, &mut seen, "user3@example.test", "after restore").await;
    assert!(op.count("token:refresh_token") > refreshes);
    let a3 = account(&api, &mut seen, "user3@example.test").await;
    assert_eq!(
        (a3["auth"].as_str(), a3["needsSignIn"].as_bool()),
        (Some("google"), Some(false))
    );

    // A callback without a code fails, back on the settings page with a reason's code (the
    // page says it in its own words); a state no flow of the session has is not found.
    let r = browser
        .get(server.url("/api/oauth/google/callback?state=nope"))
        .send()
        .await
        .unwrap();
    let failed = r.headers()["location"].to_str().unwrap().to_string();
    assert_eq!(
        failed,
        "https://mail.example.test/#/settings?oauth=failed&reason=invalid"
    );
    let (s, _) = seen
        .json(
            api.post("/api/oauth/google/claim", json!({ "state": "nope" }))
                .await,
        )
        .await;
    assert_eq!(s, 404);

    // Google: the user refuses consent.
    op.set_deny(true);
    let (_, start) = seen
        .json(
            api.post(
                "/api/oauth/google/start",
                json!({ "email": "user3@example.test" }),
            )
            .await,
        )
        .await;
    let landed = trip(start["authorizeUrl"].as_str().unwrap()).await;
    assert_eq!(
        landed,
        "https://mail.example.test/#/settings?oauth=failed&reason=denied"
    );
    op.set_deny(false);

    // Microsoft: denied on the provider's page.
    let device = async |seen: &mut Seen| -> (String, String) {
        let (s, v) = seen
            .json(
                api.post(
                    "/api/oauth/microsoft/device",
                    json!({ "email": "user1@example.test" }),
                )
                .await,
            )
            .await;
        assert_eq!(s, 200, "{v}");
        (
            v["flowId"].as_str().unwrap().to_string(),
            v["userCode"].as_str().unwrap().to_string(),
        )
    };
    let until_ended = async |seen: &mut Seen, flow: &str| -> Value {
        eventually(Duration::from_secs(30), "the flow to end", async || {
            let (_, v) = seen
                .json(api.get(&format!("/api/oauth/flows/{flow}")).await)
                .await;
            (v["state"] != "pending").then_some(v)
        })
        .await
    };
    let (flow, code) = device(&mut seen).await;
    op.approve_device(&code, "user1@example.test", false);
    let v = until_ended(&mut seen, &flow).await;
    assert_eq!(v["state"], "denied", "{v}");
    assert!(v["message"].as_str().unwrap().contains("לא ניתנה הרשאה"));

    // Consent given by another mailbox's owner: Dovecot refuses the token for this address.
    let (flow, code) = device(&mut seen).await;
    op.approve_device(&code, "user2@example.test", true);
    let v = until_ended(&mut seen, &flow).await;
    assert_eq!(v["state"], "failed", "{v}");
    assert!(
        v["message"].as_str().unwrap().contains("אינה של כתובת"),
        "{v}"
    );
    assert!(
        account(&api, &mut seen, "user1@example.test")
            .await
            .is_null()
    );

    // slow_down (RFC 8628 §3.5): the server waits 5 s more before it asks again, however
    // often the card polls.
    let (flow, code) = device(&mut seen).await;
    op.slow_down_next();
    let polls = op.count("token:device_code");
    let slowed = eventually(
        Duration::from_secs(10),
        "the slow_down answer",
        async || {
            seen.json(api.get(&format!("/api/oauth/flows/{flow}")).await)
                .await;
            let n = op.count("token:device_code");
            (n > polls).then_some((n, Instant::now()))
        },
    )
    .await;
    op.approve_device(&code, "user1@example.test", true);
    let v = until_ended(&mut seen, &flow).await;
    let waited = slowed.1.elapsed();
    assert_eq!(v["state"], "done", "{v}");
    assert_eq!(
        op.count("token:device_code"),
        slowed.0 + 1,
        "one poll after slow_down"
    );
    assert!(
        waited >= Duration::from_secs(5),
        "asked again after {waited:?}"
    );

    // A code nobody entered expires.
    op.set_device_ttl(2);
    let (flow, _) = device(&mut seen).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let v = until_ended(&mut seen, &flow).await;
    assert_eq!(v["state"], "expired", "{v}");
    assert!(v["message"].as_str().unwrap().contains("פג תוקף"), "{v}");
    op.set_device_ttl(600);

    // At most three open flows per user: a fourth drops the oldest.
    let mut flows = Vec::new();
    for _ in 0..4 {
        flows.push(device(&mut seen).await.0);
    }
    let r = api.get(&format!("/api/oauth/flows/{}", flows[0])).await;
    assert_eq!(r.status(), 404);
    let r = api.get(&format!("/api/oauth/flows/{}", flows[3])).await;
    assert_eq!(r.status(), 200);

    // Removing the Google account revokes its refresh token at the provider.
    let (s, v) = seen
        .json(
            api.post("/api/auth/logout", json!({ "sessionId": a3["sessionId"] }))
                .await,
        )
        .await;
    assert_eq!((s, v["removed"].as_u64()), (200, Some(1)), "{v}");
    eventually(Duration::from_secs(10), "the revocation", async || {
        (op.count("revoke") == 1).then_some(())
    })
    .await;

    let answers = seen.0.join("\n");
    for t in op.issued() {
        assert!(!answers.contains(t.as_str()), "a token in an API answer");
    }
}
