//! The reads that [`super::per_user`] and [`super::user_record`] tables share: one JSON record by
//! its key, and a job's sweep of every record with the user it belongs to. The two kinds differ
//! only in their key ((user, id) or user).

use std::borrow::Borrow;

use redb::{Key, ReadableDatabase, ReadableTable, TableDefinition};
use serde::de::DeserializeOwned;

use super::{Store, record};
use crate::error::Result;

/// The record under `key` in `table`, if there is one.
pub fn get<'k, K: Key + 'static, T: DeserializeOwned>(
    store: &Store,
    table: TableDefinition<'static, K, &'static [u8]>,
    key: impl Borrow<K::SelfType<'k>>,
) -> Result<Option<T>> {
    let txn = store.db().begin_read()?;
    let t = txn.open_table(table)?;
    Ok(match t.get(key)? {
        Some(v) => Some(record::decode(v.value())?),
        None => None,
    })
}

/// Every record of `table`, each with the user `user_of` its key names.
pub fn everyone<K: Key + 'static, T: DeserializeOwned>(
    store: &Store,
    table: TableDefinition<'static, K, &'static [u8]>,
    user_of: impl Fn(K::SelfType<'_>) -> u64,
) -> Result<Vec<(u64, T)>> {
    let txn = store.db().begin_read()?;
    let t = txn.open_table(table)?;
    let mut out = Vec::new();
    for e in t.iter()? {
        let (k, v) = e?;
        out.push((user_of(k.value()), record::decode(v.value())?));
    }
    Ok(out)
}
