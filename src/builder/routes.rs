//! `/api/builder/content` (the page's entry, through the server's cache) and
//! `/api/builder/form` (a form block's submission, delivered by the server).

use axum::extract::{Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use super::form::{self, Answer, Delivery, Submission};
use super::{Builder, find_block, valid_path};
use crate::auth::CurrentUser;
use crate::error::{ApiJson, AppError, Result};
use crate::messages;
use crate::outgoing::outbox::{self, Item, Kind};
use crate::outgoing::{self, Composed, Outbox, mime};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/builder/content", get(content))
        .route("/api/builder/form", post(submit))
}

crate::wire_types!(ContentResponse, form::Field, Submission, Answer);

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ContentQuery {
    url_path: String,
    /// `true` in the editor's preview (`?builder.preview=page`): skip the cache.
    #[serde(default)]
    preview: bool,
}

/// `GET /api/builder/content?urlPath=…`.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "BuilderContentResponse")]
pub struct ContentResponse {
    /// False when `[builder] api_key` is empty: the page tells the admin where to set it.
    pub configured: bool,
    /// The space's public key (the SDK is initialized with it; it never fetches by itself).
    pub api_key: String,
    /// Where the empty page's button opens the editor.
    pub editor_url: String,
    pub url_path: String,
    /// The entry (Builder's content JSON), or null when there is none for the path.
    #[ts(type = "Record<string, unknown> | null")]
    pub entry: Option<Value>,
}

async fn content(
    State(state): State<AppState>,
    CurrentUser(_user): CurrentUser,
    Query(q): Query<ContentQuery>,
) -> Result<Json<ContentResponse>> {
    if !valid_path(&q.url_path) {
        return Err(AppError::bad_request(messages::BUILDER_PATH_INVALID));
    }
    let builder = state.service::<Builder>();
    let base = |entry| ContentResponse {
        configured: builder.configured(),
        api_key: builder.config.api_key.trim().to_string(),
        editor_url: builder.config.editor_url.clone(),
        url_path: q.url_path.clone(),
        entry,
    };
    if !builder.configured() {
        return Ok(Json(base(None)));
    }
    let entry = builder.content(&q.url_path, q.preview).await?;
    Ok(Json(base(entry.map(|e| (*e).clone()))))
}

/// `POST /api/builder/form`.
async fn submit(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<Submission>,
) -> Result<Json<Answer>> {
    if !valid_path(&req.url_path) {
        return Err(AppError::bad_request(messages::BUILDER_PATH_INVALID));
    }
    form::check_fields(&req.fields)?;
    let builder = state.service::<Builder>();
    let not_found = || AppError::NotFound(messages::BUILDER_FORM_NOT_FOUND.into());
    let entry = builder
        .content(&req.url_path, false)
        .await?
        .ok_or_else(not_found)?;
    let block = find_block(&entry, &req.block_id)
        .filter(|b| b["component"]["name"].as_str() == Some("Form:Form"))
        .ok_or_else(not_found)?;
    let delivery = form::plan(&block["component"]["options"])?;
    let answer = match &delivery {
        Delivery::Email { to, name } => {
            if !to.is_empty() && !mime::valid_address(to) {
                return Err(AppError::bad_request(messages::BUILDER_FORM_BAD_EMAIL));
            }
            let mailed = if to.is_empty() {
                false
            } else {
                let (to, name, path, fields) = (
                    to.clone(),
                    name.clone(),
                    req.url_path.clone(),
                    req.fields.clone(),
                );
                state
                    .blocking(move |state| mail(state, user.id, &to, &name, &path, &fields))
                    .await?
            };
            if mailed {
                state.service::<Outbox>().wake.notify_one();
                Answer {
                    ok: true,
                    status: 200,
                    content_type: form::JSON.into(),
                    body: serde_json::json!({ "message": messages::BUILDER_FORM_MAILED })
                        .to_string(),
                    delivered_by: "mail".into(),
                }
            } else {
                builder.post_to_builder(to, name, &req.fields).await?
            }
        }
        custom => builder.post_to_action(custom, &req.fields).await?,
    };
    tracing::info!(
        url_path = req.url_path,
        block = req.block_id,
        by = answer.delivered_by,
        status = answer.status,
        "builder form delivered"
    );
    Ok(Json(answer))
}

/// Queues the submission as a mail from the user's first mailbox that can send; false when the
/// user has none.
fn mail(
    state: &AppState,
    user_id: u64,
    to: &str,
    form_name: &str,
    url_path: &str,
    fields: &[form::Field],
) -> Result<bool> {
    let store = &state.store;
    let Some(account) = crate::accounts::list_for_user(store, user_id)?
        .into_iter()
        .find(|a| !a.is_local())
    else {
        return Ok(false);
    };
    let from = outgoing::sender(store, user_id, &account);
    let title = if form_name.is_empty() {
        "Builder"
    } else {
        form_name
    };
    let mail = Composed::to_one(
        from,
        to,
        format!("טופס חדש: {title}"),
        form::mail_html(form_name, url_path, fields),
    );
    outbox::add(
        store,
        Item::new(user_id, account.id, Kind::Send, mail, outgoing::now()),
    )?;
    Ok(true)
}
