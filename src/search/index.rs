//! The index on disk (`<data dir>/index/`), its one writer, and the indexer that keeps it in
//! step with the store by following the mail store's change log (cursor `search`).
//!
//! Opening checks the index against the store: an index that is missing, unreadable, written
//! with another [`schema::VERSION`], left mid-rebuild, or older than the store (its commit covers
//! less than the store says was indexed) is rebuilt from the stored mail.
//!
//! Forgetting (a removed user or mailbox): a delete in tantivy only marks a document, whose terms
//! and text stay in its segment until a merge. After a forget ([`Search::request_purge`]), once
//! the indexer has deleted the forgotten mail, the segments holding deleted documents are merged
//! (dropping them) and the old files removed; then the store's tables are rewritten into fresh
//! pages and its free pages overwritten (`Store::rewrite_tables`, `Store::scrub_free_pages`),
//! here on the indexer's background thread. The request is kept in the store ([`PURGE_AFTER`])
//! until it is done: a restart in between must not leave the forgotten text in the index.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::{Deserialize, Serialize};
use tantivy::schema::Schema;
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, Term};

use super::analyzer;
use super::schema::{self, Fields};
use crate::accounts;
use crate::mailstore::{MailRead, changes};
use crate::store::Store;

/// The index's folder inside the data dir.
pub const INDEX_DIR: &str = "index";
/// Change-log entries indexed per commit. The writer's one thread lags the thread that makes the
/// documents, so a commit's documents wait in its queue: at 60,000 messages the index's catch-up
/// peaked at 132 MB with 1,000, 144 MB with 2,000 and 188 MB with 10,000, for 11.1, 9.6 and 9.1 s.
const BATCH: usize = 1_000;
/// During a bulk load of the store (a mailbox's first sync) the indexer waits, so the load has
/// both cores and the memory; it still runs once in this long, so other users' new mail
/// reaches search within it however long a first sync over the Internet takes.
const BULK_WAIT: Duration = Duration::from_secs(120);

/// Written with every index commit.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Payload {
    version: u32,
    /// Change-log entries up to here are in this commit.
    seq: u64,
    /// A rebuild started and has not finished: start it again.
    #[serde(default)]
    rebuilding: bool,
}

pub struct Search {
    pub(super) reader: IndexReader,
    pub(super) fields: Fields,
    writer: Mutex<IndexWriter>,
    store: Store,
    path: PathBuf,
    needs_rebuild: AtomicBool,
    /// Work waits (logged changes, a rebuild): results may be incomplete.
    busy: AtomicBool,
    indexed_docs: AtomicU64,
    /// Shared with the indexer's thread, which waits on it without holding the index.
    wake: Arc<(Mutex<bool>, Condvar)>,
    /// Body texts of recent results, for their snippets.
    pub(super) texts: super::run::TextCache,
    /// The indexer thread runs in this process (`serve`, tests), so it may index a message
    /// the importer is adding too.
    indexer_running: AtomicBool,
    /// A forget asked for its bytes to go: 1 + the change-log entry up to which the index must
    /// have caught up first; 0 for none. Kept in the store too ([`PURGE_AFTER`]).
    purge_after: AtomicU64,
    /// How many purges were asked for (a purge clears `purge_after` only if none came while
    /// it ran).
    purge_requests: AtomicU64,
}

/// The META value holding a purge still owed after a forget ([`Search::request_purge`]): read
/// at open, so a restart before the purge runs still purges.
const PURGE_AFTER: &str = "search_purge_after";
/// The META count of purges asked for, beside [`PURGE_AFTER`] (see `purge_requests`).
const PURGE_REQUESTS: &str = "search_purge_requests";

pub use crate::config::WriterOptions;

impl Search {
    /// Opens (or creates) the index of `data_dir`, deciding whether it must be rebuilt.
    pub fn open(data_dir: &Path, store: Store, opts: WriterOptions) -> anyhow::Result<Self> {
        let path = data_dir.join(INDEX_DIR);
        let (schema, fields) = schema::build();
        let (index, fresh) = match open_existing(&path, &schema) {
            Ok(index) => (index, false),
            Err(e) => {
                if path.exists() {
                    tracing::warn!(error = %format!("{e:#}"), "search index unusable; rebuilding it from the store");
                    std::fs::remove_dir_all(&path)
                        .with_context(|| format!("cannot remove {}", path.display()))?;
                }
                std::fs::create_dir_all(&path)
                    .with_context(|| format!("cannot create {}", path.display()))?;
                (Index::create_in_dir(&path, schema.clone())?, true)
            }
        };
        for (name, a) in analyzer::analyzers() {
            index.tokenizers().register(name, a);
        }
        let payload: Payload = index
            .load_metas()?
            .payload
            .and_then(|p| serde_json::from_str(&p).ok())
            .unwrap_or_default();
        let indexed = changes::cursor(&store, changes::SEARCH)?;
        let last = changes::last_seq(&store)?;
        // Behind the store (an older copy of the index), or ahead of it (an older store).
        let stale = payload.version != schema::VERSION
            || payload.rebuilding
            || payload.seq < indexed
            || payload.seq > last;
        let needs_rebuild = fresh || stale;
        if stale && !fresh {
            tracing::info!(
                version = payload.version,
                seq = payload.seq,
                store_seq = indexed,
                "search index is behind the store; rebuilding it"
            );
        }
        let writer = index
            .writer_with_num_threads(
                opts.threads.max(1),
                opts.memory_bytes.max(opts.threads.max(1) * (16 << 20)),
            )
            .context("cannot open the search index for writing (is another mailclient running?)")?;
        writer.set_merge_policy(Box::new(super::merge::BoundedMerges::default()));
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        let docs = reader.searcher().num_docs();
        let owed_purge = crate::store::counter(&store, PURGE_AFTER)?;
        Ok(Self {
            reader,
            fields,
            writer: Mutex::new(writer),
            store,
            path,
            needs_rebuild: AtomicBool::new(needs_rebuild),
            busy: AtomicBool::new(true),
            indexed_docs: AtomicU64::new(docs),
            wake: Arc::new((Mutex::new(false), Condvar::new())),
            texts: Default::default(),
            indexer_running: AtomicBool::new(false),
            purge_after: AtomicU64::new(owed_purge),
            purge_requests: AtomicU64::new(0),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether mail waits to be indexed (a rebuild, a big batch).
    pub fn is_busy(&self) -> bool {
        self.busy.load(Ordering::Relaxed)
    }

    pub fn num_docs(&self) -> u64 {
        self.indexed_docs.load(Ordering::Relaxed)
    }

    /// Documents deleted but still in their segments' files (until a merge drops them).
    pub fn deleted_docs(&self) -> u64 {
        self.reader
            .searcher()
            .segment_readers()
            .iter()
            .map(|s| u64::from(s.num_deleted_docs()))
            .sum()
    }

    pub fn rebuild_pending(&self) -> bool {
        self.needs_rebuild.load(Ordering::Relaxed)
    }

    /// Asks for a rebuild from the store (`mailclient migrate --rebuild-index`).
    pub fn request_rebuild(&self) {
        self.needs_rebuild.store(true, Ordering::Relaxed);
        self.poke();
    }

    /// Wakes the indexer thread (new logged changes).
    pub fn poke(&self) {
        let (lock, cv) = &*self.wake;
        *lock.lock().expect("search wake") = true;
        cv.notify_one();
    }

    /// Starts the indexer thread: it rebuilds when needed, then follows the change log, looking
    /// every `poll` while a bulk load makes it wait and every `idle_poll` otherwise, and at once
    /// when [`Search::poke`]d (`serve` pokes it on every batch of the change feed, so its
    /// `idle_poll` is long and an idle server sleeps). It ends when the last handle to the index
    /// is dropped or the store is closing ([`crate::store::Store::begin_close`]); it holds the index only
    /// while it works, so `serve` can close the store cleanly on the way out.
    pub fn spawn_indexer(self: &Arc<Self>, poll: Duration, idle_poll: Duration) {
        self.indexer_running.store(true, Ordering::Relaxed);
        let weak: Weak<Self> = Arc::downgrade(self);
        std::thread::Builder::new()
            .name("search-indexer".into())
            .spawn(move || {
                let mut waiting_since: Option<Instant> = None;
                loop {
                    let Some(me) = weak.upgrade() else { return };
                    if me.store.is_closing() {
                        return;
                    }
                    let wait = me.store.bulk_loading()
                        && waiting_since.get_or_insert_with(Instant::now).elapsed() < BULK_WAIT;
                    if wait {
                        // Mail is waiting: searches say the index is catching up.
                        me.busy.store(true, Ordering::Relaxed);
                    } else {
                        waiting_since = None;
                        if let Err(e) = me.step() {
                            tracing::error!(error = %format!("{e:#}"), "search indexer failed; retrying");
                            std::thread::sleep(Duration::from_secs(2));
                        }
                    }
                    let wake = me.wake.clone();
                    drop(me);
                    let (lock, cv) = &*wake;
                    let guard = lock.lock().expect("search wake");
                    let timeout = if wait { poll } else { idle_poll };
                    let (mut woken, _) = cv
                        .wait_timeout_while(guard, timeout, |w| !*w)
                        .expect("search wake");
                    *woken = false;
                }
            })
            .expect("spawn the search indexer");
    }

    /// One round: a pending rebuild, then everything logged since the last pass.
    pub fn step(&self) -> anyhow::Result<()> {
        if self.needs_rebuild.swap(false, Ordering::Relaxed) {
            self.busy.store(true, Ordering::Relaxed);
            if let Err(e) = self.rebuild() {
                self.needs_rebuild.store(true, Ordering::Relaxed);
                return Err(e);
            }
            if self.store.is_closing() {
                return Ok(());
            }
        }
        while self.catch_up_batch()? {
            if self.store.is_closing() {
                // Each batch is committed with its cursor: the next start goes on from here, and
                // a purge still owed (below) is read back from the store then.
                return Ok(());
            }
        }
        self.busy.store(false, Ordering::Relaxed);
        let want = self.purge_after.load(Ordering::Relaxed);
        if want > 0 && changes::cursor(&self.store, changes::SEARCH)? + 1 >= want {
            // Requests counted before the purge: one made while it runs (another forget, whose
            // rows may go after their table was rewritten) keeps the purge owed, here and in the
            // store, though it may name the same change-log entry.
            let asked = self.purge_requests.load(Ordering::Relaxed);
            let asked_stored = crate::store::counter(&self.store, PURGE_REQUESTS)?;
            self.purge_deleted()?;
            self.store.rewrite_tables()?;
            self.store.scrub_free_pages()?;
            if self.purge_requests.load(Ordering::Relaxed) == asked {
                let _ = self.purge_after.compare_exchange(
                    want,
                    0,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                );
            }
            let txn = self.store.begin_write()?;
            if crate::store::get_value(&txn, PURGE_REQUESTS)?.unwrap_or(0) == asked_stored {
                crate::store::take_value(&txn, PURGE_AFTER)?;
            }
            txn.commit()?;
        }
        Ok(())
    }

    /// After a forget: once the change log up to now is indexed, the deleted documents' bytes
    /// go from the index and the store's free pages are overwritten (see the module doc). The
    /// request is committed to the store before this returns.
    pub fn request_purge(&self) -> anyhow::Result<()> {
        let want = changes::last_seq(&self.store)? + 1;
        // In memory first: a store that cannot be written still purges before the next restart.
        self.purge_after.fetch_max(want, Ordering::Relaxed);
        self.purge_requests.fetch_add(1, Ordering::Relaxed);
        self.poke();
        let txn = self.store.begin_write()?;
        let owed = crate::store::get_value(&txn, PURGE_AFTER)?.unwrap_or(0);
        crate::store::put_value(&txn, PURGE_AFTER, owed.max(want))?;
        let asked = crate::store::get_value(&txn, PURGE_REQUESTS)?.unwrap_or(0);
        crate::store::put_value(&txn, PURGE_REQUESTS, asked + 1)?;
        txn.commit()?;
        Ok(())
    }

    /// Merges away every segment that holds deleted documents and removes the files no
    /// segment uses any more: what was deleted is then nowhere in the index's files.
    pub fn purge_deleted(&self) -> anyhow::Result<()> {
        let with_deletes: Vec<tantivy::index::SegmentId> = self
            .reader
            .searcher()
            .segment_readers()
            .iter()
            .filter(|s| s.num_deleted_docs() > 0)
            .map(|s| s.segment_id())
            .collect();
        let mut w = self.writer.lock().expect("search writer");
        if !with_deletes.is_empty() {
            w.merge(&with_deletes).wait()?;
            self.reader.reload()?;
        }
        w.garbage_collect_files().wait()?;
        Ok(())
    }

    /// Indexes the messages of one batch of logged changes. Returns whether the log may hold
    /// more.
    fn catch_up_batch(&self) -> anyhow::Result<bool> {
        let from = changes::cursor(&self.store, changes::SEARCH)?;
        let batch = changes::after(&self.store, from, BATCH)?;
        let Some(last) = batch.last().map(|c| c.seq) else {
            return Ok(false);
        };
        self.busy.store(true, Ordering::Relaxed);
        let more = batch.len() == BATCH;
        let mut ids: Vec<u64> = batch.iter().map(|c| c.message).collect();
        ids.sort_unstable();
        ids.dedup();
        let source = Source::new(&self.store)?;
        {
            // Each document goes to the writer as soon as it is made: a batch's documents are
            // never all in memory at once. A message's old document is deleted before its new
            // one is added (a delete reaches only documents added before it).
            let mut w = self.writer.lock().expect("search writer");
            for id in ids {
                w.delete_term(Term::from_field_u64(self.fields.id, id));
                if let Some(d) = source.document(&self.fields, id)? {
                    w.add_document(d)?;
                }
            }
            self.commit(&mut w, last, false)?;
        }
        self.store_done(last)?;
        Ok(more)
    }

    fn store_done(&self, seq: u64) -> anyhow::Result<()> {
        changes::ack(&self.store, changes::SEARCH, seq)
    }

    fn commit(&self, w: &mut IndexWriter, seq: u64, rebuilding: bool) -> anyhow::Result<()> {
        let payload = serde_json::to_string(&Payload {
            version: schema::VERSION,
            seq,
            rebuilding,
        })?;
        let mut prepared = w.prepare_commit()?;
        prepared.set_payload(&payload);
        prepared.commit()?;
        self.reader.reload()?;
        self.indexed_docs
            .store(self.reader.searcher().num_docs(), Ordering::Relaxed);
        Ok(())
    }

    /// Empties the index and indexes every stored message from one consistent snapshot of the
    /// store; log entries up to that snapshot are then done.
    pub fn rebuild(&self) -> anyhow::Result<u64> {
        let started = std::time::Instant::now();
        let mut w = self.writer.lock().expect("search writer");
        w.delete_all_documents()?;
        self.commit(&mut w, 0, true)?;
        let seq = changes::last_seq(&self.store)?;
        let source = Source::new(&self.store)?;
        let mut n = 0u64;
        for id in source.mail.message_ids()? {
            if self.store.is_closing() {
                // `serve` is stopping: the store is not held to the end of a long rebuild. The
                // index's last commit says it is mid-rebuild, so the next start rebuilds.
                self.needs_rebuild.store(true, Ordering::Relaxed);
                // The documents added since the last commit are not kept: a later commit on
                // this handle must not publish them as a finished index.
                w.rollback()?;
                tracing::info!(messages = n, "search index rebuild stopped for the way out");
                return Ok(n);
            }
            if let Some(d) = source.document(&self.fields, id?)? {
                w.add_document(d)?;
                n += 1;
                if n.is_multiple_of(20_000) {
                    // Searches see the mail indexed so far.
                    self.commit(&mut w, 0, true)?;
                }
            }
        }
        drop(source);
        self.commit(&mut w, seq, false)?;
        drop(w);
        self.store_done(seq)?;
        tracing::info!(
            messages = n,
            secs = started.elapsed().as_secs_f64(),
            "search index rebuilt"
        );
        Ok(n)
    }

    /// Indexes documents built by the caller (the importer, which parsed the mail already) and
    /// commits with `seq`: the log entries up to it are then done.
    pub fn add_and_commit(
        &self,
        docs: Vec<(u64, TantivyDocument)>,
        seq: Option<u64>,
    ) -> anyhow::Result<()> {
        let mut w = self.writer.lock().expect("search writer");
        // With the indexer thread in this process it may have indexed a message from the
        // change log already; `mailclient import` runs alone and skips the deletes (each is kept in
        // memory until the commit: 60,000 of them cost 60 MB).
        let replace = self.indexer_running.load(Ordering::Relaxed);
        for (id, d) in docs {
            if replace {
                w.delete_term(Term::from_field_u64(self.fields.id, id));
            }
            w.add_document(d)?;
        }
        if let Some(seq) = seq {
            self.commit(&mut w, seq, false)?;
            drop(w);
            self.store_done(seq)?;
        }
        Ok(())
    }

    /// Adds documents without committing (the importer commits now and then).
    pub fn add(&self, docs: Vec<(u64, TantivyDocument)>) -> anyhow::Result<()> {
        self.add_and_commit(docs, None)
    }

    pub fn fields(&self) -> &Fields {
        &self.fields
    }
}

fn open_existing(path: &Path, schema: &Schema) -> anyhow::Result<Index> {
    if !path.join("meta.json").exists() {
        anyhow::bail!("no index at {}", path.display());
    }
    let index = Index::open_in_dir(path)?;
    if index.schema() != *schema {
        anyhow::bail!("the index was written with another schema");
    }
    // Opening every segment reads their footers: a damaged file shows here, not mid-search.
    let reader = index.reader()?;
    let searcher = reader.searcher();
    for seg in searcher.segment_readers() {
        seg.fast_fields().u64("id")?;
    }
    Ok(index)
}

/// What the indexer reads: the stored mail, account owners and folder roles.
pub struct Source {
    mail: MailRead,
    owners: HashMap<u64, u64>,
    roles: HashMap<(u64, String), String>,
}

impl Source {
    pub fn new(store: &Store) -> anyhow::Result<Self> {
        // Mail first: an account is saved before its mail, so every message of this snapshot
        // finds its owner in the later read of the accounts (unless removed meanwhile).
        let mail = MailRead::new(store)?;
        let mut roles = HashMap::new();
        for (account, f) in mail.all_folders()? {
            roles.insert((account, f.name), f.role);
        }
        let owners = accounts::list_all(store)
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .into_iter()
            .map(|a| (a.id, a.user_id))
            .collect();
        Ok(Self {
            mail,
            owners,
            roles,
        })
    }

    pub fn role(&self, account: u64, folder: &str) -> &str {
        self.roles
            .get(&(account, folder.to_string()))
            .map_or("", String::as_str)
    }

    /// The document of stored message `id`; `None` when it is gone (or its account is).
    pub fn document(&self, f: &Fields, id: u64) -> anyhow::Result<Option<TantivyDocument>> {
        // An unreadable record is left out, never allowed to stop the indexer.
        let Ok(Some(meta)) = self.mail.meta(id) else {
            return Ok(None);
        };
        let Some(&user) = self.owners.get(&meta.account_id) else {
            return Ok(None);
        };
        let raw = self.mail.raw(id).ok().flatten().unwrap_or_default();
        let (_, found) = crate::mail::parse::searchable(&raw);
        Ok(Some(schema::document(
            f,
            user,
            &meta,
            self.role(meta.account_id, &meta.folder),
            &found,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A purge a forget asked for outlives a restart before it ran (the forgotten text would
    /// otherwise stay in the index's segments), and is forgotten once it has run.
    #[test]
    fn a_purge_owed_after_a_forget_outlives_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = crate::schema::open(dir.path()).unwrap();
        store.migrate().unwrap();
        let opts = WriterOptions {
            threads: 1,
            memory_bytes: 16 << 20,
        };
        let owed = || crate::store::counter(&store, PURGE_AFTER).unwrap();
        {
            let search = Search::open(dir.path(), store.clone(), opts).unwrap();
            search.request_purge().unwrap();
        }
        assert_eq!(owed(), 1, "kept in the store when asked");
        let search = Search::open(dir.path(), store.clone(), opts).unwrap();
        assert_eq!(search.purge_after.load(Ordering::Relaxed), 1, "read back");
        search.step().unwrap();
        assert_eq!(search.purge_after.load(Ordering::Relaxed), 0, "done");
        assert_eq!(owed(), 0, "and no longer owed in the store");
    }

    /// `serve` stopping does not wait for a rebuild to end: it stops at the next message, and
    /// the index, marked mid-rebuild, is rebuilt at the next start.
    #[test]
    fn a_rebuild_stops_when_the_store_closes_and_runs_again_at_the_next_start() {
        use crate::mailstore::{Fetched, FolderState, MailWrite, Reason};
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = crate::schema::open(dir.path()).unwrap();
        store.migrate().unwrap();
        let txn = store.begin_write().unwrap();
        let w = MailWrite::new(&txn, Reason::Sync);
        w.save_folder(1, &FolderState::local("INBOX")).unwrap();
        let mails: Vec<Fetched> = (1..=3)
            .map(|uid| Fetched {
                uid,
                flags: Default::default(),
                internal_date: Some(1_700_000_000),
                raw: format!("Subject: {uid}\r\n\r\nגוף\r\n").into_bytes(),
                identity: None,
                thread: None,
            })
            .collect();
        w.insert_messages(1, "INBOX", &mails).unwrap();
        txn.commit().unwrap();
        let opts = WriterOptions {
            threads: 1,
            memory_bytes: 16 << 20,
        };
        let search = Search::open(dir.path(), store.clone(), opts).unwrap();
        store.begin_close();
        assert_eq!(search.rebuild().unwrap(), 0, "stopped at once");
        assert!(search.rebuild_pending());
        drop(search);
        let again = Search::open(dir.path(), store.clone(), opts).unwrap();
        assert!(again.rebuild_pending(), "the next start rebuilds");
    }
}
