//! Senders whose remote images the user always shows ("show remote content" per sender).
//! Per user, by lower-cased address.

use redb::{ReadableDatabase, TableDefinition};

use crate::error::{AppError, Result};
use crate::messages;
use crate::store::Store;

/// (user id, lower-cased address) → when it was allowed.
pub const REMOTE_SENDERS: TableDefinition<(u64, &str), i64> =
    TableDefinition::new("mail_remote_senders");

fn normalize(address: &str) -> Result<String> {
    let a = address.trim().to_lowercase();
    let valid = a.len() <= 320
        && a.split_once('@')
            .is_some_and(|(l, d)| !l.is_empty() && d.contains('.'))
        && !a.chars().any(|c| c.is_whitespace() || c.is_control());
    if valid {
        Ok(a)
    } else {
        Err(AppError::BadRequest(
            messages::SENDER_ADDRESS_INVALID.into(),
        ))
    }
}

pub fn list(store: &Store, user_id: u64) -> Result<Vec<String>> {
    let txn = store.db().begin_read()?;
    let t = txn.open_table(REMOTE_SENDERS)?;
    let mut out = Vec::new();
    for e in t.range((user_id, "")..)? {
        let (k, _) = e?;
        let (u, address) = k.value();
        if u != user_id {
            break;
        }
        out.push(address.to_string());
    }
    Ok(out)
}

pub fn allowed(store: &Store, user_id: u64, address: &str) -> Result<bool> {
    let Ok(a) = normalize(address) else {
        return Ok(false);
    };
    let txn = store.db().begin_read()?;
    Ok(txn
        .open_table(REMOTE_SENDERS)?
        .get((user_id, a.as_str()))?
        .is_some())
}

pub fn add(store: &Store, user_id: u64, address: &str) -> Result<String> {
    let a = normalize(address)?;
    let txn = store.begin_write()?;
    txn.open_table(REMOTE_SENDERS)?
        .insert((user_id, a.as_str()), crate::kit::now())?;
    txn.commit()?;
    Ok(a)
}

pub fn remove(store: &Store, user_id: u64, address: &str) -> Result<bool> {
    let a = normalize(address)?;
    let txn = store.begin_write()?;
    let removed = txn
        .open_table(REMOTE_SENDERS)?
        .remove((user_id, a.as_str()))?
        .is_some();
    txn.commit()?;
    Ok(removed)
}

/// Forgets a removed user's senders whose remote images they show.
pub fn forget_user(txn: &redb::WriteTransaction, user: u64) -> anyhow::Result<()> {
    txn.open_table(REMOTE_SENDERS)?
        .retain_in((user, "")..(user + 1, ""), |_, _| false)?;
    Ok(())
}

/// Schema 3.
pub fn create_tables(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(REMOTE_SENDERS)?;
    Ok(())
}
