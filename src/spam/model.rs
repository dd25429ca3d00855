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
/// (user, key) → class byte, the LR step's gradient (f32; see [`Class::byte`]), then the tokens
/// (little-endian u32s).
const TRAINED: TableDefinition<(u64, &str), &[u8]> = TableDefinition::new("spam_trained");

/// Mails and examples a user can have trained at most (each keeps its tokens).
pub const MAX_TRAINED: u64 = 20_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Spam,
    Ham,
}

impl Class {
    /// A record's first byte: 3 or 4, its LR step following. Records written before the step
    /// was kept start with 1 or 2 and hold only the tokens: their step cannot be taken back.
    fn byte(self) -> u8 {
        match self {
            Class::Spam => 3,
            Class::Ham => 4,
        }
    }

    /// The class and whether the step follows.
    fn of(b: u8) -> Option<(Self, bool)> {
        match b {
            1 => Some((Class::Spam, false)),
            2 => Some((Class::Ham, false)),
            3 => Some((Class::Spam, true)),
            4 => Some((Class::Ham, true)),
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

/// A trained record: its class, its LR step's gradient (0 when not kept), its tokens.
struct Record {
    class: Class,
    step: f32,
    tokens: Vec<u32>,
}

fn decode(v: &[u8]) -> Option<Record> {
    let (first, rest) = v.split_first()?;
    let (class, stepped) = Class::of(*first)?;
    let (step, rest) = if stepped {
        let (g, rest) = rest.split_first_chunk::<4>()?;
        (f32::from_le_bytes(*g), rest)
    } else {
        (0.0, rest)
    };
    let tokens = rest
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    Some(Record {
        class,
        step,
        tokens,
    })
}

fn encode(class: Class, step: f32, tokens: &[u32]) -> Vec<u8> {
    let mut v = Vec::with_capacity(5 + tokens.len() * 4);
    v.push(class.byte());
    v.extend_from_slice(&step.to_le_bytes());
    for t in tokens {
        v.extend_from_slice(&t.to_le_bytes());
    }
    v
}

/// Takes a record's learning back: its tokens' counts and its LR step.
fn forget(txn: &WriteTransaction, user: u64, r: &Record) -> anyhow::Result<()> {
    count(txn, user, r.class, &r.tokens, -1)?;
    super::lr::unlearn(txn, user, &r.tokens, r.step)
}

/// What `key` was trained as, if it was.
pub fn trained_as(txn: &WriteTransaction, user: u64, key: &str) -> anyhow::Result<Option<Class>> {
    Ok(txn
        .open_table(TRAINED)?
        .get((user, key))?
        .and_then(|v| decode(v.value()).map(|r| r.class)))
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
        Some(r) if r.class == class => return Ok(false),
        Some(r) => forget(txn, user, &r)?,
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
    // The logistic regression learns it too: one online step, kept so that a reversed decision
    // or a removed example takes it back (and an example learned again under a new tokenizer
    // version counts once).
    let step = super::lr::learn(txn, user, class == Class::Spam, tokens)?;
    let v = encode(class, step, tokens);
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
        Some(r) => {
            forget(txn, user, &r)?;
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

    /// A store holding this module's tables and the LR's.
    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open_with(dir.path(), 8, &[]).unwrap();
        let txn = store.begin_write().unwrap();
        create_tables(&txn).unwrap();
        crate::spam::lr::create_tables(&txn).unwrap();
        txn.commit().unwrap();
        (dir, store)
    }

    #[test]
    fn train_switch_untrain_and_forget() {
        let (_dir, store) = store();
        let txn = store.begin_write().unwrap();
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
        let txn = store.begin_write().unwrap();
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

    /// The LR's step goes with the record: a removed example leaves no delta, and spam then
    /// "not spam" leaves what "not spam" alone would have.
    #[test]
    fn a_removed_or_reversed_training_takes_its_lr_step_back() {
        use crate::spam::lr;
        let (_dir, store) = store();
        let toks = crate::spam::learn::tokens_of_raw(
            b"From: a@deals.test\r\nSubject: FREE pills now\r\n\r\nClick here, limited offer!\r\n",
        );
        let txn = store.begin_write().unwrap();
        train(&txn, 1, "ex:s:1", Class::Spam, &toks).unwrap();
        train(&txn, 2, "m:x", Class::Spam, &toks).unwrap();
        train(&txn, 2, "m:x", Class::Ham, &toks).unwrap();
        train(&txn, 3, "m:x", Class::Ham, &toks).unwrap();
        txn.commit().unwrap();
        assert!(!lr::load(&store, 1).unwrap().w.is_empty(), "learned");
        let txn = store.begin_write().unwrap();
        assert!(untrain(&txn, 1, "ex:s:1").unwrap());
        txn.commit().unwrap();
        let gone = lr::load(&store, 1).unwrap();
        assert!(gone.w.is_empty() && gone.bias.abs() < 1e-6, "{gone:?}");
        let (reversed, ham) = (lr::load(&store, 2).unwrap(), lr::load(&store, 3).unwrap());
        assert!((reversed.bias - ham.bias).abs() < 1e-5);
        assert_eq!(reversed.w.len(), ham.w.len());
        for (b, w) in &ham.w {
            assert!((reversed.w[b] - w).abs() < 1e-5, "bucket {b}");
        }
    }

    /// A record written before the step was kept (class byte only) still decodes and
    /// unlearns its counts.
    #[test]
    fn a_record_without_its_step_still_unlearns() {
        let (_dir, store) = store();
        let txn = store.begin_write().unwrap();
        count(&txn, 1, Class::Spam, &[4, 5], 1).unwrap();
        let old: Vec<u8> = [1u8]
            .into_iter()
            .chain([4u32, 5].iter().flat_map(|t| t.to_le_bytes()))
            .collect();
        txn.open_table(TRAINED)
            .unwrap()
            .insert((1, "ex:s:9"), old.as_slice())
            .unwrap();
        assert_eq!(trained_as(&txn, 1, "ex:s:9").unwrap(), Some(Class::Spam));
        assert!(untrain(&txn, 1, "ex:s:9").unwrap());
        txn.commit().unwrap();
        let (c, t) = load(&store, 1).unwrap();
        assert!(c.is_empty() && t == (0, 0));
    }
}
