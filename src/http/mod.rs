//! HTTP plumbing shared by every feature: the embedded web app, authentication extractors,
//! security headers, health.

pub mod assets;

pub mod headers;

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};

use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/health", get(health))
}

async fn health(State(state): State<AppState>) -> Json<Value> {
    // A cheap read proves the store answers, not only that the process is up.
    let store_ok = state.store.schema_version().is_ok();
    Json(json!({
        "status": if store_ok { "ok" } else { "degraded" },
        "version": env!("CARGO_PKG_VERSION"),
        "schemaVersion": state.store.latest_version(),
        "webBuild": assets::WEB_BUILD_STAMP,
    }))
}
