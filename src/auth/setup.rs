//! First run: while no user exists, `serve` prints a one-time link carrying a random token;
//! only that token can create the first admin. `mailclient user add --admin` is the other way in.

use std::sync::Mutex;

use super::tokens::{random_token, secrets_equal};
use super::users::{self, NewUser, Role, User};
use crate::error::{AppError, Result};
use crate::messages;
use crate::store::Store;

#[derive(Default)]
pub struct SetupGate {
    token: Mutex<Option<String>>,
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
        })
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
        Ok(user)
    }
}
