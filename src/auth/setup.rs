//! First run: while no user exists, `serve` shows a one-time link carrying a random token; only
//! that token can create the first admin. `mailclient user add --admin` is the other way in.
//!
//! The link goes where only the machine's owner reads it: printed once when `serve` runs on a
//! terminal, otherwise (a service, whose output goes to the journal that other local users and
//! log shippers may read) written to [`LINK_FILE`] in the data dir, mode 0600, with only its path
//! logged. The file is removed when the token is spent.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::tokens::{random_token, secrets_equal};
use super::users::{self, NewUser, Role, User};
use crate::error::{AppError, Result};
use crate::messages;
use crate::store::Store;

/// The file in the data dir that holds the link when there is no terminal to print it on.
pub const LINK_FILE: &str = "setup-link.txt";

#[derive(Default)]
pub struct SetupGate {
    token: Mutex<Option<String>>,
    /// Where the link was written, removed once the token is spent.
    file: Mutex<Option<PathBuf>>,
}

impl SetupGate {
    /// A gate holding a fresh token when the store has no user yet, else a closed one.
    pub fn for_store(store: &Store) -> Result<Self> {
        let token = if users::any_exist(store)? {
            None
        } else {
            Some(random_token())
        };
        Ok(Self {
            token: Mutex::new(token),
            file: Mutex::new(None),
        })
    }

    /// Writes `link` to [`LINK_FILE`] in `data_dir`, readable by this user only; returns the
    /// file's path. It is removed when the token is spent.
    pub fn write_link(&self, data_dir: &Path, link: &str) -> std::io::Result<PathBuf> {
        let path = data_dir.join(LINK_FILE);
        let _ = std::fs::remove_file(&path);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut f = options.open(&path)?;
        writeln!(f, "{link}")?;
        *self.file.lock().expect("setup lock") = Some(path.clone());
        Ok(path)
    }

    fn spent(&self) {
        if let Some(path) = self.file.lock().expect("setup lock").take() {
            let _ = std::fs::remove_file(path);
        }
    }

    /// The token to print, while setup is open.
    pub fn token(&self) -> Option<String> {
        self.token.lock().expect("setup lock").clone()
    }

    /// Creates the first admin if `token` is the setup token; the token is spent on success.
    /// The lock is held throughout, so two racing requests cannot both succeed.
    pub fn create_admin(
        &self,
        store: &Store,
        token: &str,
        username: &str,
        name: &str,
        password: &str,
    ) -> Result<User> {
        let mut guard = self.token.lock().expect("setup lock");
        if users::any_exist(store)? {
            *guard = None;
            self.spent();
            return Err(AppError::Conflict(messages::SETUP_ALREADY_DONE.into()));
        }
        match guard.as_deref() {
            Some(expected) if secrets_equal(expected, token) => {}
            _ => return Err(AppError::Forbidden(messages::SETUP_BAD_TOKEN.into())),
        }
        let user = users::create(
            store,
            NewUser {
                username,
                name,
                password,
                role: Role::Admin,
            },
            true,
        )?;
        *guard = None;
        self.spent();
        Ok(user)
    }
}
