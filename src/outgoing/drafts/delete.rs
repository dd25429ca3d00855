//! Deleting drafts: one (`DELETE /api/drafts/{id}`) or all of them, expunged from the mailbox,
//! with the scheduled sends they are copies of.

use super::common::{OUTBOX_PREFIX, same_place, send_of};
use super::listing::{drafts_folder, queued_copies, stored};
use crate::accounts::{self, AccountRecord};
use crate::error::{AppError, Result};
use crate::mailstore::MailRead;
use crate::messages;
use crate::outgoing::deliver;
use crate::outgoing::mailbox::Mailbox as ImapMailbox;
use crate::outgoing::outbox::{self, Item, Kind, MailboxRef, Stage};
use crate::state::{AppState, MailChange};

/// `DELETE /api/drafts/{id}`: gone from the mailbox (and a scheduled send of it cancelled).
pub async fn delete(state: &AppState, user_id: u64, key: &str) -> Result<()> {
    if let Some(item_id) = key.strip_prefix(OUTBOX_PREFIX).and_then(|k| k.parse().ok()) {
        let item = state
            .store_blocking(move |store| outbox::remove(store, user_id, item_id))
            .await?;
        deliver::notify(state, user_id, item.account_id, MailChange::Outbox);
        deliver::notify(state, user_id, item.account_id, MailChange::Drafts);
        return Ok(());
    }
    let id: u64 = key
        .parse()
        .map_err(|_| AppError::NotFound(messages::DRAFT_NOT_FOUND.into()))?;
    let draft = state
        .store_blocking(move |store| {
            let d = stored(store, user_id, id)?;
            // The copy of a mail on its way out (undo delay, or accepted by SMTP) is not a draft.
            if let Some(item) = send_of(store, user_id, d.account.id, &d.place)?
                && (!item.scheduled || item.stage != Stage::Deliver)
            {
                return Err(AppError::Conflict(messages::ALREADY_SENT.into()));
            }
            Ok(d)
        })
        .await?;
    expunge_all(state, &draft.account, std::slice::from_ref(&draft.place)).await?;
    cancel_sends_of(state, user_id, draft.account.id, &[draft.place]).await?;
    deliver::notify(state, user_id, draft.account.id, MailChange::Drafts);
    Ok(())
}

async fn expunge_all(
    state: &AppState,
    account: &AccountRecord,
    places: &[MailboxRef],
) -> Result<()> {
    let unavailable = |e: anyhow::Error| {
        tracing::warn!(error = %format!("{e:#}"), "drafts: mailbox unavailable");
        AppError::MailboxUnavailable(messages::MAILBOX_UNAVAILABLE.into())
    };
    let mut mb = ImapMailbox::of_state(state, account)
        .await
        .map_err(unavailable)?;
    let mut result = Ok(());
    for p in places {
        if let Err(e) = mb.expunge(p).await {
            result = Err(unavailable(e));
            break;
        }
    }
    mb.close().await;
    result
}

/// Cancels the scheduled sends whose copies are at `places` (the copies were deleted). A send
/// SMTP already accepted is left alone: it went out.
async fn cancel_sends_of(
    state: &AppState,
    user_id: u64,
    account_id: u64,
    places: &[MailboxRef],
) -> Result<()> {
    let places = places.to_vec();
    state
        .store_blocking(move |store| {
            for item in outbox::list(store, user_id)? {
                if item.kind == Kind::Send
                    && item.account_id == account_id
                    && item.stage == Stage::Deliver
                    && !item.sending
                    && item
                        .draft_copy
                        .as_ref()
                        .is_some_and(|r| places.iter().any(|p| same_place(p, r)))
                {
                    outbox::remove(store, user_id, item.id)?;
                }
            }
            Ok(())
        })
        .await
}

/// `DELETE /api/drafts/delete-all` → how many went.
pub async fn delete_all(state: &AppState, user_id: u64) -> Result<usize> {
    let (per_account, local) = state
        .store_blocking(move |store| {
            // Exactly what the drafts list shows: never the copy of a mail on its way out.
            let items = outbox::list(store, user_id)?;
            let (going, _) = queued_copies(&items);
            let mail = MailRead::new(store)?;
            let mut per_account = Vec::new();
            for account in accounts::list_for_user(store, user_id)? {
                let Some(folder) = drafts_folder(&mail, account.id)? else {
                    continue;
                };
                let mut places = Vec::new();
                for row in mail.rows(account.id, &folder.name)? {
                    if let Some(meta) = mail.meta(row?.id())?
                        && !meta.hidden
                        && !going.contains(&(account.id, folder.name.clone(), meta.uid))
                    {
                        places.push(MailboxRef {
                            folder: folder.name.clone(),
                            uidvalidity: folder.uidvalidity,
                            uid: meta.uid,
                            message_id: None,
                        });
                    }
                }
                per_account.push((account, places));
            }
            let local: Vec<Item> = outbox::list(store, user_id)?
                .into_iter()
                .filter(|i| i.kind == Kind::Draft && !i.sending)
                .collect();
            Ok((per_account, local))
        })
        .await?;
    let mut count = 0;
    for (account, places) in per_account {
        if places.is_empty() {
            continue;
        }
        expunge_all(state, &account, &places).await?;
        cancel_sends_of(state, user_id, account.id, &places).await?;
        count += places.len();
        deliver::notify(state, user_id, account.id, MailChange::Drafts);
    }
    for item in local {
        state
            .store_blocking(move |store| outbox::remove(store, user_id, item.id).map(|_| ()))
            .await?;
        count += 1;
    }
    Ok(count)
}
