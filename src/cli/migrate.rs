//! `mailclient migrate`: applies pending store migrations and says what it did, then brings
//! the search index up to the store (rebuilt when missing, damaged or behind, or on request).

use clap::Args;

use crate::config::Config;
use crate::schema::{self, SCHEMA_VERSION};
use crate::search::Search;

#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// Rebuild the search index from the stored mail even if it looks current.
    #[arg(long)]
    pub rebuild_index: bool,
    /// Rebuild the mail store's counters and thread records from the stored mail (in steps,
    /// in bounded memory; a kill during it is finished by the next start).
    #[arg(long)]
    pub rebuild_counters: bool,
    /// Give the store file's free pages back to the file system (after a big import or a
    /// removed account; serve must not be running).
    #[arg(long)]
    pub compact: bool,
}

pub fn run(config: &Config, args: &MigrateArgs) -> anyhow::Result<()> {
    let data_dir = &config.storage.data_dir;
    if args.rebuild_counters {
        let (store, _) = schema::open_and_migrate(data_dir)?;
        let txn = store.begin_write()?;
        crate::mailstore::forget_derived(&txn)?;
        txn.commit()?;
    }
    let (store, ran) = schema::open_and_migrate(data_dir)?;
    if ran.is_empty() {
        println!(
            "store {} is up to date (schema version {SCHEMA_VERSION})",
            store.path().display()
        );
    } else {
        for m in &ran {
            println!("applied migration {}: {}", m.version, m.name);
        }
        println!(
            "store {} is now at schema version {SCHEMA_VERSION}",
            store.path().display()
        );
    }
    let store = if args.compact {
        let path = store.path().to_path_buf();
        let before = std::fs::metadata(&path)?.len();
        let started = std::time::Instant::now();
        if !store.compact()? {
            anyhow::bail!("cannot compact the store: it is still in use");
        }
        let after = std::fs::metadata(&path)?.len();
        println!(
            "store {} compacted in {:.1} s: {} MB → {} MB",
            path.display(),
            started.elapsed().as_secs_f64(),
            before / 1_000_000,
            after / 1_000_000
        );
        schema::open_and_migrate(data_dir)?.0
    } else {
        store
    };
    let search = Search::open(data_dir, store, config.search.serve_writer())?;
    let rebuild = args.rebuild_index || search.rebuild_pending();
    if args.rebuild_index {
        search.request_rebuild();
    }
    search.step()?;
    if rebuild {
        println!(
            "search index {} rebuilt: {} messages",
            search.path().display(),
            search.num_docs()
        );
    } else {
        println!(
            "search index {} is up to date: {} messages",
            search.path().display(),
            search.num_docs()
        );
    }
    Ok(())
}
