//! `/api/templates`.

use axum::extract::{Path, State};
use axum::routing::{get, put};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::auth::CurrentUser;
use crate::emails::routes::blocking;
use crate::error::{ApiJson, AppError, Result};
use crate::messages;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/templates", get(list).post(create))
        .route("/api/templates/{id}", put(update).delete(remove))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TemplateRequest {
    name: String,
    subject: String,
    body: String,
}

fn id_of(key: &str) -> Result<u64> {
    key.parse()
        .map_err(|_| AppError::NotFound(messages::TEMPLATE_NOT_FOUND.into()))
}

async fn list(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Value>> {
    let all = blocking(&state, move |store| super::list(store, user.id)).await?;
    Ok(Json(
        json!({ "templates": all.iter().map(super::Template::json).collect::<Vec<_>>() }),
    ))
}

async fn create(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<TemplateRequest>,
) -> Result<Json<Value>> {
    let t = blocking(&state, move |store| {
        super::create(store, user.id, &req.name, &req.subject, &req.body)
    })
    .await?;
    Ok(Json(json!({ "success": true, "template": t.json() })))
}

async fn update(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(key): Path<String>,
    ApiJson(req): ApiJson<TemplateRequest>,
) -> Result<Json<Value>> {
    let id = id_of(&key)?;
    let t = blocking(&state, move |store| {
        super::update(store, user.id, id, &req.name, &req.subject, &req.body)
    })
    .await?;
    Ok(Json(json!({ "success": true, "template": t.json() })))
}

async fn remove(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(key): Path<String>,
) -> Result<Json<Value>> {
    let id = id_of(&key)?;
    blocking(&state, move |store| super::remove(store, user.id, id)).await?;
    Ok(Json(json!({ "success": true })))
}
