//! The schema of the store: every feature's tables, as one append-only list of migrations.
//! Never edit or reorder a published migration: add a new one at the end. Each runs in one
//! write transaction together with its version bump. This module sits at the top (it names
//! every feature); the store below runs the list it is given.

use std::path::Path;

use redb::WriteTransaction;

use crate::auth::{sessions, users};
use crate::store::{DEFAULT_CACHE_MB, Migration, SchemaState, Store};
use crate::{
    accounts, ai, autoreply, backup, contacts, emails, followups, household, import, invites,
    labels, mailstore, mcp, outgoing, push, rules, settings, snooze, spam, subscriptions, tasks,
    templates,
};

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
    Migration {
        version: 3,
        name: "mail index with threads and triage; hidden mail; remote-content senders",
        apply: m0003_mail_index,
    },
    Migration {
        version: 4,
        name: "outbox, compose uploads and mail templates",
        apply: m0004_outbox_and_templates,
    },
    Migration {
        version: 5,
        name: "AI: sealed provider keys, provider choice, training settings",
        apply: m0005_ai,
    },
    Migration {
        version: 6,
        name: "search: raw mail compressed, the index's queue, imported mail",
        apply: m0006_search_and_import,
    },
    Migration {
        version: 7,
        name: "mail store: the change log replaces the index's queue",
        apply: m0007_change_log,
    },
    Migration {
        version: 8,
        name: "mail store: folder counters, tags, thread members and summaries (built in steps)",
        apply: m0008_derived,
    },
    Migration {
        version: 9,
        name: "preferences synced between sessions, with their versions",
        apply: m0009_settings,
    },
    Migration {
        version: 10,
        name: "global settings for the household; settings backups",
        apply: m0010_household_and_backups,
    },
    Migration {
        version: 11,
        name: "the auto-reply monitor: settings, waiting mail, decisions",
        apply: m0011_auto_reply,
    },
    Migration {
        version: 12,
        name: "contacts, tasks and rules",
        apply: m0012_contacts_tasks_rules,
    },
    Migration {
        version: 13,
        name: "spam detection: settings, training, decisions",
        apply: m0013_spam,
    },
    Migration {
        version: 14,
        name: "mail store: processed and info mail by last activity (derived tables rebuilt in steps)",
        apply: m0014_idle_mail,
    },
    Migration {
        version: 15,
        name: "spam detection: the logistic regression's per-user steps",
        apply: m0015_spam_lr,
    },
    Migration {
        version: 16,
        name: "rules: forwards counted per user per day",
        apply: m0016_rule_forwards,
    },
    Migration {
        version: 17,
        name: "meeting invitations: the user's records by UID",
        apply: m0017_invitations,
    },
    Migration {
        version: 18,
        name: "the agent API: tokens (hashed) and their call log",
        apply: m0018_agent_tokens,
    },
    Migration {
        version: 19,
        name: "snoozed threads, awaited replies, subscriptions and unsubscribe attempts",
        apply: m0019_attention,
    },
    Migration {
        version: 20,
        name: "labels: the user's names and colours for their mail's keywords",
        apply: m0020_labels,
    },
    Migration {
        version: 21,
        name: "push notifications: the users' devices and the server's VAPID key",
        apply: m0021_push,
    },
    Migration {
        version: 22,
        name: "mail: the keys a Gmail-shaped mailbox's copies of one mail are known by",
        apply: m0022_mail_identities,
    },
    Migration {
        version: 23,
        name: "mail: how many UIDs each folder has stored (the expunge check without a count)",
        apply: m0023_mail_uid_counts,
    },
];

/// The schema version this binary writes.
pub const SCHEMA_VERSION: u64 = MIGRATIONS.len() as u64;

fn m0001_users_and_sessions(txn: &WriteTransaction) -> Result<(), redb::Error> {
    crate::store::create_meta(txn)?;
    users::create_tables(txn)?;
    sessions::create_tables(txn)
}

fn m0002_mail_accounts_and_cache(txn: &WriteTransaction) -> Result<(), redb::Error> {
    accounts::create_tables(txn)?;
    mailstore::create_tables(txn)
}

fn m0003_mail_index(txn: &WriteTransaction) -> Result<(), redb::Error> {
    mailstore::migrate_to_index(txn)?;
    emails::remote::create_tables(txn)
}

fn m0004_outbox_and_templates(txn: &WriteTransaction) -> Result<(), redb::Error> {
    outgoing::outbox::create_tables(txn)?;
    outgoing::uploads::create_tables(txn)?;
    templates::create_tables(txn)
}

fn m0005_ai(txn: &WriteTransaction) -> Result<(), redb::Error> {
    ai::key::create_tables(txn)?;
    ai::training::create_tables(txn)
}

fn m0006_search_and_import(txn: &WriteTransaction) -> Result<(), redb::Error> {
    mailstore::migrate_to_compressed_raw(txn)?;
    mailstore::create_legacy_search_queue(txn)?;
    import::create_tables(txn)
}

fn m0007_change_log(txn: &WriteTransaction) -> Result<(), redb::Error> {
    mailstore::migrate_to_change_log(txn)
}

fn m0008_derived(txn: &WriteTransaction) -> Result<(), redb::Error> {
    mailstore::create_derived_tables(txn)
}

fn m0009_settings(txn: &WriteTransaction) -> Result<(), redb::Error> {
    settings::create_tables(txn)
}

fn m0010_household_and_backups(txn: &WriteTransaction) -> Result<(), redb::Error> {
    household::create_tables(txn)?;
    ai::key::create_global_table(txn)?;
    ai::training::create_household_table(txn)?;
    backup::create_tables(txn)
}

fn m0011_auto_reply(txn: &WriteTransaction) -> Result<(), redb::Error> {
    autoreply::create_tables(txn)
}

fn m0012_contacts_tasks_rules(txn: &WriteTransaction) -> Result<(), redb::Error> {
    contacts::create_tables(txn)?;
    tasks::create_tables(txn)?;
    rules::create_tables(txn)
}

fn m0013_spam(txn: &WriteTransaction) -> Result<(), redb::Error> {
    spam::create_tables(txn)
}

fn m0014_idle_mail(txn: &WriteTransaction) -> Result<(), redb::Error> {
    mailstore::create_idle_table(txn)
}

fn m0015_spam_lr(txn: &WriteTransaction) -> Result<(), redb::Error> {
    spam::lr::create_tables(txn)
}

fn m0016_rule_forwards(txn: &WriteTransaction) -> Result<(), redb::Error> {
    rules::forwarding::create_tables(txn)
}

fn m0017_invitations(txn: &WriteTransaction) -> Result<(), redb::Error> {
    invites::create_tables(txn)
}

fn m0018_agent_tokens(txn: &WriteTransaction) -> Result<(), redb::Error> {
    mcp::create_tables(txn)
}

fn m0019_attention(txn: &WriteTransaction) -> Result<(), redb::Error> {
    snooze::create_tables(txn)?;
    followups::create_tables(txn)?;
    subscriptions::create_tables(txn)
}

fn m0020_labels(txn: &WriteTransaction) -> Result<(), redb::Error> {
    labels::create_tables(txn)
}

fn m0021_push(txn: &WriteTransaction) -> Result<(), redb::Error> {
    push::create_tables(txn)
}

fn m0022_mail_identities(txn: &WriteTransaction) -> Result<(), redb::Error> {
    mailstore::create_identities(txn)
}

fn m0023_mail_uid_counts(txn: &WriteTransaction) -> Result<(), redb::Error> {
    mailstore::create_uid_counts(txn)
}

/// Opens the store in `data_dir` (see [`Store::open_with`]).
pub fn open(data_dir: &Path) -> anyhow::Result<(Store, SchemaState)> {
    open_with_cache(data_dir, DEFAULT_CACHE_MB)
}

pub fn open_with_cache(data_dir: &Path, cache_mb: u64) -> anyhow::Result<(Store, SchemaState)> {
    Store::open_with(data_dir, cache_mb, MIGRATIONS)
}

/// Opens the store and applies pending migrations: what `serve` and `migrate` do. Returns the
/// migrations that ran.
pub fn open_and_migrate(data_dir: &Path) -> anyhow::Result<(Store, Vec<&'static Migration>)> {
    open_and_migrate_with_cache(data_dir, DEFAULT_CACHE_MB)
}

pub fn open_and_migrate_with_cache(
    data_dir: &Path,
    cache_mb: u64,
) -> anyhow::Result<(Store, Vec<&'static Migration>)> {
    let (store, _) = open_with_cache(data_dir, cache_mb)?;
    let ran = store.migrate()?;
    mailstore::finish_build(&store)?;
    Ok((store, ran))
}

/// For unit tests: a fresh store at the current schema. Returns the dir (kept while the store is
/// used) and the store.
#[cfg(test)]
pub fn temp_store() -> (tempfile::TempDir, crate::store::Store) {
    let dir = tempfile::tempdir().unwrap();
    let (store, _) = open_and_migrate(dir.path()).unwrap();
    (dir, store)
}

/// For unit tests: a fresh store with one user, Dana. Returns the dir (kept while the store is
/// used), the store and her id.
#[cfg(test)]
pub fn store_with_user() -> (tempfile::TempDir, crate::store::Store, u64) {
    let (dir, store) = temp_store();
    let new = crate::auth::users::NewUser {
        username: "dana",
        name: "",
        password: "password1",
        role: crate::auth::users::Role::User,
    };
    let id = crate::auth::users::create(&store, new, false).unwrap().id;
    (dir, store, id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_store_migrates_to_current() {
        let dir = tempfile::tempdir().unwrap();
        let (store, state) = open(dir.path()).unwrap();
        assert_eq!(state, SchemaState::Older { found: 0 });
        assert_eq!(store.migrate().unwrap().len(), MIGRATIONS.len());
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    }

    #[test]
    fn migrations_are_append_only_and_numbered() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(
                m.version,
                i as u64 + 1,
                "migration {} is out of order",
                m.name
            );
        }
    }
}
