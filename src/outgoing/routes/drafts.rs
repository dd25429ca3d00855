//! `/api/drafts/*`: the Drafts folder as pending replies: list, save, update, delete one or
//! all, and send one.

use axum::Json;
use axum::extract::Path;
use serde::Serialize;
use ts_rs::TS;

use super::super::drafts::{self, Draft, DraftSaved, SaveRequest, UpdateRequest};
use super::{SendResponse, queued};
use crate::auth::UserStore;
use crate::error::{ApiJson, Result};
use crate::messages;

/// `GET /api/drafts`.
#[derive(Debug, Clone, Serialize, TS)]
pub struct DraftsResponse {
    pub total: usize,
    /// Newest first, then the drafts waiting in the outbox.
    pub drafts: Vec<Draft>,
}

pub(super) async fn list_drafts(me: UserStore) -> Result<Json<DraftsResponse>> {
    let drafts = me.run(drafts::list).await?;
    Ok(Json(DraftsResponse {
        total: drafts.len(),
        drafts,
    }))
}

/// `POST /api/drafts/save`: the saved draft, and that the reply panel moves on.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SaveDraftResponse {
    #[serde(flatten)]
    #[ts(flatten)]
    pub saved: DraftSaved,
    pub should_navigate: bool,
}

pub(super) async fn save_draft(
    UserStore { state, user }: UserStore,
    ApiJson(req): ApiJson<SaveRequest>,
) -> Result<Json<SaveDraftResponse>> {
    let saved = drafts::save(&state, user.id, req).await?;
    Ok(Json(SaveDraftResponse {
        saved: saved.reply(messages::DRAFT_SAVED),
        should_navigate: true,
    }))
}

/// `PUT /api/drafts/{id}`: the saved draft, with its new id also as `id`.
#[derive(Debug, Clone, Serialize, TS)]
pub struct UpdateDraftResponse {
    #[serde(flatten)]
    #[ts(flatten)]
    pub saved: DraftSaved,
    pub id: Option<String>,
}

pub(super) async fn update_draft(
    UserStore { state, user }: UserStore,
    Path(key): Path<String>,
    ApiJson(req): ApiJson<UpdateRequest>,
) -> Result<Json<UpdateDraftResponse>> {
    let saved = drafts::update(&state, user.id, &key, req).await?;
    Ok(Json(UpdateDraftResponse {
        saved: saved.reply(messages::DRAFT_UPDATED),
        id: saved.id,
    }))
}

/// `DELETE /api/drafts/{id}`.
#[derive(Debug, Clone, Serialize, TS)]
pub struct DeleteDraftResponse {
    pub success: bool,
    pub message: String,
}

pub(super) async fn delete_draft(
    UserStore { state, user }: UserStore,
    Path(key): Path<String>,
) -> Result<Json<DeleteDraftResponse>> {
    drafts::delete(&state, user.id, &key).await?;
    Ok(Json(DeleteDraftResponse {
        success: true,
        message: messages::DRAFT_DELETED.into(),
    }))
}

/// `DELETE /api/drafts/delete-all`.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DeleteAllDraftsResponse {
    pub success: bool,
    pub deleted_count: usize,
}

pub(super) async fn delete_all_drafts(
    UserStore { state, user }: UserStore,
) -> Result<Json<DeleteAllDraftsResponse>> {
    let n = drafts::delete_all(&state, user.id).await?;
    Ok(Json(DeleteAllDraftsResponse {
        success: true,
        deleted_count: n,
    }))
}

pub(super) async fn send_draft(
    UserStore { state, user }: UserStore,
    Path(key): Path<String>,
) -> Result<Json<SendResponse>> {
    let item = drafts::send(&state, user.id, &key).await?;
    Ok(Json(queued(
        &item,
        state.config.compose.undo_send_secs,
        messages::DRAFT_SENT,
    )))
}
