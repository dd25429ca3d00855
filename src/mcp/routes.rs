//! The settings page's side of the agent API: `/api/mcp/tokens` (list, create: the secret is
//! answered once), `/api/mcp/tokens/{id}` (revoke) and `/api/mcp/tokens/{id}/calls` (the
//! token's call log). All of them the signed-in user's own: another user's token id is a 404.

use axum::extract::{Path, State};
use axum::routing::{delete, get};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::calls::{self, CallView};
use super::tokens::{self, Scope, TokenRecord};
use super::transport::ENDPOINT;
use crate::auth::CurrentUser;
use crate::error::{ApiJson, AppError, Result};
use crate::kit::iso;
use crate::messages;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/mcp/tokens", get(list).post(create))
        .route("/api/mcp/tokens/{id}", delete(revoke))
        .route("/api/mcp/tokens/{id}/calls", get(calls_of))
}

/// A token as the settings page shows it (never its secret).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct McpToken {
    pub id: String,
    pub name: String,
    pub scopes: Vec<Scope>,
    /// RFC 3339.
    pub created_at: String,
    pub last_used_at: Option<String>,
    pub calls: u64,
    pub revoked_at: Option<String>,
}

impl From<TokenRecord> for McpToken {
    fn from(r: TokenRecord) -> Self {
        Self {
            id: r.id.to_string(),
            name: r.name,
            scopes: r.scopes,
            created_at: iso(r.created),
            last_used_at: r.last_used.map(iso),
            calls: r.calls,
            revoked_at: r.revoked.map(iso),
        }
    }
}

/// `GET /api/mcp/tokens`.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct McpTokensResponse {
    pub tokens: Vec<McpToken>,
    /// The endpoint's path on this server (`/mcp`).
    pub endpoint: String,
}

/// `POST /api/mcp/tokens`.
#[derive(Debug, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct McpTokenRequest {
    pub name: String,
    pub scopes: Vec<Scope>,
}

/// The new token, with its secret: shown once, never again.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct McpTokenCreated {
    pub token: McpToken,
    pub secret: String,
}

#[derive(Debug, Serialize, TS)]
pub struct McpTokenRevoked {
    pub success: bool,
}

/// `GET /api/mcp/tokens/{id}/calls`: newest first.
#[derive(Debug, Serialize, TS)]
pub struct McpCallsResponse {
    pub calls: Vec<CallView>,
}

fn not_found() -> AppError {
    AppError::NotFound(messages::MCP_TOKEN_NOT_FOUND.into())
}

fn id_of(raw: &str) -> Result<u64> {
    raw.parse().map_err(|_| not_found())
}

async fn list(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<McpTokensResponse>> {
    let tokens = state
        .store_blocking(move |store| tokens::list(store, user.id))
        .await?;
    Ok(Json(McpTokensResponse {
        tokens: tokens.into_iter().map(McpToken::from).collect(),
        endpoint: ENDPOINT.into(),
    }))
}

async fn create(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<McpTokenRequest>,
) -> Result<Json<McpTokenCreated>> {
    if req.scopes.len() > 8 {
        return Err(AppError::bad_request(messages::MCP_TOKEN_SCOPES_REQUIRED));
    }
    let (secret, rec) = state
        .store_blocking(move |store| tokens::create(store, user.id, &req.name, &req.scopes))
        .await?;
    Ok(Json(McpTokenCreated {
        token: rec.into(),
        secret,
    }))
}

async fn revoke(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<McpTokenRevoked>> {
    let id = id_of(&id)?;
    if !state
        .store_blocking(move |store| tokens::revoke(store, user.id, id))
        .await?
    {
        return Err(not_found());
    }
    Ok(Json(McpTokenRevoked { success: true }))
}

async fn calls_of(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<McpCallsResponse>> {
    let id = id_of(&id)?;
    let calls = state
        .store_blocking(move |store| {
            tokens::get(store, user.id, id)?.ok_or_else(not_found)?;
            calls::of_token(store, user.id, id)
        })
        .await?;
    Ok(Json(McpCallsResponse { calls }))
}
