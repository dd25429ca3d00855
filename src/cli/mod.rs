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
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(&config.log.level))
        // async-imap traces every command it sends, LOGIN with the password included, and every
        // mail body: never below info, whatever the level asked for.
        .add_directive("async_imap=info".parse().expect("static directive"))
        .add_directive("imap_proto=info".parse().expect("static directive"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
}
