//! A feature's records per user, numbered: (user id, record id) → JSON. Contacts, tasks and
//! rules keep theirs this way; each feature owns its own table and only calls these. The `_in`
//! calls work inside the caller's write transaction, for a feature whose records change with
//! the mail (a snooze woken with its mail's moves queued, in one commit).

use redb::{ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Store, keyed, next_id, record};
use crate::error::{AppError, Result};

/// A record to write: its id (or none for a new one), and how to make it from that id.
pub type Made<T> = (Option<u64>, Box<dyn FnOnce(u64) -> T>);

pub struct UserRecords {
    table: TableDefinition<'static, (u64, u64), &'static [u8]>,
    counter: &'static str,
}

impl UserRecords {
    pub const fn new(table: &'static str, counter: &'static str) -> Self {
        Self {
            table: TableDefinition::new(table),
            counter,
        }
    }

    pub fn create(&self, txn: &WriteTransaction) -> Result<(), redb::Error> {
        txn.open_table(self.table)?;
        Ok(())
    }

    pub fn forget(&self, txn: &WriteTransaction, user: u64) -> anyhow::Result<()> {
        txn.open_table(self.table)?
            .retain_in((user, 0)..=(user, u64::MAX), |_, _| false)?;
        Ok(())
    }

    /// The user's records, oldest first.
    pub fn list<T: DeserializeOwned>(&self, store: &Store, user: u64) -> Result<Vec<T>> {
        let txn = store.db().begin_read()?;
        let t = txn.open_table(self.table)?;
        let mut out = Vec::new();
        for e in t.range((user, 0)..=(user, u64::MAX))? {
            out.push(record::decode(e?.1.value())?);
        }
        Ok(out)
    }

    /// Every user's records (a job's sweep), by user.
    pub fn everyone<T: DeserializeOwned>(&self, store: &Store) -> Result<Vec<(u64, T)>> {
        keyed::everyone(store, self.table, |(user, _)| user)
    }

    pub fn get<T: DeserializeOwned>(&self, store: &Store, user: u64, id: u64) -> Result<Option<T>> {
        keyed::get(store, self.table, (user, id))
    }

    /// Writes records in one transaction: each replaces the record of its id, or (no id) is
    /// made from a new id, refused with `full` when the user would hold more than `max`. All
    /// or nothing.
    pub fn put_many<T: Serialize>(
        &self,
        store: &Store,
        user: u64,
        max: usize,
        full: &str,
        items: impl IntoIterator<Item = Made<T>>,
    ) -> Result<Vec<T>> {
        let txn = store.begin_write()?;
        let mut out = Vec::new();
        {
            let mut t = txn.open_table(self.table)?;
            let mut held = t.range((user, 0)..=(user, u64::MAX))?.count();
            for (id, f) in items {
                let id = match id {
                    Some(id) => id,
                    None => {
                        if held >= max {
                            return Err(AppError::bad_request(full));
                        }
                        held += 1;
                        next_id(&txn, self.counter)?
                    }
                };
                let rec = f(id);
                t.insert((user, id), record::encode(&rec).as_slice())?;
                out.push(rec);
            }
        }
        txn.commit()?;
        Ok(out)
    }

    /// Adds one record made from its new id (see [`Self::put_many`]).
    pub fn insert<T: Serialize + 'static>(
        &self,
        store: &Store,
        user: u64,
        max: usize,
        full: &str,
        make: impl FnOnce(u64) -> T + 'static,
    ) -> Result<T> {
        let made: Box<dyn FnOnce(u64) -> T> = Box::new(make);
        Ok(self
            .put_many(store, user, max, full, [(None, made)])?
            .pop()
            .expect("one made"))
    }

    /// Changes one record in a transaction; `None` when the user has no such record.
    pub fn update<T: Serialize + DeserializeOwned>(
        &self,
        store: &Store,
        user: u64,
        id: u64,
        f: impl FnOnce(&mut T) -> Result<()>,
    ) -> Result<Option<T>> {
        let txn = store.begin_write()?;
        let out = {
            let mut t = txn.open_table(self.table)?;
            let current: Option<T> = match t.get((user, id))? {
                Some(v) => Some(record::decode(v.value())?),
                None => None,
            };
            let Some(mut rec) = current else {
                return Ok(None);
            };
            f(&mut rec)?;
            t.insert((user, id), record::encode(&rec).as_slice())?;
            rec
        };
        txn.commit()?;
        Ok(Some(out))
    }

    /// How many records the user has.
    pub fn count(&self, store: &Store, user: u64) -> Result<usize> {
        let txn = store.db().begin_read()?;
        let t = txn.open_table(self.table)?;
        Ok(t.range((user, 0)..=(user, u64::MAX))?.count())
    }

    /// Drops the user's oldest records beyond the newest `keep`.
    pub fn trim_oldest(&self, store: &Store, user: u64, keep: usize) -> Result<usize> {
        let txn = store.begin_write()?;
        let gone = {
            let mut t = txn.open_table(self.table)?;
            let n = t.range((user, 0)..=(user, u64::MAX))?.count();
            let old: Vec<u64> = t
                .range((user, 0)..=(user, u64::MAX))?
                .take(n.saturating_sub(keep))
                .filter_map(|e| e.ok().map(|(k, _)| k.value().1))
                .collect();
            for id in &old {
                t.remove((user, *id))?;
            }
            old.len()
        };
        txn.commit()?;
        Ok(gone)
    }

    /// The user's records, oldest first, inside a write transaction.
    pub fn list_in<T: DeserializeOwned>(
        &self,
        txn: &WriteTransaction,
        user: u64,
    ) -> Result<Vec<T>> {
        let t = txn.open_table(self.table)?;
        let mut out = Vec::new();
        for e in t.range((user, 0)..=(user, u64::MAX))? {
            out.push(record::decode(e?.1.value())?);
        }
        Ok(out)
    }

    /// One record, inside a write transaction.
    pub fn get_in<T: DeserializeOwned>(
        &self,
        txn: &WriteTransaction,
        user: u64,
        id: u64,
    ) -> Result<Option<T>> {
        let t = txn.open_table(self.table)?;
        Ok(match t.get((user, id))? {
            Some(v) => Some(record::decode(v.value())?),
            None => None,
        })
    }

    /// Writes one record under its id, inside a write transaction.
    pub fn put_in<T: Serialize>(
        &self,
        txn: &WriteTransaction,
        user: u64,
        id: u64,
        rec: &T,
    ) -> Result<()> {
        txn.open_table(self.table)?
            .insert((user, id), record::encode(rec).as_slice())?;
        Ok(())
    }

    /// A new record id, inside a write transaction; refused with `full` when the user holds
    /// `max` records already.
    pub fn new_id_in(
        &self,
        txn: &WriteTransaction,
        user: u64,
        max: usize,
        full: &str,
    ) -> Result<u64> {
        let held = txn
            .open_table(self.table)?
            .range((user, 0)..=(user, u64::MAX))?
            .count();
        if held >= max {
            return Err(AppError::bad_request(full));
        }
        Ok(next_id(txn, self.counter)?)
    }

    /// Keeps the records of every user for which `keep(user, record)` says so (an account
    /// forgotten: its records go), inside a write transaction. A record that does not decode
    /// is kept.
    pub fn retain_in<T: DeserializeOwned>(
        &self,
        txn: &WriteTransaction,
        mut keep: impl FnMut(u64, &T) -> bool,
    ) -> anyhow::Result<()> {
        txn.open_table(self.table)?
            .retain(|k, v| record::decode::<T>(v).map_or(true, |rec| keep(k.0, &rec)))?;
        Ok(())
    }

    /// Removes one record; false when there was none.
    pub fn remove(&self, store: &Store, user: u64, id: u64) -> Result<bool> {
        let txn = store.begin_write()?;
        let gone = txn.open_table(self.table)?.remove((user, id))?.is_some();
        txn.commit()?;
        Ok(gone)
    }
}
