//! Writing drafts: APPENDing them to the mailbox's Drafts (or keeping them in the outbox while
//! the mailbox cannot be reached), the reply panel's save, and editing a draft.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use super::common::{OUTBOX_PREFIX, reply_subject, send_of};
use super::from_raw::composed_from_raw;
use super::listing::stored;
use crate::accounts::AccountRecord;
use crate::error::{AppError, Result};
use crate::mailstore::MailRead;
use crate::messages;
use crate::outgoing::mailbox::Mailbox as ImapMailbox;
use crate::outgoing::outbox::{self, Item, Kind, MailboxRef, Stage};
use crate::outgoing::request::{self, clean_html};
use crate::outgoing::uploads;
use crate::outgoing::{self, Composed, Outbox, deliver, mime, now};
use crate::state::{AppState, MailChange};

/// Where a saved draft went.
pub struct Saved {
    pub in_mailbox: bool,
    pub id: Option<String>,
}

impl Saved {
    /// The answer: `in_mailbox_message` when the mailbox has it, else that it waits here.
    pub fn reply(&self, in_mailbox_message: &str) -> DraftSaved {
        let message = if self.in_mailbox {
            in_mailbox_message
        } else {
            messages::DRAFT_SAVED_LOCALLY
        };
        DraftSaved {
            success: true,
            saved_in_gmail: self.in_mailbox,
            draft_id: self.id.clone(),
            message: message.to_string(),
        }
    }
}

/// What saving a draft answers (the calls that save one add their own keys to it).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DraftSaved {
    pub success: bool,
    /// False: kept in the outbox until the mailbox answers.
    pub saved_in_gmail: bool,
    /// The draft's id (`outbox-…` while in the outbox); null when the sync does not know it yet.
    pub draft_id: Option<String>,
    pub message: String,
}

/// APPENDs a draft to the mailbox's Drafts and then removes `replaces`. Once the new version
/// is in, a failure to remove the old one is only logged: retrying would file the new one
/// twice.
pub async fn append_draft(
    state: &AppState,
    account: &AccountRecord,
    user_id: u64,
    mail: &Composed,
    replaces: Option<&MailboxRef>,
) -> anyhow::Result<MailboxRef> {
    let mut mb = ImapMailbox::of_state(state, account).await?;
    let result = async {
        let folder = mb.folder("drafts").await?;
        let raw = deliver::build(
            &state.store,
            user_id,
            mail,
            mime::Copy::Kept,
            now(),
            &uploads::Limits::from(&state.config.compose),
        )?;
        let place = mb.append(&folder, true, true, &raw, &mail.message_id).await?;
        if let Some(old) = replaces
            && let Err(e) = mb.expunge(old).await
        {
            tracing::warn!(error = %format!("{e:#}"), "the older version of a draft stays in Drafts");
        }
        Ok::<_, anyhow::Error>(place)
    }
    .await;
    mb.close().await;
    deliver::notify(state, user_id, account.id, MailChange::Drafts);
    result
}

/// The stored id of a message at `place`, when the sync knows its folder.
pub async fn local_id(
    state: &AppState,
    account_id: u64,
    place: &MailboxRef,
) -> Result<Option<u64>> {
    let place = place.clone();
    state
        .store_blocking(move |store| {
            Ok(MailRead::new(store)?.id_of_uid(account_id, &place.folder, place.uid)?)
        })
        .await
}

/// Puts a draft into the mailbox's Drafts (replacing `replaces`), or into the outbox when the
/// mailbox cannot be reached.
pub async fn store_draft(
    state: &AppState,
    account: &AccountRecord,
    user_id: u64,
    mail: Composed,
    replaces: Option<MailboxRef>,
) -> Result<Saved> {
    match append_draft(state, account, user_id, &mail, replaces.as_ref()).await {
        Ok(place) => Ok(Saved {
            in_mailbox: true,
            id: local_id(state, account.id, &place)
                .await?
                .map(|i| i.to_string()),
        }),
        Err(e) => {
            tracing::warn!(error = %format!("{e:#}"), "draft kept in the outbox until the mailbox answers");
            let mut item = Item::new(user_id, account.id, Kind::Draft, mail, now());
            item.attempts = 1;
            item.next_try = Some(now() + outbox::backoff_secs(1));
            item.last_error = Some(deliver::Failure::from(e).message);
            item.draft_copy = replaces;
            let item = state
                .store_blocking(move |store| outbox::add(store, item))
                .await?;
            deliver::notify(state, user_id, account.id, MailChange::Outbox);
            Ok(Saved {
                in_mailbox: false,
                id: Some(format!("{OUTBOX_PREFIX}{}", item.id)),
            })
        }
    }
}

/// The mail a reply-panel draft answers (the web may send more of it; the rest is ignored).
#[derive(Debug, Default, Deserialize, TS)]
#[serde(default, rename_all = "camelCase")]
#[ts(rename = "SaveDraftOriginal", optional_fields)]
pub struct Original {
    /// Its local id.
    #[ts(type = "string | number")]
    pub id: Value,
    pub message_id: Option<String>,
    pub from: String,
    #[serde(rename = "from_name")]
    pub from_name: String,
    pub subject: String,
}

/// `POST /api/drafts/save`.
#[derive(Debug, Default, Deserialize, TS)]
#[serde(default, rename_all = "camelCase")]
#[ts(rename = "SaveDraftRequest", optional_fields)]
pub struct SaveRequest {
    pub original_email: Original,
    pub draft_content: String,
    pub subject: Option<String>,
    pub to: Option<String>,
}

/// `POST /api/drafts/save`: the reply panel's draft, linked to the mail it answers.
pub async fn save(state: &AppState, user_id: u64, req: SaveRequest) -> Result<Saved> {
    if !request::has_content(&clean_html(&req.draft_content)) {
        return Err(AppError::bad_request(messages::DRAFT_EMPTY));
    }
    let o = &req.original_email;
    let to = req
        .to
        .clone()
        .filter(|t| !t.trim().is_empty())
        .unwrap_or_else(|| {
            if o.from_name.is_empty() {
                o.from.clone()
            } else {
                format!("\"{}\" <{}>", o.from_name.replace('"', ""), o.from)
            }
        });
    let subject = req
        .subject
        .clone()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| reply_subject(&o.subject));
    let mail_req = request::MailRequest {
        to: Value::String(to),
        subject,
        body: req.draft_content.clone(),
        original_id: o.id.clone(),
        original_message_id: o.message_id.clone(),
        folder: Some("drafts".into()),
        ..Default::default()
    };
    let original = request::id_of(&mail_req.original_id);
    let account = state
        .store_blocking(move |store| outgoing::sending_account(store, user_id, None, original))
        .await?;
    let a = account.clone();
    let limits = uploads::Limits::from(&state.config.compose);
    let mail = state
        .store_blocking(move |store| {
            request::compose(
                store,
                user_id,
                outgoing::sender(store, user_id, &a),
                &mail_req,
                true,
                &limits,
            )
        })
        .await?;
    store_draft(state, &account, user_id, mail, None).await
}

/// `PUT /api/drafts/{id}`: what changes (a missing field stays).
#[derive(Debug, Default, Deserialize, TS)]
#[serde(default, rename_all = "camelCase")]
#[ts(rename = "UpdateDraftRequest", optional_fields)]
pub struct UpdateRequest {
    /// HTML.
    pub draft_content: Option<String>,
    pub subject: Option<String>,
    /// Recipients as compose sends them (a list, or one comma-separated string).
    #[ts(
        optional,
        type = "string | Array<string | { name?: string, email: string }>"
    )]
    pub to: Option<Value>,
    #[ts(
        optional,
        type = "string | Array<string | { name?: string, email: string }>"
    )]
    pub cc: Option<Value>,
}

/// `PUT /api/drafts/{id}`: a new version replaces the old one in the mailbox. A scheduled mail
/// whose copy this is follows the edit.
pub async fn update(
    state: &AppState,
    user_id: u64,
    key: &str,
    req: UpdateRequest,
) -> Result<Saved> {
    if let Some(item_id) = key.strip_prefix(OUTBOX_PREFIX).and_then(|k| k.parse().ok()) {
        let item = state
            .store_blocking(move |store| {
                outbox::update(store, user_id, item_id, |item| {
                    apply_edit(&mut item.mail, &req)
                })
            })
            .await?;
        state.service::<Outbox>().wake.notify_one();
        return Ok(Saved {
            in_mailbox: false,
            id: Some(format!("{OUTBOX_PREFIX}{}", item.id)),
        });
    }
    let id: u64 = key
        .parse()
        .map_err(|_| AppError::NotFound(messages::DRAFT_NOT_FOUND.into()))?;
    let limits = uploads::Limits::from(&state.config.compose);
    let (draft, mut mail, linked) = state
        .store_blocking(move |store| {
            let d = stored(store, user_id, id)?;
            let linked = send_of(store, user_id, d.account.id, &d.place)?;
            if linked.as_ref().is_some_and(|i| i.stage != Stage::Deliver) {
                return Err(AppError::Conflict(messages::ALREADY_SENT.into()));
            }
            let mail = composed_from_raw(store, user_id, &d.account, &d.raw, &limits)?;
            Ok((d, mail, linked))
        })
        .await?;
    apply_edit(&mut mail, &req)?;
    let Some(item) = linked else {
        return store_draft(state, &draft.account, user_id, mail, Some(draft.place)).await;
    };
    // The copy of a queued send: the mailbox must take the new version now, so the outbox
    // item and its copy in Drafts never disagree.
    let place = append_draft(state, &draft.account, user_id, &mail, Some(&draft.place))
        .await
        .map_err(|e| {
            tracing::warn!(error = %format!("{e:#}"), "cannot replace a scheduled mail's draft");
            AppError::MailboxUnavailable(messages::MAILBOX_UNAVAILABLE.into())
        })?;
    let new_place = place.clone();
    state
        .store_blocking(move |store| {
            outbox::update(store, user_id, item.id, move |i| {
                i.mail = Composed {
                    message_id: i.mail.message_id.clone(),
                    original_id: i.mail.original_id,
                    from: i.mail.from.clone(),
                    ..mail
                };
                i.draft_copy = Some(new_place);
                Ok(())
            })
        })
        .await?;
    state.service::<Outbox>().wake.notify_one();
    Ok(Saved {
        in_mailbox: true,
        id: local_id(state, draft.account.id, &place)
            .await?
            .map(|i| i.to_string()),
    })
}

fn apply_edit(mail: &mut Composed, req: &UpdateRequest) -> Result<()> {
    if let Some(content) = &req.draft_content {
        let html = clean_html(content);
        if !request::has_content(&html) {
            return Err(AppError::bad_request(messages::DRAFT_EMPTY));
        }
        mail.html = html;
    }
    if let Some(subject) = &req.subject {
        mail.subject = request::clean_subject(subject);
    }
    if let Some(to) = &req.to {
        mail.to = request::addresses(to)?;
    }
    if let Some(cc) = &req.cc {
        mail.cc = request::addresses(cc)?;
    }
    Ok(())
}
