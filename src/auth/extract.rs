//! Request extractors for authentication. Any handler that takes [`CurrentUser`],
//! [`AdminUser`] or [`Session`] is closed to anonymous callers: they get the 401 JSON error.
//! Each looks the session up once; take exactly one of them per handler.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;

use super::proxies::TrustedProxies;
use super::sessions;
use super::users::{Role, UserRecord};
use crate::error::AppError;
use crate::state::AppState;

/// The live session: its token (from `Authorization: <token>` or `Bearer <token>`) and its
/// user, for handlers that act on the session itself (logout, password change).
pub struct Session {
    pub token: String,
    pub user: UserRecord,
}

/// The signed-in user behind the request's session token.
pub struct CurrentUser(pub UserRecord);

/// The signed-in user, who must be an admin.
pub struct AdminUser(pub UserRecord);

/// The signed-in user if the request has a live session, else `None`: for a public route that
/// tells a signed-in user more (never a 401).
pub struct MaybeUser(pub Option<UserRecord>);

/// The client's address, for throttling and logs: the TCP peer, or behind a trusted proxy the
/// address it forwarded (`proxies.rs`); "unknown" when not served over TCP, as in `oneshot`
/// tests without a `ConnectInfo`.
pub struct ClientAddr(pub String);

fn bearer(parts: &Parts) -> Option<String> {
    let raw = parts.headers.get(AUTHORIZATION)?.to_str().ok()?.trim();
    let token = raw
        .strip_prefix("Bearer ")
        .or_else(|| raw.strip_prefix("bearer "))
        .unwrap_or(raw)
        .trim();
    (!token.is_empty()).then(|| token.to_string())
}

/// A session already looked up for this request (by the rate limiter, `limits.rs`).
#[derive(Clone)]
struct Authenticated(String, UserRecord);

/// Looks the request's session up and keeps it for the handler's extractor: the user's id, or
/// `None` without a live session (the extractor then answers 401).
pub(super) async fn remember_session(
    parts: &mut Parts,
    state: &AppState,
) -> Result<Option<u64>, AppError> {
    match authenticate(parts, state).await {
        Ok((token, user)) => {
            let id = user.id;
            parts.extensions.insert(Authenticated(token, user));
            Ok(Some(id))
        }
        Err(AppError::Unauthorized) => Ok(None),
        Err(e) => Err(e),
    }
}

async fn authenticate(parts: &Parts, state: &AppState) -> Result<(String, UserRecord), AppError> {
    if let Some(Authenticated(token, user)) = parts.extensions.get::<Authenticated>() {
        return Ok((token.clone(), user.clone()));
    }
    let token = bearer(parts).ok_or(AppError::Unauthorized)?;
    let idle = sessions::Lifetime::of(&state.config.auth).idle_secs;
    let live = sessions::lookup(&state.store, &token, idle)?.ok_or(AppError::Unauthorized)?;
    if live.stale {
        // Recorded off the request's path; a lost touch can only end the session sooner.
        let (store, token) = (state.store.clone(), token.clone());
        tokio::task::spawn_blocking(move || {
            if let Err(e) = sessions::touch(&store, &token) {
                tracing::warn!(error = %e, "cannot record a session's use");
            }
        });
    }
    Ok((token, live.user))
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        Ok(Self(authenticate(parts, state).await?.1))
    }
}

impl FromRequestParts<AppState> for Session {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let (token, user) = authenticate(parts, state).await?;
        Ok(Self { token, user })
    }
}

impl FromRequestParts<AppState> for AdminUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let (_, user) = authenticate(parts, state).await?;
        if user.role != Role::Admin {
            return Err(AppError::Forbidden(crate::messages::FORBIDDEN.into()));
        }
        Ok(Self(user))
    }
}

impl FromRequestParts<AppState> for MaybeUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        match authenticate(parts, state).await {
            Ok((_, user)) => Ok(Self(Some(user))),
            Err(AppError::Unauthorized) => Ok(Self(None)),
            Err(e) => Err(e),
        }
    }
}

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let addr = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(a)| {
                state
                    .service::<TrustedProxies>()
                    .client(a.ip(), &parts.headers)
                    .to_string()
            })
            .unwrap_or_else(|| "unknown".into());
        Ok(Self(addr))
    }
}
