//! The command line: `serve`, `migrate`, `import`, `user`. One file per subcommand. Global flags
//! (`--config`, `--data-dir`) are accepted before or after the subcommand.

mod import;
mod migrate;
mod serve;
mod user;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::config::{Config, Overrides};

#[derive(Debug, Parser)]
#[command(
    name = "mailclient",
    version,
    about = "A self-hosted Hebrew web email client"
)]
pub struct Cli {
    /// Config file (TOML). Without it the built-in defaults apply; MAILCLIENT_* variables
    /// override either.
    #[arg(long, global = true, value_name = "FILE", env = "MAILCLIENT_CONFIG")]
    pub config: Option<PathBuf>,
    /// Data directory (store and index). Overrides `[storage] data_dir`.
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the web server and the background jobs.
    Serve(serve::ServeArgs),
    /// Bring the store up to this version's schema (and the search index up to the store).
    Migrate(migrate::MigrateArgs),
    /// Import mail (mbox, Maildir, a folder of .eml files) into a local account of a user.
    Import(import::ImportArgs),
    /// Manage the people who can sign in.
    #[command(subcommand)]
    User(user::UserCommand),
}

/// Parses the command line, runs the command, and turns failures into one line on stderr.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let listen = match &cli.command {
        Command::Serve(args) => args.listen.clone(),
        _ => None,
    };
    let overrides = Overrides {
        data_dir: cli.data_dir.clone(),
        listen,
    };
    let config = match Config::load(cli.config.as_deref(), &overrides) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("mailclient: {e}");
            return ExitCode::from(2);
        }
    };
    init_logging(&config);
    let result = match cli.command {
        Command::Serve(_) => serve::run(config),
        Command::Migrate(args) => migrate::run(&config, &args),
        Command::Import(args) => import::run(&config, args),
        Command::User(cmd) => user::run(&config, cmd),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mailclient: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn init_logging(config: &Config) {
    use tracing_subscriber::prelude::*;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(&config.log.level));
    // A filter of its own after the level's: a RUST_LOG naming an IMAP module more precisely
    // (`async_imap::client=trace`) would win over any directive added to the level's filter.
    let imap_quiet =
        tracing_subscriber::filter::filter_fn(|meta| imap_allowed(meta.target(), meta.level()));
    tracing_subscriber::registry()
        .with(filter)
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_filter(imap_quiet),
        )
        .init();
}

/// async-imap traces every command it sends, LOGIN with the password included, and every mail
/// body: its debug and trace events never reach the log, whatever the level asked for.
fn imap_allowed(target: &str, level: &tracing::Level) -> bool {
    let imap = ["async_imap", "imap_proto"]
        .iter()
        .any(|m| target == *m || target.starts_with(&format!("{m}::")));
    !imap || *level <= tracing::Level::INFO
}

#[cfg(test)]
mod tests {
    use tracing::Level;

    #[test]
    fn imap_debug_and_trace_never_reach_the_log() {
        for target in ["async_imap", "async_imap::client", "imap_proto::parser"] {
            assert!(!super::imap_allowed(target, &Level::TRACE), "{target}");
            assert!(!super::imap_allowed(target, &Level::DEBUG), "{target}");
            assert!(super::imap_allowed(target, &Level::WARN), "{target}");
        }
        assert!(super::imap_allowed("mailclient::sync", &Level::TRACE));
        assert!(super::imap_allowed("async_imapx", &Level::TRACE));
    }
}
