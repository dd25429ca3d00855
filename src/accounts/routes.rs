//! `/api/auth/*` (mailbox login, test, logout, accounts), `/api/providers`, `/api/sync/*`.

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use super::limit::ConnectionTests;
use super::providers::{DetectProviderResponse, ProvidersResponse};
use super::{Account, AccountRecord, Settings, address};
use crate::auth::CurrentUser;
use crate::crypto::Secret;
use crate::error::{ApiJson, AppError, Result};
use crate::mail::net::{FailureKind, MailError};
use crate::mail::providers::{self, PROVIDERS};
use crate::mail::servers::{MailServers, Protocol};
use crate::mail::tls::normalize_fingerprint;
use crate::mail::{Credential, imap, smtp};
use crate::messages;
use crate::state::{AppState, SyncStatus};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/auth/login", post(login))
        .route("/api/auth/test-connection", post(test_connection))
        .route("/api/auth/logout", post(logout))
        .route("/api/auth/accounts", get(list_accounts))
        .route("/api/providers", get(list_providers))
        .route("/api/providers/detect", get(detect_provider))
        .route("/api/sync/refresh", post(refresh))
}

/// The mail account fields (spec 000 §3), in the spec's snake_case or the settings page's
/// camelCase; ports as numbers or strings; SSL as booleans or strings. The TypeScript type is
/// the web's form (snake_case); the other spellings stay accepted.
#[derive(Debug, Default, Deserialize, TS)]
#[serde(default)]
#[ts(rename = "MailAccountRequest")]
pub struct ConnectRequest {
    #[serde(alias = "email_address", alias = "emailAddress")]
    #[ts(rename = "email_address")]
    pub(crate) email: String,
    /// Empty: the password already saved for this address.
    #[ts(type = "string")]
    pub(crate) password: Secret,
    #[serde(alias = "imapServer")]
    imap_server: String,
    #[serde(alias = "imapPort")]
    #[ts(type = "number | string")]
    imap_port: Value,
    #[serde(alias = "imapSsl")]
    #[ts(type = "boolean | string")]
    imap_ssl: Value,
    #[serde(alias = "smtpServer")]
    smtp_server: String,
    #[serde(alias = "smtpPort")]
    #[ts(type = "number | string")]
    smtp_port: Value,
    #[serde(alias = "smtpSsl")]
    #[ts(type = "boolean | string")]
    smtp_ssl: Value,
    /// A certificate fingerprint the user accepted after seeing it.
    #[serde(alias = "imapFingerprint")]
    #[ts(optional)]
    imap_fingerprint: Option<String>,
    #[serde(alias = "smtpFingerprint")]
    #[ts(optional)]
    smtp_fingerprint: Option<String>,
}

fn port(v: &Value, default: u16) -> Result<u16> {
    let n = match v {
        Value::Null => return Ok(default),
        Value::Number(n) => n.as_u64(),
        Value::String(s) if s.trim().is_empty() => return Ok(default),
        Value::String(s) => s.trim().parse::<u64>().ok(),
        _ => None,
    };
    match n {
        Some(n @ 1..=65535) => Ok(n as u16),
        _ => Err(AppError::bad_request(messages::MAIL_PORT_INVALID)),
    }
}

fn flag(v: &Value, default: bool) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::String(s) => matches!(
            s.trim().to_ascii_lowercase().as_str(),
            "true" | "1" | "yes" | "on" | "ssl" | "tls"
        ),
        Value::Number(n) => n.as_u64() == Some(1),
        _ => default,
    }
}

/// Validates a request. An empty password means "the one already saved for this address".
pub(crate) fn settings(state: &AppState, user_id: u64, req: ConnectRequest) -> Result<Settings> {
    let email = address::normalize(&req.email)
        .ok_or_else(|| AppError::bad_request(messages::MAIL_EMAIL_INVALID))?;
    let detected = providers::detect(&email);
    let detected = detected.map(|d| d.servers);
    let imap_server = non_empty(&req.imap_server)
        .or_else(|| detected.as_ref().map(|d| d.imap_server.clone()))
        .ok_or_else(|| AppError::bad_request(messages::MAIL_SERVER_REQUIRED))?;
    let smtp_server = non_empty(&req.smtp_server)
        .or_else(|| detected.as_ref().map(|d| d.smtp_server.clone()))
        .ok_or_else(|| AppError::bad_request(messages::MAIL_SERVER_REQUIRED))?;
    // Missing port or SSL fields come from the provider table (Outlook's SMTP is 587 with
    // STARTTLS, not the generic 465).
    let imap_ssl = flag(&req.imap_ssl, detected.as_ref().is_none_or(|d| d.imap_ssl));
    let smtp_ssl = flag(&req.smtp_ssl, detected.as_ref().is_none_or(|d| d.smtp_ssl));
    let default_imap_port = match &detected {
        Some(d) if d.imap_ssl == imap_ssl => d.imap_port,
        _ if imap_ssl => 993,
        _ => 143,
    };
    let default_smtp_port = match &detected {
        Some(d) if d.smtp_ssl == smtp_ssl => d.smtp_port,
        _ if smtp_ssl => 465,
        _ => 587,
    };
    let servers = MailServers {
        imap_server,
        imap_port: port(&req.imap_port, default_imap_port)?,
        imap_ssl,
        smtp_server,
        smtp_port: port(&req.smtp_port, default_smtp_port)?,
        smtp_ssl,
    };
    let pin = |f: Option<&str>| f.map(normalize_fingerprint).filter(|f| !f.is_empty());
    let imap_fingerprint = pin(req.imap_fingerprint.as_deref());
    let smtp_fingerprint = pin(req.smtp_fingerprint.as_deref());
    let mut household = false;
    let password = if req.password.is_empty() {
        let existing = super::find_by_email(&state.store, user_id, &email)?
            .ok_or_else(|| AppError::bad_request(messages::MAIL_PASSWORD_REQUIRED))?;
        // An OAuth account has no password to reuse (its secret is a refresh token).
        if existing.auth.is_oauth() {
            return Err(AppError::bad_request(messages::MAIL_PASSWORD_REQUIRED));
        }
        // The saved password goes only to the servers it was saved for: a request that names
        // other servers must carry the password itself.
        if !existing.servers.same_as(&servers) {
            return Err(AppError::bad_request(messages::MAIL_PASSWORD_REQUIRED));
        }
        // Nor to another certificate: a pinned fingerprint replaces the chain check, so a new
        // one could be anybody's. Accepting it takes the password again.
        let same_certificates = existing.imap_fingerprint == imap_fingerprint
            && existing.smtp_fingerprint == smtp_fingerprint;
        if !same_certificates {
            return Err(AppError::bad_request(
                messages::MAIL_PASSWORD_REQUIRED_NEW_CERT,
            ));
        }
        // The household's password stays the household's when reused.
        household = existing.from_household;
        existing.password(&state.key).map_err(AppError::internal)?
    } else {
        req.password.into_inner()
    };
    super::validated(Settings {
        email,
        password,
        servers,
        imap_fingerprint,
        smtp_fingerprint,
        auth: super::AuthKind::Password,
        household,
    })
}

/// Spends one of the user's tries at making the server connect to mail servers (`limit.rs`):
/// a connection test, a mailbox login, a restored mailbox. The 429 when none is left.
pub(crate) fn spend_try(state: &AppState, user_id: u64) -> Result<()> {
    state
        .service::<ConnectionTests>()
        .take(user_id)
        .map_err(|retry_after_secs| AppError::TooManyConnectionTests { retry_after_secs })
}

fn non_empty(s: &str) -> Option<String> {
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

pub(crate) type Checked = (
    std::result::Result<(), MailError>,
    std::result::Result<(), MailError>,
);

/// Logs in to IMAP and authenticates to SMTP, side by side, when the user has a try left
/// (`limit.rs`): with the password of `s`, or with `credential` when given (an OAuth access
/// token).
pub(crate) async fn check(
    state: &AppState,
    user_id: u64,
    s: &Settings,
    credential: Option<&Credential>,
) -> Result<Checked> {
    let password = Credential::Password(s.password.clone());
    let credential = credential.unwrap_or(&password);
    spend_try(state, user_id)?;
    let timeout = state.mail_timeout;
    let tls = &state.tls;
    let (servers, hosts) = (&s.servers, &state.mail_hosts);
    let imap_ep = servers.endpoint(Protocol::Imap, s.imap_fingerprint.clone(), timeout, hosts);
    let smtp_ep = servers.endpoint(Protocol::Smtp, s.smtp_fingerprint.clone(), timeout, hosts);
    let imap_check = async {
        let mut session = imap::open_with(tls, &imap_ep, &s.email, credential).await?;
        let _ = session.logout().await;
        Ok(())
    };
    let smtp_check = async {
        let conn = smtp::SmtpConn::open_with(tls, &smtp_ep, &s.email, credential).await?;
        conn.quit().await;
        Ok(())
    };
    let (imap_r, smtp_r): Checked = tokio::join!(imap_check, smtp_check);
    if imap_r.is_err() || smtp_r.is_err() {
        tracing::info!(
            imap = ?imap_r.as_ref().err().map(|e| (&e.kind, &e.detail)),
            smtp = ?smtp_r.as_ref().err().map(|e| (&e.kind, &e.detail)),
            "mailbox connection failed"
        );
    }
    Ok((imap_r, smtp_r))
}

/// The result of connecting to one server (IMAP or SMTP): only `ok` when it worked.
#[derive(Debug, Serialize, TS)]
pub struct ServerCheck {
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub kind: Option<FailureKind>,
    /// Hebrew, ready to show.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub message: Option<String>,
    /// Technical detail (English, from the server or the library).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub detail: Option<String>,
    /// The untrusted certificate's fingerprint ("AB:CD:…"): absent when the check passed,
    /// null on a failure that was not about the certificate.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fingerprint: Option<Option<String>>,
}

impl From<&std::result::Result<(), MailError>> for ServerCheck {
    fn from(r: &std::result::Result<(), MailError>) -> Self {
        match r {
            Ok(()) => Self {
                ok: true,
                kind: None,
                message: None,
                detail: None,
                fingerprint: None,
            },
            Err(e) => Self {
                ok: false,
                kind: Some(e.kind),
                message: Some(e.message.clone()),
                detail: Some(e.detail.clone()),
                fingerprint: Some(e.fingerprint.clone()),
            },
        }
    }
}

/// The 200 of test-connection, and the body of its (and login's) 422
/// `mail_connection_failed`.
#[derive(Debug, Serialize, TS)]
pub struct ConnectionResult {
    pub success: bool,
    /// `mail_connection_failed` on the 422.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<&'static str>,
    pub message: String,
    pub imap: ServerCheck,
    pub smtp: ServerCheck,
}

fn failure_response(
    imap: &std::result::Result<(), MailError>,
    smtp: &std::result::Result<(), MailError>,
) -> Response {
    let first = imap.as_ref().err().or(smtp.as_ref().err());
    let message = first.map(|e| e.message.clone()).unwrap_or_default();
    (
        StatusCode::UNPROCESSABLE_ENTITY,
        Json(ConnectionResult {
            success: false,
            error: Some("mail_connection_failed"),
            message,
            imap: imap.into(),
            smtp: smtp.into(),
        }),
    )
        .into_response()
}

/// `POST /api/auth/login`: the account connected.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MailLoginResponse {
    pub success: bool,
    pub session_id: String,
    pub message: &'static str,
    pub account: Account,
}

/// `POST /api/auth/login`: connects the signed-in user's mailbox and starts syncing it.
async fn login(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<ConnectRequest>,
) -> Result<Response> {
    let s = settings(&state, user.id, req)?;
    connect(&state, &user, s).await
}

/// Checks IMAP and SMTP with `s`, then saves the account and starts its sync: the 200 of a
/// mailbox login, or its 422 with each server's result.
pub(crate) async fn connect(
    state: &AppState,
    user: &crate::auth::users::UserRecord,
    s: Settings,
) -> Result<Response> {
    let record = match check_and_save(state, user, s, None, None).await? {
        Ok(record) => record,
        Err((imap_r, smtp_r)) => return Ok(failure_response(&imap_r, &smtp_r)),
    };
    Ok(Json(MailLoginResponse {
        success: true,
        session_id: record.id.to_string(),
        message: messages::MAIL_CONNECTED,
        account: Account::from(&record),
    })
    .into_response())
}

/// Checks IMAP and SMTP (with `credential`, else the password of `s`), then saves the account
/// and starts its sync; the two checks when either failed.
pub(crate) async fn check_and_save(
    state: &AppState,
    user: &crate::auth::users::UserRecord,
    s: Settings,
    credential: Option<&Credential>,
    on_saved: Option<&(dyn Fn(&AccountRecord) + Sync)>,
) -> Result<std::result::Result<AccountRecord, Checked>> {
    let s = super::validated(s)?;
    let max = state.config.mail.max_accounts_per_user;
    // A mailbox that could not be saved is refused before any connection (and checked again
    // in the save's write).
    let mine = super::list_for_user(&state.store, user.id)?;
    if mine.len() >= max && !mine.iter().any(|a| a.email.eq_ignore_ascii_case(&s.email)) {
        return Err(AppError::bad_request(messages::mailboxes_full(max)));
    }
    let (imap_r, smtp_r) = check(state, user.id, &s, credential).await?;
    if imap_r.is_err() || smtp_r.is_err() {
        return Ok(Err((imap_r, smtp_r)));
    }
    let record = super::save(&state.store, &state.key, user.id, &s, max)?;
    tracing::info!(user = %user.username, account = record.id, auth = record.auth.name(), "mailbox connected");
    if let Some(f) = on_saved {
        f(&record);
    }
    state.mailboxes.start(record.id);
    Ok(Ok(record))
}

/// `POST /api/auth/test-connection`: the same checks, nothing saved.
async fn test_connection(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<ConnectRequest>,
) -> Result<Response> {
    let s = settings(&state, user.id, req)?;
    let (imap_r, smtp_r) = check(&state, user.id, &s, None).await?;
    if imap_r.is_err() || smtp_r.is_err() {
        return Ok(failure_response(&imap_r, &smtp_r));
    }
    Ok(Json(ConnectionResult {
        success: true,
        error: None,
        message: messages::MAIL_CONNECTED.to_string(),
        imap: (&imap_r).into(),
        smtp: (&smtp_r).into(),
    })
    .into_response())
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct LogoutRequest {
    #[serde(alias = "session_id", alias = "accountId")]
    #[serde(rename = "sessionId")]
    session_id: Option<Value>,
}

/// `POST /api/auth/logout`: how many accounts were forgotten.
#[derive(Debug, Serialize, TS)]
pub struct MailLogoutResponse {
    pub success: bool,
    pub removed: usize,
    pub message: &'static str,
}

/// `POST /api/auth/logout`: stops syncing and forgets the account: its sealed password and
/// its cached mail. Without a session id, every account of the user.
async fn logout(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: axum::body::Bytes,
) -> Result<Json<MailLogoutResponse>> {
    // The body is optional: no body (or `{}`) logs out of every mailbox.
    let request: LogoutRequest = if body.iter().all(u8::is_ascii_whitespace) {
        LogoutRequest::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|_| AppError::bad_request(messages::MALFORMED_JSON))?
    };
    // Only a missing session id means "every mailbox": a malformed one is an error, never a
    // reason to delete them all.
    let not_found = || AppError::NotFound(messages::MAIL_ACCOUNT_NOT_FOUND.into());
    let wanted: Option<u64> = match request.session_id {
        None => None,
        Some(Value::String(s)) => Some(s.trim().parse().map_err(|_| not_found())?),
        Some(Value::Number(n)) => Some(n.as_u64().ok_or_else(not_found)?),
        Some(_) => return Err(AppError::bad_request(messages::MALFORMED_JSON)),
    };
    let targets: Vec<AccountRecord> = match wanted {
        Some(id) => vec![super::get_owned(&state.store, user.id, id)?],
        None => super::list_for_user(&state.store, user.id)?,
    };
    let removed = targets.len();
    let (store, forget) = (state.store.clone(), state.forget.clone());
    tokio::task::spawn_blocking(move || -> Result<()> {
        for account in &targets {
            forget.account(&store, account.id)?;
        }
        Ok(())
    })
    .await
    .map_err(AppError::internal)??;
    Ok(Json(MailLogoutResponse {
        success: true,
        removed,
        message: messages::MAIL_LOGGED_OUT,
    }))
}

/// An account with its sync status (null when no sync task runs for it).
#[derive(Debug, Serialize, TS)]
#[ts(rename = "MailAccountWithSync")]
pub struct AccountWithSync {
    #[serde(flatten)]
    #[ts(flatten)]
    pub account: Account,
    pub sync: Option<SyncStatus>,
}

/// `GET /api/auth/accounts`.
#[derive(Debug, Serialize, TS)]
pub struct MailAccountsResponse {
    pub success: bool,
    pub accounts: Vec<AccountWithSync>,
}

/// `GET /api/auth/accounts`: the user's mailboxes with their sync status.
async fn list_accounts(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<MailAccountsResponse>> {
    let accounts = super::list_for_user(&state.store, user.id)?
        .iter()
        .map(|r| AccountWithSync {
            account: Account::from(r),
            sync: state.mailboxes.status(r.id),
        })
        .collect();
    Ok(Json(MailAccountsResponse {
        success: true,
        accounts,
    }))
}

async fn list_providers(_user: CurrentUser) -> Json<ProvidersResponse> {
    Json(ProvidersResponse {
        providers: PROVIDERS.to_vec(),
    })
}

#[derive(Deserialize)]
struct DetectQuery {
    #[serde(default)]
    email: String,
}

async fn detect_provider(
    _user: CurrentUser,
    Query(q): Query<DetectQuery>,
) -> Result<Json<DetectProviderResponse>> {
    let email = address::normalize(&q.email)
        .ok_or_else(|| AppError::bad_request(messages::MAIL_EMAIL_INVALID))?;
    let detected = providers::detect(&email)
        .ok_or_else(|| AppError::bad_request(messages::MAIL_EMAIL_INVALID))?;
    Ok(Json(DetectProviderResponse {
        email,
        provider: detected,
    }))
}

/// `POST /api/sync/refresh`: how many accounts were asked to sync.
#[derive(Debug, Serialize, TS)]
pub struct SyncRefreshResponse {
    pub success: bool,
    pub accounts: usize,
}

/// `POST /api/sync/refresh`: sync the user's mailboxes now.
async fn refresh(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<SyncRefreshResponse>> {
    let accounts = super::list_for_user(&state.store, user.id)?;
    for a in &accounts {
        state.mailboxes.wake(a.id);
    }
    Ok(Json(SyncRefreshResponse {
        success: true,
        accounts: accounts.len(),
    }))
}
