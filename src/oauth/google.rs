//! Google's authorization code flow with PKCE: `/api/oauth/google/*`.
//!
//! A flow belongs to the signed-in user who started it, and only that user's session can finish
//! it. In redirect mode Google sends the browser back to the unauthenticated callback, which
//! finishes nothing: it only hands the code and the state on to the app page
//! (`#/settings?oauth=return&…`, in the fragment, which never reaches a server or a Referer).
//! The page asks which flow the state names ([`claim`]: the session's own flows only), shows
//! the user the address being connected, and finishes with its session when they confirm
//! ([`finish`]). So a consent link someone else started (a co-user who sends Dana "please
//! re-authorise Gmail") connects nothing: Dana's browser comes back to Dana's session, or to
//! none. In paste mode the user pastes the address the browser ended on into their own flow.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::OAuth;
use super::flows::{self, Flow, FlowKind, FlowState};
use super::provider::{GOOGLE_SCOPE, TokenFailure};
use super::routes::{
    OAuthFlowKind, OAuthFlowState, OAuthStartRequest, google_flow, open_flow, start_email, upstream,
};
use crate::accounts::AuthKind;
use crate::auth::CurrentUser;
use crate::auth::users::UserRecord;
use crate::error::{ApiJson, AppError, Result};
use crate::messages;
use crate::state::AppState;

/// The loopback redirect of Google's desktop-type clients (paste mode): nothing listens there;
/// the user copies the address the browser ends on.
pub const PASTE_REDIRECT_URI: &str = "http://127.0.0.1:8765/";
/// The longest pasted address.
const MAX_PASTED: usize = 8 * 1024;
/// The longest code and state taken from a returning browser.
const MAX_CODE: usize = 4096;
const MAX_STATE: usize = 256;

/// `POST /api/oauth/google/start`.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GoogleStartResponse {
    pub flow_id: String,
    pub authorize_url: String,
    pub flow: OAuthFlowKind,
    pub redirect_uri: String,
}

pub(super) async fn start(
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
    let id = open_flow(
        &oauth,
        user.id,
        email,
        AuthKind::Google,
        flows::GOOGLE_LIFETIME,
        FlowKind::Google {
            state: flow_state,
            verifier,
            redirect_uri: redirect_uri.clone(),
        },
    )?;
    Ok(Json(GoogleStartResponse {
        flow_id: id,
        authorize_url: url.into(),
        flow: flow_kind,
        redirect_uri,
    }))
}

/// What Google sent back: a code and the state, or an error.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(super) struct Returned {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

/// Finishes a Google flow with what came back: checks the state, exchanges the code (with the
/// PKCE verifier) and connects the account. A failure before the exchange leaves the flow
/// pending (another paste may follow); after it, the flow is failed.
async fn complete(
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
    // A flow is only ever reached through its user's session; checked once more here.
    if flow.user_id != user.id {
        return Err(AppError::NotFound(messages::OAUTH_NOT_YOUR_FLOW.into()));
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
        .filter(|c| !c.is_empty() && c.len() <= MAX_CODE)
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
    match super::routes::finish(state, oauth, user, flow, tokens).await {
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

/// `POST /api/oauth/google/claim`: which of the session's flows a returning browser's state
/// names, and the address it connects, for the page's confirmation. Nothing is exchanged.
#[derive(Debug, Default, Deserialize, TS)]
#[serde(default)]
pub struct GoogleClaimRequest {
    pub state: String,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GoogleClaimResponse {
    pub flow_id: String,
    /// The address the flow connects (what the user typed when they started it).
    pub email: String,
}

pub(super) async fn claim(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<GoogleClaimRequest>,
) -> Result<Json<GoogleClaimResponse>> {
    let oauth = state.service::<OAuth>();
    let not_yours = || AppError::NotFound(messages::OAUTH_NOT_YOUR_FLOW.into());
    if req.state.len() > MAX_STATE {
        return Err(not_yours());
    }
    let shared = oauth
        .flows
        .by_state(user.id, &req.state)
        .ok_or_else(not_yours)?;
    let mut flow = shared.lock().await;
    flow.check_expiry();
    if flow.state != FlowState::Pending {
        return Err(not_yours());
    }
    Ok(Json(GoogleClaimResponse {
        flow_id: flow.id.clone(),
        email: flow.email.clone(),
    }))
}

/// `POST /api/oauth/google/finish`: the pasted address (paste mode), or the code and state
/// the app page took from the callback's redirect (redirect mode, after the user confirmed).
#[derive(Default, Deserialize, TS)]
#[serde(default, rename_all = "camelCase")]
pub struct GoogleFinishRequest {
    pub flow_id: String,
    /// The whole address the browser ended on (paste mode).
    #[ts(optional)]
    pub redirected_url: Option<String>,
    /// What the callback handed to the page (redirect mode).
    #[ts(optional)]
    pub code: Option<String>,
    #[ts(optional)]
    pub state: Option<String>,
}

/// The address and the code carry the authorization code: never printed.
impl std::fmt::Debug for GoogleFinishRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GoogleFinishRequest")
            .field("flow_id", &self.flow_id)
            .field(
                "redirected_url",
                &self.redirected_url.as_ref().map(|_| "<redacted>"),
            )
            .field("code", &self.code.as_ref().map(|_| "<redacted>"))
            .field("state", &self.state)
            .finish()
    }
}

#[derive(Debug, Serialize, TS)]
pub struct GoogleFinishResponse {
    pub state: OAuthFlowState,
    pub email: String,
}

pub(super) async fn finish(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<GoogleFinishRequest>,
) -> Result<Json<GoogleFinishResponse>> {
    let oauth = state.service::<OAuth>();
    let shared = oauth.flows.of_user(user.id, &req.flow_id)?;
    let returned = match req.redirected_url.as_deref().map(str::trim) {
        Some(pasted) if !pasted.is_empty() => {
            if pasted.len() > MAX_PASTED {
                return Err(AppError::bad_request(messages::OAUTH_PASTE_INVALID));
            }
            let url = url::Url::parse(pasted)
                .map_err(|_| AppError::bad_request(messages::OAUTH_PASTE_INVALID))?;
            returned_in(&url)
        }
        _ => Returned {
            code: req.code,
            state: req.state,
            error: None,
        },
    };
    let mut flow = shared.lock().await;
    complete(&state, &oauth, &user, &mut flow, returned).await?;
    Ok(Json(GoogleFinishResponse {
        state: OAuthFlowState::Done,
        email: flow.email.clone(),
    }))
}

fn returned_in(url: &url::Url) -> Returned {
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

/// Where the callback sends the browser: the app page, with the code and the state in the
/// fragment for the page to finish with its session, or with a failure's code (the page
/// shows its own Hebrew sentence for it, never text from the address).
fn back_to_app(base: &str, returned: &Returned) -> String {
    let enc = |s: &str| url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
    let failed = |reason: &str| format!("{base}/#/settings?oauth=failed&reason={reason}");
    match returned {
        Returned { error: Some(e), .. } => failed(if e == "access_denied" {
            "denied"
        } else {
            "refused"
        }),
        Returned {
            code: Some(code),
            state: Some(state),
            ..
        } if !code.is_empty()
            && code.len() <= MAX_CODE
            && !state.is_empty()
            && state.len() <= MAX_STATE =>
        {
            format!(
                "{base}/#/settings?oauth=return&state={}&code={}",
                enc(state),
                enc(code)
            )
        }
        _ => failed("invalid"),
    }
}

/// `GET /api/oauth/google/callback` (redirect mode): the browser comes back from Google
/// without the app's session (it is not a request of the app), so nothing is finished here:
/// see the module's doc.
pub(super) async fn callback(
    State(state): State<AppState>,
    Query(returned): Query<Returned>,
) -> Response {
    let base = state
        .service::<OAuth>()
        .public_url
        .clone()
        .unwrap_or_default();
    let mut response = (
        StatusCode::SEE_OTHER,
        [(header::LOCATION, back_to_app(&base, &returned))],
    )
        .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn back(code: Option<&str>, state: Option<&str>, error: Option<&str>) -> String {
        back_to_app(
            "https://m.example",
            &Returned {
                code: code.map(str::to_string),
                state: state.map(str::to_string),
                error: error.map(str::to_string),
            },
        )
    }

    #[test]
    fn the_callback_only_hands_the_code_to_the_app_page() {
        assert_eq!(
            back(Some("4/0A b+c"), Some("st"), None),
            "https://m.example/#/settings?oauth=return&state=st&code=4%2F0A+b%2Bc"
        );
        assert_eq!(
            back(None, Some("st"), Some("access_denied")),
            "https://m.example/#/settings?oauth=failed&reason=denied"
        );
        // Google's own error text never travels on: a code the page knows.
        assert_eq!(
            back(None, Some("st"), Some("<script>hi")),
            "https://m.example/#/settings?oauth=failed&reason=refused"
        );
        for (code, state) in [
            (None, Some("st")),
            (Some("c"), None),
            (Some(""), Some("st")),
        ] {
            assert!(back(code, state, None).ends_with("oauth=failed&reason=invalid"));
        }
        let long = "x".repeat(MAX_CODE + 1);
        assert!(back(Some(&long), Some("st"), None).ends_with("reason=invalid"));
    }
}
