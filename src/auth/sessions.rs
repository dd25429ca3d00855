//! Sign-in sessions. The client holds a random 256-bit token; the store keys the session by the
//! token's SHA-256, so the file never holds a usable token. Sessions expire and can be revoked.

use redb::{
    ReadableDatabase, ReadableTable, ReadableTableMetadata, TableDefinition, WriteTransaction,
};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::tokens::{random_token, token_digest};
use super::users::{self, UserRecord};
use crate::error::Result;
use crate::store::{Store, record};

/// SHA-256(token) → JSON [`SessionRecord`].
pub const SESSIONS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("sessions");

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SessionRecord {
    pub user_id: u64,
    /// Unix seconds.
    pub created_at: i64,
    pub expires_at: i64,
}

fn now() -> i64 {
    OffsetDateTime::now_utc().unix_timestamp()
}

/// Starts a session for `user_id` lasting `ttl_hours`; returns the token for the client.
/// Expired sessions are swept in the same transaction, so the table does not grow forever.
pub fn create(store: &Store, user_id: u64, ttl_hours: u64) -> Result<String> {
    let token = random_token();
    let created_at = now();
    let session = SessionRecord {
        user_id,
        created_at,
        expires_at: created_at + (ttl_hours as i64) * 3600,
    };
    let txn = store.db().begin_write()?;
    purge_expired_in(&txn, created_at)?;
    txn.open_table(SESSIONS)?.insert(
        token_digest(&token).as_slice(),
        record::encode(&session).as_slice(),
    )?;
    txn.commit()?;
    Ok(token)
}

/// The user behind a live session token; `None` for unknown, expired or orphaned sessions.
pub fn authenticate(store: &Store, token: &str) -> Result<Option<UserRecord>> {
    if token.is_empty() || token.len() > 256 {
        return Ok(None);
    }
    // One read transaction for both lookups: this runs on every authenticated request.
    let txn = store.db().begin_read()?;
    let session: SessionRecord = match txn
        .open_table(SESSIONS)?
        .get(token_digest(token).as_slice())?
    {
        Some(v) => record::decode(v.value())?,
        None => return Ok(None),
    };
    if session.expires_at <= now() {
        return Ok(None);
    }
    match txn.open_table(users::USERS)?.get(session.user_id)? {
        Some(v) => Ok(Some(record::decode(v.value())?)),
        None => Ok(None),
    }
}

/// A short public name of the session of `token`, to tell a user's sessions apart (a settings
/// change is not echoed to the session that made it). Derived apart from the store's key, so
/// showing it reveals nothing that could find or use the session.
pub fn public_id(token: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(&Sha256::digest(format!("session-id:{token}").as_bytes())[..8])
}

/// Ends the session of `token`. Returns whether there was one.
pub fn revoke(store: &Store, token: &str) -> Result<bool> {
    let txn = store.db().begin_write()?;
    let removed = txn
        .open_table(SESSIONS)?
        .remove(token_digest(token).as_slice())?
        .is_some();
    txn.commit()?;
    Ok(removed)
}

/// Ends every session of a user but the one of `keep_token`, inside the caller's transaction
/// (password change, removal).
/// Ends every session of a removed user.
pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    revoke_all_for_user_in(txn, user_id, None).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(())
}

pub fn revoke_all_for_user_in(
    txn: &WriteTransaction,
    user_id: u64,
    keep_token: Option<&str>,
) -> Result<usize> {
    let keep = keep_token.map(token_digest);
    let mut table = txn.open_table(SESSIONS)?;
    let mut doomed = Vec::new();
    for entry in table.iter()? {
        let (k, v) = entry?;
        let s: SessionRecord = record::decode(v.value())?;
        if s.user_id == user_id && keep.as_ref().is_none_or(|d| d.as_slice() != k.value()) {
            doomed.push(k.value().to_vec());
        }
    }
    for k in &doomed {
        table.remove(k.as_slice())?;
    }
    Ok(doomed.len())
}

/// The scheduler's job that drops expired sessions.
pub const SWEEP: &str = "session-sweep";

pub async fn sweep_job(state: crate::state::AppState) -> anyhow::Result<()> {
    let n = tokio::task::spawn_blocking(move || purge_expired(&state.store)).await??;
    if n > 0 {
        tracing::debug!(sessions = n, "expired sessions dropped");
    }
    Ok(())
}

/// Drops every expired session (the scheduler's hourly sweep; a login also sweeps).
pub fn purge_expired(store: &Store) -> Result<usize> {
    let txn = store.db().begin_write()?;
    let n = purge_expired_in(&txn, now())?;
    txn.commit()?;
    Ok(n)
}

fn purge_expired_in(txn: &WriteTransaction, now: i64) -> Result<usize> {
    let mut table = txn.open_table(SESSIONS)?;
    let before = table.len()? as usize;
    table.retain(|_, v| {
        record::decode::<SessionRecord>(v)
            .map(|s| s.expires_at > now)
            .unwrap_or(false)
    })?;
    Ok(before - table.len()? as usize)
}

/// Schema 1.
pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(SESSIONS)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::users::{NewUser, Role};

    fn setup() -> (tempfile::TempDir, Store, u64) {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = crate::schema::open_and_migrate(dir.path()).unwrap();
        let u = users::create(
            &store,
            NewUser {
                username: "dana",
                name: "",
                password: "password1",
                role: Role::User,
            },
            false,
        )
        .unwrap();
        (dir, store, u.id)
    }

    #[test]
    fn token_is_stored_only_hashed() {
        let (dir, store, uid) = setup();
        let token = create(&store, uid, 1).unwrap();
        assert_eq!(authenticate(&store, &token).unwrap().unwrap().id, uid);
        drop(store);
        let bytes = std::fs::read(dir.path().join(crate::store::DB_FILE)).unwrap();
        let needle = token.as_bytes();
        assert!(!bytes.windows(needle.len()).any(|w| w == needle));
    }

    #[test]
    fn revoke_ends_session() {
        let (_d, store, uid) = setup();
        let token = create(&store, uid, 1).unwrap();
        assert!(revoke(&store, &token).unwrap());
        assert!(authenticate(&store, &token).unwrap().is_none());
        assert!(!revoke(&store, &token).unwrap());
    }

    #[test]
    fn expired_sessions_fail_and_are_swept() {
        let (_d, store, uid) = setup();
        let token = create(&store, uid, 1).unwrap();
        // Backdate the session past its expiry.
        {
            let txn = store.db().begin_write().unwrap();
            {
                let mut t = txn.open_table(SESSIONS).unwrap();
                let key = token_digest(&token);
                let old = SessionRecord {
                    user_id: uid,
                    created_at: 0,
                    expires_at: now() - 1,
                };
                t.insert(key.as_slice(), record::encode(&old).as_slice())
                    .unwrap();
            }
            txn.commit().unwrap();
        }
        assert!(authenticate(&store, &token).unwrap().is_none());
        create(&store, uid, 1).unwrap();
        let txn = store.db().begin_read().unwrap();
        let t = txn.open_table(SESSIONS).unwrap();
        assert!(t.get(token_digest(&token).as_slice()).unwrap().is_none());
        assert_eq!(t.len().unwrap(), 1);
    }

    #[test]
    fn garbage_tokens_are_rejected() {
        let (_d, store, _) = setup();
        assert!(authenticate(&store, "").unwrap().is_none());
        assert!(authenticate(&store, "nope").unwrap().is_none());
        assert!(authenticate(&store, &"x".repeat(10_000)).unwrap().is_none());
    }
}
