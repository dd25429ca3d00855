//! `mailclient import PATH --user NAME`: mail from an mbox, a Maildir or a folder of .eml
//! files into a local account of the user (see `crate::import`). Works on the store directly,
//! so `serve` must not be running.

use std::path::PathBuf;

use clap::Args;

use crate::config::Config;
use crate::import::{self, progress::thousands};
use crate::search::Search;

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// An mbox file, a Maildir (with its .Sub folders) or a folder of .eml files.
    pub path: PathBuf,
    /// The user whose mail this is.
    #[arg(long)]
    pub user: String,
    /// The local account's address (created when missing; default: the user's local account,
    /// else <user>@localhost).
    #[arg(long)]
    pub account: Option<String>,
    /// The folder for mail that has none of its own (an mbox, .eml files, the Maildir's top).
    #[arg(long, default_value = "INBOX")]
    pub folder: String,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(config: &Config, args: ImportArgs) -> anyhow::Result<()> {
    let data_dir = &config.storage.data_dir;
    let (store, _) =
        crate::schema::open_and_migrate_with_cache(data_dir, config.storage.cache_size_mb)?;
    let search = Search::open(data_dir, store.clone(), config.search.import_writer())?;
    let report = import::run(
        &store,
        &search,
        &import::Options {
            path: args.path,
            username: args.user,
            account: args.account,
            folder: args.folder,
            show_progress: !args.quiet,
        },
    )?;
    // The writes of a big import leave free pages in the store's file: give them back.
    drop(search);
    let started = std::time::Instant::now();
    if report.imported > 0 && store.compact()? {
        tracing::debug!(secs = started.elapsed().as_secs_f64(), "store compacted");
    }
    for (origin, reason) in &report.failed {
        eprintln!("skipped {origin}: {reason}");
    }
    let rate = report.imported as f64 / report.secs.max(0.001);
    println!(
        "imported {} messages into {} ({} already there, {} could not be read) in {:.1} s ({} msg/s)",
        thousands(report.imported),
        report.account,
        thousands(report.already),
        thousands(report.failed.len() as u64),
        report.secs,
        thousands(rate as u64)
    );
    Ok(())
}
