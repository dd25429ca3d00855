//! A feature's one record per user: user id → JSON (the auto-reply's settings, spam detection's
//! settings). Each feature owns its table (a `static` of its own) and only calls these; the
//! partial update of the settings themselves is `crate::error::merged`.

use redb::{ReadableTable, TableDefinition, WriteTransaction};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Store, keyed, record};
use crate::error::Result;

pub struct UserRecord {
    table: TableDefinition<'static, u64, &'static [u8]>,
}

impl UserRecord {
    pub const fn new(table: &'static str) -> Self {
        Self {
            table: TableDefinition::new(table),
        }
    }

    /// The table, in the feature's migration.
    pub fn create(&self, txn: &WriteTransaction) -> Result<(), redb::Error> {
        txn.open_table(self.table)?;
        Ok(())
    }

    /// The feature's forget step.
    pub fn forget(&self, txn: &WriteTransaction, user: u64) -> anyhow::Result<()> {
        txn.open_table(self.table)?.remove(user)?;
        Ok(())
    }

    /// The user's record, if they have one.
    pub fn get<T: DeserializeOwned>(&self, store: &Store, user: u64) -> Result<Option<T>> {
        keyed::get(store, self.table, user)
    }

    /// Replaces the user's record.
    pub fn put<T: Serialize>(&self, store: &Store, user: u64, value: &T) -> Result<()> {
        let txn = store.begin_write()?;
        txn.open_table(self.table)?
            .insert(user, record::encode(value).as_slice())?;
        txn.commit()?;
        Ok(())
    }

    /// Changes the user's record (the default when they have none) in one transaction.
    pub fn update<T, R>(
        &self,
        store: &Store,
        user: u64,
        f: impl FnOnce(&mut T) -> Result<R>,
    ) -> Result<R>
    where
        T: Serialize + DeserializeOwned + Default,
    {
        let txn = store.begin_write()?;
        let out = {
            let mut t = txn.open_table(self.table)?;
            let mut value: T = match t.get(user)? {
                Some(v) => record::decode(v.value())?,
                None => T::default(),
            };
            let out = f(&mut value)?;
            t.insert(user, record::encode(&value).as_slice())?;
            out
        };
        txn.commit()?;
        Ok(out)
    }

    /// Every user's record, by user.
    pub fn everyone<T: DeserializeOwned>(&self, store: &Store) -> Result<Vec<(u64, T)>> {
        keyed::everyone(store, self.table, |user| user)
    }
}
