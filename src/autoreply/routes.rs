//! `GET/POST /api/auto-reply/settings`, `GET /api/auto-reply/stats`, `GET
//! /api/auto-reply/activity` and `POST /api/auto-reply/clear` (spec 001 §7; docs/API.md
//! "Auto-reply").

use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use super::journal::{self, Decision};
use super::rules::Reason;
use super::settings::{self, Settings};
use crate::ai::key;
use crate::auth::{CurrentUser, UserStore};
use crate::emails::view::iso;
use crate::error::{ApiJson, AppError, Result};
use crate::messages;
use crate::outgoing::drafts;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/auto-reply/settings",
            get(get_settings).post(post_settings),
        )
        .route("/api/auto-reply/stats", get(stats))
        .route("/api/auto-reply/activity", get(activity))
        .route("/api/auto-reply/clear", post(clear))
}

/// The activity list's length.
pub const ACTIVITY: usize = 100;

async fn get_settings(me: UserStore) -> Result<Json<Settings>> {
    let s = me.run(settings::load).await?;
    Ok(Json(s.settings))
}

/// `POST /api/auto-reply/settings`.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "SaveAutoReplyResponse")]
pub struct Saved {
    pub success: bool,
    pub settings: Settings,
}

/// A key typed in the card comes in this header (spec 001 §7), as for the AI calls.
fn typed_key(headers: &HeaderMap) -> Option<String> {
    headers
        .get("x-api-key")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(str::to_string)
}

async fn post_settings(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: HeaderMap,
    ApiJson(fields): ApiJson<serde_json::Map<String, Value>>,
) -> Result<Json<Saved>> {
    let typed = typed_key(&headers);
    let (server_key, config) = (state.key.clone(), state.config.ai.clone());
    let saved = state
        .store_blocking(move |store| {
            let current = settings::load(store, user.id)?;
            let next = current.settings.with(&fields)?;
            let turning_on = next.auto_reply_enabled && !current.settings.auto_reply_enabled;
            if turning_on {
                // The monitor runs with nobody at the keyboard: the key must be on the server.
                if let Some(k) = &typed {
                    key::store_key(store, &server_key, &config, user.id, k)?;
                }
                match key::endpoint(store, &server_key, &config, user.id, None) {
                    Err(AppError::AiKeyMissing) => {
                        return Err(AppError::bad_request(messages::AUTO_REPLY_KEY_MISSING));
                    }
                    other => {
                        other?;
                    }
                }
            }
            let changed_state = next.auto_reply_enabled != current.settings.auto_reply_enabled;
            let saved = settings::update(store, user.id, |s| {
                s.settings = next.clone();
                if turning_on {
                    s.enabled_at = Some(crate::kit::now());
                    s.last_check_ms = None;
                }
                Ok(s.settings.clone())
            })?;
            if changed_state {
                // On: only what comes from now on. Off: what came meanwhile is never answered.
                journal::drop_pending(store, user.id)?;
            }
            Ok(saved)
        })
        .await?;
    // The monitor sleeps until a check is due: a new interval or a first check is due now.
    state.jobs().trigger(&state, super::monitor::JOB);
    Ok(Json(Saved {
        success: true,
        settings: saved,
    }))
}

/// `GET /api/auto-reply/stats` (spec 001 §3 "Auto-reply stats", plus `remainingToday`).
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "AutoReplyStats")]
pub struct Stats {
    /// Drafts written today (the user's day, in their time zone).
    pub today_count: u32,
    /// Auto-reply drafts waiting in Drafts now.
    pub total_auto_reply_drafts: usize,
    /// On, with a mailbox to watch.
    pub is_monitoring: bool,
    /// RFC 3339; null before the first check.
    pub last_check: Option<String>,
    pub remaining_today: u32,
    pub max_per_day: u32,
    /// Mail that arrived and waits for its check.
    pub waiting: usize,
}

async fn stats(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Stats>> {
    let s = state
        .store_blocking(move |store| {
            let stored = settings::load(store, user.id)?;
            let tz = crate::settings::load(store, user.id)?.tz();
            let now = crate::kit::now();
            let start = crate::settings::prefs::day_start(tz, now);
            let day = journal::day(store, user.id, start)?;
            let drafts = drafts::list(store, user.id)?
                .iter()
                .filter(|d| d.is_auto_reply)
                .count();
            let has_mailbox = !crate::accounts::list_for_user(store, user.id)?.is_empty();
            let max = stored.settings.auto_reply_max_per_day;
            Ok(Stats {
                today_count: day.answered,
                total_auto_reply_drafts: drafts,
                is_monitoring: stored.settings.auto_reply_enabled && has_mailbox,
                last_check: stored.last_check_ms.map(|ms| iso(ms / 1000)),
                remaining_today: max.saturating_sub(day.answered),
                max_per_day: max,
                waiting: journal::pending(store, user.id)?.len(),
            })
        })
        .await?;
    Ok(Json(s))
}

/// One decision of the activity list.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "AutoReplyActivityItem")]
pub struct ActivityItem {
    /// RFC 3339.
    pub at: String,
    pub from: String,
    pub from_name: String,
    pub subject: String,
    pub reason: Reason,
    /// The reason in Hebrew.
    pub text: String,
    /// A failure's cause.
    pub detail: Option<String>,
    /// The draft is addressed to this Reply-To, of another domain than the sender's: the user
    /// should look before sending (anyone can write a Reply-To).
    pub reply_to_elsewhere: Option<String>,
}

impl From<Decision> for ActivityItem {
    fn from(d: Decision) -> Self {
        Self {
            at: iso(d.at),
            from: d.from,
            from_name: d.from_name,
            subject: d.subject,
            text: d.reason.text().to_string(),
            reason: d.reason,
            detail: d.detail,
            reply_to_elsewhere: d.reply_to_elsewhere,
        }
    }
}

/// `GET /api/auto-reply/activity`: the last 100 decisions, newest first.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "AutoReplyActivity")]
pub struct Activity {
    pub items: Vec<ActivityItem>,
}

async fn activity(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Activity>> {
    let items = state
        .store_blocking(move |store| journal::recent(store, user.id, ACTIVITY))
        .await?;
    Ok(Json(Activity {
        items: items.into_iter().map(ActivityItem::from).collect(),
    }))
}

/// `POST /api/auto-reply/clear`.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "ClearAutoRepliesResponse")]
pub struct Cleared {
    pub success: bool,
    pub cleared_count: usize,
}

/// Deletes the auto-reply drafts still waiting, from the mailbox too.
async fn clear(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Cleared>> {
    let ids: Vec<String> = state
        .store_blocking(move |store| {
            Ok(drafts::list(store, user.id)?
                .into_iter()
                .filter(|d| d.is_auto_reply)
                .map(|d| d.id)
                .collect())
        })
        .await?;
    let mut cleared = 0;
    for id in ids {
        match drafts::delete(&state, user.id, &id).await {
            Ok(()) => cleared += 1,
            // Gone meanwhile (sent, deleted elsewhere): nothing to clear.
            Err(AppError::NotFound(_)) => {}
            Err(e) => {
                tracing::warn!(user_id = user.id, error = %e.user_message(), "auto-reply: a draft stays");
                if cleared == 0 {
                    return Err(AppError::MailboxUnavailable(
                        messages::AUTO_REPLY_CLEAR_FAILED.into(),
                    ));
                }
            }
        }
    }
    Ok(Json(Cleared {
        success: true,
        cleared_count: cleared,
    }))
}
