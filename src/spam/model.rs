//! The user's training: token counts over the shipped base model, and what was trained (by key:
//! a mail's Message-ID or an example's id) with its tokens, so a mail is learned once, a
//! decision reversed ("not spam" after spam) moves its tokens to the other side, and a removed
//! example is unlearned exactly.

use std::collections::HashMap;

use redb::{ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction};

use super::bayes::USER_WEIGHT;
use crate::store::Store;

/// (user, token) → spam count << 32 | ham count.
const TOKENS: TableDefinition<(u64, u32), u64> = TableDefinition::new("spam_tokens");
/// user → spam mails << 32 | ham mails.
const TOTALS: TableDefinition<u64, u64> = TableDefinition::new("spam_totals");
/// (user, key) → class byte then the tokens (little-endian u32s).
const TRAINED: TableDefinition<(u64, &str), &[u8]> = TableDefinition::new("spam_trained");

/// Mails and examples a user can have trained at most (each keeps its tokens).
pub const MAX_TRAINED: u64 = 20_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Spam,
    Ham,
}

impl Class {
    fn byte(self) -> u8 {
        match self {
            Class::Spam => 1,
            Class::Ham => 2,
        }
    }

    fn of(b: u8) -> Option<Self> {
        match b {
            1 => Some(Class::Spam),
            2 => Some(Class::Ham),
            _ => None,
        }
    }
}

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(TOKENS)?;
    txn.open_table(TOTALS)?;
    txn.open_table(TRAINED)?;
    Ok(())
}

pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    txn.open_table(TOKENS)?
        .extract_from_if((user_id, 0)..=(user_id, u32::MAX), |_, _| true)?
        .for_each(drop);
    txn.open_table(TOTALS)?.remove(user_id)?;
    let mut trained = txn.open_table(TRAINED)?;
    let keys: Vec<String> = trained
        .range((user_id, "")..)?
        .map_while(|e| e.ok())
        .take_while(|(k, _)| k.value().0 == user_id)
        .map(|(k, _)| k.value().1.to_string())
        .collect();
    for k in keys {
        trained.remove((user_id, k.as_str()))?;
    }
    Ok(())
}

fn split(v: u64) -> (u32, u32) {
    ((v >> 32) as u32, v as u32)
}

fn join(s: u32, h: u32) -> u64 {
    (u64::from(s) << 32) | u64::from(h)
}

/// Adds (`sign` 1) or takes away (-1) one mail's tokens on one side.
fn count(
    txn: &WriteTransaction,
    user: u64,
    class: Class,
    tokens: &[u32],
    sign: i64,
) -> anyhow::Result<()> {
    let mut t = txn.open_table(TOKENS)?;
    let step = |v: u32| (i64::from(v) + sign).max(0) as u32;
    for tok in tokens {
        let (s, h) = t.get((user, *tok))?.map_or((0, 0), |v| split(v.value()));
        let (s, h) = match class {
            Class::Spam => (step(s), h),
            Class::Ham => (s, step(h)),
        };
        if s == 0 && h == 0 {
            t.remove((user, *tok))?;
        } else {
            t.insert((user, *tok), join(s, h))?;
        }
    }
    let mut totals = txn.open_table(TOTALS)?;
    let (s, h) = totals.get(user)?.map_or((0, 0), |v| split(v.value()));
    let (s, h) = match class {
        Class::Spam => (step(s), h),
        Class::Ham => (s, step(h)),
    };
    totals.insert(user, join(s, h))?;
    Ok(())
}

fn decode(v: &[u8]) -> Option<(Class, Vec<u32>)> {
    let (first, rest) = v.split_first()?;
    let tokens = rest
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    Some((Class::of(*first)?, tokens))
}

/// What `key` was trained as, if it was.
pub fn trained_as(txn: &WriteTransaction, user: u64, key: &str) -> anyhow::Result<Option<Class>> {
    Ok(txn
        .open_table(TRAINED)?
        .get((user, key))?
        .and_then(|v| decode(v.value()).map(|(c, _)| c)))
}

/// Learns `tokens` as `class` under `key`: nothing when it already was; a mail trained as the
/// other class is moved over. Returns whether anything changed.
pub fn train(
    txn: &WriteTransaction,
    user: u64,
    key: &str,
    class: Class,
    tokens: &[u32],
) -> anyhow::Result<bool> {
    let before = {
        let t = txn.open_table(TRAINED)?;
        t.get((user, key))?.and_then(|v| decode(v.value()))
    };
    match before {
        Some((c, _)) if c == class => return Ok(false),
        Some((c, old)) => count(txn, user, c, &old, -1)?,
        None => {
            let n = txn
                .open_table(TRAINED)?
                .range((user, "")..)?
                .take(MAX_TRAINED as usize + 1)
                .map_while(|e| e.ok())
                .take_while(|(k, _)| k.value().0 == user)
                .count() as u64;
            if n >= MAX_TRAINED {
                tracing::warn!(user, "spam training is full; not learning more");
                return Ok(false);
            }
        }
    }
    count(txn, user, class, tokens, 1)?;
    // The logistic regression learns it too: one online step (a reversed decision is a step
    // the other way; unlearning an example takes none).
    super::lr::learn(txn, user, class == Class::Spam, tokens)?;
    let mut v = Vec::with_capacity(1 + tokens.len() * 4);
    v.push(class.byte());
    for t in tokens {
        v.extend_from_slice(&t.to_le_bytes());
    }
    txn.open_table(TRAINED)?.insert((user, key), v.as_slice())?;
    Ok(true)
}

/// Unlearns `key`. Returns whether it was trained.
pub fn untrain(txn: &WriteTransaction, user: u64, key: &str) -> anyhow::Result<bool> {
    let before = txn
        .open_table(TRAINED)?
        .remove((user, key))?
        .and_then(|v| decode(v.value()));
    match before {
        Some((c, tokens)) => {
            count(txn, user, c, &tokens, -1)?;
            Ok(true)
        }
        None => Ok(false),
    }
}

/// The keys trained under `prefix` (the examples: `ex:`).
pub fn keys_with(txn: &WriteTransaction, user: u64, prefix: &str) -> anyhow::Result<Vec<String>> {
    Ok(txn
        .open_table(TRAINED)?
        .range((user, prefix)..)?
        .map_while(|e| e.ok())
        .take_while(|(k, _)| k.value().0 == user && k.value().1.starts_with(prefix))
        .map(|(k, _)| k.value().1.to_string())
        .collect())
}

/// The user's counts, weighted (`USER_WEIGHT`), and their totals.
/// token → (spam, ham) counts, and the (spam, ham) mail totals.
pub type Trained = (HashMap<u32, (u32, u32)>, (u32, u32));

pub fn load(store: &Store, user: u64) -> anyhow::Result<Trained> {
    let txn = store.db().begin_read()?;
    let totals = txn
        .open_table(TOTALS)?
        .get(user)?
        .map_or((0, 0), |v| split(v.value()));
    let mut out = HashMap::new();
    for e in txn
        .open_table(TOKENS)?
        .range((user, 0)..=(user, u32::MAX))?
    {
        let (k, v) = e?;
        let (s, h) = split(v.value());
        out.insert(k.value().1, (s * USER_WEIGHT, h * USER_WEIGHT));
    }
    Ok((out, (totals.0 * USER_WEIGHT, totals.1 * USER_WEIGHT)))
}

/// How many mails the user trained as spam and as ham.
pub fn totals(store: &Store, user: u64) -> anyhow::Result<(u32, u32)> {
    let txn = store.db().begin_read()?;
    Ok(txn
        .open_table(TOTALS)?
        .get(user)?
        .map_or((0, 0), |v| split(v.value())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn train_switch_untrain_and_forget() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open_with(dir.path(), 8, &[]).unwrap();
        let txn = store.db().begin_write().unwrap();
        create_tables(&txn).unwrap();
        assert!(train(&txn, 1, "m:a", Class::Spam, &[1, 2]).unwrap());
        assert!(
            !train(&txn, 1, "m:a", Class::Spam, &[1, 2]).unwrap(),
            "learned once"
        );
        assert!(
            train(&txn, 1, "m:a", Class::Ham, &[1, 2]).unwrap(),
            "moved over"
        );
        train(&txn, 2, "m:b", Class::Spam, &[1]).unwrap();
        txn.commit().unwrap();
        let (c, t) = load(&store, 1).unwrap();
        assert_eq!(t, (0, USER_WEIGHT));
        assert_eq!(c[&1], (0, USER_WEIGHT));
        let txn = store.db().begin_write().unwrap();
        assert!(untrain(&txn, 1, "m:a").unwrap());
        train(&txn, 1, "ex:1", Class::Spam, &[5]).unwrap();
        assert_eq!(keys_with(&txn, 1, "ex:").unwrap(), ["ex:1"]);
        forget_user(&txn, 1).unwrap();
        txn.commit().unwrap();
        let (c, t) = load(&store, 1).unwrap();
        assert!(c.is_empty() && t == (0, 0));
        assert_eq!(
            load(&store, 2).unwrap().1,
            (USER_WEIGHT, 0),
            "another user's stays"
        );
    }
}
