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

#[path = "../common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::Server;
use common::binary_api::{Api, BinaryEnv};
use common::mailserver::MailServer;
use common::oauth_server::{GOOGLE_CLIENT, GOOGLE_SECRET, MICROSOFT_CLIENT, OAuthServer};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};

mod redirect;
mod story;

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
    let browser = common::http()
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
