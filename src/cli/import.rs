//! `mailclient import PATH --user NAME`: mail from an mbox, a Maildir or a folder of .eml
//! files into a local account of the user (see `crate::import`). Works on the store directly,
//! so `serve` must not be running.
//!
//! Run as root into a data dir that another user owns (the service's, `mailclient`), it would
//! leave root-owned files there (the store if new, the index's segment files) that the service
//! then cannot open or replace. Chowning afterwards would miss what a crash left, so it refuses
//! and says how to run it instead.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

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
    /// Seconds between progress lines when stderr is not a terminal (a log file); 0 writes one
    /// after every batch.
    #[arg(long, default_value_t = 5, value_name = "SECONDS")]
    pub log_every: u64,
}

pub fn run(config: &Config, args: ImportArgs) -> anyhow::Result<()> {
    let data_dir = &config.storage.data_dir;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let euid = unsafe { libc::geteuid() };
    let owner = std::fs::metadata(data_dir).ok().map(|m| m.uid());
    refuse_foreign_owner(euid, owner, data_dir)?;
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
            log_every: std::time::Duration::from_secs(args.log_every),
        },
    )?;
    // The store is not compacted here: the free pages the import's transactions leave are
    // reused by later writes, and compacting a big store took a fifth of the import's time
    // (3.4 s of 22 s at 60,000 messages). `mailclient migrate --compact` gives them back.
    drop(search);
    drop(store);
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

/// Root importing into a data dir owned by someone else: refused, with the way to do it.
fn refuse_foreign_owner(euid: u32, owner: Option<u32>, data_dir: &Path) -> anyhow::Result<()> {
    match owner {
        Some(owner) if euid == 0 && owner != 0 => anyhow::bail!(
            "refusing to import as root into {dir}, which belongs to uid {owner}: the files \
             written would belong to root and the server could not open them. Run the import \
             as the owner instead, e.g. `sudo -u mailclient mailclient import ...` (or \
             `sudo -u '#{owner}' ...`)",
            dir = data_dir.display()
        ),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_is_refused_only_in_another_user_s_data_dir() {
        let dir = Path::new("/var/lib/mailclient");
        let err = refuse_foreign_owner(0, Some(998), dir)
            .unwrap_err()
            .to_string();
        assert!(err.contains("uid 998") && err.contains("sudo -u"), "{err}");
        // Root's own or a new data dir; any other user (the kernel guards their files).
        assert!(refuse_foreign_owner(0, Some(0), dir).is_ok());
        assert!(refuse_foreign_owner(0, None, dir).is_ok());
        assert!(refuse_foreign_owner(998, Some(998), dir).is_ok());
        assert!(refuse_foreign_owner(1000, Some(998), dir).is_ok());
    }
}
