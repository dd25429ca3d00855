//! Overwriting what a removal freed. redb copies a page on write and frees the old copy, so a
//! removed user's rows stay readable in the file's free pages until something is written over
//! them (or `migrate --compact` cuts them off). Forgetting must leave no readable trace, so after
//! a removal the free pages are filled: a scratch table of zeros grows until the file would have
//! to grow, then is dropped. Every page redb allocates is zeroed in full first, so each free page
//! ends up holding zeros. The file keeps its size (`migrate --compact` gives the room back).
//!
//! Works on a shared handle (no exclusive access needed, unlike compaction): `serve` runs it in
//! the background after a removal, between other writes; `mailclient user remove` runs it too.
//! Rows removed inside pages that stay in use are `rewrite.rs`'s part, done first.

use redb::TableDefinition;

use super::Store;

/// The scratch table: zeros, dropped at the end (and at the start, if a scrub was cut short).
const FILLER: TableDefinition<u64, &[u8]> = TableDefinition::new("scrub_filler");
/// Written per transaction while filling (one commit each, so other writers interleave).
const BATCH_BYTES: usize = 4 << 20;
/// One value: a few to a 4 KiB leaf page, so every allocation is of one page (the smallest free
/// pieces get used too).
const VALUE_BYTES: usize = 1000;

impl Store {
    /// Overwrites the file's free pages with zeros. Returns the bytes written.
    pub fn scrub_free_pages(&self) -> anyhow::Result<u64> {
        self.drop_filler()?;
        // A page freed by a commit becomes free for reuse only after later commits (redb keeps
        // it for the previous commit and for readers that started before): empty commits
        // release the removal's pages.
        self.settle()?;
        let start = std::fs::metadata(&self.path)?.len();
        let zeros = vec![0u8; VALUE_BYTES];
        let (mut key, mut written) = (0u64, 0u64);
        // Never more than the file's size and a batch: the free pages cannot hold more.
        while written <= start + BATCH_BYTES as u64 {
            let txn = self.db.begin_write()?;
            {
                let mut t = txn.open_table(FILLER)?;
                for _ in 0..BATCH_BYTES / VALUE_BYTES {
                    t.insert(key, zeros.as_slice())?;
                    key += 1;
                }
            }
            txn.commit()?;
            written += BATCH_BYTES as u64;
            if std::fs::metadata(&self.path)?.len() > start {
                break; // no free page was left: the file grew
            }
        }
        self.drop_filler()?;
        self.settle()?;
        Ok(written)
    }

    fn drop_filler(&self) -> anyhow::Result<()> {
        let txn = self.db.begin_write()?;
        txn.delete_table(FILLER)?;
        txn.commit()?;
        Ok(())
    }

    fn settle(&self) -> anyhow::Result<()> {
        for _ in 0..3 {
            self.db.begin_write()?.commit()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use redb::ReadableDatabase;

    use super::*;

    const ROWS: TableDefinition<u64, &[u8]> = TableDefinition::new("rows");
    const KEPT: TableDefinition<u64, &[u8]> = TableDefinition::new("kept");

    fn file_holds(path: &std::path::Path, needle: &[u8]) -> bool {
        std::fs::read(path)
            .unwrap()
            .windows(needle.len())
            .any(|w| w == needle)
    }

    #[test]
    fn removed_rows_are_not_left_in_free_pages() {
        let (_dir, store) = crate::schema::temp_store();
        let marker = b"forgotten-marker-5f1c";
        let txn = store.begin_write().unwrap();
        {
            let mut t = txn.open_table(ROWS).unwrap();
            for i in 0..2000u64 {
                let mut v = marker.to_vec();
                v.extend_from_slice(&[b'x'; 900]);
                t.insert(i, v.as_slice()).unwrap();
            }
        }
        txn.commit().unwrap();
        // Other rows after them, so the freed pages are inside the file, not at its end
        // (where redb may cut them off by itself).
        let txn = store.begin_write().unwrap();
        {
            let mut t = txn.open_table(KEPT).unwrap();
            for i in 0..2000u64 {
                t.insert(i, [b'k'; 920].as_slice()).unwrap();
            }
        }
        txn.commit().unwrap();
        let txn = store.begin_write().unwrap();
        txn.open_table(ROWS).unwrap().retain(|_, _| false).unwrap();
        txn.commit().unwrap();
        for _ in 0..3 {
            store.begin_write().unwrap().commit().unwrap();
        }
        assert!(
            file_holds(store.path(), marker),
            "the removed rows are still in the file's free pages (what this guards against)"
        );
        store.scrub_free_pages().unwrap();
        assert!(!file_holds(store.path(), marker), "free pages overwritten");
        // The store still works, and the scratch table is gone.
        let txn = store.db().begin_read().unwrap();
        assert!(txn.open_table(FILLER).is_err());
        assert_eq!(
            redb::ReadableTableMetadata::len(&txn.open_table(ROWS).unwrap()).unwrap(),
            0
        );
        assert_eq!(
            redb::ReadableTableMetadata::len(&txn.open_table(KEPT).unwrap()).unwrap(),
            2000
        );
    }
}
