//! One error type for the whole server. Every failure becomes the same JSON shape
//! (`{success:false, error, message}`, see docs/API.md); 500s are logged with their cause and
//! answered with a clean body that leaks nothing.

use axum::Json;
use axum::extract::FromRequest;
use axum::extract::rejection::JsonRejection;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::messages;

pub type Result<T, E = AppError> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("bad request: {0}")]
    BadRequest(String),
    #[error("unauthorized")]
    Unauthorized,
    #[error("invalid credentials")]
    InvalidCredentials,
    #[error("forbidden: {0}")]
    Forbidden(String),
    #[error("not found")]
    NotFound(String),
    #[error("conflict: {0}")]
    Conflict(String),
    #[error("too many attempts, retry after {retry_after_secs}s")]
    TooManyAttempts { retry_after_secs: u64 },
    /// Mail connection tests (and mailbox logins) beyond the user's token bucket.
    #[error("too many connection tests, retry after {retry_after_secs}s")]
    TooManyConnectionTests { retry_after_secs: u64 },
    /// Too many calls of one kind by one user (`[limits]`); the message names the kind.
    #[error("rate limited, retry after {retry_after_secs}s")]
    RateLimited {
        retry_after_secs: u64,
        message: String,
    },
    /// The request took longer than `[server] request_timeout_secs`.
    #[error("request timed out")]
    Timeout,
    #[error("payload too large")]
    PayloadTooLarge,
    /// Too large, with the limit in the message (an attachment).
    #[error("too large: {0}")]
    TooLarge(String),
    /// The user's mail server could not be reached for an action that needs it now.
    #[error("mailbox unavailable: {0}")]
    MailboxUnavailable(String),
    #[error("unsupported media type")]
    UnsupportedMediaType,
    /// An AI call needs a provider key and none is stored or given.
    #[error("no AI key")]
    AiKeyMissing,
    /// The AI provider failed; the message is the call's Hebrew failure and the reason.
    #[error("ai failed: {0}")]
    AiFailed(String),
    /// A remote service (Builder.io, a form's action) failed; the message says how (Hebrew).
    #[error("upstream failed: {0}")]
    Upstream(String),
    /// A search query that cannot be read; the message says what is wrong.
    #[error("bad query: {0}")]
    BadQuery(String),
    /// A search with neither words nor a filter.
    #[error("empty query")]
    EmptyQuery,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl AppError {
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::BadRequest(message.into())
    }

    pub fn internal(err: impl Into<anyhow::Error>) -> Self {
        Self::Internal(err.into())
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Unauthorized | Self::InvalidCredentials => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::TooManyAttempts { .. }
            | Self::TooManyConnectionTests { .. }
            | Self::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Timeout => StatusCode::SERVICE_UNAVAILABLE,
            Self::PayloadTooLarge | Self::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::MailboxUnavailable(_) => StatusCode::BAD_GATEWAY,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::AiKeyMissing => StatusCode::BAD_REQUEST,
            Self::AiFailed(_) | Self::Upstream(_) => StatusCode::BAD_GATEWAY,
            Self::BadQuery(_) | Self::EmptyQuery => StatusCode::BAD_REQUEST,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::BadRequest(_) => "bad_request",
            Self::Unauthorized => "unauthorized",
            Self::InvalidCredentials => "invalid_credentials",
            Self::Forbidden(_) => "forbidden",
            Self::NotFound(_) => "not_found",
            Self::Conflict(_) => "conflict",
            Self::TooManyAttempts { .. } | Self::TooManyConnectionTests { .. } => {
                "too_many_attempts"
            }
            Self::RateLimited { .. } => "rate_limited",
            Self::Timeout => "timeout",
            Self::PayloadTooLarge | Self::TooLarge(_) => "payload_too_large",
            Self::MailboxUnavailable(_) => "mailbox_unavailable",
            Self::UnsupportedMediaType => "unsupported_media_type",
            Self::AiKeyMissing => "ai_key_missing",
            Self::AiFailed(_) => "ai_failed",
            Self::Upstream(_) => "upstream_failed",
            Self::BadQuery(_) => "bad_query",
            Self::EmptyQuery => "empty_query",
            Self::Internal(_) => "internal",
        }
    }

    /// The text for the user (Hebrew).
    pub fn user_message(&self) -> String {
        match self {
            Self::BadRequest(m)
            | Self::Forbidden(m)
            | Self::NotFound(m)
            | Self::Conflict(m)
            | Self::TooLarge(m)
            | Self::MailboxUnavailable(m)
            | Self::AiFailed(m)
            | Self::Upstream(m)
            | Self::BadQuery(m)
            | Self::RateLimited { message: m, .. } => m.clone(),
            Self::Timeout => messages::REQUEST_TIMEOUT.into(),
            Self::EmptyQuery => messages::SEARCH_EMPTY.into(),
            Self::AiKeyMissing => messages::AI_KEY_MISSING.into(),
            Self::Unauthorized => messages::LOGIN_REQUIRED.into(),
            Self::InvalidCredentials => messages::INVALID_CREDENTIALS.into(),
            Self::TooManyAttempts { retry_after_secs } => {
                messages::too_many_attempts(*retry_after_secs)
            }
            Self::TooManyConnectionTests { retry_after_secs } => {
                messages::too_many_connection_tests(*retry_after_secs)
            }
            Self::PayloadTooLarge => messages::BODY_TOO_LARGE.into(),
            Self::UnsupportedMediaType => messages::UNSUPPORTED_MEDIA.into(),
            Self::Internal(_) => messages::SERVER_ERROR.into(),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        if let Self::Internal(err) = &self {
            // The cause goes to the log only; the client gets the generic message.
            tracing::error!(error = format!("{err:#}"), "internal error");
        }
        let status = self.status();
        let mut body = json!({
            "success": false,
            "error": self.code(),
            "message": self.user_message(),
        });
        let retry = match self {
            Self::TooManyAttempts { retry_after_secs }
            | Self::TooManyConnectionTests { retry_after_secs } => Some(retry_after_secs),
            Self::RateLimited {
                retry_after_secs, ..
            } => Some(retry_after_secs),
            _ => None,
        };
        let mut response = if let Some(retry_after_secs) = retry {
            body["retryAfterSecs"] = json!(retry_after_secs);
            let mut r = (status, Json(body)).into_response();
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
            r
        } else {
            (status, Json(body)).into_response()
        };
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    }
}

impl From<JsonRejection> for AppError {
    fn from(rejection: JsonRejection) -> Self {
        match rejection {
            JsonRejection::MissingJsonContentType(_) => Self::UnsupportedMediaType,
            JsonRejection::BytesRejection(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Self::PayloadTooLarge
            }
            // The body broke off, or came too slowly (`http::slow_body`).
            JsonRejection::BytesRejection(_) => Self::BadRequest(messages::BODY_INCOMPLETE.into()),
            // Syntax errors and wrong field types alike: the detail (which field) helps the
            // developer of a client, the Hebrew sentence helps the user.
            JsonRejection::JsonDataError(e) => {
                Self::BadRequest(format!("{} ({})", messages::MALFORMED_JSON, e.body_text()))
            }
            _ => Self::BadRequest(messages::MALFORMED_JSON.into()),
        }
    }
}

// redb's error types become internal errors, so store code can use `?` directly.
macro_rules! internal_from {
    ($($t:ty),*) => {$(
        impl From<$t> for AppError {
            fn from(e: $t) -> Self {
                Self::Internal(e.into())
            }
        }
    )*};
}
internal_from!(
    redb::Error,
    redb::TransactionError,
    redb::TableError,
    redb::StorageError,
    redb::CommitError
);

/// The body of a call that only says it worked: `{ "success": true }`.
#[derive(Debug, Clone, Copy, serde::Serialize, ts_rs::TS)]
#[ts(rename = "SuccessResponse")]
pub struct Success {
    pub success: bool,
}

impl Success {
    pub const YES: Success = Success { success: true };
}

/// `Json` that rejects bad input with [`AppError`]'s shape instead of axum's plain text.
#[derive(Debug, Clone, Copy, Default, FromRequest)]
#[from_request(via(axum::Json), rejection(AppError))]
pub struct ApiJson<T>(pub T);

impl<T: serde::Serialize> IntoResponse for ApiJson<T> {
    fn into_response(self) -> Response {
        Json(self.0).into_response()
    }
}

/// `current` with the JSON `fields` put over it (the fields given change, the rest stay), as a
/// settings card saves: a field `current` does not have is `unknown(name)`, a value of the
/// wrong type is `bad(path)`. The caller checks the result's ranges.
pub fn merged<T: serde::Serialize + serde::de::DeserializeOwned>(
    current: &T,
    fields: &serde_json::Map<String, serde_json::Value>,
    unknown: impl Fn(&str) -> AppError,
    bad: impl Fn(&str) -> AppError,
) -> Result<T> {
    let mut merged = match serde_json::to_value(current).map_err(AppError::internal)? {
        serde_json::Value::Object(m) => m,
        _ => serde_json::Map::new(),
    };
    for (k, v) in fields {
        if !merged.contains_key(k) {
            return Err(unknown(k));
        }
        merged.insert(k.clone(), v.clone());
    }
    serde_path_to_error::deserialize::<_, T>(serde_json::Value::Object(merged))
        .map_err(|e| bad(&e.path().to_string()))
}
