//! Sending a draft (`POST /api/drafts/{id}/send`): queued in the outbox like a new mail.

use std::collections::{HashMap, HashSet};

use super::common::{OUTBOX_PREFIX, send_of};
use super::from_raw::composed_from_raw;
use super::listing::{originals, stored};
use crate::error::{AppError, Result};
use crate::mailstore::{self as mstore, MailRead, MessageMeta};
use crate::messages;
use crate::outgoing::outbox::{self, Item, Kind, Stage};
use crate::outgoing::request;
use crate::outgoing::{self, Composed, Outbox, deliver};
use crate::state::{AppState, MailChange};
use crate::store::Store;

/// `POST /api/drafts/{id}/send`: queued like a new mail (undo delay); removed from Drafts once
/// it is out.
pub async fn send(state: &AppState, user_id: u64, key: &str) -> Result<Item> {
    let undo = state.config.compose.undo_send_secs;
    if let Some(item_id) = key.strip_prefix(OUTBOX_PREFIX).and_then(|k| k.parse().ok()) {
        let item = state
            .store_blocking(move |store| {
                outbox::update(store, user_id, item_id, |item| {
                    check_sendable(&item.mail)?;
                    item.kind = Kind::Send;
                    item.send_at = outgoing::undo_deadline(undo);
                    item.next_try = None;
                    item.last_error = None;
                    item.attempts = 0;
                    item.retry = true;
                    Ok(())
                })
            })
            .await?;
        state.service::<Outbox>().wake.notify_one();
        return Ok(item);
    }
    let id: u64 = key
        .parse()
        .map_err(|_| AppError::NotFound(messages::DRAFT_NOT_FOUND.into()))?;
    let limits = crate::outgoing::uploads::Limits::from(&state.config.compose);
    let item = state
        .store_blocking(move |store| {
            let d = stored(store, user_id, id)?;
            let mut mail = composed_from_raw(store, user_id, &d.account, &d.raw, &limits)?;
            mail.from = outgoing::sender(store, user_id, &d.account);
            mail.original_id = original_of(store, user_id, &d.meta);
            check_sendable(&mail)?;
            // "Send now" on a scheduled draft replaces its schedule: never both. A draft already
            // on its way out is not sent again.
            if let Some(queued) = send_of(store, user_id, d.account.id, &d.place)? {
                if !queued.scheduled || queued.stage != Stage::Deliver {
                    return Err(AppError::Conflict(messages::ALREADY_SENT.into()));
                }
                outbox::remove(store, user_id, queued.id)?;
            }
            let mut item = Item::new(
                user_id,
                d.account.id,
                Kind::Send,
                mail,
                outgoing::undo_deadline(undo),
            );
            item.draft_copy = Some(d.place);
            outbox::add(store, item)
        })
        .await?;
    state.service::<Outbox>().wake.notify_one();
    deliver::notify(state, user_id, item.account_id, MailChange::Outbox);
    deliver::notify(state, user_id, item.account_id, MailChange::Drafts);
    Ok(item)
}

fn check_sendable(mail: &Composed) -> Result<()> {
    if mail.recipients().is_empty()
        || mail.subject.trim().is_empty()
        || !request::has_content(&mail.html)
    {
        return Err(AppError::bad_request(messages::COMPOSE_FIELDS_REQUIRED));
    }
    Ok(())
}

/// The stored mail a draft answers (same thread, Message-ID = its In-Reply-To).
fn original_of(store: &Store, _user_id: u64, draft: &MessageMeta) -> Option<u64> {
    let irt = draft.summary.in_reply_to.clone()?;
    let mail = MailRead::new(store).ok()?;
    let mut wanted = HashMap::new();
    wanted.insert(
        draft.account_id,
        HashSet::from([mstore::thread_hash(&draft.thread_id)]),
    );
    originals(&mail, &wanted)
        .ok()?
        .remove(&(draft.account_id, irt))
        .map(|m| m.id)
}
