//! `mailclient user add|passwd|list|remove`: user administration from the console. Works on
//! the store directly, so `serve` must not be running (redb allows one process).

use std::io::{BufRead, IsTerminal};

use clap::Subcommand;

use crate::auth::users::{self, NewUser, Role};
use crate::config::Config;
use crate::crypto::Secret;
use crate::error::AppError;

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Add a user. The password: from --password-file, else standard input (asked twice on a
    /// terminal); --password works too but shows in `ps` to every user of the machine.
    Add {
        username: String,
        #[arg(long, conflicts_with = "password_file")]
        password: Option<Secret>,
        /// A file whose first line is the password (kept out of the process list).
        #[arg(long, value_name = "PATH")]
        password_file: Option<std::path::PathBuf>,
        /// Display name (defaults to the username).
        #[arg(long)]
        name: Option<String>,
        /// Make the user an administrator.
        #[arg(long)]
        admin: bool,
    },
    /// Set a user's password (signs them out everywhere). The password as for `add`.
    Passwd {
        username: String,
        #[arg(long, conflicts_with = "password_file")]
        password: Option<Secret>,
        /// A file whose first line is the password (kept out of the process list).
        #[arg(long, value_name = "PATH")]
        password_file: Option<std::path::PathBuf>,
    },
    /// List users.
    List,
    /// Remove a user and everything they kept (mailboxes, mail, queued mail, settings).
    Remove { username: String },
}

pub fn run(config: &Config, cmd: UserCommand) -> anyhow::Result<()> {
    let (store, _) = crate::schema::open_and_migrate(&config.storage.data_dir)?;
    match cmd {
        UserCommand::Add {
            username,
            password,
            password_file,
            name,
            admin,
        } => {
            let password = given_password(password, password_file)?;
            let role = if admin { Role::Admin } else { Role::User };
            let user = users::create(
                &store,
                NewUser {
                    username: &username,
                    name: name.as_deref().unwrap_or(""),
                    password: &password,
                    role,
                },
                false,
            )
            .map_err(user_error)?;
            println!("added {} ({}, id {})", user.username, user.role, user.id);
        }
        UserCommand::Passwd {
            username,
            password,
            password_file,
        } => {
            if users::find_by_username(&store, &username)
                .map_err(user_error)?
                .is_none()
            {
                anyhow::bail!("no user named {username}");
            }
            let password = given_password(password, password_file)?;
            users::set_password(&store, &username, &password).map_err(user_error)?;
            println!("password changed for {username}; their sessions were ended");
        }
        UserCommand::List => {
            let list = users::list(&store).map_err(user_error)?;
            if list.is_empty() {
                println!("no users");
            }
            for u in list {
                println!("{}\t{}\t{}\t{}", u.id, u.username, u.role, u.name);
            }
        }
        UserCommand::Remove { username } => {
            if !users::remove(&store, &crate::app::offline_forget(), &username)
                .map_err(user_error)?
            {
                anyhow::bail!("no user named {username}");
            }
            forget_bytes(config, store)?;
            println!("removed {username}");
        }
    }
    Ok(())
}

/// After a removal nothing of the user may stay readable in the data dir: the index drops the
/// removed mail (it catches up with the change log, then merges its deletes away), the store's
/// tables are rewritten and its free pages overwritten, and the store is compacted (this command
/// holds it alone).
fn forget_bytes(config: &Config, store: crate::store::Store) -> anyhow::Result<()> {
    let search = crate::search::Search::open(
        &config.storage.data_dir,
        store.clone(),
        config.search.serve_writer(),
    )?;
    search.request_purge()?;
    search.step()?;
    drop(search);
    if !store.compact()? {
        anyhow::bail!("cannot compact the store: it is still in use");
    }
    Ok(())
}

/// The user-facing message of an [`AppError`] (Hebrew validation text included).
fn user_error(e: AppError) -> anyhow::Error {
    match e {
        AppError::Internal(inner) => inner,
        other => anyhow::anyhow!(other.user_message()),
    }
}

/// The password from the flag, else the file's first line, else standard input.
fn given_password(
    flag: Option<Secret>,
    file: Option<std::path::PathBuf>,
) -> anyhow::Result<String> {
    if let Some(p) = flag {
        return Ok(p.into_inner());
    }
    let Some(path) = file else {
        return prompt_new_password();
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    let pw = text.lines().next().unwrap_or_default().to_string();
    if pw.is_empty() {
        anyhow::bail!("{} holds no password on its first line", path.display());
    }
    Ok(pw)
}

/// Asks twice on a terminal; reads one line from standard input otherwise (scripts).
fn prompt_new_password() -> anyhow::Result<String> {
    if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password("Password: ")?;
        let second = rpassword::prompt_password("Repeat password: ")?;
        if first != second {
            anyhow::bail!("the passwords do not match");
        }
        Ok(first)
    } else {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line)?;
        let pw = line.trim_end_matches(['\r', '\n']).to_string();
        if pw.is_empty() {
            anyhow::bail!("no password given on standard input");
        }
        Ok(pw)
    }
}
