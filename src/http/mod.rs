//! HTTP plumbing shared by every feature: the embedded web app, security headers, the
//! request timeout, a panic's Hebrew 500, health, and `serve`'s accept loop (`server.rs`). The
//! request extractors are `auth`'s (`crate::auth::extract`).

pub mod assets;
/// Compiled into a debug build only (a release build embeds the gzip `build.rs` made with it).
#[cfg(debug_assertions)]
mod bundle_gzip;

pub mod clients;
pub mod headers;
pub mod outbound;
pub mod panic;
pub mod server;
pub mod slow_body;
pub mod timeout;

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use ts_rs::TS;

use crate::auth::extract::MaybeUser;
use crate::feature::Feature;
use crate::state::AppState;

/// The health check (the web app's assets are the router's fallback, added by `app`).
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    ..Feature::named("http")
};

pub fn router() -> Router<AppState> {
    Router::new().route("/api/health", get(health))
}

/// Whether the store answered the health check's read.
#[derive(Debug, Clone, Copy, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum HealthStatus {
    Ok,
    Degraded,
}

/// `GET /api/health`. Anyone gets the status (a monitor needs no account); the version, schema
/// and build, which tell a scanner which known bugs to try, only a signed-in user.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HealthResponse {
    pub status: HealthStatus,
    /// The server's version (Cargo.toml); signed in only.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub version: Option<&'static str>,
    /// The store's latest migration; signed in only.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub schema_version: Option<u64>,
    /// Changes whenever the embedded web bundle does; signed in only.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub web_build: Option<&'static str>,
}

async fn health(State(state): State<AppState>, MaybeUser(user): MaybeUser) -> Json<HealthResponse> {
    let signed_in = user.is_some();
    // A cheap read proves the store answers, not only that the process is up.
    let store_ok = state.store.schema_version().is_ok();
    Json(HealthResponse {
        status: if store_ok {
            HealthStatus::Ok
        } else {
            HealthStatus::Degraded
        },
        version: signed_in.then_some(env!("CARGO_PKG_VERSION")),
        schema_version: signed_in.then(|| state.store.latest_version()),
        web_build: signed_in.then_some(assets::WEB_BUILD_STAMP),
    })
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(crate::error::Success, HealthStatus, HealthResponse,);
