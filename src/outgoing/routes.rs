//! `/api/emails/send`, `/api/outbox/*`, `/api/drafts/*`, `/api/attachments`, `/api/compose/*`
//! (docs/API.md "Sending, drafts, outbox"). Sending, uploads and contacts are here; the
//! outbox's and the drafts' endpoints are in `routes/outbox.rs` and `routes/drafts.rs`.

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Path, Query};
use axum::http::{HeaderMap, header};
use axum::routing::{delete, get, post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::Outbox;
use super::contacts::{self, ComposeContact};
use super::drafts::DraftSaved;
use super::outbox::{Item, Kind};
use super::request::{self, MailRequest};
use super::uploads::{self, UploadedAttachment};
use super::{deliver, iso, now};
use crate::auth::UserStore;
use crate::error::{ApiJson, AppError, Result, Success};
use crate::messages;
use crate::state::{AppState, MailChange};

mod drafts;
mod outbox;
pub use drafts::{
    DeleteAllDraftsResponse, DeleteDraftResponse, DraftsResponse, SaveDraftResponse,
    UpdateDraftResponse,
};
use drafts::{delete_all_drafts, delete_draft, list_drafts, save_draft, send_draft, update_draft};
pub use outbox::{OutboxResponse, RetryOutboxResponse, UndoSendResponse, UpdateOutboxResponse};
use outbox::{cancel_outbox, edit_outbox, list_outbox, retry, undo};

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
#[ts(optional_fields)]
pub struct SendResponse {
    pub success: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outbox_id: Option<String>,
    /// RFC 3339: when it goes out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub send_at: Option<String>,
    /// 0 for a scheduled mail.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undo_seconds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheduled: Option<bool>,
    /// A scheduled mail: whether its copy is in Drafts; a draft: whether the mailbox has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saved_in_gmail: Option<bool>,
    /// A draft: its id, null when the sync does not know it yet.
    #[serde(skip_serializing_if = "Option::is_none")]
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
    UserStore { state, user }: UserStore,
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
        let saved = super::drafts::store_draft(&state, &account, user_id, mail, None).await?;
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
        match super::drafts::append_draft(&state, &account, user_id, &mail, None).await {
            Ok(place) => item.draft_copy = Some(place),
            Err(e) => {
                tracing::warn!(error = %format!("{e:#}"), "a scheduled mail without its copy in Drafts")
            }
        }
        saved_in_mailbox = Some(item.draft_copy.is_some());
    }
    let item = state
        .store_blocking(move |store| super::outbox::add(store, item))
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

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct UploadQuery {
    name: String,
}

/// `POST /api/attachments?name=…`: the file is the raw body, its type the Content-Type.
async fn upload(
    UserStore { state, user }: UserStore,
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
    UserStore { state, user }: UserStore,
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

/// `GET /api/compose/recent-contacts` and `GET /api/compose/address-book` (served by contacts).
#[derive(Debug, Clone, Serialize, TS)]
#[ts(rename = "ComposeContactsResponse")]
pub struct ContactsResponse {
    pub contacts: Vec<ComposeContact>,
}

async fn recent_contacts(me: UserStore) -> Result<Json<ContactsResponse>> {
    let contacts = me.run(contacts::recent).await?;
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
