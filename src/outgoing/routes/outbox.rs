//! `/api/outbox/*`: the outbox as the compose page and the outbox page see it: list, edit
//! (send now, reschedule, or back to a draft), cancel, undo and retry.

use axum::Json;
use axum::extract::Path;
use serde::Serialize;
use ts_rs::TS;

use super::super::Outbox;
use super::super::drafts::{self, DraftSaved};
use super::super::outbox::{self, Kind, OutboxItem, OutboxMail};
use super::super::request::{self, MailRequest};
use super::super::uploads;
use super::super::{deliver, now};
use super::id_of;
use crate::auth::UserStore;
use crate::error::{ApiJson, AppError, Result, Success};
use crate::messages;
use crate::state::MailChange;

/// `GET /api/outbox`.
#[derive(Debug, Clone, Serialize, TS)]
pub struct OutboxResponse {
    /// Newest first.
    pub items: Vec<OutboxItem>,
}

pub(super) async fn list_outbox(
    UserStore { state, user }: UserStore,
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
pub(super) async fn edit_outbox(
    UserStore { state, user }: UserStore,
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
            let sender = crate::outgoing::sender(store, user_id, &account);
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
                        item.send_at = crate::outgoing::undo_deadline(undo);
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

pub(super) async fn cancel_outbox(
    UserStore { state, user }: UserStore,
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
pub(super) async fn undo(
    UserStore { state, user }: UserStore,
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

pub(super) async fn retry(
    UserStore { state, user }: UserStore,
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
