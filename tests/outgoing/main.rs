//! Sending, drafts and the outbox against a private Dovecot + Postfix: a Hebrew reply with an
//! attachment arrives threaded and is filed in Sent; drafts are real `\Draft` mail in Drafts;
//! undo takes a send back; with the mail server down a send waits in the outbox and goes out
//! when it is back. The scheduled send across a restart is in tests/scheduled.rs (the binary).

#[path = "../common/mod.rs"]
mod common;

use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use common::mailflow::{ADMIN_PASSWORD, connect, eventually, list, wait_synced};
use common::mailserver::MailServer;
use common::{TestApp, body_text};
use mail_parser::{MessageParser, MimeHeaders};
use serde_json::{Value, json};

mod drafts;
mod outbox;
mod sending;
mod uploads;

async fn app(ms: &MailServer, compose: &str) -> (TestApp, String) {
    let app = TestApp::with_config(&format!("{}\n[compose]\n{compose}\n", ms.config_toml()));
    let token = app.admin_token("dana", ADMIN_PASSWORD).await;
    let (s, v) = connect(&app, &token, ms.account("user1")).await;
    assert_eq!(s, 200, "{v}");
    wait_synced(&app, &token).await;
    (app, token)
}

/// Delivers a Hebrew mail from user2 to user1 and returns its id once synced.
async fn original(app: &TestApp, token: &str, ms: &MailServer, mid: &str) -> Value {
    ms.deliver(
        "user1@example.test",
        &format!(
            "From: =?utf-8?B?15nXldeh15k=?= <user2@example.test>\r\nTo: user1@example.test\r\n\
             Subject: =?utf-8?B?16TXkteZ16nXqiDXpteV15XXqg==?=\r\nMessage-ID: <{mid}>\r\n\
             References: <root-{mid}>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nשלום\r\n"
        ),
    );
    eventually(
        Duration::from_secs(30),
        "the original in the inbox",
        || async {
            list(app, token, "inbox")
                .await
                .into_iter()
                .find(|m| m["messageId"] == mid)
        },
    )
    .await
}

async fn upload(
    app: &TestApp,
    token: &str,
    name: &str,
    ctype: &str,
    data: Vec<u8>,
) -> (u16, Value) {
    let resp = app
        .send(
            Request::post(format!("/api/attachments?name={}", urlencode(name)))
                .header("authorization", token)
                .header("content-type", ctype)
                .body(Body::from(data))
                .unwrap(),
        )
        .await;
    let status = resp.status().as_u16();
    (
        status,
        serde_json::from_str(&body_text(resp).await).unwrap(),
    )
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'.' {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn parse(raw: &[u8]) -> mail_parser::Message<'_> {
    MessageParser::default().parse(raw).expect("a message")
}

async fn outbox(app: &TestApp, token: &str) -> Vec<Value> {
    let (s, v) = app.json("GET", "/api/outbox", Some(token), None).await;
    assert_eq!(s, 200, "{v}");
    v["items"].as_array().unwrap().clone()
}
