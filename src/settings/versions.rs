//! Versions of a user's preferences (spec 001 §4, §7 "Settings sync"). Every change that alters
//! something is a new version, numbered per user from 1, with a history entry holding what
//! changed, who changed it and the whole object after it (so any kept version can be restored).
//! Each key remembers the version that last set it: an update based on an older version
//! conflicts only where a newer version set the same key to something else.

use std::collections::BTreeMap;

use redb::{ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::prefs::{Preferences, group_of};
use crate::error::{AppError, Result};
use crate::messages;
use crate::store::{Store, record};

/// user id → JSON [`Current`].
pub const SETTINGS: TableDefinition<u64, &[u8]> = TableDefinition::new("user_settings");
/// (user id, version) → JSON [`Version`].
pub const SETTINGS_HISTORY: TableDefinition<(u64, u64), &[u8]> =
    TableDefinition::new("settings_history");

/// Versions kept per user; older ones are pruned as new ones come.
pub const KEEP_VERSIONS: u64 = 200;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Current {
    pub version: u64,
    pub values: Preferences,
    /// The version that last set each key (a key never set is at version 0).
    pub key_versions: BTreeMap<String, u64>,
}

/// One kept version.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Version {
    pub version: u64,
    pub changed_by: String,
    pub settings_type: String,
    /// The values this version set.
    pub update: Map<String, Value>,
    /// RFC 3339.
    pub timestamp: String,
    /// The whole object after this version.
    pub snapshot: Preferences,
}

/// A change to make: checked values, the group they were sent as, the version the client
/// based them on (None: restore, which never conflicts), and who makes it.
pub struct Change<'a> {
    pub update: Map<String, Value>,
    pub settings_type: &'a str,
    pub base_version: Option<u64>,
    pub changed_by: &'a str,
    pub timestamp: &'a str,
}

/// A key another change set to something else after the client's base version.
#[derive(Debug, Clone, PartialEq)]
pub struct Clash {
    pub key: String,
    pub yours: Value,
    pub theirs: Value,
    pub version: u64,
    pub changed_by: String,
}

#[derive(Debug)]
pub enum Outcome {
    /// A new version: what it set (only the keys whose value changed).
    Saved { current: Current, version: Version },
    /// Every value was already so: no new version.
    Unchanged(Current),
    /// Nothing saved.
    Conflict {
        current: Current,
        clashes: Vec<Clash>,
    },
}

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(SETTINGS)?;
    txn.open_table(SETTINGS_HISTORY)?;
    Ok(())
}

/// Forgets a removed user's preferences and their history.
pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    txn.open_table(SETTINGS)?.remove(user_id)?;
    txn.open_table(SETTINGS_HISTORY)?
        .retain_in((user_id, 0)..=(user_id, u64::MAX), |_, _| false)?;
    Ok(())
}

fn current_in(table: &impl ReadableTable<u64, &'static [u8]>, user_id: u64) -> Result<Current> {
    Ok(match table.get(user_id)? {
        Some(v) => record::decode(v.value())?,
        None => Current::default(),
    })
}

/// The user's preferences and their version (version 0: the defaults, never changed).
pub fn current(store: &Store, user_id: u64) -> Result<Current> {
    let txn = store.db().begin_read()?;
    current_in(&txn.open_table(SETTINGS)?, user_id)
}

/// Applies a change in one write transaction: a conflict, nothing to do, or a new version.
pub fn apply(store: &Store, user_id: u64, change: Change) -> Result<Outcome> {
    let txn = store.begin_write()?;
    let outcome = apply_in(&txn, user_id, change)?;
    if matches!(outcome, Outcome::Saved { .. }) {
        txn.commit()?;
    }
    Ok(outcome)
}

fn apply_in(txn: &WriteTransaction, user_id: u64, change: Change) -> Result<Outcome> {
    let mut table = txn.open_table(SETTINGS)?;
    let mut current = current_in(&table, user_id)?;
    if change.base_version.is_some_and(|b| b > current.version) {
        return Err(AppError::bad_request(
            messages::SETTINGS_BASE_VERSION_UNKNOWN,
        ));
    }
    let now = current.values.to_map();
    let mut history = txn.open_table(SETTINGS_HISTORY)?;
    if let Some(base) = change.base_version {
        let mut clashes = Vec::new();
        for (key, yours) in &change.update {
            let set_at = current.key_versions.get(key).copied().unwrap_or(0);
            let theirs = now.get(key).cloned().unwrap_or(Value::Null);
            if set_at > base && theirs != *yours {
                let changed_by = match history.get((user_id, set_at))? {
                    Some(v) => record::decode::<Version>(v.value())?.changed_by,
                    None => String::new(),
                };
                clashes.push(Clash {
                    key: key.clone(),
                    yours: yours.clone(),
                    theirs,
                    version: set_at,
                    changed_by,
                });
            }
        }
        if !clashes.is_empty() {
            return Ok(Outcome::Conflict { current, clashes });
        }
    }
    let update: Map<String, Value> = change
        .update
        .into_iter()
        .filter(|(k, v)| now.get(k) != Some(v))
        .collect();
    if update.is_empty() {
        return Ok(Outcome::Unchanged(current));
    }
    current.values = current.values.with(&update)?;
    current.version += 1;
    for k in update.keys() {
        current.key_versions.insert(k.clone(), current.version);
    }
    let version = Version {
        version: current.version,
        changed_by: change.changed_by.to_string(),
        settings_type: change.settings_type.to_string(),
        update,
        timestamp: change.timestamp.to_string(),
        snapshot: current.values.clone(),
    };
    table.insert(user_id, record::encode(&current).as_slice())?;
    history.insert(
        (user_id, version.version),
        record::encode(&version).as_slice(),
    )?;
    if let Some(oldest_kept) = current.version.checked_sub(KEEP_VERSIONS - 1) {
        history.retain_in((user_id, 0)..(user_id, oldest_kept), |_, _| false)?;
    }
    Ok(Outcome::Saved { current, version })
}

/// The kept versions, newest first, at most `limit`.
pub fn history(store: &Store, user_id: u64, limit: usize) -> Result<Vec<Version>> {
    let txn = store.db().begin_read()?;
    let table = txn.open_table(SETTINGS_HISTORY)?;
    table
        .range((user_id, 0)..=(user_id, u64::MAX))?
        .rev()
        .take(limit)
        .map(|e| Ok(record::decode(e?.1.value())?))
        .collect()
}

/// Restores the object as it was after `version`, as a new version. `None` when that version
/// is not kept (never existed, or pruned).
pub fn restore(
    store: &Store,
    user_id: u64,
    version: u64,
    changed_by: &str,
    timestamp: &str,
) -> Result<Option<Outcome>> {
    let txn = store.begin_write()?;
    let snapshot: Preferences = match txn.open_table(SETTINGS_HISTORY)?.get((user_id, version))? {
        Some(v) => record::decode::<Version>(v.value())?.snapshot,
        None => return Ok(None),
    };
    let update = snapshot.to_map();
    // The group of what changes, when it is one group.
    let current = current_in(&txn.open_table(SETTINGS)?, user_id)?
        .values
        .to_map();
    let mut groups = update
        .iter()
        .filter(|(k, v)| current.get(*k) != Some(v))
        .filter_map(|(k, _)| group_of(k));
    let first = groups.next().unwrap_or("general");
    let settings_type = if groups.all(|g| g == first) {
        first
    } else {
        "general"
    };
    let outcome = apply_in(
        &txn,
        user_id,
        Change {
            update,
            settings_type,
            base_version: None,
            changed_by,
            timestamp,
        },
    )?;
    txn.commit()?;
    Ok(Some(outcome))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn change(update: Value, base: u64, who: &'static str) -> Change<'static> {
        Change {
            update: update.as_object().unwrap().clone(),
            settings_type: "ui",
            base_version: Some(base),
            changed_by: who,
            timestamp: "2026-11-25T10:00:00Z",
        }
    }

    fn saved(o: Outcome) -> u64 {
        match o {
            Outcome::Saved { current, .. } => current.version,
            other => panic!("not saved: {other:?}"),
        }
    }

    #[test]
    fn stale_updates_conflict_only_on_keys_changed_since() {
        let (_d, store) = crate::schema::temp_store();
        assert_eq!(
            saved(apply(&store, 1, change(json!({"darkMode": true}), 0, "a")).unwrap()),
            1
        );
        // Based on 0, another key: merges.
        assert_eq!(
            saved(apply(&store, 1, change(json!({"compactMode": true}), 0, "b")).unwrap()),
            2
        );
        // Based on 0, the key version 1 set, to another value: a conflict naming it.
        match apply(
            &store,
            1,
            change(json!({"darkMode": false, "autoRead": true}), 0, "b"),
        )
        .unwrap()
        {
            Outcome::Conflict { current, clashes } => {
                assert_eq!(current.version, 2);
                assert_eq!(clashes.len(), 1);
                assert_eq!(clashes[0].key, "darkMode");
                assert_eq!(
                    (clashes[0].version, clashes[0].changed_by.as_str()),
                    (1, "a")
                );
                assert_eq!(
                    (&clashes[0].yours, &clashes[0].theirs),
                    (&json!(false), &json!(true))
                );
            }
            other => panic!("{other:?}"),
        }
        // Nothing of the refused update was stored.
        assert!(!current(&store, 1).unwrap().values.auto_read);
        // The same value as theirs is no conflict, and no new version.
        assert!(matches!(
            apply(&store, 1, change(json!({"darkMode": true}), 0, "b")).unwrap(),
            Outcome::Unchanged(_)
        ));
        // Another user is untouched.
        assert_eq!(current(&store, 2).unwrap().version, 0);
        assert!(!current(&store, 2).unwrap().values.dark_mode);
        // A base from the future is refused.
        assert!(apply(&store, 1, change(json!({"darkMode": false}), 9, "a")).is_err());
    }

    #[test]
    fn history_is_kept_to_its_limit_and_a_version_restores() {
        let (_d, store) = crate::schema::temp_store();
        for i in 0..(KEEP_VERSIONS + 5) {
            let on = i % 2 == 0;
            apply(&store, 1, change(json!({"darkMode": on}), i, "a")).unwrap();
        }
        let all = history(&store, 1, 1000).unwrap();
        assert_eq!(all.len() as u64, KEEP_VERSIONS);
        assert_eq!(all[0].version, KEEP_VERSIONS + 5);
        assert_eq!(all.last().unwrap().version, 6);
        assert_eq!(history(&store, 1, 20).unwrap().len(), 20);
        assert!(restore(&store, 1, 1, "a", "t").unwrap().is_none(), "pruned");
        // Version 6 had dark mode off (i = 5); the last (i = 204) on.
        assert!(current(&store, 1).unwrap().values.dark_mode);
        let v = saved(restore(&store, 1, 6, "a", "t").unwrap().unwrap());
        assert_eq!(v, KEEP_VERSIONS + 6);
        assert!(!current(&store, 1).unwrap().values.dark_mode);
        let last = &history(&store, 1, 1).unwrap()[0];
        assert_eq!(last.update.keys().collect::<Vec<_>>(), ["darkMode"]);
        assert_eq!(last.settings_type, "ui");
    }
}
