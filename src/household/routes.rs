//! `/api/global-settings/email` and `/api/global-settings/ai-training` (spec 001 §7): anyone
//! signed in may ask whether they exist and read them without secrets; only an admin saves
//! them; `POST /api/global-settings/email/load` connects the caller's mailbox with them.

use axum::extract::State;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::accounts::routes::{ConnectRequest, connect, settings};
use crate::ai::key;
use crate::ai::training;
use crate::auth::extract::{AdminUser, CurrentUser};
use crate::crypto::Secret;
use crate::error::{ApiJson, AppError, Result};
use crate::mail::servers::MailServersCamel;
use crate::messages;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/global-settings/email/exists", get(email_exists))
        .route("/api/global-settings/email", get(email).post(save_email))
        .route("/api/global-settings/email/load", post(load_email))
        .route(
            "/api/global-settings/ai-training/exists",
            get(training_exists),
        )
        .route(
            "/api/global-settings/ai-training",
            get(training_get).post(training_save),
        )
}

/// `GET /api/global-settings/{email,ai-training}/exists`.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "GlobalSettingsExists")]
pub struct GlobalExists {
    pub exists: bool,
    pub last_updated: Option<String>,
    pub updated_by: Option<String>,
}

/// The household's mail settings as anyone may see them: no password, no key, only whether
/// they are set.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "GlobalEmailSettings")]
pub struct GlobalEmailView {
    pub email: String,
    /// `imapServer`, `imapPort`, … (flat keys).
    #[serde(flatten)]
    #[ts(flatten)]
    pub servers: MailServersCamel,
    pub password_set: bool,
    pub claude_api_key_set: bool,
    pub last_updated: String,
    pub updated_by: String,
}

/// `GET /api/global-settings/email`.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GlobalEmailResponse {
    pub has_settings: bool,
    pub settings: Option<GlobalEmailView>,
}

/// The request of `POST /api/global-settings/email`: the mail account fields (as the mailbox
/// login takes them) and an optional AI key for everyone without one.
#[derive(Debug, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "GlobalEmailRequest")]
pub struct GlobalEmailRequest {
    #[serde(flatten)]
    #[ts(flatten)]
    pub account: ConnectRequest,
    #[serde(default)]
    #[ts(optional, type = "string")]
    pub claude_api_key: Option<Secret>,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GlobalSaved {
    pub last_updated: String,
    pub updated_by: String,
}

/// `POST /api/global-settings/{email,ai-training}`.
#[derive(Debug, Serialize, TS)]
pub struct GlobalSaveResponse {
    pub success: bool,
    pub message: String,
    pub settings: GlobalSaved,
}

/// `GET /api/global-settings/ai-training`: the household's defaults (null fields are "not set").
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GlobalAiTrainingResponse {
    pub has_settings: bool,
    #[ts(type = "Partial<AiTrainingSettings> | null")]
    pub settings: Option<Value>,
    pub last_updated: Option<String>,
    pub updated_by: Option<String>,
}

/// `POST /api/global-settings/ai-training`.
#[derive(Debug, Deserialize, TS)]
pub struct GlobalAiTrainingRequest {
    #[ts(type = "Partial<AiTrainingSettings>")]
    pub settings: Value,
}

async fn email_exists(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> Result<Json<GlobalExists>> {
    let stored = state.blocking(|s| super::stored(&s.store)).await?;
    Ok(Json(GlobalExists {
        exists: stored.is_some(),
        last_updated: stored.as_ref().map(|s| s.last_updated.clone()),
        updated_by: stored.map(|s| s.updated_by),
    }))
}

async fn email(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> Result<Json<GlobalEmailResponse>> {
    let view = state
        .blocking(|s| {
            let key_set = key::household_key_set(&s.store)?;
            Ok(
                super::mail(&s.store, &s.key)?.map(|(m, stored)| GlobalEmailView {
                    email: m.email,
                    servers: m.servers.into(),
                    password_set: !m.password.is_empty(),
                    claude_api_key_set: key_set,
                    last_updated: stored.last_updated,
                    updated_by: stored.updated_by,
                }),
            )
        })
        .await?;
    Ok(Json(GlobalEmailResponse {
        has_settings: view.is_some(),
        settings: view,
    }))
}

async fn save_email(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ApiJson(req): ApiJson<GlobalEmailRequest>,
) -> Result<Json<GlobalSaveResponse>> {
    // Spec 001 §5: the global save needs the address and the password, typed.
    if req.account.email.trim().is_empty() || req.account.password.is_empty() {
        return Err(AppError::bad_request(messages::GLOBAL_EMAIL_REQUIRED));
    }
    let s = settings(&state, admin.id, req.account)?;
    let by = admin.display_name().to_string();
    let api_key = req
        .claude_api_key
        .map(|k| k.trim().to_string())
        .filter(|k| !k.is_empty());
    let stored = state
        .blocking(move |st| {
            if let Some(k) = api_key {
                key::store_household_key(&st.store, &st.key, &st.config.ai, &k)?;
            }
            super::save_mail(&st.store, &st.key, &s, &by, &crate::kit::now_rfc3339())
        })
        .await?;
    tracing::info!(admin = %admin.username, "global mail settings saved");
    Ok(Json(GlobalSaveResponse {
        success: true,
        message: messages::GLOBAL_SAVED.into(),
        settings: GlobalSaved {
            last_updated: stored.last_updated,
            updated_by: stored.updated_by,
        },
    }))
}

/// `POST /api/global-settings/email/load`: the caller's mailbox connected with the household's
/// settings; the password is sealed again for the caller and never leaves the server. Answers
/// as the mailbox login does.
async fn load_email(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Response> {
    let mail = state
        .blocking(|s| super::mail(&s.store, &s.key))
        .await?
        .ok_or_else(|| AppError::NotFound(messages::GLOBAL_NONE.into()))?;
    // Marked as the household's: a backup of this mailbox carries a reference, never the
    // password (the user never saw it, and must not get it by making a backup of their own).
    let mut settings = mail.0;
    settings.household = true;
    connect(&state, &user, settings).await
}

async fn training_exists(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> Result<Json<GlobalExists>> {
    let h = state.blocking(|s| training::household(&s.store)).await?;
    Ok(Json(GlobalExists {
        exists: h.is_some(),
        last_updated: h.as_ref().map(|h| h.last_updated.clone()),
        updated_by: h.map(|h| h.updated_by),
    }))
}

async fn training_get(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> Result<Json<GlobalAiTrainingResponse>> {
    let h = state.blocking(|s| training::household(&s.store)).await?;
    Ok(Json(match h {
        Some(h) => GlobalAiTrainingResponse {
            has_settings: true,
            settings: Some(h.settings),
            last_updated: Some(h.last_updated),
            updated_by: Some(h.updated_by),
        },
        None => GlobalAiTrainingResponse {
            has_settings: false,
            settings: None,
            last_updated: None,
            updated_by: None,
        },
    }))
}

async fn training_save(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ApiJson(req): ApiJson<GlobalAiTrainingRequest>,
) -> Result<Json<GlobalSaveResponse>> {
    if !req.settings.is_object() {
        return Err(AppError::bad_request(messages::MALFORMED_JSON));
    }
    let h = state
        .blocking(move |s| {
            // Spec 001 §6: the saver's e-mail (their first mailbox), or the unknown-user label.
            let by = crate::accounts::list_for_user(&s.store, admin.id)?
                .into_iter()
                .next()
                .map_or_else(|| messages::UNKNOWN_USER.to_string(), |a| a.email);
            training::save_household(&s.store, &req.settings, &by, &crate::kit::now_rfc3339())
        })
        .await?;
    state
        .jobs()
        .happened(&state, crate::jobs::Event::TrainingSaved);
    Ok(Json(GlobalSaveResponse {
        success: true,
        message: messages::GLOBAL_SAVED.into(),
        settings: GlobalSaved {
            last_updated: h.last_updated,
            updated_by: h.updated_by,
        },
    }))
}
