//! `/api/emails/send`, `/api/outbox/*`, `/api/drafts/*`, `/api/attachments`, `/api/compose/*`
//! (docs/API.md "Sending, drafts, outbox").

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, header};
use axum::routing::{delete, get, post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::Outbox;
use super::contacts::{self, ComposeContact};
use super::drafts::{self, Draft, DraftSaved, SaveRequest, UpdateRequest};
use super::outbox::{self, Item, Kind, OutboxItem, OutboxMail};
use super::request::{self, MailRequest};
use super::uploads::{self, UploadedAttachment};
use super::{deliver, iso, now};
use crate::auth::CurrentUser;
use crate::error::{ApiJson, AppError, Result, Success};
use crate::messages;
use crate::state::{AppState, MailChange};

/// A mail with a pasted image can be far above axum's 2 MB default.
const JSON_LIMIT: usize = 16 << 20;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/emails/send", post(send))
        .route("/api/outbox", get(list_outbox))
        .route("/api/outbox/{id}", put(edit_outbox).delete(cancel_outbox))
        .route("/api/outbox/{id}/undo", post(undo))
        .route("/api/outbox/{id}/retry", post(retry))
        .route("/api/attachments", post(upload))
        .route("/api/attachments/{id}", delete(remove_upload))
        .route("/api/drafts", get(list_drafts))
        .route("/api/drafts/save", post(save_draft))
        .route("/api/drafts/delete-all", delete(delete_all_drafts))
        .route("/api/drafts/{id}", put(update_draft).delete(delete_draft))
        .route("/api/drafts/{id}/send", post(send_draft))
        .route("/api/compose/recent-contacts", get(recent_contacts))
        .layer(DefaultBodyLimit::max(JSON_LIMIT))
}

fn id_of(key: &str) -> Result<u64> {
    key.parse()
        .map_err(|_| AppError::NotFound(messages::OUTBOX_NOT_FOUND.into()))
}

/// What a send answers: queued (enough for the undo toast), or, for `folder: "drafts"`, the
/// saved draft. Each key is absent when that outcome does not have it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SendResponse {
    pub success: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub outbox_id: Option<String>,
    /// RFC 3339: when it goes out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub send_at: Option<String>,
    /// 0 for a scheduled mail.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub undo_seconds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub scheduled: Option<bool>,
    /// A scheduled mail: whether its copy is in Drafts; a draft: whether the mailbox has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub saved_in_gmail: Option<bool>,
    /// A draft: its id, null when the sync does not know it yet.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub draft_id: Option<Option<String>>,
    pub message: String,
}

impl From<DraftSaved> for SendResponse {
    fn from(d: DraftSaved) -> Self {
        Self {
            success: d.success,
            outbox_id: None,
            send_at: None,
            undo_seconds: None,
            scheduled: None,
            saved_in_gmail: Some(d.saved_in_gmail),
            draft_id: Some(d.draft_id),
            message: d.message,
        }
    }
}

/// What a queued send answers: enough for the undo toast.
fn queued(item: &Item, undo_secs: u64, message: &str) -> SendResponse {
    SendResponse {
        success: true,
        outbox_id: Some(item.id.to_string()),
        send_at: Some(iso(item.send_at)),
        undo_seconds: Some(if item.scheduled { 0 } else { undo_secs }),
        scheduled: Some(item.scheduled),
        saved_in_gmail: None,
        draft_id: None,
        message: message.to_string(),
    }
}

/// `POST /api/emails/send`: now (after the undo delay), at a scheduled time, or as a draft.
async fn send(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<MailRequest>,
) -> Result<Json<SendResponse>> {
    let user_id = user.id;
    let schedule = req.schedule(now())?;
    let draft = req.wants_draft() && schedule.is_none();
    let from = req.from.clone();
    let original = request::id_of(&req.original_id);
    let limits = uploads::Limits::from(&state.config.compose);
    let (account, mail) = state
        .store_blocking(move |store| {
            let account = super::sending_account(store, user_id, from.as_deref(), original)?;
            let mail = request::compose(
                store,
                user_id,
                super::sender(store, user_id, &account),
                &req,
                draft,
                &limits,
            )?;
            Ok((account, mail))
        })
        .await?;
    if draft {
        let saved = drafts::store_draft(&state, &account, user_id, mail, None).await?;
        return Ok(Json(saved.reply(messages::DRAFT_SAVED).into()));
    }
    let undo = state.config.compose.undo_send_secs;
    let mut item = Item::new(
        user_id,
        account.id,
        Kind::Send,
        mail.clone(),
        super::undo_deadline(undo),
    );
    let mut saved_in_mailbox = None;
    if let Some(at) = schedule {
        // A scheduled mail waits in Drafts too, where the user's other clients see it. When the
        // mailbox cannot take the copy now, the mail is still scheduled (from the outbox).
        item.send_at = at;
        item.scheduled = true;
        match drafts::append_draft(&state, &account, user_id, &mail, None).await {
            Ok(place) => item.draft_copy = Some(place),
            Err(e) => {
                tracing::warn!(error = %format!("{e:#}"), "a scheduled mail without its copy in Drafts")
            }
        }
        saved_in_mailbox = Some(item.draft_copy.is_some());
    }
    let item = state
        .store_blocking(move |store| outbox::add(store, item))
        .await?;
    state.service::<Outbox>().wake.notify_one();
    deliver::notify(&state, user_id, account.id, MailChange::Outbox);
    let message = if item.scheduled {
        messages::MAIL_SCHEDULED
    } else {
        messages::MAIL_QUEUED
    };
    Ok(Json(SendResponse {
        saved_in_gmail: saved_in_mailbox,
        ..queued(&item, undo, message)
    }))
}

/// `GET /api/outbox`.
#[derive(Debug, Clone, Serialize, TS)]
pub struct OutboxResponse {
    /// Newest first.
    pub items: Vec<OutboxItem>,
}

async fn list_outbox(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<OutboxResponse>> {
    let items = state
        .store_blocking(move |store| {
            let items = outbox::list(store, user.id)?;
            Ok(items.iter().map(|i| i.view(store)).collect())
        })
        .await?;
    Ok(Json(OutboxResponse { items }))
}

/// `PUT /api/outbox/{id}`: the item as it now is, or, when the mail became a draft (it left
/// the outbox), `item: null` and the saved draft's keys.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UpdateOutboxResponse {
    pub success: bool,
    pub item: Option<OutboxItem>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub saved_in_gmail: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub draft_id: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub message: Option<String>,
}

impl From<DraftSaved> for UpdateOutboxResponse {
    fn from(d: DraftSaved) -> Self {
        Self {
            success: d.success,
            item: None,
            saved_in_gmail: Some(d.saved_in_gmail),
            draft_id: Some(d.draft_id),
            message: Some(d.message),
        }
    }
}

/// `PUT /api/outbox/{id}`: the compose page with `outboxId` changes a mail that has not gone.
/// What the user pressed decides: `folder: "drafts"` makes it a draft (into Drafts, the send
/// dropped); `snoozed_until` (re)schedules it, its copy in Drafts replaced; otherwise it is
/// sent now, after the undo delay. A mail SMTP already accepted cannot change.
async fn edit_outbox(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(key): Path<String>,
    ApiJson(req): ApiJson<MailRequest>,
) -> Result<Json<UpdateOutboxResponse>> {
    let (id, user_id) = (id_of(&key)?, user.id);
    let schedule = req.schedule(now())?;
    let wants_draft = req.wants_draft() && schedule.is_none();
    let limits = uploads::Limits::from(&state.config.compose);
    let (current, account, mut mail) = state
        .store_blocking(move |store| {
            let current = outbox::get(store, user_id, id)?;
            if current.stage != outbox::Stage::Deliver {
                return Err(AppError::Conflict(messages::ALREADY_SENT.into()));
            }
            if current.sending {
                return Err(AppError::Conflict(messages::SENDING_NOW.into()));
            }
            let account = crate::accounts::get(store, current.account_id)?
                .ok_or_else(|| AppError::bad_request(messages::MAIL_NOT_CONNECTED))?;
            let sender = super::sender(store, user_id, &account);
            let mail = request::compose(store, user_id, sender, &req, wants_draft, &limits)?;
            Ok((current, account, mail))
        })
        .await?;
    if mail.original_id.is_none() {
        mail.original_id = current.mail.original_id;
    }

    if wants_draft {
        // A new Message-ID: the draft must never be taken for the scheduled copy it replaces.
        let saved =
            drafts::store_draft(&state, &account, user_id, mail, current.draft_copy.clone())
                .await?;
        state
            .store_blocking(move |store| match outbox::remove(store, user_id, id) {
                Ok(_) | Err(AppError::NotFound(_)) => Ok(()),
                Err(e) => Err(e),
            })
            .await?;
        deliver::notify(&state, user_id, account.id, MailChange::Outbox);
        return Ok(Json(saved.reply(messages::DRAFT_SAVED).into()));
    }

    mail.message_id = current.mail.message_id.clone();
    // A scheduled mail keeps an up-to-date copy in Drafts (when the mailbox answers; if not,
    // the older copy stays and is removed when the mail goes).
    let mut copy = current.draft_copy.clone();
    if schedule.is_some() {
        match drafts::append_draft(&state, &account, user_id, &mail, copy.as_ref()).await {
            Ok(place) => copy = Some(place),
            Err(e) => {
                tracing::warn!(error = %format!("{e:#}"), "the scheduled mail's copy in Drafts was not replaced")
            }
        }
    }
    let undo = state.config.compose.undo_send_secs;
    let item = state
        .store_blocking(move |store| {
            let item = outbox::update(store, user_id, id, |item| {
                if item.stage != outbox::Stage::Deliver {
                    return Err(AppError::Conflict(messages::ALREADY_SENT.into()));
                }
                item.kind = Kind::Send;
                item.mail = mail;
                item.draft_copy = copy;
                match schedule {
                    Some(at) => {
                        item.send_at = at;
                        item.scheduled = true;
                    }
                    None => {
                        item.send_at = super::undo_deadline(undo);
                        item.scheduled = false;
                    }
                }
                item.last_error = None;
                item.next_try = None;
                item.retry = true;
                item.attempts = 0;
                Ok(())
            })?;
            Ok(item.view(store))
        })
        .await?;
    state.service::<Outbox>().wake.notify_one();
    deliver::notify(&state, user_id, account.id, MailChange::Outbox);
    Ok(Json(UpdateOutboxResponse {
        success: true,
        item: Some(item),
        saved_in_gmail: None,
        draft_id: None,
        message: None,
    }))
}

async fn cancel_outbox(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(key): Path<String>,
) -> Result<Json<Success>> {
    let id = id_of(&key)?;
    let item = state
        .store_blocking(move |store| outbox::remove(store, user.id, id))
        .await?;
    deliver::notify(&state, user.id, item.account_id, MailChange::Outbox);
    Ok(Json(Success::YES))
}

/// `POST /api/outbox/{id}/undo`: the mail, to reopen it in compose.
#[derive(Debug, Clone, Serialize, TS)]
pub struct UndoSendResponse {
    pub success: bool,
    pub mail: OutboxMail,
}

/// `POST /api/outbox/{id}/undo`: the mail back for compose, if it has not started going.
async fn undo(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(key): Path<String>,
) -> Result<Json<UndoSendResponse>> {
    let id = id_of(&key)?;
    let (item, mail) = state
        .store_blocking(move |store| {
            let item = outbox::undo(store, user.id, id)?;
            let mail = outbox::mail_view(store, user.id, &item.mail, None);
            Ok((item, mail))
        })
        .await?;
    deliver::notify(&state, user.id, item.account_id, MailChange::Outbox);
    if item.draft_copy.is_some() {
        deliver::notify(&state, user.id, item.account_id, MailChange::Drafts);
    }
    Ok(Json(UndoSendResponse {
        success: true,
        mail,
    }))
}

/// `POST /api/outbox/{id}/retry`: the item as it now is.
#[derive(Debug, Clone, Serialize, TS)]
pub struct RetryOutboxResponse {
    pub success: bool,
    pub item: OutboxItem,
}

async fn retry(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(key): Path<String>,
) -> Result<Json<RetryOutboxResponse>> {
    let id = id_of(&key)?;
    let item = state
        .store_blocking(move |store| {
            let item = outbox::update(store, user.id, id, |item| {
                item.retry = true;
                item.next_try = None;
                if !item.scheduled {
                    item.send_at = item.send_at.min(now());
                }
                Ok(())
            })?;
            Ok(item.view(store))
        })
        .await?;
    state.service::<Outbox>().wake.notify_one();
    Ok(Json(RetryOutboxResponse {
        success: true,
        item,
    }))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct UploadQuery {
    name: String,
}

/// `POST /api/attachments?name=…`: the file is the raw body, its type the Content-Type.
async fn upload(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Query(q): Query<UploadQuery>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<UploadedAttachment>> {
    let max_mb = state.config.compose.max_attachment_mb;
    let max = (max_mb as usize) << 20;
    let too_large = || AppError::TooLarge(messages::attachment_too_large(max_mb));
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > max) {
        return Err(too_large());
    }
    let bytes = axum::body::to_bytes(body, max)
        .await
        .map_err(|_| too_large())?;
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let limits = uploads::Limits::from(&state.config.compose);
    let saved = state
        .store_blocking(move |store| {
            uploads::save(store, user.id, &q.name, &content_type, &bytes, &limits)
        })
        .await?;
    Ok(Json(saved.view()))
}

async fn remove_upload(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(key): Path<String>,
) -> Result<Json<Success>> {
    let id: u64 = key
        .parse()
        .map_err(|_| AppError::NotFound(messages::UPLOAD_NOT_FOUND.into()))?;
    state
        .store_blocking(move |store| uploads::remove(store, user.id, id))
        .await?;
    Ok(Json(Success::YES))
}

/// `GET /api/drafts`.
#[derive(Debug, Clone, Serialize, TS)]
pub struct DraftsResponse {
    pub total: usize,
    /// Newest first, then the drafts waiting in the outbox.
    pub drafts: Vec<Draft>,
}

async fn list_drafts(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<DraftsResponse>> {
    let drafts = state
        .store_blocking(move |store| drafts::list(store, user.id))
        .await?;
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

async fn save_draft(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
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

async fn update_draft(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
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

async fn delete_draft(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
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

async fn delete_all_drafts(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<DeleteAllDraftsResponse>> {
    let n = drafts::delete_all(&state, user.id).await?;
    Ok(Json(DeleteAllDraftsResponse {
        success: true,
        deleted_count: n,
    }))
}

async fn send_draft(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(key): Path<String>,
) -> Result<Json<SendResponse>> {
    let item = drafts::send(&state, user.id, &key).await?;
    Ok(Json(queued(
        &item,
        state.config.compose.undo_send_secs,
        messages::DRAFT_SENT,
    )))
}

/// `GET /api/compose/recent-contacts` and `GET /api/compose/address-book` (served by contacts).
#[derive(Debug, Clone, Serialize, TS)]
#[ts(rename = "ComposeContactsResponse")]
pub struct ContactsResponse {
    pub contacts: Vec<ComposeContact>,
}

async fn recent_contacts(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<ContactsResponse>> {
    let contacts = state
        .store_blocking(move |store| contacts::recent(store, user.id))
        .await?;
    Ok(Json(ContactsResponse { contacts }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outgoing::Composed;

    fn keys(v: &impl Serialize) -> Vec<String> {
        let v = serde_json::to_value(v).unwrap();
        v.as_object().unwrap().keys().cloned().collect()
    }

    #[test]
    fn send_answers_keep_their_keys() {
        let item = Item::new(1, 1, Kind::Send, Composed::default(), 0);
        let sent = queued(&item, 10, "m");
        assert_eq!(
            keys(&sent),
            [
                "message",
                "outboxId",
                "scheduled",
                "sendAt",
                "success",
                "undoSeconds"
            ]
        );
        let draft = DraftSaved {
            success: true,
            saved_in_gmail: true,
            draft_id: None,
            message: "m".into(),
        };
        let as_send = serde_json::to_value(SendResponse::from(draft.clone())).unwrap();
        assert_eq!(
            keys(&as_send),
            ["draftId", "message", "savedInGmail", "success"]
        );
        assert!(as_send["draftId"].is_null());
        let edited = serde_json::to_value(UpdateOutboxResponse::from(draft)).unwrap();
        assert_eq!(
            keys(&edited),
            ["draftId", "item", "message", "savedInGmail", "success"]
        );
        assert!(edited["item"].is_null());
    }
}
