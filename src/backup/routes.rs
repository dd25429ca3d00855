//! `/api/settings/backup`: save to server, load from server, download, restore from a file.

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::auth::extract::CurrentUser;
use crate::auth::limits::{Kind, RateLimits};
use crate::crypto::Secret;
use crate::error::{ApiJson, AppError, Result};
use crate::messages;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/settings/backup", get(info).post(save))
        .route("/api/settings/backup/restore", post(restore))
        .route("/api/settings/backup/download", get(download))
        .route("/api/settings/backup/restore-file", post(restore_file))
        // A backup file in base64 (at most 4 MiB of it) and the password.
        .layer(axum::extract::DefaultBodyLimit::max(6 * 1024 * 1024))
}

/// `GET /api/settings/backup`: whether a backup is kept (the spec's "load" is disabled without).
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BackupInfo {
    pub exists: bool,
    pub created_at: Option<String>,
    pub sections: Vec<String>,
}

#[derive(Debug, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BackupRequest {
    #[ts(type = "string")]
    pub master_password: Secret,
}

/// `POST /api/settings/backup/restore-file`: a downloaded backup (base64) and its password.
#[derive(Debug, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BackupFileRequest {
    #[ts(type = "string")]
    pub master_password: Secret,
    pub file: String,
}

/// Save and restore answers.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BackupResponse {
    pub success: bool,
    pub message: String,
    pub created_at: Option<String>,
    /// The sections saved or restored.
    pub sections: Vec<String>,
    /// What a restore left out and why (Hebrew), e.g. a mailbox of another install's household.
    pub notes: Vec<String>,
}

async fn info(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<axum::Json<BackupInfo>> {
    let stored = state
        .blocking(move |s| super::stored(&s.store, user.id))
        .await?;
    Ok(axum::Json(match stored {
        Some(b) => BackupInfo {
            exists: true,
            created_at: Some(b.created_at),
            sections: b.sections,
        },
        None => BackupInfo {
            exists: false,
            created_at: None,
            sections: Vec::new(),
        },
    }))
}

async fn save(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<BackupRequest>,
) -> Result<axum::Json<BackupResponse>> {
    super::check_master(&req.master_password)?;
    limited(&state, user.id)?;
    let stored = super::save(&state, user.id, req.master_password.into_inner()).await?;
    Ok(axum::Json(BackupResponse {
        success: true,
        message: messages::BACKUP_SAVED.into(),
        created_at: Some(stored.created_at),
        sections: stored.sections,
        notes: Vec::new(),
    }))
}

/// Saving and opening a backup cost a password hash each: a few a minute per user
/// (`[limits] backup_per_minute`), whatever the password or the file.
fn limited(state: &AppState, user_id: u64) -> Result<()> {
    state.service::<RateLimits>().check(user_id, Kind::Backup)
}

/// The user's kept backup; 404 without one.
async fn kept(state: &AppState, user_id: u64) -> Result<super::Stored> {
    state
        .blocking(move |s| super::stored(&s.store, user_id))
        .await?
        .ok_or_else(|| AppError::NotFound(messages::BACKUP_NONE.into()))
}

async fn restore_blob(
    state: &AppState,
    user_id: u64,
    master: String,
    blob: Vec<u8>,
) -> Result<axum::Json<BackupResponse>> {
    limited(state, user_id)?;
    let contents = super::open(master, blob).await?;
    let (sections, notes) = state
        .blocking(move |s| super::restore(s, user_id, contents))
        .await?;
    Ok(axum::Json(BackupResponse {
        success: true,
        message: messages::BACKUP_RESTORED.into(),
        created_at: None,
        sections,
        notes,
    }))
}

async fn restore(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<BackupRequest>,
) -> Result<axum::Json<BackupResponse>> {
    super::check_master(&req.master_password)?;
    let stored = kept(&state, user.id).await?;
    restore_blob(
        &state,
        user.id,
        req.master_password.into_inner(),
        stored.blob,
    )
    .await
}

async fn download(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Response> {
    let stored = kept(&state, user.id).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/octet-stream"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"mailclient-settings.mcbk\"",
            ),
            (header::CACHE_CONTROL, "no-store"),
        ],
        stored.blob,
    )
        .into_response())
}

async fn restore_file(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<BackupFileRequest>,
) -> Result<axum::Json<BackupResponse>> {
    super::check_master(&req.master_password)?;
    let blob = STANDARD
        .decode(req.file.trim())
        .map_err(|_| AppError::bad_request(messages::BACKUP_NOT_A_BACKUP))?;
    restore_blob(&state, user.id, req.master_password.into_inner(), blob).await
}
