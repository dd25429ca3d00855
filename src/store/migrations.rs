//! Append-only schema migrations. Never edit or reorder a published migration: add a new one
//! at the end. Each runs in one write transaction together with its version bump.

use redb::WriteTransaction;

use crate::auth::{sessions, users};
use crate::{accounts, sync};

pub struct Migration {
    pub version: u64,
    pub name: &'static str,
    pub apply: fn(&WriteTransaction) -> Result<(), redb::Error>,
}

pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "users and sessions",
        apply: m0001_users_and_sessions,
    },
    Migration {
        version: 2,
        name: "mail accounts and the mail cache",
        apply: m0002_mail_accounts_and_cache,
    },
];

/// The schema version this binary writes.
pub const SCHEMA_VERSION: u64 = MIGRATIONS.len() as u64;

fn m0001_users_and_sessions(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(super::META)?;
    txn.open_table(users::USERS)?;
    txn.open_table(users::USERS_BY_NAME)?;
    txn.open_table(sessions::SESSIONS)?;
    Ok(())
}

fn m0002_mail_accounts_and_cache(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(accounts::ACCOUNTS)?;
    txn.open_table(accounts::USER_ACCOUNTS)?;
    sync::store::create_tables(txn)
}
