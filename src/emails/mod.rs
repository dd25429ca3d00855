//! Reading the mail cache for the signed-in user: listings and counts (`listing`), threads,
//! triage (`triage`), the Inbox Zero summary (`zero`), one message whole, flag changes
//! (written locally at once and queued for the server), and the senders whose remote images
//! the user always shows. Every function takes the user id and only touches that user's
//! accounts.
//!
//! The API (`routes.rs`): lists are JSON arrays with the total in `X-Total-Count`;
//! `/api/emails/{key}` is a folder when `key` is a name and one mail when it is a number. A page
//! walks a folder's index or a tag newest first only as far as it needs; sorting by sender or
//! subject still reads every row of the folder. Keywords decide a mail's status where the folder
//! allows keywords (`FolderState::keywords_ok`), so a re-sync or another client's change is
//! followed. Delete is `hidden` plus a hidden-key row by Message-ID, so a refetch stays hidden.
//! New inbox mail, for the features that act on it, is `arrivals`.

pub mod arrivals;
mod counting;
pub mod listing;
pub mod remote;
pub mod routes;
pub mod triage;
pub mod view;
mod walk;
pub mod wire;
pub mod zero;

use std::collections::HashSet;

use crate::accounts;
use crate::error::{AppError, Result};
use crate::feature::Feature;
use crate::forget::{self, Step};
use crate::mailstore::{MailRead, MailWrite, MessageMeta, Reason};
use crate::messages;
use crate::store::Store;

pub use listing::{Counts, ListOptions, Selector};
pub use remote::REMOTE_SENDERS;
pub use routes::router;

/// The mail a user sees: routes, and the senders whose images they show, forgotten with them.
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    forget: &[Step {
        name: "remote-content senders",
        account: forget::nothing,
        user: remote::forget_user,
    }],
    ..Feature::named("emails")
};

/// Account ids of a user.
fn account_ids(store: &Store, user_id: u64) -> Result<Vec<u64>> {
    Ok(accounts::list_for_user(store, user_id)?
        .into_iter()
        .map(|a| a.id)
        .collect())
}

/// One message of the user, with its raw bytes.
pub fn get(store: &Store, user_id: u64, id: u64) -> Result<(MessageMeta, Vec<u8>)> {
    let accounts = user_accounts(store, user_id)?;
    let mail = MailRead::new(store)?;
    let meta = mail
        .meta(id)?
        .filter(|m| accounts.contains(&m.account_id) && !m.hidden)
        .ok_or_else(|| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))?;
    let raw = mail.raw(id)?.unwrap_or_default();
    Ok((meta, raw))
}

/// Sets \Seen and \Flagged locally and queues them for the server. Returns the new record.
pub fn set_flags(
    store: &Store,
    user_id: u64,
    id: u64,
    seen: Option<bool>,
    flagged: Option<bool>,
) -> Result<MessageMeta> {
    let accounts = user_accounts(store, user_id)?;
    let txn = store.begin_write()?;
    let w = MailWrite::new(&txn, Reason::Flags);
    let meta = apply_flags(w, owned_meta(w, &accounts, id)?, seen, flagged)?;
    txn.commit()?;
    Ok(meta)
}

/// Writes \Seen / \Flagged changes locally and queues them for the mailbox.
pub(crate) fn apply_flags(
    w: MailWrite,
    mut meta: MessageMeta,
    seen: Option<bool>,
    flagged: Option<bool>,
) -> Result<MessageMeta> {
    if let Some(s) = seen {
        meta.seen = s;
    }
    if let Some(f) = flagged {
        meta.flagged = f;
    }
    w.write_meta(&meta)?;
    w.queue_change(&meta, |op| {
        if seen.is_some() {
            op.seen = seen;
        }
        if flagged.is_some() {
            op.flagged = flagged;
        }
    })?;
    Ok(meta)
}

/// A message of the user by id, for a change; 404 otherwise (also when hidden).
pub(crate) fn owned_meta(w: MailWrite, accounts: &HashSet<u64>, id: u64) -> Result<MessageMeta> {
    w.meta(id)?
        .filter(|m| accounts.contains(&m.account_id) && !m.hidden)
        .ok_or_else(|| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))
}

pub(crate) fn user_accounts(store: &Store, user_id: u64) -> Result<HashSet<u64>> {
    Ok(account_ids(store, user_id)?.into_iter().collect())
}

/// The role of one of an account's folders ("" for the user's own).
pub fn folder_role(store: &Store, account: u64, folder: &str) -> Result<String> {
    Ok(MailRead::new(store)?
        .folder(account, folder)?
        .map(|f| f.role)
        .unwrap_or_default())
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    crate::mail::parse::AttachmentInfo,
    view::EmailRow,
    view::EmailDetail,
    view::ThreadView,
    wire::EmailResponse,
    wire::SetStatusResponse,
    wire::DeleteEmailResponse,
    wire::TrashEmailResponse,
    wire::BulkResponse,
    wire::AutoArchiveResponse,
    wire::RemoteSendersResponse,
    wire::SenderAdded,
    wire::SenderRemoved,
    wire::FoldersResponse,
    listing::FolderInfo,
    listing::Counts,
    zero::InboxZero,
    zero::Reminder,
    zero::Candidate,
);
