//! Sign-in sessions. The client holds a random 256-bit token; the store keys the session by the
//! token's SHA-256, so the file never holds a usable token. Sessions expire and can be revoked.
//!
//! Two limits end a session: its lifetime (`[auth] session_ttl_hours`) and idleness
//! (`session_idle_hours`), so a token left on a machine nobody uses stops working within days.
//! Use is recorded at most every [`TOUCH_EVERY`] (`last_seen`), off the request's path: a write
//! per request would queue behind the sync's transactions.

use redb::{
    ReadableDatabase, ReadableTable, ReadableTableMetadata, TableDefinition, WriteTransaction,
};
use serde::{Deserialize, Serialize};

use super::tokens::{random_token, token_digest};
use super::users::{self, UserRecord};
use crate::error::Result;
use crate::kit::now;
use crate::store::{Store, record};

/// SHA-256(token) → JSON [`SessionRecord`].
pub const SESSIONS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("sessions");

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SessionRecord {
    pub user_id: u64,
    /// Unix seconds.
    pub created_at: i64,
    pub expires_at: i64,
    /// When the session was last used (Unix seconds, to [`TOUCH_EVERY`]). Sessions made before
    /// idle expiry have none until their next use.
    #[serde(default)]
    pub last_seen: Option<i64>,
}

impl SessionRecord {
    fn live_at(&self, now: i64, idle_secs: i64) -> bool {
        self.expires_at > now && self.last_seen.is_none_or(|seen| seen + idle_secs > now)
    }
}

/// How stale `last_seen` may get before a use records itself.
pub const TOUCH_EVERY: i64 = 300;

/// A session's two limits, in seconds.
#[derive(Debug, Clone, Copy)]
pub struct Lifetime {
    pub ttl_secs: i64,
    pub idle_secs: i64,
}

impl Lifetime {
    pub fn of(auth: &crate::config::AuthConfig) -> Self {
        Self {
            ttl_secs: auth.session_ttl_hours as i64 * 3600,
            idle_secs: auth.session_idle_hours as i64 * 3600,
        }
    }
}

/// Starts a session for `user_id` within `lifetime`; returns the token for the client.
/// Expired and idle sessions are swept in the same transaction, so the table does not grow
/// forever.
pub fn create(store: &Store, user_id: u64, lifetime: Lifetime) -> Result<String> {
    let token = random_token();
    let created_at = now();
    let session = SessionRecord {
        user_id,
        created_at,
        expires_at: created_at + lifetime.ttl_secs,
        last_seen: Some(created_at),
    };
    let txn = store.begin_write()?;
    purge_expired_in(&txn, created_at, lifetime.idle_secs)?;
    txn.open_table(SESSIONS)?.insert(
        token_digest(&token).as_slice(),
        record::encode(&session).as_slice(),
    )?;
    txn.commit()?;
    Ok(token)
}

/// A live session's user, and whether its use should be recorded ([`touch`]).
pub struct Live {
    pub user: UserRecord,
    pub stale: bool,
}

/// The user behind a live session token; `None` for unknown, expired, idle or orphaned
/// sessions.
pub fn authenticate(store: &Store, token: &str, idle_secs: i64) -> Result<Option<UserRecord>> {
    Ok(lookup_at(store, token, idle_secs, now())?.map(|live| live.user))
}

/// [`authenticate`], telling also whether the session's `last_seen` needs a [`touch`].
pub fn lookup(store: &Store, token: &str, idle_secs: i64) -> Result<Option<Live>> {
    lookup_at(store, token, idle_secs, now())
}

fn lookup_at(store: &Store, token: &str, idle_secs: i64, now: i64) -> Result<Option<Live>> {
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
    if !session.live_at(now, idle_secs) {
        return Ok(None);
    }
    let stale = session
        .last_seen
        .is_none_or(|seen| now - seen >= TOUCH_EVERY);
    match txn.open_table(users::USERS)?.get(session.user_id)? {
        Some(v) => Ok(Some(Live {
            user: record::decode(v.value())?,
            stale,
        })),
        None => Ok(None),
    }
}

/// Records a use of the session of `token` now (a session revoked meanwhile stays gone).
pub fn touch(store: &Store, token: &str) -> Result<()> {
    let txn = store.begin_write()?;
    {
        let mut table = txn.open_table(SESSIONS)?;
        let key = token_digest(token);
        let found = table.get(key.as_slice())?.map(|v| v.value().to_vec());
        if let Some(bytes) = found {
            let mut session: SessionRecord = record::decode(&bytes)?;
            session.last_seen = Some(now());
            table.insert(key.as_slice(), record::encode(&session).as_slice())?;
        }
    }
    txn.commit()?;
    Ok(())
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
    let txn = store.begin_write()?;
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

/// The scheduler's job that drops expired and idle sessions.
pub const SWEEP: &str = "session-sweep";

pub async fn sweep_job(state: crate::state::AppState) -> anyhow::Result<()> {
    let idle = Lifetime::of(&state.config.auth).idle_secs;
    let n = tokio::task::spawn_blocking(move || purge_expired(&state.store, idle)).await??;
    if n > 0 {
        tracing::debug!(sessions = n, "expired sessions dropped");
    }
    Ok(())
}

/// Drops every expired or idle session (the scheduler's hourly sweep; a login also sweeps).
pub fn purge_expired(store: &Store, idle_secs: i64) -> Result<usize> {
    let txn = store.begin_write()?;
    let n = purge_expired_in(&txn, now(), idle_secs)?;
    txn.commit()?;
    Ok(n)
}

fn purge_expired_in(txn: &WriteTransaction, now: i64, idle_secs: i64) -> Result<usize> {
    let mut table = txn.open_table(SESSIONS)?;
    let before = table.len()? as usize;
    table.retain(|_, v| {
        record::decode::<SessionRecord>(v)
            .map(|s| s.live_at(now, idle_secs))
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

    const HOUR: Lifetime = Lifetime {
        ttl_secs: 3600,
        idle_secs: 3600,
    };
    const IDLE: i64 = HOUR.idle_secs;

    /// Rewrites the stored session of `token`.
    fn edit(store: &Store, token: &str, f: impl FnOnce(&mut SessionRecord)) {
        let txn = store.begin_write().unwrap();
        {
            let mut t = txn.open_table(SESSIONS).unwrap();
            let key = token_digest(token);
            let bytes = t.get(key.as_slice()).unwrap().unwrap().value().to_vec();
            let mut s: SessionRecord = record::decode(&bytes).unwrap();
            f(&mut s);
            t.insert(key.as_slice(), record::encode(&s).as_slice())
                .unwrap();
        }
        txn.commit().unwrap();
    }

    fn setup() -> (tempfile::TempDir, Store, u64) {
        crate::schema::store_with_user()
    }

    #[test]
    fn token_is_stored_only_hashed() {
        let (dir, store, uid) = setup();
        let token = create(&store, uid, HOUR).unwrap();
        assert_eq!(authenticate(&store, &token, IDLE).unwrap().unwrap().id, uid);
        drop(store);
        let bytes = std::fs::read(dir.path().join(crate::store::DB_FILE)).unwrap();
        let needle = token.as_bytes();
        assert!(!bytes.windows(needle.len()).any(|w| w == needle));
    }

    #[test]
    fn revoke_ends_session() {
        let (_d, store, uid) = setup();
        let token = create(&store, uid, HOUR).unwrap();
        assert!(revoke(&store, &token).unwrap());
        assert!(authenticate(&store, &token, IDLE).unwrap().is_none());
        assert!(!revoke(&store, &token).unwrap());
    }

    #[test]
    fn expired_sessions_fail_and_are_swept() {
        let (_d, store, uid) = setup();
        let token = create(&store, uid, HOUR).unwrap();
        // Backdate the session past its expiry.
        edit(&store, &token, |s| s.expires_at = now() - 1);
        assert!(authenticate(&store, &token, IDLE).unwrap().is_none());
        create(&store, uid, HOUR).unwrap();
        let txn = store.db().begin_read().unwrap();
        let t = txn.open_table(SESSIONS).unwrap();
        assert!(t.get(token_digest(&token).as_slice()).unwrap().is_none());
        assert_eq!(t.len().unwrap(), 1);
    }

    #[test]
    fn an_idle_session_fails_and_is_swept_while_a_used_one_lives_on() {
        let (_d, store, uid) = setup();
        let lifetime = Lifetime {
            ttl_secs: 30 * 86_400,
            idle_secs: 7 * 86_400,
        };
        let idle = create(&store, uid, lifetime).unwrap();
        let used = create(&store, uid, lifetime).unwrap();
        // Both eight days old; one was used an hour ago.
        let eight_days_ago = now() - 8 * 86_400;
        edit(&store, &idle, |s| s.last_seen = Some(eight_days_ago));
        edit(&store, &used, |s| s.last_seen = Some(now() - 3600));
        assert!(
            authenticate(&store, &idle, lifetime.idle_secs)
                .unwrap()
                .is_none()
        );
        assert!(
            authenticate(&store, &used, lifetime.idle_secs)
                .unwrap()
                .is_some()
        );
        assert_eq!(purge_expired(&store, lifetime.idle_secs).unwrap(), 1);
        let txn = store.db().begin_read().unwrap();
        let t = txn.open_table(SESSIONS).unwrap();
        assert!(t.get(token_digest(&idle).as_slice()).unwrap().is_none());
        assert!(t.get(token_digest(&used).as_slice()).unwrap().is_some());
    }

    #[test]
    fn a_use_is_recorded_when_last_seen_is_stale() {
        let (_d, store, uid) = setup();
        let token = create(&store, uid, HOUR).unwrap();
        assert!(!lookup(&store, &token, IDLE).unwrap().unwrap().stale);
        edit(&store, &token, |s| s.last_seen = Some(now() - TOUCH_EVERY));
        assert!(lookup(&store, &token, IDLE).unwrap().unwrap().stale);
        touch(&store, &token).unwrap();
        assert!(!lookup(&store, &token, IDLE).unwrap().unwrap().stale);
        // A session from before idle expiry is kept, and starts counting at its next use.
        edit(&store, &token, |s| s.last_seen = None);
        assert!(lookup(&store, &token, IDLE).unwrap().unwrap().stale);
    }

    #[test]
    fn garbage_tokens_are_rejected() {
        let (_d, store, _) = setup();
        assert!(authenticate(&store, "", IDLE).unwrap().is_none());
        assert!(authenticate(&store, "nope", IDLE).unwrap().is_none());
        assert!(
            authenticate(&store, &"x".repeat(10_000), IDLE)
                .unwrap()
                .is_none()
        );
    }
}
