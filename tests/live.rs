//! The live channel `/ws` on the real binary with a real mailbox: refusing a bad token with
//! 4001, auth, ping, subscribe, a `new_mail` event and fresh `stats` when mail is delivered by
//! SMTP, `mail_changed` when another session changes a status, `settings_changed` and
//! `settings_conflict` between two sessions, `sync_status`, and 4001 after sign-out.

mod common;

use std::time::Duration;

use common::Server;
use common::binary_api::{Api, BinaryEnv};
use common::mailserver::MailServer;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn open(server: &Server) -> Ws {
    let url = server.url("/ws").replacen("http://", "ws://", 1);
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::text(v.to_string())).await.unwrap();
}

/// The next server message of `kind` (others are skipped), within 20 s.
async fn next_of(ws: &mut Ws, kind: &str) -> Value {
    let wait = async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    if v["type"] == kind {
                        return v;
                    }
                }
                Some(Ok(Message::Close(frame))) => {
                    panic!("closed while waiting for {kind}: {frame:?}")
                }
                Some(Ok(_)) => {}
                other => panic!("socket ended while waiting for {kind}: {other:?}"),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(20), wait)
        .await
        .unwrap_or_else(|_| panic!("no {kind} within 20 s"))
}

/// The next settings event (changed or conflict), within 20 s.
async fn next_settings(ws: &mut Ws) -> Value {
    let wait = async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    if v["type"]
                        .as_str()
                        .is_some_and(|k| k.starts_with("settings_"))
                    {
                        return v;
                    }
                }
                Some(Ok(_)) => {}
                other => panic!("socket ended while waiting for a settings event: {other:?}"),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(20), wait)
        .await
        .expect("no settings event within 20 s")
}

async fn close_code(ws: &mut Ws) -> Option<CloseCode> {
    let wait = async {
        while let Some(m) = ws.next().await {
            if let Ok(Message::Close(frame)) = m {
                return frame.map(|f| f.code);
            }
        }
        None
    };
    tokio::time::timeout(Duration::from_secs(40), wait)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_channel_pushes_new_mail_stats_and_changes() {
    let ms = MailServer::start();
    ms.deliver(
        "user1@example.test",
        "From: a@sender.test\nTo: user1@example.test\nSubject: first\n\nhello\n",
    );
    let env = BinaryEnv::new(&ms);
    let server = env.start();
    let api = Api::login(&server).await;
    api.connect_synced(&ms, "user1").await;

    // A bad token: auth_error, then 4001 (the client must not reconnect).
    let mut ws = open(&server).await;
    send(&mut ws, json!({"type": "auth", "token": "not-a-session"})).await;
    assert_eq!(
        next_of(&mut ws, "auth_error").await["data"]["message"],
        "החיבור הסתיים. יש להתחבר מחדש."
    );
    assert_eq!(close_code(&mut ws).await, Some(CloseCode::from(4001)));
    // Anything but auth first is refused the same way.
    let mut ws = open(&server).await;
    send(&mut ws, json!({"type": "ping"})).await;
    assert_eq!(close_code(&mut ws).await, Some(CloseCode::from(4001)));

    let mut ws = open(&server).await;
    send(&mut ws, json!({"type": "auth", "token": api.token})).await;
    next_of(&mut ws, "auth_success").await;
    let stats = next_of(&mut ws, "stats").await;
    assert_eq!(stats["data"]["inbox"], 1, "{stats}");
    send(&mut ws, json!({"type": "ping"})).await;
    assert!(next_of(&mut ws, "pong").await["data"]["time"].is_i64());
    send(&mut ws, json!({"type": "subscribe", "channel": "mail"})).await;
    assert_eq!(
        next_of(&mut ws, "subscribed").await["data"]["channel"],
        "mail"
    );

    // Mail delivered by SMTP: IDLE wakes the sync, the socket hears of it.
    ms.deliver(
        "user1@example.test",
        "From: b@sender.test\nTo: user1@example.test\nSubject: second\n\nhello again\n",
    );
    let new_mail = next_of(&mut ws, "new_mail").await;
    assert_eq!(
        new_mail["data"],
        json!({"folder": "inbox", "count": 1, "initial": false})
    );
    let stats = next_of(&mut ws, "stats").await;
    assert_eq!(stats["data"]["inbox"], 2, "{stats}");
    assert_eq!(stats["data"]["unread"], 2, "{stats}");

    // Another session marks a mail: this one hears mail_changed, then the new counts.
    let other = Api::login(&server).await;
    let rows = other.get_json("/api/emails/inbox").await;
    let id = rows[0]["id"].as_str().unwrap().to_string();
    let r = other
        .client
        .put(format!("{}/api/emails/{id}/status", other.base))
        .header("authorization", &other.token)
        .json(&json!({"status": "needs_reply"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(
        next_of(&mut ws, "mail_changed").await["data"]["reason"],
        "status"
    );
    let stats = next_of(&mut ws, "stats").await;
    assert_eq!(stats["data"]["needsReply"], 1, "{stats}");

    // Settings: another session's change reaches this socket, not the one that made it; a
    // stale change that clashes is a 409 and a settings_conflict on its own session's socket.
    let mut other_ws = open(&server).await;
    send(
        &mut other_ws,
        json!({"type": "auth", "token": &other.token}),
    )
    .await;
    next_of(&mut other_ws, "auth_success").await;
    let put = |who: &Api, body: Value| {
        who.client
            .put(format!("{}/api/settings/sync", who.base))
            .header("authorization", &who.token)
            .header(
                "user-agent",
                "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0",
            )
            .json(&body)
            .send()
    };
    let r = put(
        &other,
        json!({"settingsUpdate": {"darkMode": true}, "settingsType": "ui", "baseVersion": 0}),
    )
    .await
    .unwrap();
    assert_eq!(r.status(), 200);
    let changed = next_of(&mut ws, "settings_changed").await;
    assert_eq!(changed["data"]["settingsUpdate"], json!({"darkMode": true}));
    assert_eq!(changed["data"]["version"], 1);
    assert_eq!(changed["data"]["settingsType"], "ui");
    assert!(
        changed["data"]["changedBy"]
            .as_str()
            .unwrap()
            .ends_with("(Firefox, Linux)"),
        "{changed}"
    );
    let r = put(
        &api,
        json!({"settingsUpdate": {"darkMode": false}, "settingsType": "ui", "baseVersion": 0}),
    )
    .await
    .unwrap();
    assert_eq!(r.status(), 409);
    let conflict = next_of(&mut ws, "settings_conflict").await;
    assert_eq!(conflict["data"]["conflicts"][0]["key"], "darkMode");
    assert_eq!(conflict["data"]["version"], 1);
    let r = put(
        &api,
        json!({"settingsUpdate": {"compactMode": true}, "settingsType": "ui", "baseVersion": 1}),
    )
    .await
    .unwrap();
    assert_eq!(r.status(), 200);
    // The other socket's first settings event is this change: not its own, not the conflict.
    let first = next_settings(&mut other_ws).await;
    assert_eq!(first["type"], "settings_changed", "{first}");
    assert_eq!(
        first["data"]["settingsUpdate"],
        json!({"compactMode": true})
    );

    // Unsubscribed from mail: no more mail events, the socket still answers pings.
    send(&mut ws, json!({"type": "unsubscribe", "channel": "mail"})).await;
    next_of(&mut ws, "unsubscribed").await;

    // A mailbox's connection state reaches the socket (the settings page's connection card).
    let r = api.post("/api/sync/refresh", json!({})).await;
    assert!(r.status().is_success());
    let status = next_of(&mut ws, "sync_status").await;
    assert!(status["data"]["accountId"].is_u64(), "{status}");
    let state = status["data"]["status"]["state"].as_str().unwrap();
    assert!(["syncing", "idle"].contains(&state), "{status}");
    assert_eq!(
        status["data"]["status"]["idle"], true,
        "Dovecot has IDLE: {status}"
    );

    // Signing out ends the socket with 4001 (checked every 30 s).
    let r = api
        .client
        .post(format!("{}/api/app/logout", api.base))
        .header("authorization", &api.token)
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success());
    assert_eq!(close_code(&mut ws).await, Some(CloseCode::from(4001)));
    server.stop();
}
