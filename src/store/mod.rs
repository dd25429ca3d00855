//! The embedded store: one redb file in the data dir. Features keep their own tables and their
//! own functions over them (see `auth::users`, `auth::sessions`); this module owns the handle, the
//! schema version and the running of migrations. The list of migrations is the application's
//! (`crate::schema`): this module sits below every feature and knows none of them. A networked
//! engine could replace redb behind this module later.

mod close;
mod keyed;
pub mod per_user;
pub mod record;
mod rewrite;
mod scrub;
pub mod user_record;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use anyhow::Context;
use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition};

/// One step of the schema, applied in one write transaction together with its version bump.
/// The list is append-only: never edit or reorder a published migration.
pub struct Migration {
    pub version: u64,
    pub name: &'static str,
    pub apply: fn(&redb::WriteTransaction) -> Result<(), redb::Error>,
}

/// Store-wide values: `schema_version`, and id counters named after their table.
pub(crate) const META: TableDefinition<&str, u64> = TableDefinition::new("meta");

/// Page cache when the caller does not say (`[storage] cache_size_mb` defaults to the same).
/// 16 MiB: a 60,000-message first sync peaked 19 MB lower than with 32 at the same speed (the
/// OS page cache still holds the file; redb's own cache saves the copy and the decoding).
pub const DEFAULT_CACHE_MB: u64 = 16;

/// The database file's name inside the data dir.
pub const DB_FILE: &str = "mailclient.redb";

#[derive(Clone)]
pub struct Store {
    db: Arc<Database>,
    path: PathBuf,
    migrations: &'static [Migration],
    /// Bulk loads in progress ([`Store::bulk_load`]).
    bulk: Arc<AtomicUsize>,
    /// Told after a write committed, so the change feed reads at once instead of polling
    /// ([`Store::committed`]).
    wrote: Arc<tokio::sync::Notify>,
    /// Set on the way out ([`Store::begin_close`]).
    closing: Arc<AtomicBool>,
}

/// A write transaction of the store ([`Store::begin_write`]): redb's, which it dereferences
/// to, and a commit that tells the change feed.
pub struct WriteTxn<'a> {
    txn: redb::WriteTransaction,
    store: &'a Store,
}

impl std::ops::Deref for WriteTxn<'_> {
    type Target = redb::WriteTransaction;
    fn deref(&self) -> &redb::WriteTransaction {
        &self.txn
    }
}

impl std::ops::DerefMut for WriteTxn<'_> {
    fn deref_mut(&mut self) -> &mut redb::WriteTransaction {
        &mut self.txn
    }
}

impl WriteTxn<'_> {
    /// Commits, then tells the change feed.
    pub fn commit(self) -> Result<(), redb::CommitError> {
        self.txn.commit()?;
        self.store.committed();
        Ok(())
    }

    /// Ends the transaction without writing.
    pub fn abort(self) -> Result<(), redb::StorageError> {
        self.txn.abort()
    }
}

/// A bulk load in progress; ends when dropped.
pub struct BulkLoad(Arc<AtomicUsize>);

impl Drop for BulkLoad {
    fn drop(&mut self) {
        if self.0.fetch_sub(1, Ordering::Relaxed) == 1 {
            // The load's chunks were parsed on several threads, and glibc keeps what they freed
            // in each thread's arena: without this the search index's catch-up, which starts
            // now, stacks its memory on top (the 60,000-message first sync's peak: 159–166 MiB
            // without, 136–137 MiB with, at 2,500-message chunks).
            #[cfg(target_env = "gnu")]
            // SAFETY: malloc_trim only hands free pages back to the kernel.
            unsafe {
                libc::malloc_trim(0);
            }
        }
    }
}

/// What opening found about the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaState {
    Current,
    /// The file is older; `migrate` (or `serve`, which migrates) brings it up to date.
    Older {
        found: u64,
    },
}

impl Store {
    /// Marks a bulk load (a mailbox's first sync walking thousands of messages) until the guard
    /// is dropped. Background readers of the change log that can wait (the search indexer)
    /// wait for it, so on a small server the load has the cores and the memory to itself.
    pub fn bulk_load(&self) -> BulkLoad {
        self.bulk.fetch_add(1, Ordering::Relaxed);
        BulkLoad(self.bulk.clone())
    }

    /// Says that a write committed (the change log may have grown): the change feed, which
    /// otherwise sleeps while nothing happens, reads now. [`Store::write`] says it by itself.
    pub fn committed(&self) {
        self.wrote.notify_one();
    }

    /// Begins a write transaction that says, when it commits, that the change log may have
    /// grown ([`Store::committed`]): so every write wakes the change feed, which otherwise
    /// sleeps while nothing happens.
    pub fn begin_write(&self) -> Result<WriteTxn<'_>, redb::TransactionError> {
        Ok(WriteTxn {
            txn: self.db.begin_write()?,
            store: self,
        })
    }

    /// Resolves after the next [`Store::committed`] (or at once when one came since the last).
    pub async fn next_commit(&self) {
        self.wrote.notified().await;
    }

    /// Whether a bulk load is in progress.
    pub fn bulk_loading(&self) -> bool {
        self.bulk.load(Ordering::Relaxed) > 0
    }

    /// Opens (creating if missing) the store in `data_dir`, whose schema is `migrations`, with a
    /// page cache of `cache_mb` MiB (`[storage] cache_size_mb`). Refuses a schema newer than
    /// this binary knows; does not migrate.
    pub fn open_with(
        data_dir: &Path,
        cache_mb: u64,
        migrations: &'static [Migration],
    ) -> anyhow::Result<(Self, SchemaState)> {
        std::fs::create_dir_all(data_dir)
            .with_context(|| format!("cannot create data dir {}", data_dir.display()))?;
        restrict_dir(data_dir);
        let path = data_dir.join(DB_FILE);
        // A file not closed cleanly (a crash, a kill) is checked page by page as it opens: said
        // on the console, since on a big store it takes a while.
        let checked = Arc::new(AtomicBool::new(false));
        let said = checked.clone();
        let shown = path.display().to_string();
        let started = std::time::Instant::now();
        let db = Database::builder()
            .set_cache_size((cache_mb as usize) << 20)
            .set_repair_callback(move |_| {
                if !said.swap(true, Ordering::Relaxed) {
                    tracing::warn!(store = %shown, "the store was not closed cleanly: checking it");
                }
            })
            .create(&path)
            .map_err(|e| match e {
            redb::DatabaseError::DatabaseAlreadyOpen => anyhow::anyhow!(
                "the store {} is in use by another mailclient process (stop `mailclient serve` first)",
                path.display()
            ),
            other => anyhow::anyhow!("cannot open the store {}: {other}", path.display()),
        })?;
        if checked.load(Ordering::Relaxed) {
            tracing::warn!(
                seconds = started.elapsed().as_secs_f32(),
                "the store is checked"
            );
        }
        let store = Self {
            db: Arc::new(db),
            path,
            migrations,
            bulk: Arc::default(),
            wrote: Arc::default(),
            closing: Arc::default(),
        };
        let found = store.schema_version()?;
        let latest = store.latest_version();
        if found > latest {
            anyhow::bail!(
                "the store {} has schema version {found}, newer than this mailclient knows ({latest}); run a newer mailclient",
                store.path.display()
            );
        }
        let state = if found == latest {
            SchemaState::Current
        } else {
            SchemaState::Older { found }
        };
        Ok((store, state))
    }

    /// The schema version this binary writes.
    pub fn latest_version(&self) -> u64 {
        self.migrations.len() as u64
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` in one write transaction on the blocking pool and commits: redb commits fsync,
    /// and must not stall the async workers.
    pub async fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&redb::WriteTransaction) -> anyhow::Result<T> + Send + 'static,
    ) -> anyhow::Result<T> {
        let store = self.clone();
        tokio::task::spawn_blocking(move || {
            let txn = store.begin_write()?;
            let out = f(&txn)?;
            txn.commit()?;
            Ok(out)
        })
        .await?
    }

    /// Gives the file's free pages back to the file system (after a big import the file has
    /// room it will not need soon). Needs the only handle to the store; returns false when
    /// another exists.
    pub fn compact(self) -> anyhow::Result<bool> {
        let Ok(mut db) = Arc::try_unwrap(self.db) else {
            return Ok(false);
        };
        db.compact()
            .map_err(|e| anyhow::anyhow!("cannot compact the store: {e}"))?;
        Ok(true)
    }

    pub fn db(&self) -> &Database {
        &self.db
    }

    /// The schema version written in the file; 0 for a new, empty file.
    pub fn schema_version(&self) -> anyhow::Result<u64> {
        let txn = self.db.begin_read()?;
        let table = match txn.open_table(META) {
            Ok(t) => t,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(0),
            Err(e) => return Err(e.into()),
        };
        Ok(table.get("schema_version")?.map(|v| v.value()).unwrap_or(0))
    }

    /// Applies every migration newer than the file, each in its own transaction together with
    /// the version bump, so a crash leaves the file at a known version.
    pub fn migrate(&self) -> anyhow::Result<Vec<&'static Migration>> {
        let mut ran = Vec::new();
        let current = self.schema_version()?;
        for m in self.migrations.iter().filter(|m| m.version > current) {
            let txn = self.db.begin_write()?;
            (m.apply)(&txn).with_context(|| format!("migration {} ({})", m.version, m.name))?;
            txn.open_table(META)?.insert("schema_version", m.version)?;
            txn.commit()?;
            tracing::info!(version = m.version, name = m.name, "store migrated");
            ran.push(m);
        }
        Ok(ran)
    }

    /// Stamps a schema version without running migrations. Only for tests of the
    /// newer-schema refusal.
    #[doc(hidden)]
    pub fn force_schema_version(&self, version: u64) -> anyhow::Result<()> {
        let txn = self.db.begin_write()?;
        txn.open_table(META)?.insert("schema_version", version)?;
        txn.commit()?;
        Ok(())
    }
}

/// Schema 1: the table of store-wide values.
pub fn create_meta(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(META)?;
    Ok(())
}

/// The value of a counter kept in META (0 when never set).
pub fn counter(store: &Store, name: &str) -> anyhow::Result<u64> {
    let txn = store.db.begin_read()?;
    Ok(txn
        .open_table(META)?
        .get(name)?
        .map(|v| v.value())
        .unwrap_or(0))
}

/// Renames a counter inside the caller's transaction (a migration): returns its value, now
/// kept under `to`.
pub fn rename_counter(
    txn: &redb::WriteTransaction,
    from: &str,
    to: &str,
) -> Result<u64, redb::Error> {
    let mut meta = txn.open_table(META)?;
    let value = meta.remove(from)?.map(|v| v.value()).unwrap_or(0);
    meta.insert(to, value)?;
    Ok(value)
}

/// Removes a value from META inside the caller's transaction; returns it.
pub fn take_value(txn: &redb::WriteTransaction, name: &str) -> Result<u64, redb::Error> {
    Ok(txn
        .open_table(META)?
        .remove(name)?
        .map(|v| v.value())
        .unwrap_or(0))
}

/// A value kept in META, read inside the caller's write transaction.
pub fn get_value(txn: &redb::WriteTransaction, name: &str) -> Result<Option<u64>, redb::Error> {
    Ok(txn.open_table(META)?.get(name)?.map(|v| v.value()))
}

/// Sets a value kept in META inside the caller's transaction.
pub fn put_value(txn: &redb::WriteTransaction, name: &str, value: u64) -> Result<(), redb::Error> {
    txn.open_table(META)?.insert(name, value)?;
    Ok(())
}

/// Allocates the next id of a counter kept in META, inside the caller's transaction.
pub(crate) fn next_id(txn: &redb::WriteTransaction, counter: &str) -> Result<u64, redb::Error> {
    let mut meta = txn.open_table(META)?;
    let next = meta.get(counter)?.map(|v| v.value()).unwrap_or(0) + 1;
    meta.insert(counter, next)?;
    Ok(next)
}

#[cfg(unix)]
fn restrict_dir(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    // The data dir holds password hashes and, later, sealed secrets: owner only.
    if let Err(e) = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)) {
        tracing::warn!(dir = %dir.display(), error = %e, "cannot restrict data dir permissions");
    }
}

#[cfg(not(unix))]
fn restrict_dir(_dir: &Path) {}

#[cfg(test)]
mod tests {
    use super::*;

    fn m1(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
        txn.open_table(META)?;
        Ok(())
    }

    fn m2(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
        const T: TableDefinition<u64, u64> = TableDefinition::new("test_table");
        txn.open_table(T)?;
        Ok(())
    }

    static TWO: &[Migration] = &[
        Migration {
            version: 1,
            name: "meta",
            apply: m1,
        },
        Migration {
            version: 2,
            name: "a table",
            apply: m2,
        },
    ];

    fn open(dir: &Path) -> anyhow::Result<(Store, SchemaState)> {
        Store::open_with(dir, DEFAULT_CACHE_MB, TWO)
    }

    #[test]
    fn new_store_migrates_to_current() {
        let dir = tempfile::tempdir().unwrap();
        let (store, state) = open(dir.path()).unwrap();
        assert_eq!(state, SchemaState::Older { found: 0 });
        let ran = store.migrate().unwrap();
        assert_eq!(ran.len(), TWO.len());
        assert_eq!(store.schema_version().unwrap(), 2);
        // Running again is a no-op.
        assert!(store.migrate().unwrap().is_empty());
    }

    #[test]
    fn reopen_keeps_version() {
        let dir = tempfile::tempdir().unwrap();
        {
            open(dir.path()).unwrap().0.migrate().unwrap();
        }
        let (_, state) = open(dir.path()).unwrap();
        assert_eq!(state, SchemaState::Current);
    }

    #[test]
    fn newer_schema_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        {
            let (store, _) = open(dir.path()).unwrap();
            store.migrate().unwrap();
            store.force_schema_version(3).unwrap();
        }
        let err = open(dir.path()).err().unwrap().to_string();
        assert!(err.contains("newer than this mailclient knows"), "{err}");
    }

    #[test]
    fn second_open_in_use_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let (_store, _) = open(dir.path()).unwrap();
        let err = open(dir.path()).err().unwrap().to_string();
        assert!(
            err.contains("in use by another mailclient process"),
            "{err}"
        );
    }

    #[test]
    fn ids_count_up() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = open(dir.path()).unwrap();
        store.migrate().unwrap();
        let txn = store.begin_write().unwrap();
        assert_eq!(next_id(&txn, "test").unwrap(), 1);
        assert_eq!(next_id(&txn, "test").unwrap(), 2);
        txn.commit().unwrap();
    }
}
