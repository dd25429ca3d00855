//! `mailclient import`: an mbox, a Maildir or a folder of .eml files into a local account of a
//! user (an account with no mail server: the mail lives only here), through the same store
//! and index as synced mail.
//!
//! Batches of messages are read and parsed on every core while the batch before is stored
//! (with the change-log entries and the content hashes that make a second run add only what is
//! new; one transaction holds [`TXN_BATCHES`] batches), then indexed; the index commits every
//! [`COMMIT_EVERY`] messages and at the end. A kill at any point loses nothing: the store has
//! whole transactions, the index catches up from the change log on the next start, and running
//! the import again skips what is stored.
//!
//! A local account (`AccountRecord::is_local`) gets a task that applies queued moves to the store
//! instead of a server (`sync/local.rs`). The importer indexes on its own writer
//! (`SearchConfig::import_writer`: half the cores, up to 4, merges bounded as `serve`'s), and the
//! index commits only after the store has. The sources (`sources.rs`, a Maildir's listing in
//! `maildir_names.rs`) never follow a symbolic link inside the tree given; `cli/import.rs`
//! refuses root importing into a data dir another user owns.

mod maildir_names;
pub mod progress;
pub mod sources;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

use redb::{ReadableTable, TableDefinition, WriteTransaction};
use sha2::Digest;

use crate::accounts::{self, AccountRecord};
use crate::auth::users;
use crate::feature::Feature;
use crate::forget::{self, Step};
use crate::mail::parse::{self, Summary};
use crate::mailstore::{self as mstore, Fetched, FolderState, MailWrite, Reason};
use crate::search::{Search, schema};
use crate::store::{Store, next_id};
use progress::Progress;
use sources::{Item, Source};

/// `mailclient import`: its imported mail is forgotten with its account.
pub static FEATURE: Feature = Feature {
    forget: &[Step {
        name: "imported mail",
        account: forget_account,
        user: forget::nothing,
    }],
    ..Feature::named("import")
};

/// (account, folder, SHA-256 of the bytes, first 16 bytes) → message id: what was imported.
pub const IMPORTED: TableDefinition<(u64, &str, &[u8]), u64> = TableDefinition::new("imported");

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(IMPORTED)?;
    Ok(())
}

/// Forgets what was imported into `account` (its mail is being removed).
pub fn forget_account(txn: &WriteTransaction, account: u64) -> anyhow::Result<()> {
    txn.open_table(IMPORTED)?.retain_in(
        (account, "", &[][..])..(account + 1, "", &[][..]),
        |_, _| false,
    )?;
    Ok(())
}

/// Messages read and parsed together (three batches are in memory at most).
const BATCH: usize = 1_000;
/// Batches per store transaction. A commit writes every page the batches touched, and the
/// tables keyed by content hash touch pages all over: at 300,000 messages, committing every
/// 5,000 messages instead of every 1,000 imported 15% faster for 6–8 MiB more peak memory.
const TXN_BATCHES: usize = 5;
/// The index commits at least this often (a commit writes segment files and fsyncs).
const COMMIT_EVERY: usize = 20_000;

pub struct Options {
    pub path: PathBuf,
    pub username: String,
    /// The local account's address; default `<username>@localhost`, or the user's one local
    /// account.
    pub account: Option<String>,
    /// Where mail without a folder of its own goes (default INBOX).
    pub folder: String,
    pub show_progress: bool,
    /// How often a progress line is logged when stderr is not a terminal.
    pub log_every: std::time::Duration,
}

#[derive(Debug, Default)]
pub struct Report {
    pub account: String,
    pub total: u64,
    pub imported: u64,
    pub already: u64,
    /// (where, why) of the messages that could not be read or parsed.
    pub failed: Vec<(String, String)>,
    pub secs: f64,
}

/// Runs an import into an opened store and index (serve must not be running: one process
/// owns the store).
pub fn run(store: &Store, search: &Search, opts: &Options) -> anyhow::Result<Report> {
    let started = Instant::now();
    // Whatever an earlier, interrupted run left unindexed goes in first.
    search.step()?;
    let user = users::find_by_username(store, &opts.username)
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .ok_or_else(|| {
            anyhow::anyhow!(
                "no user named {:?} (add one with `mailclient user add`)",
                opts.username
            )
        })?;
    let account = local_account(store, user.id, &opts.username, opts.account.as_deref())?;
    let source = Source::detect(&opts.path, &opts.folder)?;
    let total = source.count()?;
    let mut report = Report {
        account: account.email.clone(),
        total,
        ..Report::default()
    };
    let mut progress = Progress::new(total, opts.show_progress, opts.log_every);
    let failed = std::thread::scope(|scope| -> anyhow::Result<Vec<(String, String)>> {
        // Reading and parsing the next batch overlaps storing this one: one batch waits in
        // the channel at most, so memory holds three batches (read, waiting, storing).
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Parsed>>(1);
        let folder = opts.folder.as_str();
        let reader = scope.spawn(move || read_and_parse(&source, folder, tx));
        let mut since_commit = 0usize;
        let mut open = OpenTxn::default();
        for parsed in rx {
            let stored = store_batch(open.get(store)?, search, &account, parsed, &mut report)?;
            open.add(stored);
            since_commit += stored;
            // The index commits only after the store has: a kill leaves it behind, not ahead.
            let index_due = since_commit >= COMMIT_EVERY;
            if open.batches == TXN_BATCHES || index_due {
                report.imported += open.commit()?;
            }
            if index_due {
                commit_index(store, search)?;
                since_commit = 0;
            }
            let done = report.imported + open.stored + report.already;
            progress.set(done + report.failed.len() as u64);
        }
        report.imported += open.commit()?;
        reader
            .join()
            .map_err(|_| anyhow::anyhow!("the import's reader stopped unexpectedly"))?
    })?;
    commit_index(store, search)?;
    report.failed.extend(failed);
    progress.finish(report.imported + report.already + report.failed.len() as u64);
    report.secs = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Reads `source` in batches of [`BATCH`], parses each on every core and hands it to the
/// storing side; returns what could not be read. Stops when the storing side does.
fn read_and_parse(
    source: &Source,
    folder: &str,
    tx: std::sync::mpsc::SyncSender<Vec<Parsed>>,
) -> anyhow::Result<Vec<(String, String)>> {
    let stopped = || anyhow::anyhow!("the import stopped");
    let mut failed = Vec::new();
    let mut batch: Vec<Item> = Vec::with_capacity(BATCH);
    source.each(
        folder,
        |item| {
            batch.push(item);
            if batch.len() == BATCH {
                tx.send(parse_all(std::mem::take(&mut batch)))
                    .map_err(|_| stopped())?;
            }
            Ok(())
        },
        |bad| failed.push((bad.origin, bad.reason)),
    )?;
    if !batch.is_empty() {
        tx.send(parse_all(batch)).map_err(|_| stopped())?;
    }
    Ok(failed)
}

/// The index now covers everything the store logged (this process is the only writer).
fn commit_index(store: &Store, search: &Search) -> anyhow::Result<()> {
    let seq = mstore::changes::last_seq(store)?;
    search.add_and_commit(Vec::new(), Some(seq))?;
    // No other reader runs in this process: what every durable reader passed can go.
    mstore::changes::prune(store, seq)?;
    Ok(())
}

/// The store transaction the batches go into until it commits ([`TXN_BATCHES`] of them).
#[derive(Default)]
struct OpenTxn {
    txn: Option<WriteTransaction>,
    batches: usize,
    /// Messages stored in it.
    stored: u64,
}

impl OpenTxn {
    fn get(&mut self, store: &Store) -> anyhow::Result<&WriteTransaction> {
        Ok(match self.txn {
            Some(ref t) => t,
            None => self.txn.insert(store.db().begin_write()?),
        })
    }

    fn add(&mut self, stored: usize) {
        self.batches += 1;
        self.stored += stored as u64;
    }

    /// Commits what there is; returns how many messages that stored.
    fn commit(&mut self) -> anyhow::Result<u64> {
        if let Some(t) = self.txn.take() {
            t.commit()?;
        }
        self.batches = 0;
        Ok(std::mem::take(&mut self.stored))
    }
}

struct Parsed {
    item: Item,
    summary: Summary,
    found: parse::Searchable,
    hash: [u8; 16],
    /// The raw bytes compressed for the store, on the parse threads.
    packed: mstore::Packed,
}

/// Stores what is new of a parsed batch in `txn`, hands the documents to the index (which
/// commits only after `txn` does). Returns how many were stored.
fn store_batch(
    txn: &WriteTransaction,
    search: &Search,
    account: &AccountRecord,
    parsed: Vec<Parsed>,
    report: &mut Report,
) -> anyhow::Result<usize> {
    if parsed.is_empty() {
        return Ok(0);
    }
    let fields = *search.fields();
    let mut docs = Vec::new();
    let mut stored = 0;
    {
        let mut seen = txn.open_table(IMPORTED)?;
        let mut folders: HashMap<String, FolderState> = HashMap::new();
        let w = MailWrite::new(txn, Reason::Import);
        let mut inserter = w.inserter()?;
        for p in parsed {
            let Parsed {
                item,
                summary,
                found,
                hash,
                packed,
            } = p;
            if !summary.parsed {
                report.failed.push((
                    item.origin,
                    "not a mail message (no headers could be read)".into(),
                ));
                continue;
            }
            if seen
                .get((account.id, item.folder.as_str(), &hash[..]))?
                .is_some()
            {
                report.already += 1;
                continue;
            }
            let state = match folders.get_mut(&item.folder) {
                Some(s) => s,
                None => {
                    let s = folder_state(w, account.id, &item.folder)?;
                    folders.entry(item.folder.clone()).or_insert(s)
                }
            };
            let uid = state.top.max(1);
            state.top = uid + 1;
            state.exists += 1;
            let fetched = Fetched {
                uid,
                flags: item.flags,
                internal_date: item.internal_date,
                raw: item.raw,
                identity: None,
                thread: None,
            };
            let meta =
                inserter.insert(account.id, &item.folder, &fetched, summary, Some(packed))?;
            seen.insert((account.id, item.folder.as_str(), &hash[..]), meta.id)?;
            docs.push((
                meta.id,
                schema::document(&fields, account.user_id, &meta, &state.role, &found),
            ));
            stored += 1;
        }
        drop(inserter);
        for state in folders.values() {
            w.save_folder(account.id, state)?;
        }
    }
    search.add(docs)?;
    Ok(stored)
}

fn parse_all(items: Vec<Item>) -> Vec<Parsed> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    let chunk = items.len().div_ceil(threads).max(1);
    let mut chunks: Vec<Vec<Item>> = Vec::new();
    let mut items = items;
    while !items.is_empty() {
        let rest = items.split_off(chunk.min(items.len()));
        chunks.push(items);
        items = rest;
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|c| {
                s.spawn(move || {
                    c.into_iter()
                        .map(|item| {
                            let (summary, found) = parse::searchable(&item.raw);
                            let digest = sha2::Sha256::digest(&item.raw);
                            let mut hash = [0u8; 16];
                            hash.copy_from_slice(&digest[..16]);
                            let packed = mstore::pack(&item.raw);
                            Parsed {
                                item,
                                summary,
                                found,
                                hash,
                                packed,
                            }
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("parse thread"))
            .collect()
    })
}

/// The folder's state, created (with its role by name) on first use.
fn folder_state(w: MailWrite, account: u64, name: &str) -> anyhow::Result<FolderState> {
    if let Some(s) = w.folder(account, name)? {
        return Ok(s);
    }
    Ok(FolderState::local(name))
}

/// The standard folders of a new local account (moves to Junk, Trash, Archive need them).
const LOCAL_FOLDERS: &[&str] = &["INBOX", "Sent", "Drafts", "Junk", "Trash", "Archive"];

/// The user's local account `email` (or their only local one, or `<username>@localhost`),
/// created when missing. An account that syncs with a mail server is refused: its folders
/// mirror the server, and imported mail would be removed by the next sync.
fn local_account(
    store: &Store,
    user_id: u64,
    username: &str,
    email: Option<&str>,
) -> anyhow::Result<AccountRecord> {
    let mine = accounts::list_for_user(store, user_id).map_err(|e| anyhow::anyhow!("{e}"))?;
    let wanted = match email {
        Some(e) => e.trim().to_string(),
        None => match mine.iter().find(|a| a.is_local()) {
            Some(a) => return Ok(a.clone()),
            None => format!("{}@localhost", username.to_lowercase()),
        },
    };
    if let Some(a) = mine.iter().find(|a| a.email.eq_ignore_ascii_case(&wanted)) {
        if !a.is_local() {
            anyhow::bail!(
                "{wanted} syncs with the mail server {}; import into a local account instead (--account another@address)",
                a.servers.imap_server
            );
        }
        return Ok(a.clone());
    }
    let txn = store.begin_write()?;
    let id = next_id(&txn, "accounts")?;
    let record = AccountRecord::local(id, user_id, &wanted);
    accounts::insert_in(&txn, &record).map_err(|e| anyhow::anyhow!("{e}"))?;
    let w = MailWrite::new(&txn, Reason::Import);
    for name in LOCAL_FOLDERS {
        let state = folder_state(w, id, name)?;
        w.save_folder(id, &state)?;
    }
    txn.commit()?;
    Ok(record)
}
