//! `/api/subscriptions`: the senders of list and bulk mail with their 30/90-day volume, how
//! much of it the user opened and the ad detector's verdict; unsubscribing, blocking and
//! archiving one sender or many; the attempts and their results.

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::actions::{self, BlockTo};
use super::model::{AttemptItem, DAY, Item, Sender};
use super::{SENDERS, inventory};
use crate::auth::CurrentUser;
use crate::error::{ApiJson, AppError, Result};
use crate::kit::{iso, now};
use crate::mailstore::MailRead;
use crate::messages;
use crate::state::AppState;
use crate::store::Store;

/// Senders one bulk request may name.
const BULK_MAX: usize = 100;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/subscriptions", get(list))
        .route("/api/subscriptions/bulk", post(bulk))
        .route("/api/subscriptions/{id}/unsubscribe", post(unsubscribe))
        .route("/api/subscriptions/{id}/block", post(block))
        .route("/api/subscriptions/{id}/archive", post(archive))
}

fn id_of(raw: &str) -> Result<u64> {
    raw.parse()
        .map_err(|_| AppError::NotFound(messages::SUBSCRIPTION_NOT_FOUND.into()))
}

/// `GET /api/subscriptions`.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "SubscriptionsResponse")]
pub struct ListResponse {
    /// The busiest in the last 90 days first.
    pub subscriptions: Vec<Item>,
    /// Every attempt to leave a sender, newest first.
    pub attempts: Vec<AttemptItem>,
}

fn item(
    read: &MailRead,
    store: &Store,
    user_id: u64,
    s: &Sender,
    attempt: Option<AttemptItem>,
    now: i64,
) -> Result<Item> {
    let last30 = s
        .recent
        .iter()
        .filter(|(d, _)| *d >= now - 30 * DAY)
        .count();
    let mut opened = 0;
    for (_, id) in &s.recent {
        if read.meta(*id)?.is_some_and(|m| m.seen) {
            opened += 1;
        }
    }
    Ok(Item {
        id: s.id.to_string(),
        address: s.address.clone(),
        name: s.name.clone(),
        list_id: s.list_id.clone(),
        last30,
        last90: s.recent.len(),
        opened,
        verdict: s.verdict(),
        last: iso(s.last),
        one_click: s.methods.one_click.is_some(),
        mailto: s.methods.mailto.is_some(),
        link: s.methods.link.clone(),
        body_links: s.methods.body_links.clone(),
        blocked: actions::blocked(store, user_id, s)?,
        unsubscribed: s.unsubscribed.map(iso),
        attempt,
    })
}

async fn list(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<ListResponse>> {
    let now = now();
    let out = state
        .store_blocking(move |store| {
            let attempts = actions::attempts(store, user.id)?;
            let senders: Vec<Sender> = SENDERS.list(store, user.id)?;
            let read = MailRead::new(store)?;
            let mut items = Vec::new();
            for mut s in senders {
                s.recent.retain(|(d, _)| *d >= now - super::model::WINDOW);
                if s.recent.is_empty() {
                    continue;
                }
                let newest = attempts
                    .iter()
                    .find(|a| a.sender_id == s.id)
                    .map(AttemptItem::of);
                items.push(item(&read, store, user.id, &s, newest, now)?);
            }
            items.sort_by(|a, b| b.last90.cmp(&a.last90).then(b.last.cmp(&a.last)));
            Ok(ListResponse {
                subscriptions: items,
                attempts: attempts.iter().take(100).map(AttemptItem::of).collect(),
            })
        })
        .await?;
    // New mail is counted as it comes; a trigger catches up with what came meanwhile.
    state.jobs().trigger(&state, inventory::JOB);
    Ok(Json(out))
}

/// What leaving a sender gave.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "UnsubscribeResponse")]
pub struct UnsubscribeResponse {
    pub attempt: AttemptItem,
    /// Pages for the user to open (the list's page, the removal links): the server never
    /// follows them.
    pub open: Vec<String>,
    pub message: String,
}

fn message_of(a: &AttemptItem) -> String {
    use super::model::AttemptState::*;
    match a.state {
        Done => messages::UNSUBSCRIBED.into(),
        Waiting => messages::UNSUBSCRIBE_QUEUED.into(),
        Opened => messages::UNSUBSCRIBE_OPEN.into(),
        Failed => format!(
            "{}: {}",
            messages::UNSUBSCRIBE_FAILED,
            a.reason.as_deref().unwrap_or("")
        ),
    }
}

async fn leave(state: &AppState, user_id: u64, id: u64) -> Result<UnsubscribeResponse> {
    let left = actions::leave(state, user_id, id).await?;
    let attempt = AttemptItem::of(&left.attempt);
    Ok(UnsubscribeResponse {
        message: message_of(&attempt),
        attempt,
        open: left.open,
    })
}

async fn unsubscribe(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<UnsubscribeResponse>> {
    Ok(Json(leave(&state, user.id, id_of(&id)?).await?))
}

/// `POST /api/subscriptions/{id}/block`.
#[derive(Debug, Deserialize, TS)]
#[ts(rename = "BlockRequest")]
pub struct BlockRequest {
    pub to: BlockTo,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "BlockResponse")]
pub struct BlockResponse {
    /// The rule made (the rules page shows and edits it).
    pub rule_id: String,
    pub message: String,
}

async fn block(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<BlockRequest>,
) -> Result<Json<BlockResponse>> {
    let id = id_of(&id)?;
    let rule = state
        .store_blocking(move |store| actions::block(store, user.id, id, req.to))
        .await?;
    Ok(Json(BlockResponse {
        rule_id: rule.to_string(),
        message: messages::SENDER_BLOCKED.into(),
    }))
}

#[derive(Debug, Serialize, TS)]
#[ts(rename = "ArchiveSenderResponse")]
pub struct ArchiveResponse {
    pub archived: usize,
    pub message: String,
}

async fn archive(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<ArchiveResponse>> {
    let id = id_of(&id)?;
    let archived = state
        .blocking(move |state| actions::archive_all(state, user.id, id))
        .await?;
    Ok(Json(ArchiveResponse {
        archived,
        message: messages::sender_archived(archived),
    }))
}

/// `POST /api/subscriptions/bulk`.
#[derive(Debug, Deserialize, TS)]
#[ts(rename = "SubscriptionsBulkRequest")]
pub struct BulkRequest {
    pub ids: Vec<String>,
    /// unsubscribe, archive or block.
    pub action: String,
    /// For block: promotions or trash.
    #[serde(default)]
    #[ts(optional)]
    pub to: Option<BlockTo>,
}

/// One sender's result in a bulk request.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SubscriptionsBulkResult")]
pub struct BulkResult {
    pub id: String,
    pub ok: bool,
    pub message: String,
    pub attempt: Option<AttemptItem>,
    pub open: Vec<String>,
}

#[derive(Debug, Serialize, TS)]
#[ts(rename = "SubscriptionsBulkResponse")]
pub struct BulkResponse {
    pub results: Vec<BulkResult>,
}

async fn bulk(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<BulkRequest>,
) -> Result<Json<BulkResponse>> {
    if req.ids.is_empty() {
        return Err(AppError::bad_request(messages::BULK_IDS_REQUIRED));
    }
    if req.ids.len() > BULK_MAX {
        return Err(AppError::bad_request(messages::bulk_too_many(BULK_MAX)));
    }
    if !matches!(req.action.as_str(), "unsubscribe" | "archive" | "block") {
        return Err(AppError::bad_request(messages::BULK_ACTION_INVALID));
    }
    let mut results = Vec::new();
    for raw in &req.ids {
        let failed = |e: AppError| BulkResult {
            id: raw.clone(),
            ok: false,
            message: e.user_message(),
            attempt: None,
            open: Vec::new(),
        };
        let Ok(id) = id_of(raw) else {
            results.push(failed(AppError::NotFound(
                messages::SUBSCRIPTION_NOT_FOUND.into(),
            )));
            continue;
        };
        let user_id = user.id;
        let result = match req.action.as_str() {
            "unsubscribe" => leave(&state, user_id, id).await.map(|r| BulkResult {
                id: raw.clone(),
                ok: !matches!(r.attempt.state, super::model::AttemptState::Failed),
                message: r.message,
                attempt: Some(r.attempt),
                open: r.open,
            }),
            "archive" => state
                .blocking(move |state| actions::archive_all(state, user_id, id))
                .await
                .map(|n| BulkResult {
                    id: raw.clone(),
                    ok: true,
                    message: messages::sender_archived(n),
                    attempt: None,
                    open: Vec::new(),
                }),
            _ => {
                let to = req.to.unwrap_or(BlockTo::Promotions);
                state
                    .store_blocking(move |store| actions::block(store, user_id, id, to))
                    .await
                    .map(|_| BulkResult {
                        id: raw.clone(),
                        ok: true,
                        message: messages::SENDER_BLOCKED.into(),
                        attempt: None,
                        open: Vec::new(),
                    })
            }
        };
        results.push(result.unwrap_or_else(failed));
    }
    Ok(Json(BulkResponse { results }))
}
