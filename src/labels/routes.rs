//! `/api/labels` (list with the default colour and the palette, create) and
//! `/api/labels/{id}` (rename or recolour, delete: the keyword comes off the user's mail).

use axum::extract::Path;
use axum::routing::{get, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::model::{self, DEFAULT_COLOR, LabelView, MAX_LABELS, MAX_NAME, PALETTE};
use crate::auth::UserStore;
use crate::error::{ApiJson, Result};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/labels", get(list).post(create))
        .route("/api/labels/{id}", put(update).delete(remove))
}

/// `GET /api/labels`: the user's labels by name, and what the web needs to show any keyword.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LabelsResponse {
    pub labels: Vec<LabelView>,
    /// The colour of a keyword with no label record (another client's tag).
    pub default_color: String,
    /// The colours the manager offers.
    pub palette: Vec<String>,
    pub max_labels: usize,
    pub max_name: usize,
}

/// `POST /api/labels` (name required) and `PUT /api/labels/{id}` (either or both).
#[derive(Debug, Default, Deserialize, TS)]
#[serde(default)]
#[ts(optional_fields)]
pub struct LabelRequest {
    pub name: Option<String>,
    /// `#rrggbb`; none: the default colour (on create), unchanged (on update).
    pub color: Option<String>,
}

/// `DELETE /api/labels/{id}`: the label is gone and its keyword came off this many mails.
#[derive(Debug, Serialize, TS)]
pub struct LabelDeleted {
    pub success: bool,
    pub unlabelled: usize,
}

fn id_of(raw: &str) -> Result<u64> {
    raw.parse().map_err(|_| model::not_found())
}

async fn list(me: UserStore) -> Result<Json<LabelsResponse>> {
    let all = me.run(model::list).await?;
    Ok(Json(LabelsResponse {
        labels: all.iter().map(LabelView::from).collect(),
        default_color: DEFAULT_COLOR.to_string(),
        palette: PALETTE.iter().map(|c| c.to_string()).collect(),
        max_labels: MAX_LABELS,
        max_name: MAX_NAME,
    }))
}

async fn create(me: UserStore, ApiJson(req): ApiJson<LabelRequest>) -> Result<Json<LabelView>> {
    let l = me
        .run(move |store, user| {
            let name = req.name.unwrap_or_default();
            model::create(store, user, &name, req.color.as_deref())
        })
        .await?;
    Ok(Json(LabelView::from(&l)))
}

async fn update(
    me: UserStore,
    Path(raw): Path<String>,
    ApiJson(req): ApiJson<LabelRequest>,
) -> Result<Json<LabelView>> {
    let id = id_of(&raw)?;
    let l = me
        .run(move |store, user| {
            model::update(store, user, id, req.name.as_deref(), req.color.as_deref())
        })
        .await?;
    Ok(Json(LabelView::from(&l)))
}

/// Deletes the label and takes its keyword off the user's mail (a rule that adds it keeps the
/// keyword, shown by itself, until the rule is changed).
async fn remove(me: UserStore, Path(raw): Path<String>) -> Result<Json<LabelDeleted>> {
    let id = id_of(&raw)?;
    let (accounts, unlabelled) = me
        .run(move |store, user| {
            let label: model::Label = super::schema::LABELS
                .get(store, user, id)?
                .ok_or_else(model::not_found)?;
            let done = super::mail::remove_keyword(store, user, &label.keyword)?;
            super::schema::LABELS.remove(store, user, id)?;
            Ok(done)
        })
        .await?;
    for a in accounts {
        me.state.mailboxes.wake(a);
    }
    Ok(Json(LabelDeleted {
        success: true,
        unlabelled,
    }))
}
