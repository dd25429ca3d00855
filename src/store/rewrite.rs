//! Rewriting every table into fresh pages, after a forget. redb changes a page in place once it
//! has copied it within a transaction, and a row removed that way (`Table::remove`) leaves its
//! bytes in the unused end of a page that stays in use for other users' rows: neither
//! compaction (it moves pages whole) nor overwriting the free pages (`scrub.rs`) reaches them.
//! A rewrite copies each table's rows, in key order, into a new table: pages built from nothing,
//! zeroed first, holding only the rows that are there. The old pages are then free, and
//! `scrub_free_pages` overwrites them.
//!
//! One write transaction per table, so other writers wait for one table at a time; the rows are
//! the same before and after, so nothing can see a difference. The store's tables are of a
//! known set of key and value types ([`KEYS`]/`VALUES` below); a table of another type fails
//! the rewrite loudly (and the unit test below), never silently keeps its pages.

use redb::{Key, ReadableTable, TableDefinition, TableError, Value, WriteTransaction};

use super::Store;

/// Suffix of the table a rewrite moves the old rows to (dropped in the same transaction).
const OLD: &str = ".rewrite-old";

/// Copies table `name` into fresh pages when its types are `K`/`V`; false when they are not.
fn rewrite_as<K: Key + 'static, V: Value + 'static>(
    txn: &WriteTransaction,
    name: &str,
) -> anyhow::Result<bool> {
    let table: TableDefinition<K, V> = TableDefinition::new(name);
    match txn.open_table(table) {
        Ok(_) => {}
        Err(TableError::TableTypeMismatch { .. }) => return Ok(false),
        Err(e) => return Err(e.into()),
    }
    let old_name = format!("{name}{OLD}");
    let old: TableDefinition<K, V> = TableDefinition::new(&old_name);
    txn.delete_table(old)?;
    txn.rename_table(table, old)?;
    {
        let from = txn.open_table(old)?;
        let mut to = txn.open_table(table)?;
        for entry in from.iter()? {
            let (k, v) = entry?;
            to.insert(k.value(), v.value())?;
        }
    }
    txn.delete_table(old)?;
    Ok(true)
}

/// Tries each value type of the catalog for key type `$k`.
macro_rules! with_values {
    ($txn:expr, $name:expr, $k:ty) => {{
        rewrite_as::<$k, &[u8]>($txn, $name)?
            || rewrite_as::<$k, u64>($txn, $name)?
            || rewrite_as::<$k, i64>($txn, $name)?
            || rewrite_as::<$k, &str>($txn, $name)?
            || rewrite_as::<$k, ()>($txn, $name)?
            || rewrite_as::<$k, u8>($txn, $name)?
            || rewrite_as::<$k, f32>($txn, $name)?
            || rewrite_as::<$k, (i64, u32)>($txn, $name)?
            || rewrite_as::<$k, (u64, u64)>($txn, $name)?
    }};
}

/// Tries every key type of the catalog.
macro_rules! with_keys {
    ($txn:expr, $name:expr, [$($k:ty),*]) => {{
        false $(|| with_values!($txn, $name, $k))*
    }};
}

/// Rewrites table `name` in `txn`; false when its types are not in the catalog.
fn rewrite_one(txn: &WriteTransaction, name: &str) -> anyhow::Result<bool> {
    Ok(with_keys!(
        txn,
        name,
        [
            u64,
            &str,
            &[u8],
            (u64, u64),
            (u64, u16),
            (u64, u32),
            (u64, &str),
            (u64, &str, u32),
            (u64, &str, &str),
            (u64, &str, &[u8]),
            (u64, &str, i64, u64),
            (u64, &str, u16),
            (u64, &str, u64),
            (u64, u8, i64, u64),
            (u64, u64, i64, u64)
        ]
    ))
}

impl Store {
    /// Rewrites every table into fresh pages (see the module doc). Returns how many.
    pub fn rewrite_tables(&self) -> anyhow::Result<usize> {
        let names: Vec<String> = {
            let txn = redb::ReadableDatabase::begin_read(&*self.db)?;
            anyhow::ensure!(
                txn.list_multimap_tables()?.next().is_none(),
                "the store has multimap tables, which the rewrite does not know"
            );
            txn.list_tables()?
                .map(|h| redb::TableHandle::name(&h).to_string())
                .collect()
        };
        for name in &names {
            let txn = self.db.begin_write()?;
            if !rewrite_one(&txn, name)? {
                anyhow::bail!("table {name} has key/value types the rewrite does not know");
            }
            txn.commit()?;
        }
        Ok(names.len())
    }
}

#[cfg(test)]
mod tests {
    use redb::ReadableDatabase;

    use super::*;

    const ROWS: TableDefinition<u64, &[u8]> = TableDefinition::new("rows");

    #[test]
    fn every_table_of_the_schema_is_of_a_known_type() {
        let (_dir, store) = crate::schema::temp_store();
        assert!(store.rewrite_tables().unwrap() > 20);
    }

    #[test]
    fn rows_removed_one_by_one_leave_nothing_after_a_rewrite_and_a_scrub() {
        let (_dir, store) = crate::schema::temp_store();
        let marker = b"forgotten-marker-slack";
        let holds = || {
            std::fs::read(store.path())
                .unwrap()
                .windows(marker.len())
                .any(|w| w == marker)
        };
        // Two users' rows in the same pages; the odd keys are the one removed.
        let txn = store.begin_write().unwrap();
        {
            let mut t = txn.open_table(ROWS).unwrap();
            for i in 0..400u64 {
                let v = if i % 2 == 1 {
                    [&marker[..], &[b'y'; 150]].concat()
                } else {
                    vec![b'k'; 170]
                };
                t.insert(i, v.as_slice()).unwrap();
            }
        }
        txn.commit().unwrap();
        let txn = store.begin_write().unwrap();
        {
            let mut t = txn.open_table(ROWS).unwrap();
            for i in (1..400u64).step_by(2) {
                t.remove(i).unwrap();
            }
        }
        txn.commit().unwrap();
        store.scrub_free_pages().unwrap();
        assert!(
            holds(),
            "the removed rows stay in pages still in use (what the rewrite is for)"
        );
        store.rewrite_tables().unwrap();
        store.scrub_free_pages().unwrap();
        assert!(!holds());
        // The other rows are all there, in order.
        let txn = store.db().begin_read().unwrap();
        let t = txn.open_table(ROWS).unwrap();
        let keys: Vec<u64> = t.iter().unwrap().map(|e| e.unwrap().0.value()).collect();
        assert_eq!(keys, (0..400).step_by(2).collect::<Vec<u64>>());
    }
}
