//! `/api/templates`.

use axum::extract::{Path, State};
use axum::routing::{get, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::TemplateView;

use crate::auth::{CurrentUser, UserStore};
use crate::error::{ApiJson, AppError, Result, Success};
use crate::messages;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/templates", get(list).post(create))
        .route("/api/templates/{id}", put(update).delete(remove))
}

/// `POST /api/templates`, `PUT /api/templates/{id}`.
#[derive(Debug, Default, Deserialize, TS)]
#[serde(default)]
pub struct TemplateRequest {
    name: String,
    subject: String,
    body: String,
}

/// `GET /api/templates`.
#[derive(Debug, Serialize, TS)]
pub struct TemplatesResponse {
    pub templates: Vec<TemplateView>,
}

/// The template as saved.
#[derive(Debug, Serialize, TS)]
pub struct TemplateResponse {
    pub success: bool,
    pub template: TemplateView,
}

impl TemplateResponse {
    fn of(t: &super::Template) -> Json<Self> {
        Json(Self {
            success: true,
            template: t.view(),
        })
    }
}

fn id_of(key: &str) -> Result<u64> {
    key.parse()
        .map_err(|_| AppError::NotFound(messages::TEMPLATE_NOT_FOUND.into()))
}

async fn list(me: UserStore) -> Result<Json<TemplatesResponse>> {
    let all = me.run(super::list).await?;
    Ok(Json(TemplatesResponse {
        templates: all.iter().map(super::Template::view).collect(),
    }))
}

async fn create(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<TemplateRequest>,
) -> Result<Json<TemplateResponse>> {
    let t = state
        .store_blocking(move |store| {
            super::create(store, user.id, &req.name, &req.subject, &req.body)
        })
        .await?;
    Ok(TemplateResponse::of(&t))
}

async fn update(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(key): Path<String>,
    ApiJson(req): ApiJson<TemplateRequest>,
) -> Result<Json<TemplateResponse>> {
    let id = id_of(&key)?;
    let t = state
        .store_blocking(move |store| {
            super::update(store, user.id, id, &req.name, &req.subject, &req.body)
        })
        .await?;
    Ok(TemplateResponse::of(&t))
}

async fn remove(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(key): Path<String>,
) -> Result<Json<Success>> {
    let id = id_of(&key)?;
    state
        .store_blocking(move |store| super::remove(store, user.id, id))
        .await?;
    Ok(Json(Success::YES))
}
