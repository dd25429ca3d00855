//! The live channel `/ws` (spec 000 §7, §9; docs/API.md "Live updates"): a WebSocket that
//! authenticates with the session token in its first message, then forwards the user's mail
//! events (new mail, changes from the mailbox or from the user's other sessions) and a fresh
//! `stats` (the folder counts) after each burst of changes, so lists and badges update without
//! a reload. A signed-out session is closed with 4001. Features' notices
//! ([`crate::notices`]) go out on the `system` channel. Every event is a [`LiveEvent`].
//!
//! From the change feed: mail the mailbox brought is `new_mail` per folder, any other change of the
//! user's mail one `mail_changed` per reason; `stats` goes out `STATS_DEBOUNCE` after a burst. A
//! saved preference goes to the user's other sessions (`settings_changed`, never echoed to the
//! session that saved it, told apart by `auth::sessions::public_id`), a lost race to its own
//! (`settings_conflict`).

pub mod event;

pub use event::{Channel, LiveEvent, MailChange};

use std::collections::HashSet;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::get;
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;

use crate::auth::sessions;
use crate::feature::{Feature, need};
use crate::mailstore::{Change, Kind, Reason};
use crate::notices::Notices;
use crate::settings::{self, FeedItem, SettingsFeed};
use crate::state::AppState;
use crate::sync::{SyncEvent, SyncManager};
use crate::{accounts, emails, messages};

/// The live channel: its route lives outside the request timeout.
pub static FEATURE: Feature = Feature {
    streams: Some(router),
    wire_types,
    // The notices every feature may send; set up early, before the first sender.
    init: |setup| setup.provide(std::sync::Arc::new(Notices::default())),
    needs: &[need::<SyncManager>, need::<SettingsFeed>, need::<Notices>],
    ..Feature::named("live")
};

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

pub fn router() -> Router<AppState> {
    Router::new().route("/ws", get(upgrade))
}

async fn upgrade(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    ws.max_message_size(16 * 1024)
        .on_upgrade(move |socket| run(socket, state))
}

/// What a client sends: `auth` first, then `ping`, `subscribe` and `unsubscribe`. No `Debug`:
/// it carries the session token.
#[derive(Deserialize)]
struct ClientMessage {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    channel: Option<Channel>,
}

fn event(e: &LiveEvent) -> Message {
    Message::Text(e.to_json().into())
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

async fn stats(state: &AppState, user_id: u64) -> Option<LiveEvent> {
    let counts = state
        .store_blocking(move |store| emails::listing::counts(store, user_id))
        .await
        .ok()?;
    Some(LiveEvent::Stats(counts))
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
fn reason_of(c: &Change) -> MailChange {
    match (c.reason, c.kind) {
        (Reason::Sync, Kind::Updated) | (Reason::Flags, _) => MailChange::Flags,
        (Reason::Status | Reason::Detection, _) => MailChange::Status,
        (Reason::Delete, _) => MailChange::Delete,
        _ => MailChange::Sync,
    }
}

/// What a batch of the change log says to this user's socket: `new_mail` per folder for mail
/// the mailbox brought, one `mail_changed` per reason for the rest.
async fn mail_events(state: &AppState, user_id: u64, batch: &[Change]) -> Vec<LiveEvent> {
    let mine: HashSet<u64> = lookup(state, move |store| {
        accounts::list_for_user(store, user_id)
            .map(|all| all.into_iter().map(|a| a.id).collect())
            .unwrap_or_default()
    })
    .await
    .unwrap_or_default();
    let mut new_mail: Vec<((u64, String), u64)> = Vec::new();
    let mut reasons: Vec<MailChange> = Vec::new();
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
        out.push(LiveEvent::NewMail(event::NewMail {
            folder: key,
            count,
            initial,
        }));
    }
    for reason in reasons {
        out.push(LiveEvent::MailChanged { reason });
    }
    out
}

/// What a sync or outbox event says to this user's socket, if anything.
async fn forward(state: &AppState, user_id: u64, e: &SyncEvent) -> Option<LiveEvent> {
    match e {
        SyncEvent::Changed {
            user_id: u, reason, ..
        } if *u == user_id => Some(LiveEvent::MailChanged { reason: *reason }),
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
            Some(LiveEvent::SystemNotification {
                level: event::Level::Error,
                message: messages::sync_failed_notice(&address, message),
            })
        }
        SyncEvent::Status {
            user_id: u,
            account_id,
        } if *u == user_id => {
            let status = state.mailboxes.status(*account_id)?;
            Some(LiveEvent::SyncStatus {
                account_id: *account_id,
                status,
            })
        }
        _ => None,
    }
}

/// What a settings event says to this session: a change made elsewhere, or its own lost race.
fn settings_event(user_id: u64, own: &str, item: FeedItem) -> Option<LiveEvent> {
    if item.user_id != user_id {
        return None;
    }
    match item.event {
        settings::Event::Changed(c) if item.session != own => Some(LiveEvent::SettingsChanged(c)),
        settings::Event::Conflict(c) if item.session == own => Some(LiveEvent::SettingsConflict(c)),
        _ => None,
    }
}

/// Sends `e` when the session listens to its channel; false when the socket is gone.
async fn send(socket: &mut WebSocket, channels: &HashSet<Channel>, e: &LiveEvent) -> bool {
    if e.channel().is_some_and(|c| !channels.contains(&c)) {
        return true;
    }
    socket.send(event(e)).await.is_ok()
}

async fn run(mut socket: WebSocket, state: AppState) {
    let Ok(Some((token, user_id))) =
        tokio::time::timeout(AUTH_TIMEOUT, authenticate(&mut socket, &state)).await
    else {
        let refused = LiveEvent::AuthError {
            message: messages::SESSION_ENDED.into(),
        };
        let _ = socket.send(event(&refused)).await;
        close(&mut socket, CLOSE_UNAUTHORIZED, "unauthorized").await;
        return;
    };
    // Subscribe before the first stats, so no change falls between them.
    let mut events = state.service::<SyncManager>().subscribe();
    let mut changes = state.changes.subscribe();
    let mut settings_feed = state.service::<SettingsFeed>().subscribe();
    let mut notices = state.service::<Notices>().subscribe();
    let own_session = sessions::public_id(&token);
    let mut channels: HashSet<Channel> = Channel::ALL.into_iter().collect();
    if !send(&mut socket, &channels, &LiveEvent::AuthSuccess { user_id }).await {
        return;
    }
    let mut stats_due = Some(Instant::now());
    let mut check = tokio::time::interval(SESSION_CHECK);
    check.tick().await;
    let mut heard = Instant::now();
    // Missed mail events: the counts are recomputed anyway, and lists revalidate.
    let missed = LiveEvent::MailChanged {
        reason: MailChange::Sync,
    };
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
                    ("ping", _) => Some(LiveEvent::Pong {
                        time: crate::kit::now(),
                    }),
                    ("subscribe", Some(channel)) => {
                        if channel == Channel::Mail {
                            stats_due.get_or_insert_with(Instant::now);
                        }
                        channels.insert(channel);
                        Some(LiveEvent::Subscribed { channel })
                    }
                    ("unsubscribe", Some(channel)) => {
                        channels.remove(&channel);
                        Some(LiveEvent::Unsubscribed { channel })
                    }
                    _ => None,
                };
                if let Some(reply) = reply
                    && !send(&mut socket, &channels, &reply).await
                {
                    return;
                }
            }
            e = events.recv() => {
                let e = match e {
                    Ok(e) => forward(&state, user_id, &e).await,
                    Err(RecvError::Lagged(_)) => Some(missed.clone()),
                    Err(RecvError::Closed) => return,
                };
                if let Some(e) = e {
                    if e.channel() == Some(Channel::Mail) {
                        stats_due.get_or_insert_with(|| Instant::now() + STATS_DEBOUNCE);
                    }
                    if !send(&mut socket, &channels, &e).await {
                        return;
                    }
                }
            }
            batch = changes.recv() => {
                let all = match batch {
                    Ok(batch) => mail_events(&state, user_id, &batch).await,
                    // Missed batches: the counts are recomputed and lists revalidate anyway.
                    Err(RecvError::Lagged(_)) => vec![missed.clone()],
                    Err(RecvError::Closed) => return,
                };
                if !all.is_empty() {
                    stats_due.get_or_insert_with(|| Instant::now() + STATS_DEBOUNCE);
                }
                for e in &all {
                    if !send(&mut socket, &channels, e).await {
                        return;
                    }
                }
            }
            item = settings_feed.recv() => {
                let e = match item {
                    Ok(item) => settings_event(user_id, &own_session, item),
                    Err(RecvError::Lagged(_)) => Some(LiveEvent::SettingsStale),
                    Err(RecvError::Closed) => return,
                };
                if let Some(e) = e
                    && !send(&mut socket, &channels, &e).await
                {
                    return;
                }
            }
            notice = notices.recv() => {
                let e = match notice {
                    Ok((to, n)) if to == user_id => Some(LiveEvent::from(n)),
                    Ok(_) | Err(RecvError::Lagged(_)) => None,
                    Err(RecvError::Closed) => return,
                };
                if let Some(e) = e
                    && !send(&mut socket, &channels, &e).await
                {
                    return;
                }
            }
            () = tokio::time::sleep_until(due.unwrap_or_else(Instant::now)), if due.is_some() => {
                stats_due = None;
                if channels.contains(&Channel::Mail)
                    && let Some(e) = stats(&state, user_id).await
                    && !send(&mut socket, &channels, &e).await
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

crate::wire_types!(
    event::LiveEvent,
    event::Channel,
    event::MailChange,
    event::NewMail,
    event::Level,
    crate::notices::TaskDue,
    crate::notices::AutoReplyDrafted,
    crate::notices::SpamDetected,
    crate::notices::SignInNeeded,
    crate::notices::SnoozeWoke,
    crate::notices::FollowUpDue,
    crate::notices::FoldersChanged,
    crate::notices::SendFailed,
);
