//! The embedded store: one redb file in the data dir. Features keep their own tables and their
//! own functions over them (see `auth::users`, `auth::sessions`); this module owns the handle, the
//! schema version and the append-only migrations. A networked engine could replace redb behind
//! this module later.

mod migrations;
pub mod record;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition};

pub use migrations::{MIGRATIONS, Migration, SCHEMA_VERSION};

/// Store-wide values: `schema_version`, and id counters named after their table.
pub(crate) const META: TableDefinition<&str, u64> = TableDefinition::new("meta");

/// Page cache when the caller does not say (`[storage] cache_size_mb` defaults to the same).
pub const DEFAULT_CACHE_MB: u64 = 64;

/// The database file's name inside the data dir.
pub const DB_FILE: &str = "mailclient.redb";

#[derive(Clone)]
pub struct Store {
    db: Arc<Database>,
    path: PathBuf,
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
    /// Opens (creating if missing) the store in `data_dir`. Refuses a schema newer than this
    /// binary knows; does not migrate.
    pub fn open(data_dir: &Path) -> anyhow::Result<(Self, SchemaState)> {
        Self::open_with_cache(data_dir, DEFAULT_CACHE_MB)
    }

    /// [`open`](Self::open) with a page cache of `cache_mb` MiB (`[storage] cache_size_mb`).
    pub fn open_with_cache(data_dir: &Path, cache_mb: u64) -> anyhow::Result<(Self, SchemaState)> {
        std::fs::create_dir_all(data_dir)
            .with_context(|| format!("cannot create data dir {}", data_dir.display()))?;
        restrict_dir(data_dir);
        let path = data_dir.join(DB_FILE);
        let db = Database::builder()
            .set_cache_size((cache_mb as usize) << 20)
            .create(&path)
            .map_err(|e| match e {
            redb::DatabaseError::DatabaseAlreadyOpen => anyhow::anyhow!(
                "the store {} is in use by another mailclient process (stop `mailclient serve` first)",
                path.display()
            ),
            other => anyhow::anyhow!("cannot open the store {}: {other}", path.display()),
        })?;
        let store = Self {
            db: Arc::new(db),
            path,
        };
        let found = store.schema_version()?;
        if found > SCHEMA_VERSION {
            anyhow::bail!(
                "the store {} has schema version {found}, newer than this mailclient knows ({SCHEMA_VERSION}); run a newer mailclient",
                store.path.display()
            );
        }
        let state = if found == SCHEMA_VERSION {
            SchemaState::Current
        } else {
            SchemaState::Older { found }
        };
        Ok((store, state))
    }

    /// Opens the store and applies pending migrations: what `serve` and `migrate` do.
    /// Returns the migrations that ran.
    pub fn open_and_migrate(data_dir: &Path) -> anyhow::Result<(Self, Vec<&'static Migration>)> {
        Self::open_and_migrate_with_cache(data_dir, DEFAULT_CACHE_MB)
    }

    pub fn open_and_migrate_with_cache(
        data_dir: &Path,
        cache_mb: u64,
    ) -> anyhow::Result<(Self, Vec<&'static Migration>)> {
        let (store, _) = Self::open_with_cache(data_dir, cache_mb)?;
        let ran = store.migrate()?;
        Ok((store, ran))
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
            let txn = store.db().begin_write()?;
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
        for m in MIGRATIONS.iter().filter(|m| m.version > current) {
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

    #[test]
    fn new_store_migrates_to_current() {
        let dir = tempfile::tempdir().unwrap();
        let (store, state) = Store::open(dir.path()).unwrap();
        assert_eq!(state, SchemaState::Older { found: 0 });
        let ran = store.migrate().unwrap();
        assert_eq!(ran.len(), MIGRATIONS.len());
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        // Running again is a no-op.
        assert!(store.migrate().unwrap().is_empty());
    }

    #[test]
    fn reopen_keeps_version() {
        let dir = tempfile::tempdir().unwrap();
        {
            Store::open_and_migrate(dir.path()).unwrap();
        }
        let (_, state) = Store::open(dir.path()).unwrap();
        assert_eq!(state, SchemaState::Current);
    }

    #[test]
    fn newer_schema_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        {
            let (store, _) = Store::open_and_migrate(dir.path()).unwrap();
            store.force_schema_version(SCHEMA_VERSION + 1).unwrap();
        }
        let err = Store::open(dir.path()).err().unwrap().to_string();
        assert!(err.contains("newer than this mailclient knows"), "{err}");
    }

    #[test]
    fn second_open_in_use_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let (_store, _) = Store::open(dir.path()).unwrap();
        let err = Store::open(dir.path()).err().unwrap().to_string();
        assert!(
            err.contains("in use by another mailclient process"),
            "{err}"
        );
    }

    #[test]
    fn migrations_are_append_only_and_numbered() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(
                m.version,
                i as u64 + 1,
                "migration {} is out of order",
                m.name
            );
        }
    }

    #[test]
    fn ids_count_up() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open_and_migrate(dir.path()).unwrap();
        let txn = store.db().begin_write().unwrap();
        assert_eq!(next_id(&txn, "test").unwrap(), 1);
        assert_eq!(next_id(&txn, "test").unwrap(), 2);
        txn.commit().unwrap();
    }
}
