//! `/api/settings/sync`, `/api/settings/history`, `/api/settings/rollback` (spec 001 §7
//! "Settings sync"). A change answers the new version; a stale one that touches keys changed
//! since answers 409 with the clashes, and the session that lost the race also hears it on
//! `/ws`. Every saved change goes to the user's other sessions as `settings_changed`.

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

use super::device::changed_by;
use super::prefs::{self, Preferences};
use super::versions::{self, Change, Clash, Outcome, Version};
use super::{Event, SettingsFeed};
use crate::auth::extract::{CurrentUser, Session};
use crate::auth::sessions;
use crate::error::{ApiJson, AppError, Result};
use crate::messages;
use crate::state::AppState;

/// A settings request body above this is refused with a 400 (twelve keys fit in far less).
const MAX_BODY: usize = 16 * 1024;
/// Bodies are read up to this before that check (a bigger one is a 413).
const READ_LIMIT: usize = 1024 * 1024;
pub const HISTORY_DEFAULT: usize = 20;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/settings/sync", get(get_settings).put(put_settings))
        .route("/api/settings/history", get(history))
        .route("/api/settings/rollback", post(rollback))
        .layer(axum::extract::DefaultBodyLimit::max(READ_LIMIT))
}

/// `GET` and `PUT /api/settings/sync`: the preferences and their version.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SettingsSyncResponse {
    pub success: bool,
    pub version: u64,
    pub synced_settings: Preferences,
}

/// `PUT /api/settings/sync`.
#[derive(Debug, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SettingsSyncRequest {
    #[ts(type = "Partial<Preferences>")]
    pub settings_update: Value,
    #[ts(as = "super::prefs::SettingsType")]
    pub settings_type: String,
    /// The version the client's values are based on.
    pub base_version: u64,
}

/// The 409 of `PUT /api/settings/sync`, and the `settings_conflict` event's data.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SettingsConflictResponse {
    pub success: bool,
    pub error: String,
    pub message: String,
    pub conflicts: Vec<ConflictView>,
    /// The server's version and values now: a resolution is based on these.
    pub version: u64,
    pub synced_settings: Preferences,
}

/// One key of a 409: the value sent, the value a newer version set, and who set it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SettingsConflictItem")]
pub struct ConflictView {
    pub key: String,
    #[ts(type = "boolean | number | string")]
    pub yours: Value,
    #[ts(type = "boolean | number | string")]
    pub theirs: Value,
    pub version: u64,
    pub changed_by: String,
}

/// The `settings_changed` event (spec 001 §3 "Settings-change message").
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SettingsChanged {
    pub changed_by: String,
    #[ts(type = "Partial<Preferences>")]
    pub settings_update: Map<String, Value>,
    #[ts(as = "super::prefs::SettingsType")]
    pub settings_type: String,
    /// RFC 3339.
    pub timestamp: String,
    pub version: u64,
}

/// A history entry (spec 001 §3): `settingsUpdate` lists the keys the version set.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SettingsHistoryEntry {
    pub version: u64,
    pub changed_by: String,
    pub settings_update: Vec<String>,
    #[ts(as = "super::prefs::SettingsType")]
    pub settings_type: String,
    pub timestamp: String,
}

/// `GET /api/settings/history`.
#[derive(Debug, Serialize, TS)]
pub struct SettingsHistoryResponse {
    pub success: bool,
    pub history: Vec<SettingsHistoryEntry>,
}

/// `POST /api/settings/rollback`.
#[derive(Debug, Deserialize, TS)]
pub struct SettingsRollbackRequest {
    pub version: u64,
}

/// `POST /api/settings/rollback`: the restored object as a new version.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SettingsRollbackResponse {
    pub success: bool,
    pub version: u64,
    pub synced_settings: Preferences,
    pub message: String,
}

fn user_agent(headers: &HeaderMap) -> &str {
    headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

/// A JSON body read by hand, so an oversized one is a 400 with the settings' own message.
fn body<T: serde::de::DeserializeOwned>(bytes: &Bytes) -> Result<T> {
    if bytes.len() > MAX_BODY {
        return Err(AppError::bad_request(messages::SETTINGS_UPDATE_TOO_LARGE));
    }
    serde_json::from_slice(bytes)
        .map_err(|e| AppError::bad_request(format!("{} ({e})", messages::MALFORMED_JSON)))
}

async fn get_settings(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<SettingsSyncResponse>> {
    let current = state
        .blocking(move |st| versions::current(&st.store, user.id))
        .await?;
    Ok(Json(SettingsSyncResponse {
        success: true,
        version: current.version,
        synced_settings: current.values,
    }))
}

pub(super) fn changed_event(v: &Version) -> SettingsChanged {
    SettingsChanged {
        changed_by: v.changed_by.clone(),
        settings_update: v.update.clone(),
        settings_type: v.settings_type.clone(),
        timestamp: v.timestamp.clone(),
        version: v.version,
    }
}

async fn put_settings(
    State(state): State<AppState>,
    session: Session,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Response> {
    let req: SettingsSyncRequest = body(&bytes)?;
    let update = prefs::checked_update(&req.settings_update)?;
    let settings_type = prefs::checked_type(&req.settings_type)?;
    let who = changed_by(session.user.display_name(), user_agent(&headers));
    let user_id = session.user.id;
    let outcome = state
        .blocking(move |st| {
            versions::apply(
                &st.store,
                user_id,
                Change {
                    update,
                    settings_type,
                    base_version: Some(req.base_version),
                    changed_by: &who,
                    timestamp: &crate::kit::now_rfc3339(),
                },
            )
        })
        .await?;
    let feed = state.service::<SettingsFeed>();
    let origin = sessions::public_id(&session.token);
    let current = match outcome {
        Outcome::Saved { current, version } => {
            feed.send(user_id, &origin, Event::Changed(changed_event(&version)));
            current
        }
        Outcome::Unchanged(current) => current,
        Outcome::Conflict { current, clashes } => {
            let conflict = SettingsConflictResponse {
                success: false,
                error: "conflict".into(),
                message: messages::SETTINGS_CONFLICT.into(),
                conflicts: clashes.into_iter().map(conflict_view).collect(),
                version: current.version,
                synced_settings: current.values,
            };
            feed.send(user_id, &origin, Event::Conflict(conflict.clone()));
            return Ok((StatusCode::CONFLICT, Json(conflict)).into_response());
        }
    };
    Ok(Json(SettingsSyncResponse {
        success: true,
        version: current.version,
        synced_settings: current.values,
    })
    .into_response())
}

fn conflict_view(c: Clash) -> ConflictView {
    ConflictView {
        key: c.key,
        yours: c.yours,
        theirs: c.theirs,
        version: c.version,
        changed_by: c.changed_by,
    }
}

#[derive(Deserialize)]
struct HistoryQuery {
    limit: Option<String>,
}

async fn history(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Query(q): Query<HistoryQuery>,
) -> Result<Json<SettingsHistoryResponse>> {
    let limit = match q.limit.as_deref() {
        None | Some("") => HISTORY_DEFAULT,
        Some(raw) => match raw.parse::<usize>() {
            Ok(n) if (1..=versions::KEEP_VERSIONS as usize).contains(&n) => n,
            _ => return Err(AppError::bad_request(messages::SETTINGS_HISTORY_LIMIT)),
        },
    };
    let kept = state
        .blocking(move |st| versions::history(&st.store, user.id, limit))
        .await?;
    Ok(Json(SettingsHistoryResponse {
        success: true,
        history: kept
            .into_iter()
            .map(|v| SettingsHistoryEntry {
                version: v.version,
                changed_by: v.changed_by,
                settings_update: v.update.keys().cloned().collect(),
                settings_type: v.settings_type,
                timestamp: v.timestamp,
            })
            .collect(),
    }))
}

async fn rollback(
    State(state): State<AppState>,
    session: Session,
    headers: HeaderMap,
    ApiJson(req): ApiJson<SettingsRollbackRequest>,
) -> Result<Json<SettingsRollbackResponse>> {
    let who = changed_by(session.user.display_name(), user_agent(&headers));
    let user_id = session.user.id;
    let outcome = state
        .blocking(move |st| {
            versions::restore(
                &st.store,
                user_id,
                req.version,
                &who,
                &crate::kit::now_rfc3339(),
            )
        })
        .await?
        .ok_or_else(|| AppError::NotFound(messages::SETTINGS_VERSION_NOT_FOUND.into()))?;
    let current = match outcome {
        Outcome::Saved { current, version } => {
            let origin = sessions::public_id(&session.token);
            state.service::<SettingsFeed>().send(
                user_id,
                &origin,
                Event::Changed(changed_event(&version)),
            );
            current
        }
        Outcome::Unchanged(current) | Outcome::Conflict { current, .. } => current,
    };
    Ok(Json(SettingsRollbackResponse {
        success: true,
        version: current.version,
        synced_settings: current.values,
        message: messages::SETTINGS_RESTORED.into(),
    }))
}
