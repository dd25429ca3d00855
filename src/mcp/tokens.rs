//! The agents' tokens: made and revoked by the user on the settings page, each with its scopes
//! (reading and search; triage; drafts; never sending). The token is shown once; the store
//! keeps its SHA-256 (`auth::tokens::token_digest`), so a stolen store file holds no usable
//! token. A token is a different secret from a session: it opens `/mcp` only, and a session
//! token never opens `/mcp`. Revoking removes the digest at once (the next call is refused)
//! and keeps the token's name and call log, marked revoked, for the user to read.

use redb::{ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::auth::tokens::{random_token, token_digest};
use crate::error::{AppError, Result};
use crate::kit::now;
use crate::messages;
use crate::store::{Store, next_id, record};

/// (user id, token id) → JSON [`TokenRecord`].
pub(super) const TOKENS: TableDefinition<(u64, u64), &[u8]> = TableDefinition::new("mcp_tokens");
/// SHA-256(token) → (user id, token id), for live tokens only.
const DIGESTS: TableDefinition<&[u8], (u64, u64)> = TableDefinition::new("mcp_token_digests");

/// Live tokens a user may hold, and records (live and revoked) kept.
pub const MAX_LIVE: usize = 20;
const MAX_KEPT: usize = 50;
const MAX_NAME: usize = 60;
/// Every token starts so (a secret scanner, or a person, can tell what it is).
pub const PREFIX: &str = "mcp_";

/// What a token lets an agent do. Sending mail is not one of them: an agent writes a draft, a
/// person sends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "McpScope")]
pub enum Scope {
    /// Search, list folders and read mail, contacts and tasks.
    Read,
    /// Statuses, read and starred; add tasks; snooze and wake conversations.
    Triage,
    /// Write reply drafts into the mailbox's Drafts.
    Drafts,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TokenRecord {
    pub id: u64,
    pub user_id: u64,
    pub name: String,
    pub scopes: Vec<Scope>,
    /// Unix seconds.
    pub created: i64,
    pub last_used: Option<i64>,
    pub calls: u64,
    pub revoked: Option<i64>,
}

impl TokenRecord {
    pub fn allows(&self, scope: Scope) -> bool {
        self.scopes.contains(&scope)
    }
}

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(TOKENS)?;
    txn.open_table(DIGESTS)?;
    Ok(())
}

/// Forgets every token of a user (their call log is `calls::forget_user`).
pub fn forget_user(txn: &WriteTransaction, user: u64) -> anyhow::Result<()> {
    txn.open_table(TOKENS)?
        .retain_in((user, 0)..=(user, u64::MAX), |_, _| false)?;
    txn.open_table(DIGESTS)?.retain(|_, v| v.0 != user)?;
    Ok(())
}

/// A new token for the user: the secret (shown once) and its record.
pub fn create(
    store: &Store,
    user: u64,
    name: &str,
    scopes: &[Scope],
) -> Result<(String, TokenRecord)> {
    let name = name.trim();
    if name.is_empty() {
        return Err(AppError::bad_request(messages::MCP_TOKEN_NAME_REQUIRED));
    }
    if name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
        return Err(AppError::bad_request(messages::MCP_TOKEN_NAME_TOO_LONG));
    }
    let mut scopes = scopes.to_vec();
    scopes.sort_unstable();
    scopes.dedup();
    if scopes.is_empty() {
        return Err(AppError::bad_request(messages::MCP_TOKEN_SCOPES_REQUIRED));
    }
    let secret = format!("{PREFIX}{}", random_token());
    let txn = store.begin_write()?;
    let rec = {
        let mut t = txn.open_table(TOKENS)?;
        let mine: Vec<TokenRecord> = t
            .range((user, 0)..=(user, u64::MAX))?
            .filter_map(|e| e.ok().and_then(|(_, v)| record::decode(v.value()).ok()))
            .collect();
        if mine.iter().filter(|r| r.revoked.is_none()).count() >= MAX_LIVE {
            return Err(AppError::bad_request(messages::MCP_TOKENS_FULL));
        }
        // The oldest revoked records make room.
        let mut revoked: Vec<&TokenRecord> = mine.iter().filter(|r| r.revoked.is_some()).collect();
        revoked.sort_by_key(|r| r.id);
        for r in revoked
            .iter()
            .take((mine.len() + 1).saturating_sub(MAX_KEPT))
        {
            t.remove((user, r.id))?;
        }
        let rec = TokenRecord {
            id: next_id(&txn, "mcp_tokens")?,
            user_id: user,
            name: name.to_string(),
            scopes,
            created: now(),
            last_used: None,
            calls: 0,
            revoked: None,
        };
        t.insert((user, rec.id), record::encode(&rec).as_slice())?;
        txn.open_table(DIGESTS)?
            .insert(token_digest(&secret).as_slice(), (user, rec.id))?;
        rec
    };
    txn.commit()?;
    Ok((secret, rec))
}

/// The user's tokens, newest first.
pub fn list(store: &Store, user: u64) -> Result<Vec<TokenRecord>> {
    let txn = store.db().begin_read()?;
    let t = txn.open_table(TOKENS)?;
    let mut out: Vec<TokenRecord> = Vec::new();
    for e in t.range((user, 0)..=(user, u64::MAX))? {
        out.push(record::decode(e?.1.value())?);
    }
    out.reverse();
    Ok(out)
}

/// One of the user's tokens.
pub fn get(store: &Store, user: u64, id: u64) -> Result<Option<TokenRecord>> {
    let txn = store.db().begin_read()?;
    let t = txn.open_table(TOKENS)?;
    Ok(match t.get((user, id))? {
        Some(v) => Some(record::decode(v.value())?),
        None => None,
    })
}

/// Revokes one of the user's tokens: its digest goes (it opens nothing from now on), its
/// record stays, marked. False when the user has no such live token.
pub fn revoke(store: &Store, user: u64, id: u64) -> Result<bool> {
    let txn = store.begin_write()?;
    let done = {
        let mut t = txn.open_table(TOKENS)?;
        let found: Option<TokenRecord> = match t.get((user, id))? {
            Some(v) => Some(record::decode(v.value())?),
            None => None,
        };
        match found {
            Some(mut r) if r.revoked.is_none() => {
                r.revoked = Some(now());
                t.insert((user, id), record::encode(&r).as_slice())?;
                txn.open_table(DIGESTS)?.retain(|_, v| v != (user, id))?;
                true
            }
            _ => false,
        }
    };
    txn.commit()?;
    Ok(done)
}

/// The live token behind `secret`, whose user still exists; None for anything else.
pub fn authenticate(store: &Store, secret: &str) -> Result<Option<TokenRecord>> {
    if !secret.starts_with(PREFIX) || secret.len() > 128 {
        return Ok(None);
    }
    let txn = store.db().begin_read()?;
    let Some(key) = txn
        .open_table(DIGESTS)?
        .get(token_digest(secret).as_slice())?
        .map(|v| v.value())
    else {
        return Ok(None);
    };
    let rec: TokenRecord = match txn.open_table(TOKENS)?.get(key)? {
        Some(v) => record::decode(v.value())?,
        None => return Ok(None),
    };
    drop(txn);
    let user_exists = crate::auth::users::get(store, rec.user_id)?.is_some();
    Ok((rec.revoked.is_none() && user_exists).then_some(rec))
}

/// Counts a use of the token (in the call's transaction).
pub(super) fn used(txn: &WriteTransaction, user: u64, id: u64, at: i64) -> Result<()> {
    let mut t = txn.open_table(TOKENS)?;
    let found: Option<TokenRecord> = match t.get((user, id))? {
        Some(v) => Some(record::decode(v.value())?),
        None => None,
    };
    if let Some(mut r) = found {
        r.last_used = Some(at);
        r.calls += 1;
        t.insert((user, id), record::encode(&r).as_slice())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_stored_hashed_opens_until_revoked_and_is_its_user_s() {
        let (dir, store, user) = crate::schema::store_with_user();
        let (secret, rec) = create(&store, user, "Claude", &[Scope::Read, Scope::Read]).unwrap();
        assert!(secret.starts_with(PREFIX) && secret.len() == PREFIX.len() + 64);
        assert_eq!(rec.scopes, vec![Scope::Read]);
        let found = authenticate(&store, &secret).unwrap().unwrap();
        assert_eq!((found.user_id, found.id), (user, rec.id));
        // A session token, another token, garbage: nothing.
        let session = crate::auth::sessions::create(
            &store,
            user,
            crate::auth::sessions::Lifetime {
                ttl_secs: 3600,
                idle_secs: 3600,
            },
        )
        .unwrap();
        assert!(authenticate(&store, &session).unwrap().is_none());
        assert!(
            authenticate(&store, &format!("{PREFIX}{}", "0".repeat(64)))
                .unwrap()
                .is_none()
        );
        assert!(authenticate(&store, &"x".repeat(10_000)).unwrap().is_none());
        // Another user cannot revoke it.
        assert!(!revoke(&store, user + 1, rec.id).unwrap());
        assert!(revoke(&store, user, rec.id).unwrap());
        assert!(authenticate(&store, &secret).unwrap().is_none());
        assert!(list(&store, user).unwrap()[0].revoked.is_some());
        // The file never holds the secret.
        drop(store);
        let bytes = std::fs::read(dir.path().join(crate::store::DB_FILE)).unwrap();
        assert!(!bytes.windows(secret.len()).any(|w| w == secret.as_bytes()));
    }

    #[test]
    fn names_and_scopes_are_required_and_live_tokens_bounded() {
        let (_d, store, user) = crate::schema::store_with_user();
        assert!(create(&store, user, " ", &[Scope::Read]).is_err());
        assert!(create(&store, user, "x", &[]).is_err());
        assert!(create(&store, user, &"א".repeat(61), &[Scope::Read]).is_err());
        for i in 0..MAX_LIVE {
            create(&store, user, &format!("t{i}"), &[Scope::Read]).unwrap();
        }
        assert!(create(&store, user, "one more", &[Scope::Read]).is_err());
        let first = list(&store, user).unwrap().last().unwrap().id;
        revoke(&store, user, first).unwrap();
        create(&store, user, "one more", &[Scope::Read]).unwrap();
    }
}
