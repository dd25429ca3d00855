//! `/api/oauth/*`: which providers the admin configured, Microsoft's device code flow, a
//! flow's state, and the end every flow shares ([`finish`]); Google's authorization code flow
//! is in `google.rs`. On success the account is checked and saved exactly as
//! `POST /api/auth/login` does, signing in with XOAUTH2 (the refresh token sealed as its
//! secret).

use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::OAuth;
use super::flows::{self, Flow, FlowKind, FlowState};
use super::google;
use super::provider::{TokenFailure, TokenSet};
use crate::accounts::{self, AuthKind, Settings, address};
use crate::auth::CurrentUser;
use crate::auth::users::UserRecord;
use crate::error::{ApiJson, AppError, Result};
use crate::mail::Credential;
use crate::messages;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/oauth/providers", get(providers))
        .route("/api/oauth/microsoft/device", post(microsoft_device))
        .route("/api/oauth/flows/{flow_id}", get(flow_state))
        .route("/api/oauth/google/start", post(google::start))
        .route("/api/oauth/google/claim", post(google::claim))
        .route("/api/oauth/google/finish", post(google::finish))
        .route("/api/oauth/google/callback", get(google::callback))
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum OAuthFlowKind {
    /// Google, with `[server] public_url` on HTTPS: the provider sends the browser back.
    Redirect,
    /// Google without one: the user pastes the loopback address the browser ends on.
    Paste,
    /// Microsoft's device code.
    Device,
}

#[derive(Debug, Serialize, TS)]
pub struct OAuthProvider {
    pub id: AuthKind,
    pub flow: OAuthFlowKind,
}

/// `GET /api/oauth/providers`: only the configured providers.
#[derive(Debug, Serialize, TS)]
pub struct OAuthProvidersResponse {
    pub providers: Vec<OAuthProvider>,
}

pub(super) fn google_flow(oauth: &OAuth) -> OAuthFlowKind {
    if oauth.public_url.is_some() {
        OAuthFlowKind::Redirect
    } else {
        OAuthFlowKind::Paste
    }
}

async fn providers(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> Json<OAuthProvidersResponse> {
    let oauth = state.service::<OAuth>();
    let mut providers = Vec::new();
    if oauth.providers.google().is_some() {
        providers.push(OAuthProvider {
            id: AuthKind::Google,
            flow: google_flow(&oauth),
        });
    }
    if oauth.providers.microsoft().is_some() {
        providers.push(OAuthProvider {
            id: AuthKind::Microsoft,
            flow: OAuthFlowKind::Device,
        });
    }
    Json(OAuthProvidersResponse { providers })
}

/// The body of the start calls.
#[derive(Debug, Default, Deserialize, TS)]
#[serde(default)]
pub struct OAuthStartRequest {
    pub email: String,
}

pub(super) fn start_email(req: &OAuthStartRequest) -> Result<String> {
    address::normalize(&req.email)
        .ok_or_else(|| AppError::bad_request(messages::MAIL_EMAIL_INVALID))
}

fn too_many(_: flows::TooMany) -> AppError {
    AppError::Conflict(messages::OAUTH_TOO_MANY_FLOWS.into())
}

/// Opens a pending flow of `user_id` for `email`, living `life`; its id.
pub(super) fn open_flow(
    oauth: &OAuth,
    user_id: u64,
    email: String,
    provider: AuthKind,
    life: Duration,
    kind: FlowKind,
) -> Result<String> {
    let now = Instant::now();
    let id = flows::random();
    oauth
        .flows
        .insert(Flow {
            id: id.clone(),
            user_id,
            email,
            provider,
            created: now,
            expires_at: now + life,
            state: FlowState::Pending,
            kind,
        })
        .map_err(too_many)?;
    Ok(id)
}

pub(super) fn upstream(kind: AuthKind, failure: &TokenFailure) -> AppError {
    AppError::Upstream(failure.message(kind))
}

/// `POST /api/oauth/microsoft/device`.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DeviceFlowResponse {
    pub flow_id: String,
    pub user_code: String,
    pub verification_uri: String,
    /// Seconds the code is valid.
    pub expires_in: u64,
    /// Seconds between polls of the flow's state.
    pub interval: u64,
}

async fn microsoft_device(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<OAuthStartRequest>,
) -> Result<Json<DeviceFlowResponse>> {
    let oauth = state.service::<OAuth>();
    if oauth.providers.microsoft().is_none() {
        return Err(AppError::bad_request(
            messages::OAUTH_MICROSOFT_NOT_CONFIGURED,
        ));
    }
    let email = start_email(&req)?;
    let device = oauth
        .providers
        .device_start()
        .await
        .map_err(|f| upstream(AuthKind::Microsoft, &f))?;
    let interval = Duration::from_secs(device.interval);
    let id = open_flow(
        &oauth,
        user.id,
        email,
        AuthKind::Microsoft,
        Duration::from_secs(device.expires_in),
        FlowKind::Device {
            device_code: device.device_code,
            interval,
            next_poll: Instant::now() + interval,
        },
    )?;
    Ok(Json(DeviceFlowResponse {
        flow_id: id,
        user_code: device.user_code,
        verification_uri: device.verification_uri,
        expires_in: device.expires_in,
        interval: device.interval,
    }))
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum OAuthFlowState {
    Pending,
    Done,
    Expired,
    Denied,
    Failed,
}

/// `GET /api/oauth/flows/{flowId}`.
#[derive(Debug, Serialize, TS)]
pub struct OAuthFlowResponse {
    pub state: OAuthFlowState,
    /// Hebrew, when the flow ended without the account.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub message: Option<String>,
    pub email: String,
}

fn flow_response(flow: &Flow) -> OAuthFlowResponse {
    let (state, message) = match &flow.state {
        FlowState::Pending => (OAuthFlowState::Pending, None),
        FlowState::Done => (OAuthFlowState::Done, None),
        FlowState::Expired => (
            OAuthFlowState::Expired,
            Some(messages::OAUTH_FLOW_EXPIRED.to_string()),
        ),
        FlowState::Denied => (
            OAuthFlowState::Denied,
            Some(messages::OAUTH_ACCESS_DENIED.to_string()),
        ),
        FlowState::Failed(m) => (OAuthFlowState::Failed, Some(m.clone())),
    };
    OAuthFlowResponse {
        state,
        message,
        email: flow.email.clone(),
    }
}

/// The flow's state. A pending device flow asks the token endpoint here, at most once per
/// interval; when the user approved, the account is connected before the answer.
async fn flow_state(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(flow_id): Path<String>,
) -> Result<Json<OAuthFlowResponse>> {
    let oauth = state.service::<OAuth>();
    let shared = oauth.flows.of_user(user.id, &flow_id)?;
    let mut flow = shared.lock().await;
    flow.check_expiry();
    let now = Instant::now();
    let poll = match &mut flow.kind {
        FlowKind::Device {
            device_code,
            interval,
            next_poll,
        } if now >= *next_poll => {
            *next_poll = now + *interval;
            Some(device_code.clone())
        }
        _ => None,
    };
    if flow.state == FlowState::Pending
        && let Some(device_code) = poll
    {
        match oauth.providers.device_poll(&device_code).await {
            Ok(tokens) => {
                let result = finish(&state, &oauth, &user, &flow, tokens).await;
                flow.state = match result {
                    Ok(()) => FlowState::Done,
                    Err(message) => FlowState::Failed(message),
                };
            }
            Err(TokenFailure::Pending) => {}
            Err(TokenFailure::SlowDown) => {
                // RFC 8628 §3.5: five seconds more from now on.
                if let FlowKind::Device {
                    interval,
                    next_poll,
                    ..
                } = &mut flow.kind
                {
                    *interval += Duration::from_secs(5);
                    *next_poll = Instant::now() + *interval;
                }
            }
            Err(TokenFailure::Expired) => flow.state = FlowState::Expired,
            Err(TokenFailure::Denied) => flow.state = FlowState::Denied,
            // A network hiccup: the next poll tries again.
            Err(TokenFailure::Unreachable(_)) => {}
            Err(other) => flow.state = FlowState::Failed(other.message(AuthKind::Microsoft)),
        }
    }
    Ok(Json(flow_response(&flow)))
}

/// With fresh tokens: checks IMAP and SMTP with the access token and saves the account (its
/// refresh token sealed), as a mailbox login does. The Hebrew reason when it did not work.
pub(super) async fn finish(
    state: &AppState,
    oauth: &OAuth,
    user: &UserRecord,
    flow: &Flow,
    tokens: TokenSet,
) -> std::result::Result<(), String> {
    let Some(refresh_token) = tokens.refresh_token.clone() else {
        return Err(messages::OAUTH_NO_REFRESH_TOKEN.into());
    };
    let servers = match flow.provider {
        AuthKind::Google => {
            let g = oauth
                .providers
                .google()
                .ok_or(messages::OAUTH_GOOGLE_NOT_CONFIGURED)?;
            g.servers()
        }
        AuthKind::Microsoft => {
            let m = oauth
                .providers
                .microsoft()
                .ok_or(messages::OAUTH_MICROSOFT_NOT_CONFIGURED)?;
            m.servers()
        }
        AuthKind::Password => return Err(messages::SERVER_ERROR.into()),
    };
    let settings = Settings {
        email: flow.email.clone(),
        password: refresh_token,
        servers,
        imap_fingerprint: None,
        smtp_fingerprint: None,
        auth: flow.provider,
        household: false,
    };
    let credential = Credential::XOAuth2(tokens.access_token.clone());
    let keep = |record: &accounts::AccountRecord| oauth.keep(record.id, &tokens);
    match accounts::routes::check_and_save(state, user, settings, Some(&credential), Some(&keep))
        .await
    {
        Ok(Ok(record)) => {
            tracing::info!(
                account = record.id,
                provider = flow.provider.name(),
                "signed in with OAuth"
            );
            Ok(())
        }
        Ok(Err((imap, smtp))) => {
            let first = imap.err().or(smtp.err());
            Err(match first {
                Some(e) if e.kind == crate::mail::net::FailureKind::Auth => {
                    messages::OAUTH_WRONG_MAILBOX.to_string()
                }
                Some(e) => e.message,
                None => messages::SERVER_ERROR.to_string(),
            })
        }
        Err(e) => Err(e.user_message()),
    }
}
