//! The agent API: a Model Context Protocol server over the user's own mailbox, at `/mcp` on the
//! same server (the Streamable HTTP transport of revision 2026-07-28, and the handshake
//! revisions 2025-03-26 to 2025-11-25). An agent (Claude Desktop, an IDE, a script) calls it
//! with a token the user made on the settings page; each token has scopes (reading and search,
//! triage, drafts) and none lets an agent send: it writes a draft, a person sends it. Every
//! call is logged for its token, rate-limited per user, bounded in what it returns and scoped
//! to the token's user; mail text goes back as data under a notice, never as instructions.
//!
//! - `tokens`: the tokens (hashed) and their scopes; `calls`: each token's call log.
//! - `transport`: `POST /mcp` (origin, token, limit, the revisions' headers and envelope).
//! - `protocol`: the methods; `tools`: the tools; `resources`: folders and counts.
//! - `routes`: `/api/mcp/tokens*` for the settings page.
//!
//! Tokens are forgotten with the user and not put in settings backups: a token is a credential
//! of this install (only its hash is here), and a backup restored elsewhere, or here after a
//! revocation, must not bring a working credential back. The user makes new ones in a minute.

mod calls;
mod protocol;
mod resources;
pub mod routes;
pub mod tokens;
mod tools;
pub mod transport;

use axum::Router;
use redb::WriteTransaction;

use crate::feature::{Feature, need};
use crate::forget::{self, Step};
use crate::state::AppState;

/// The agent API: its endpoint, the settings page's routes, and the forget step of the tokens
/// and their log.
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    forget: &[Step {
        name: "agent tokens",
        account: forget::nothing,
        user: forget_user,
    }],
    needs: &[
        need::<crate::auth::limits::RateLimits>,
        need::<crate::search::Search>,
    ],
    ..Feature::named("mcp")
};

pub fn router() -> Router<AppState> {
    routes::router().merge(transport::router())
}

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    tokens::create_tables(txn)?;
    calls::create_tables(txn)
}

pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    tokens::forget_user(txn, user_id)?;
    calls::forget_user(txn, user_id)
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    tokens::Scope,
    routes::McpToken,
    routes::McpTokensResponse,
    routes::McpTokenRequest,
    routes::McpTokenCreated,
    routes::McpTokenRevoked,
    calls::CallView,
    routes::McpCallsResponse,
);
