//! `/api/app/*` (login, logout, me) and `/api/setup/*` (first run). Spec 000 §2, §7.

use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::setup::SetupGate;
use super::throttle::LoginThrottle;
use super::{password, sessions, users};
use crate::auth::{ClientAddr, CurrentUser, Session};
use crate::error::{ApiJson, AppError, Result, Success};
use crate::messages;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/app/login", post(login))
        .route("/api/app/logout", post(logout))
        .route("/api/app/me", get(me))
        .route("/api/app/password", post(change_password))
        .route("/api/setup/status", get(setup_status))
        .route("/api/setup/admin", post(setup_admin))
        .merge(super::admin::router())
}

#[derive(Deserialize, Default, TS)]
#[serde(default)]
pub struct LoginRequest {
    username: String,
    password: String,
}

/// `POST /api/app/login`: the session token to send as `Authorization: Bearer`.
#[derive(Serialize, TS)]
pub struct LoginResponse {
    pub success: bool,
    pub token: String,
    pub user: users::User,
}

/// `GET /api/app/me`.
#[derive(Serialize, TS)]
pub struct MeResponse {
    pub success: bool,
    pub user: users::User,
}

async fn login(
    State(state): State<AppState>,
    ClientAddr(client): ClientAddr,
    ApiJson(req): ApiJson<LoginRequest>,
) -> Result<Json<LoginResponse>> {
    let username = req.username.trim().to_string();
    if username.is_empty() || req.password.is_empty() {
        return Err(AppError::bad_request(messages::CREDENTIALS_REQUIRED));
    }
    let throttle = state.service::<LoginThrottle>();
    throttle
        .begin(&username, &client)
        .map_err(|retry_after_secs| AppError::TooManyAttempts { retry_after_secs })?;

    let record = users::find_by_username(&state.store, &username)?;
    let stored_hash = record.as_ref().map(|r| r.password_hash.clone());
    // argon2 is deliberately slow: off the async workers (the first computation of the dummy
    // hash for unknown usernames included), and only as many at once as there are cores.
    let matches = password::bounded(move || {
        let hash = stored_hash
            .as_deref()
            .unwrap_or_else(|| password::dummy_hash());
        password::verify(&req.password, hash)
    })
    .await;

    let Some(record) = record.filter(|_| matches) else {
        // Counted already, when the attempt began.
        tracing::info!(client = %client, "failed login");
        return Err(AppError::InvalidCredentials);
    };
    throttle.record_success(&username, &client);
    let lifetime = sessions::Lifetime::of(&state.config.auth);
    let token = sessions::create(&state.store, record.id, lifetime)?;
    tracing::info!(user = record.id, "signed in");
    Ok(Json(LoginResponse {
        success: true,
        token,
        user: users::User::from(&record),
    }))
}

async fn logout(State(state): State<AppState>, session: Session) -> Result<Json<Success>> {
    sessions::revoke(&state.store, &session.token)?;
    Ok(Json(Success::YES))
}

async fn me(CurrentUser(user): CurrentUser) -> Json<MeResponse> {
    Json(MeResponse {
        success: true,
        user: users::User::from(&user),
    })
}

#[derive(Deserialize, Default, TS)]
#[serde(default, rename_all = "camelCase")]
#[ts(rename = "ChangePasswordRequest")]
pub struct PasswordRequest {
    current_password: String,
    new_password: String,
}

/// The signed-in user changes their own password. Their other sessions end; this one stays.
async fn change_password(
    State(state): State<AppState>,
    ClientAddr(client): ClientAddr,
    Session { token, user }: Session,
    ApiJson(req): ApiJson<PasswordRequest>,
) -> Result<Json<Success>> {
    // Guessing the current password through a stolen session is throttled like a login.
    let throttle = state.service::<LoginThrottle>();
    throttle
        .begin(&user.username, &client)
        .map_err(|retry_after_secs| AppError::TooManyAttempts { retry_after_secs })?;
    let store = state.store.clone();
    let username = user.username.clone();
    let result = password::bounded(move || {
        if !password::verify(&req.current_password, &user.password_hash) {
            return Err(AppError::bad_request(messages::WRONG_CURRENT_PASSWORD));
        }
        users::set_password_of(&store, user, &req.new_password, Some(&token))
    })
    .await;
    // Only a wrong current password stays counted (a too-short new one is no guess).
    let guessed_wrong =
        matches!(&result, Err(e) if e.user_message() == messages::WRONG_CURRENT_PASSWORD);
    if !guessed_wrong {
        throttle.record_success(&username, &client);
    }
    result?;
    Ok(Json(Success::YES))
}

/// `GET /api/setup/status`: whether the first admin is still to be created.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetupStatusResponse {
    pub needs_setup: bool,
}

async fn setup_status(State(state): State<AppState>) -> Result<Json<SetupStatusResponse>> {
    Ok(Json(SetupStatusResponse {
        needs_setup: !users::any_exist(&state.store)?,
    }))
}

#[derive(Deserialize, Default, TS)]
#[serde(default)]
#[ts(rename = "SetupAdminRequest")]
pub struct SetupRequest {
    token: String,
    username: String,
    name: String,
    password: String,
}

/// `POST /api/setup/admin`: the first admin, created.
#[derive(Serialize, TS)]
pub struct SetupAdminResponse {
    pub success: bool,
    pub user: users::User,
}

async fn setup_admin(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<SetupRequest>,
) -> Result<Json<SetupAdminResponse>> {
    let gate = state.service::<SetupGate>();
    let store = state.store.clone();
    let user = tokio::task::spawn_blocking(move || {
        gate.create_admin(&store, &req.token, &req.username, &req.name, &req.password)
    })
    .await
    .map_err(AppError::internal)??;
    tracing::info!(user = user.id, "first admin created through the setup link");
    Ok(Json(SetupAdminResponse {
        success: true,
        user,
    }))
}
