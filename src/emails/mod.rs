//! Reading the mail cache for the signed-in user: listings and counts (`listing`), threads,
//! triage (`triage`), the Inbox Zero summary (`zero`), one message whole, flag changes
//! (written locally at once and queued for the server), and the senders whose remote images
//! the user always shows. Every function takes the user id and only touches that user's
//! accounts.

pub mod listing;
pub mod remote;
pub mod routes;
pub mod triage;
pub mod view;
pub mod zero;

use std::collections::HashSet;

use redb::{ReadableDatabase, ReadableTable, WriteTransaction};

use crate::accounts;
use crate::error::{AppError, Result};
use crate::messages;
use crate::store::{Store, record};
use crate::sync::store::{self as mstore, FolderState, MessageMeta, PendingFlags};

pub use listing::{Counts, ListOptions, Selector};
pub use remote::REMOTE_SENDERS;
pub use routes::router;

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
    let txn = store.db().begin_read()?;
    let meta = mstore::read_meta(&txn.open_table(mstore::MESSAGES)?, id)?
        .filter(|m| accounts.contains(&m.account_id) && !m.hidden)
        .ok_or_else(|| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))?;
    let raw = mstore::get_raw(&txn.open_table(mstore::RAW_Z)?, id)?.unwrap_or_default();
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
    let txn = store.db().begin_write()?;
    let meta = apply_flags(&txn, owned_meta(&txn, &accounts, id)?, seen, flagged)?;
    txn.commit()?;
    Ok(meta)
}

/// Writes \Seen / \Flagged changes locally and queues them for the mailbox.
pub(crate) fn apply_flags(
    txn: &WriteTransaction,
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
    mstore::write_meta(txn, &meta)?;
    queue(txn, &meta, |op| {
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
pub(crate) fn owned_meta(
    txn: &WriteTransaction,
    accounts: &HashSet<u64>,
    id: u64,
) -> Result<MessageMeta> {
    mstore::read_meta(&txn.open_table(mstore::MESSAGES)?, id)?
        .filter(|m| accounts.contains(&m.account_id) && !m.hidden)
        .ok_or_else(|| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))
}

pub(crate) fn user_accounts(store: &Store, user_id: u64) -> Result<HashSet<u64>> {
    Ok(account_ids(store, user_id)?.into_iter().collect())
}

/// Merges a change into the message's queued server change (creating it), so the sync task
/// writes it to the mailbox.
pub(crate) fn queue(
    txn: &WriteTransaction,
    meta: &MessageMeta,
    change: impl FnOnce(&mut PendingFlags),
) -> Result<()> {
    let uidvalidity = {
        let t = txn.open_table(mstore::FOLDERS)?;
        let v = t.get((meta.account_id, meta.folder.as_str()))?;
        match v {
            Some(v) => record::decode::<FolderState>(v.value())?.uidvalidity,
            None => 0,
        }
    };
    let mut pending = txn.open_table(mstore::PENDING)?;
    let mut op: PendingFlags = match pending.get((meta.account_id, meta.id))? {
        Some(v) => record::decode(v.value())?,
        None => PendingFlags {
            folder: meta.folder.clone(),
            uid: meta.uid,
            uidvalidity,
            ..PendingFlags::default()
        },
    };
    change(&mut op);
    pending.insert((meta.account_id, meta.id), record::encode(&op).as_slice())?;
    Ok(())
}

/// The folder of each role an account has (role → IMAP name).
pub(crate) fn roles_of(
    txn: &WriteTransaction,
    account: u64,
) -> Result<std::collections::HashMap<String, String>> {
    let folders = mstore::account_folders(&txn.open_table(mstore::FOLDERS)?, account)?;
    Ok(mstore::roles(&folders))
}

/// The role of one of an account's folders ("" for the user's own).
pub fn folder_role(store: &Store, account: u64, folder: &str) -> Result<String> {
    let txn = store.db().begin_read()?;
    let t = txn.open_table(mstore::FOLDERS)?;
    let v = t.get((account, folder))?;
    Ok(match v {
        Some(v) => record::decode::<FolderState>(v.value())?.role,
        None => String::new(),
    })
}
