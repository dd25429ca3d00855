//! The live channel `/ws` (spec 000 §7, §9; docs/API.md "Live updates"): a WebSocket that
//! authenticates with the session token in its first message, then forwards the user's mail
//! events (new mail, changes from the mailbox or from the user's other sessions) and a fresh
//! `stats` (the folder counts) after each burst of changes, so lists and badges update without
//! a reload. A signed-out session is closed with 4001. Features' notices ([`Notices`]) go out
//! on the `system` channel.

mod notices;

pub use notices::{Notice, Notices};

use std::collections::HashSet;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::get;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;

use crate::auth::sessions;
use crate::mailstore::{Change, Kind, Reason};
use crate::settings::{self, FeedItem, SettingsFeed};
use crate::state::AppState;
use crate::sync::{SyncEvent, SyncManager};
use crate::{accounts, emails, messages};

/// The first message must arrive within this.
const AUTH_TIMEOUT: Duration = Duration::from_secs(10);
/// Changes within this window share one `stats` push.
const STATS_DEBOUNCE: Duration = Duration::from_millis(250);
/// How often the session behind the socket is checked (a sign-out elsewhere ends it).
const SESSION_CHECK: Duration = Duration::from_secs(30);
/// The client pings every 30 s: silence this long means a dead connection (a laptop that
/// slept, a NAT that dropped it); closing frees its task, and the client reconnects.
const IDLE_LIMIT: Duration = Duration::from_secs(90);
const CLOSE_IDLE: u16 = 4000;
/// Close code for "not signed in" (the client must not reconnect).
pub const CLOSE_UNAUTHORIZED: u16 = 4001;
const CHANNELS: [&str; 3] = ["mail", "settings", "system"];

pub fn router() -> Router<AppState> {
    Router::new().route("/ws", get(upgrade))
}

async fn upgrade(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    ws.max_message_size(16 * 1024)
        .on_upgrade(move |socket| run(socket, state))
}

/// No `Debug`: it carries the session token.
#[derive(Deserialize)]
struct ClientMessage {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    channel: Option<String>,
}

fn event(kind: &str, data: Value) -> Message {
    Message::Text(json!({ "type": kind, "data": data }).to_string().into())
}

async fn close(socket: &mut WebSocket, code: u16, reason: &str) {
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: reason.into(),
        })))
        .await;
}

/// The session's user: `Ok(None)` when the session is gone, `Err` when it could not be
/// checked (a store error must not look like a sign-out).
async fn user_of(state: &AppState, token: String) -> Result<Option<u64>, ()> {
    let store = state.store.clone();
    let idle = sessions::Lifetime::of(&state.config.auth).idle_secs;
    match tokio::task::spawn_blocking(move || sessions::authenticate(&store, &token, idle)).await {
        Ok(Ok(user)) => Ok(user.map(|u| u.id)),
        _ => Err(()),
    }
}

/// Waits for `{"type":"auth","token"}`; anything else first is refused.
async fn authenticate(socket: &mut WebSocket, state: &AppState) -> Option<(String, u64)> {
    loop {
        let msg = socket.recv().await?.ok()?;
        let text = match msg {
            Message::Text(t) => t,
            Message::Ping(_) | Message::Pong(_) => continue,
            _ => return None,
        };
        let m: ClientMessage = serde_json::from_str(text.as_str()).ok()?;
        if m.kind != "auth" {
            return None;
        }
        let token = m.token?;
        let user = user_of(state, token.clone()).await.ok()??;
        return Some((token, user));
    }
}

async fn stats(state: &AppState, user_id: u64) -> Option<Message> {
    let store = state.store.clone();
    let counts = tokio::task::spawn_blocking(move || emails::listing::counts(&store, user_id))
        .await
        .ok()?
        .ok()?;
    Some(event("stats", json!(counts)))
}

/// Store lookups for an event, on the blocking pool.
async fn lookup<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce(&crate::store::Store) -> T + Send + 'static,
) -> Option<T> {
    let store = state.store.clone();
    tokio::task::spawn_blocking(move || f(&store)).await.ok()
}

/// The live reason of a logged change (the web revalidates on any; it tells changes from
/// the mailbox apart from the user's own).
fn reason_of(c: &Change) -> &'static str {
    match (c.reason, c.kind) {
        (Reason::Sync, Kind::Updated) | (Reason::Flags, _) => "flags",
        (Reason::Status | Reason::Detection, _) => "status",
        (Reason::Delete, _) => "delete",
        _ => "sync",
    }
}

/// What a batch of the change log says to this user's socket: `new_mail` per folder for mail
/// the mailbox brought, one `mail_changed` per reason for the rest.
async fn mail_events(state: &AppState, user_id: u64, batch: &[Change]) -> Vec<Message> {
    let mine: HashSet<u64> = lookup(state, move |store| {
        accounts::list_for_user(store, user_id)
            .map(|all| all.into_iter().map(|a| a.id).collect())
            .unwrap_or_default()
    })
    .await
    .unwrap_or_default();
    let mut new_mail: Vec<((u64, String), usize)> = Vec::new();
    let mut reasons: Vec<&'static str> = Vec::new();
    for c in batch.iter().filter(|c| mine.contains(&c.account)) {
        if c.kind == Kind::Added && c.reason == Reason::Sync {
            let key = (c.account, c.folder.clone());
            match new_mail.iter_mut().find(|(k, _)| *k == key) {
                Some((_, n)) => *n += 1,
                None => new_mail.push((key, 1)),
            }
        } else if !reasons.contains(&reason_of(c)) {
            reasons.push(reason_of(c));
        }
    }
    let mut out = Vec::new();
    for ((account, folder), count) in new_mail {
        let name = folder.clone();
        let role = lookup(state, move |store| {
            emails::folder_role(store, account, &name).unwrap_or_default()
        })
        .await
        .unwrap_or_default();
        let key = if role.is_empty() { folder } else { role };
        // Mail of a mailbox's first sync is its history, not news: the client announces
        // only the rest.
        let initial = state
            .mailboxes
            .status(account)
            .is_some_and(|s| !s.initial_sync_done);
        out.push(event(
            "new_mail",
            json!({ "folder": key, "count": count, "initial": initial }),
        ));
    }
    for reason in reasons {
        out.push(event("mail_changed", json!({ "reason": reason })));
    }
    out
}

/// What a sync or outbox event says to this user's socket, if anything.
async fn forward(state: &AppState, user_id: u64, e: &SyncEvent) -> Option<(&'static str, Message)> {
    match e {
        SyncEvent::Changed {
            user_id: u, reason, ..
        } if *u == user_id => Some(("mail", event("mail_changed", json!({ "reason": reason })))),
        SyncEvent::Failed {
            user_id: u,
            account_id,
            kind,
            message,
        } if *u == user_id && kind.as_deref() == Some("auth") => {
            let account = *account_id;
            let address = lookup(state, move |store| {
                accounts::list_for_user(store, user_id)
                    .ok()?
                    .into_iter()
                    .find(|a| a.id == account)
                    .map(|a| a.email)
            })
            .await
            .flatten()
            .unwrap_or_default();
            Some((
                "system",
                event(
                    "system_notification",
                    json!({
                        "level": "error",
                        "message": messages::sync_failed_notice(&address, message),
                    }),
                ),
            ))
        }
        SyncEvent::Status {
            user_id: u,
            account_id,
        } if *u == user_id => {
            let status = state.mailboxes.status(*account_id)?;
            Some((
                "system",
                event(
                    "sync_status",
                    json!({ "accountId": account_id, "status": status }),
                ),
            ))
        }
        _ => None,
    }
}

/// What a settings event says to this session: a change made elsewhere, or its own lost race.
fn settings_event(user_id: u64, own: &str, item: FeedItem) -> Option<Message> {
    if item.user_id != user_id {
        return None;
    }
    match item.event {
        settings::Event::Changed(c) if item.session != own => {
            Some(event("settings_changed", json!(c)))
        }
        settings::Event::Conflict(c) if item.session == own => {
            Some(event("settings_conflict", json!(c)))
        }
        _ => None,
    }
}

async fn run(mut socket: WebSocket, state: AppState) {
    let Ok(Some((token, user_id))) =
        tokio::time::timeout(AUTH_TIMEOUT, authenticate(&mut socket, &state)).await
    else {
        let _ = socket
            .send(event(
                "auth_error",
                json!({ "message": messages::SESSION_ENDED }),
            ))
            .await;
        close(&mut socket, CLOSE_UNAUTHORIZED, "unauthorized").await;
        return;
    };
    // Subscribe before the first stats, so no change falls between them.
    let mut events = state.service::<SyncManager>().subscribe();
    let mut changes = state.changes.subscribe();
    let mut settings_feed = state.service::<SettingsFeed>().subscribe();
    let mut notices = state.service::<Notices>().subscribe();
    let own_session = sessions::public_id(&token);
    let mut channels: HashSet<String> = CHANNELS.iter().map(|c| c.to_string()).collect();
    if socket
        .send(event("auth_success", json!({ "userId": user_id })))
        .await
        .is_err()
    {
        return;
    }
    let mut stats_due = Some(Instant::now());
    let mut check = tokio::time::interval(SESSION_CHECK);
    check.tick().await;
    let mut heard = Instant::now();
    loop {
        let due = stats_due;
        tokio::select! {
            msg = socket.recv() => {
                let Some(Ok(msg)) = msg else { return };
                heard = Instant::now();
                let text = match msg {
                    Message::Text(t) => t,
                    Message::Close(_) => return,
                    _ => continue,
                };
                let Ok(m) = serde_json::from_str::<ClientMessage>(text.as_str()) else {
                    continue;
                };
                let reply = match (m.kind.as_str(), m.channel) {
                    ("ping", _) => Some(event(
                        "pong",
                        json!({ "time": time::OffsetDateTime::now_utc().unix_timestamp() }),
                    )),
                    ("subscribe", Some(c)) if CHANNELS.contains(&c.as_str()) => {
                        if c == "mail" {
                            stats_due.get_or_insert_with(Instant::now);
                        }
                        channels.insert(c.clone());
                        Some(event("subscribed", json!({ "channel": c })))
                    }
                    ("unsubscribe", Some(c)) => {
                        channels.remove(&c);
                        Some(event("unsubscribed", json!({ "channel": c })))
                    }
                    _ => None,
                };
                if let Some(reply) = reply
                    && socket.send(reply).await.is_err()
                {
                    return;
                }
            }
            e = events.recv() => {
                match e {
                    Ok(e) => {
                        if let Some((channel, msg)) = forward(&state, user_id, &e).await {
                            if channel == "mail" {
                                stats_due.get_or_insert_with(|| Instant::now() + STATS_DEBOUNCE);
                            }
                            if channels.contains(channel) && socket.send(msg).await.is_err() {
                                return;
                            }
                        }
                    }
                    // Missed events: the counts are recomputed anyway, and lists revalidate.
                    Err(RecvError::Lagged(_)) => {
                        stats_due.get_or_insert_with(Instant::now);
                        if channels.contains("mail")
                            && socket
                                .send(event("mail_changed", json!({ "reason": "sync" })))
                                .await
                                .is_err()
                        {
                            return;
                        }
                    }
                    Err(RecvError::Closed) => return,
                }
            }
            batch = changes.recv() => {
                let msgs = match batch {
                    Ok(batch) => mail_events(&state, user_id, &batch).await,
                    // Missed batches: the counts are recomputed and lists revalidate anyway.
                    Err(RecvError::Lagged(_)) => {
                        vec![event("mail_changed", json!({ "reason": "sync" }))]
                    }
                    Err(RecvError::Closed) => return,
                };
                if !msgs.is_empty() {
                    stats_due.get_or_insert_with(|| Instant::now() + STATS_DEBOUNCE);
                }
                if channels.contains("mail") {
                    for msg in msgs {
                        if socket.send(msg).await.is_err() {
                            return;
                        }
                    }
                }
            }
            item = settings_feed.recv() => {
                let msg = match item {
                    Ok(item) => settings_event(user_id, &own_session, item),
                    // Missed changes: an update without values tells the client to re-read.
                    Err(RecvError::Lagged(_)) => Some(event("settings_changed", json!({}))),
                    Err(RecvError::Closed) => return,
                };
                if let Some(msg) = msg
                    && channels.contains("settings")
                    && socket.send(msg).await.is_err()
                {
                    return;
                }
            }
            notice = notices.recv() => {
                let msg = match notice {
                    Ok(n) if n.user_id == user_id => Some(event(n.event, n.data)),
                    Ok(_) | Err(RecvError::Lagged(_)) => None,
                    Err(RecvError::Closed) => return,
                };
                if let Some(msg) = msg
                    && channels.contains("system")
                    && socket.send(msg).await.is_err()
                {
                    return;
                }
            }
            () = tokio::time::sleep_until(due.unwrap_or_else(Instant::now)), if due.is_some() => {
                stats_due = None;
                if channels.contains("mail")
                    && let Some(msg) = stats(&state, user_id).await
                    && socket.send(msg).await.is_err()
                {
                    return;
                }
            }
            () = tokio::time::sleep_until(heard + IDLE_LIMIT) => {
                close(&mut socket, CLOSE_IDLE, "idle").await;
                return;
            }
            _ = check.tick() => {
                // Only a session that is gone ends the socket for good; a failed check waits
                // for the next one.
                if let Ok(user) = user_of(&state, token.clone()).await
                    && user != Some(user_id)
                {
                    close(&mut socket, CLOSE_UNAUTHORIZED, "signed out").await;
                    return;
                }
            }
        }
    }
}
