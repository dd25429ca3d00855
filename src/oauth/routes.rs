//! `/api/oauth/*`: which providers the admin configured, Microsoft's device code flow, Google's
//! authorization code flow (redirect or pasted redirect), and a flow's state. On success the
//! account is checked and saved exactly as `POST /api/auth/login` does, signing in with
//! XOAUTH2 (the refresh token sealed as its secret).

use std::time::{Duration, Instant};

use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::OAuth;
use super::flows::{self, Flow, FlowKind, FlowState};
use super::provider::{GOOGLE_SCOPE, TokenFailure, TokenSet};
use crate::accounts::{self, AuthKind, Settings, address};
use crate::auth::CurrentUser;
use crate::auth::users::UserRecord;
use crate::error::{ApiJson, AppError, Result};
use crate::mail::Credential;
use crate::messages;
use crate::state::AppState;

/// The loopback redirect of Google's desktop-type clients (paste mode): nothing listens there;
/// the user copies the address the browser ends on.
pub const PASTE_REDIRECT_URI: &str = "http://127.0.0.1:8765/";
/// The longest pasted address.
const MAX_PASTED: usize = 8 * 1024;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/oauth/providers", get(providers))
        .route("/api/oauth/microsoft/device", post(microsoft_device))
        .route("/api/oauth/flows/{flow_id}", get(flow_state))
        .route("/api/oauth/google/start", post(google_start))
        .route("/api/oauth/google/finish", post(google_finish))
        .route("/api/oauth/google/callback", get(google_callback))
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

fn google_flow(oauth: &OAuth) -> OAuthFlowKind {
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

fn start_email(req: &OAuthStartRequest) -> Result<String> {
    address::normalize(&req.email)
        .ok_or_else(|| AppError::bad_request(messages::MAIL_EMAIL_INVALID))
}

fn too_many(_: flows::TooMany) -> AppError {
    AppError::Conflict(messages::OAUTH_TOO_MANY_FLOWS.into())
}

fn upstream(kind: AuthKind, failure: &TokenFailure) -> AppError {
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
    let now = Instant::now();
    let id = flows::random();
    let interval = Duration::from_secs(device.interval);
    oauth
        .flows
        .insert(Flow {
            id: id.clone(),
            user_id: user.id,
            email,
            provider: AuthKind::Microsoft,
            created: now,
            expires_at: now + Duration::from_secs(device.expires_in),
            state: FlowState::Pending,
            kind: FlowKind::Device {
                device_code: device.device_code,
                interval,
                next_poll: now + interval,
            },
        })
        .map_err(too_many)?;
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
async fn finish(
    state: &AppState,
    oauth: &OAuth,
    user: &UserRecord,
    flow: &Flow,
    tokens: TokenSet,
) -> std::result::Result<(), String> {
    let Some(refresh_token) = tokens.refresh_token.clone() else {
        return Err(messages::OAUTH_NO_REFRESH_TOKEN.into());
    };
    let (imap, smtp) = match flow.provider {
        AuthKind::Google => {
            let g = oauth
                .providers
                .google()
                .ok_or(messages::OAUTH_GOOGLE_NOT_CONFIGURED)?;
            (
                (g.imap_server.clone(), g.imap_port, g.imap_ssl),
                (g.smtp_server.clone(), g.smtp_port, g.smtp_ssl),
            )
        }
        AuthKind::Microsoft => {
            let m = oauth
                .providers
                .microsoft()
                .ok_or(messages::OAUTH_MICROSOFT_NOT_CONFIGURED)?;
            (
                (m.imap_server.clone(), m.imap_port, m.imap_ssl),
                (m.smtp_server.clone(), m.smtp_port, m.smtp_ssl),
            )
        }
        AuthKind::Password => return Err(messages::SERVER_ERROR.into()),
    };
    let settings = Settings {
        email: flow.email.clone(),
        password: refresh_token,
        imap_server: imap.0,
        imap_port: imap.1,
        imap_ssl: imap.2,
        smtp_server: smtp.0,
        smtp_port: smtp.1,
        smtp_ssl: smtp.2,
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

/// `POST /api/oauth/google/start`.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GoogleStartResponse {
    pub flow_id: String,
    pub authorize_url: String,
    pub flow: OAuthFlowKind,
    pub redirect_uri: String,
}

async fn google_start(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<OAuthStartRequest>,
) -> Result<Json<GoogleStartResponse>> {
    let oauth = state.service::<OAuth>();
    let Some(g) = oauth.providers.google() else {
        return Err(AppError::bad_request(messages::OAUTH_GOOGLE_NOT_CONFIGURED));
    };
    let email = start_email(&req)?;
    let flow_kind = google_flow(&oauth);
    let redirect_uri = match &oauth.public_url {
        Some(base) => format!("{base}/api/oauth/google/callback"),
        None => PASTE_REDIRECT_URI.to_string(),
    };
    let (flow_state, verifier) = (flows::random(), flows::random());
    let mut url = url::Url::parse(&g.auth_url).map_err(AppError::internal)?;
    url.query_pairs_mut()
        .append_pair("response_type", "code")
        .append_pair("client_id", &g.client_id)
        .append_pair("redirect_uri", &redirect_uri)
        .append_pair("scope", GOOGLE_SCOPE)
        .append_pair("state", &flow_state)
        .append_pair("code_challenge", &flows::challenge(&verifier))
        .append_pair("code_challenge_method", "S256")
        .append_pair("access_type", "offline")
        .append_pair("prompt", "consent")
        .append_pair("login_hint", &email);
    let now = Instant::now();
    let id = flows::random();
    oauth
        .flows
        .insert(Flow {
            id: id.clone(),
            user_id: user.id,
            email,
            provider: AuthKind::Google,
            created: now,
            expires_at: now + flows::GOOGLE_LIFETIME,
            state: FlowState::Pending,
            kind: FlowKind::Google {
                state: flow_state,
                verifier,
                redirect_uri: redirect_uri.clone(),
            },
        })
        .map_err(too_many)?;
    Ok(Json(GoogleStartResponse {
        flow_id: id,
        authorize_url: url.into(),
        flow: flow_kind,
        redirect_uri,
    }))
}

/// The query of the address Google sends the browser back to.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Returned {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

/// Finishes a Google flow with what came back: checks the state, exchanges the code (with the
/// PKCE verifier) and connects the account. A failure before the exchange leaves the flow
/// pending (another paste may follow); after it, the flow is failed.
async fn google_complete(
    state: &AppState,
    oauth: &OAuth,
    user: &UserRecord,
    flow: &mut Flow,
    returned: Returned,
) -> Result<()> {
    flow.check_expiry();
    match &flow.state {
        FlowState::Pending => {}
        FlowState::Done => return Ok(()),
        FlowState::Expired => return Err(AppError::bad_request(messages::OAUTH_FLOW_EXPIRED)),
        FlowState::Denied => return Err(AppError::bad_request(messages::OAUTH_ACCESS_DENIED)),
        FlowState::Failed(m) => return Err(AppError::bad_request(m.clone())),
    }
    let FlowKind::Google {
        state: expected,
        verifier,
        redirect_uri,
    } = &flow.kind
    else {
        return Err(AppError::NotFound(messages::OAUTH_FLOW_NOT_FOUND.into()));
    };
    let same_state = returned
        .state
        .as_deref()
        .is_some_and(|s| crate::auth::tokens::secrets_equal(s, expected));
    if !same_state {
        return Err(AppError::bad_request(messages::OAUTH_STATE_MISMATCH));
    }
    if let Some(error) = returned.error.as_deref() {
        if error == "access_denied" {
            return Err(AppError::bad_request(messages::OAUTH_ACCESS_DENIED));
        }
        let code: String = error.chars().take(64).collect();
        return Err(AppError::bad_request(messages::oauth_refused(
            "Google", &code,
        )));
    }
    let code = returned
        .code
        .filter(|c| !c.is_empty() && c.len() <= 4096)
        .ok_or_else(|| AppError::bad_request(messages::OAUTH_PASTE_INVALID))?;
    let tokens = match oauth
        .providers
        .google_code(&code, verifier, redirect_uri)
        .await
    {
        Ok(tokens) => tokens,
        // A code is good once: a refused one means starting over.
        Err(f @ (TokenFailure::InvalidGrant | TokenFailure::Refused(_))) => {
            let message = match f {
                TokenFailure::InvalidGrant => messages::OAUTH_FLOW_EXPIRED.to_string(),
                other => other.message(AuthKind::Google),
            };
            flow.state = FlowState::Failed(message.clone());
            return Err(AppError::bad_request(message));
        }
        Err(f) => return Err(upstream(AuthKind::Google, &f)),
    };
    match finish(state, oauth, user, flow, tokens).await {
        Ok(()) => {
            flow.state = FlowState::Done;
            Ok(())
        }
        Err(message) => {
            flow.state = FlowState::Failed(message.clone());
            Err(AppError::MailboxUnavailable(message))
        }
    }
}

/// `POST /api/oauth/google/finish` (paste mode).
#[derive(Default, Deserialize, TS)]
#[serde(default, rename_all = "camelCase")]
pub struct GoogleFinishRequest {
    pub flow_id: String,
    /// The whole address the browser ended on.
    pub redirected_url: String,
}

/// The address carries the authorization code: never printed.
impl std::fmt::Debug for GoogleFinishRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GoogleFinishRequest")
            .field("flow_id", &self.flow_id)
            .field("redirected_url", &"<redacted>")
            .finish()
    }
}

#[derive(Debug, Serialize, TS)]
pub struct GoogleFinishResponse {
    pub state: OAuthFlowState,
    pub email: String,
}

async fn google_finish(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<GoogleFinishRequest>,
) -> Result<Json<GoogleFinishResponse>> {
    let oauth = state.service::<OAuth>();
    let shared = oauth.flows.of_user(user.id, &req.flow_id)?;
    let pasted = req.redirected_url.trim();
    if pasted.len() > MAX_PASTED {
        return Err(AppError::bad_request(messages::OAUTH_PASTE_INVALID));
    }
    let url = url::Url::parse(pasted)
        .map_err(|_| AppError::bad_request(messages::OAUTH_PASTE_INVALID))?;
    let returned: Returned = serde_urlencoded_pairs(&url);
    let mut flow = shared.lock().await;
    google_complete(&state, &oauth, &user, &mut flow, returned).await?;
    Ok(Json(GoogleFinishResponse {
        state: OAuthFlowState::Done,
        email: flow.email.clone(),
    }))
}

fn serde_urlencoded_pairs(url: &url::Url) -> Returned {
    let mut r = Returned::default();
    for (k, v) in url.query_pairs() {
        match k.as_ref() {
            "code" => r.code = Some(v.into_owned()),
            "state" => r.state = Some(v.into_owned()),
            "error" => r.error = Some(v.into_owned()),
            _ => {}
        }
    }
    r
}

/// `GET /api/oauth/google/callback` (redirect mode): the browser comes back from Google
/// without the app's session token (it is not a request of the app); the state names the flow
/// and its user. Redirects to the settings page with the outcome.
async fn google_callback(
    State(state): State<AppState>,
    Query(returned): Query<Returned>,
) -> Result<Response> {
    let oauth = state.service::<OAuth>();
    let base = oauth.public_url.clone().unwrap_or_default();
    let back = |outcome: std::result::Result<(), String>| {
        let location = match outcome {
            Ok(()) => format!("{base}/#/settings?oauth=done"),
            Err(message) => {
                let encoded: String =
                    url::form_urlencoded::byte_serialize(message.as_bytes()).collect();
                format!("{base}/#/settings?oauth=failed&message={encoded}")
            }
        };
        (StatusCode::SEE_OTHER, [(header::LOCATION, location)]).into_response()
    };
    let Some(shared) = returned
        .state
        .as_deref()
        .and_then(|s| oauth.flows.by_state(s))
    else {
        return Ok(back(Err(messages::OAUTH_FLOW_NOT_FOUND.into())));
    };
    let mut flow = shared.lock().await;
    let user_id = flow.user_id;
    let user = {
        let store = state.store.clone();
        tokio::task::spawn_blocking(move || crate::auth::users::get(&store, user_id))
            .await
            .map_err(AppError::internal)??
    };
    let Some(user) = user else {
        return Ok(back(Err(messages::OAUTH_FLOW_NOT_FOUND.into())));
    };
    let outcome = google_complete(&state, &oauth, &user, &mut flow, returned)
        .await
        .map_err(|e| e.user_message());
    Ok(back(outcome))
}
