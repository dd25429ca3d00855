//! The second learner beside the Bayes classifier: logistic regression over hashed, binary
//! features, trained by stochastic gradient descent, as in the TREC spam track's best filters
//! (Goodman & Yih 2006; Sculley & Wachman 2007). Each mail's feature vector is binary and
//! scaled to unit length. Cross-validation (`examples/spam_cv/`, docs/BENCHMARKS.md issue 18)
//! chose the tokenizer's tokens as its features ([`of_tokens`]); the 4-grams it also tried
//! and its other options live in the experiment (`examples/spam_cv/lr.rs`), over [`margin`]
//! and [`Weights`] from here.
//!
//! Shipped: the base weights trained from the development corpus ([`train`], run by
//! `examples/spam_base_model.rs`), quantised to one byte a bucket and embedded
//! (`assets/spam-lr.zst`, [`BASE`]); a user's markings and the training page's examples take
//! one online step each over them, kept as sparse per-user deltas (table `spam_lr`, at most
//! [`MAX_DELTAS`] a user, the smallest dropped first). `checks/learned.rs` turns its opinion
//! into points.

use std::collections::HashMap;
use std::sync::LazyLock;

use redb::{ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction};

use super::tokens;
use crate::store::Store;

/// 2^BITS hash buckets.
pub const BITS: u32 = 18;
/// The base training: gradient step, passes over the training mail, and how much more a
/// spam's error weighs (also in a user's steps).
const RATE: f32 = 2.0;
const EPOCHS: usize = 10;
const SPAM_WEIGHT: f32 = 2.0;

/// murmur3's finaliser: spreads a token (or, in the experiment, a 4-gram) over the buckets.
pub fn mix(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h
}

/// A token's bucket among 2^`bits`.
pub fn token_bucket(token: u32, bits: u32) -> u32 {
    mix(token ^ 0x1b87_3593) >> (32 - bits)
}

/// The shipped features of a mail (the tokenizer's tokens): sorted, distinct bucket numbers.
pub fn of_tokens(tokens: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = tokens.iter().map(|t| token_bucket(*t, BITS)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

pub fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

/// The log-odds of spam for a mail with features `f` (distinct buckets, each 1/√n: the vector
/// has unit length): `bias` plus the weights. The one definition, for training ([`Weights`]),
/// the shipped model with a user's deltas ([`spamminess`], [`learn`]) and the experiment.
pub fn margin(f: &[u32], bias: f32, weight: impl Fn(u32) -> f32) -> f32 {
    let mut z = bias;
    if !f.is_empty() {
        let v = 1.0 / (f.len() as f32).sqrt();
        z += v * f.iter().map(|b| weight(*b)).sum::<f32>();
    }
    z
}

/// Weights being trained, one per bucket, and the bias.
#[derive(Clone)]
pub struct Weights {
    pub w: Vec<f32>,
    pub bias: f32,
}

impl Weights {
    pub fn zeros(bits: u32) -> Self {
        Weights {
            w: vec![0.0; 1 << bits],
            bias: 0.0,
        }
    }

    pub fn margin(&self, f: &[u32]) -> f32 {
        margin(f, self.bias, |b| self.w[b as usize])
    }

    /// Moves a mail's weights by the gradient `g` (the error times the step), as [`step`].
    pub fn add(&mut self, f: &[u32], g: f32) {
        let (each, bias) = step(f.len(), g);
        self.bias += bias;
        for i in f {
            self.w[*i as usize] += each;
        }
    }
}

/// How one step with gradient `g` moves a mail's `n` features (each by its value, g/√n: the
/// vector has unit length) and the bias (a tenth of `g`): (each feature's move, the bias's).
/// The base training's and a user's steps alike.
pub fn step(n: usize, g: f32) -> (f32, f32) {
    let each = if n == 0 { 0.0 } else { g / (n as f32).sqrt() };
    (each, g * 0.1)
}

/// The log loss's gradient for one mail at probability `p`, times the step `rate`, a spam's
/// error weighing `spam_weight` times a ham's.
pub fn gradient(p: f32, spam: bool, rate: f32, spam_weight: f32) -> f32 {
    let y = if spam { 1.0 } else { 0.0 };
    (y - p) * rate * if spam { spam_weight } else { 1.0 }
}

/// `epochs` passes over `n` mails, each in a fixed shuffled order (xorshift, one seed): calls
/// `each` with a mail's index.
pub fn shuffled_passes(n: usize, epochs: usize, mut each: impl FnMut(usize)) {
    let mut order: Vec<usize> = (0..n).collect();
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..epochs {
        for i in (1..order.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        for &i in &order {
            each(i);
        }
    }
}

/// The shipped base training: SGD on the log loss over the mails' features (from
/// [`of_tokens`]) and classes, in the order given.
pub fn train(mails: &[(Vec<u32>, bool)]) -> Weights {
    let mut m = Weights::zeros(BITS);
    shuffled_passes(mails.len(), EPOCHS, |i| {
        let (f, spam) = &mails[i];
        let g = gradient(sigmoid(m.margin(f)), *spam, RATE, SPAM_WEIGHT);
        m.add(f, g);
    });
    m
}

/// The shipped model: one signed byte a bucket times `scale`, and the bias.
pub struct Base {
    scale: f32,
    bias: f32,
    w: Vec<i8>,
}

const MAGIC: &[u8; 8] = b"MCSPLR01";

impl Base {
    pub fn empty() -> Self {
        Base {
            scale: 0.0,
            bias: 0.0,
            w: Vec::new(),
        }
    }

    /// The file: magic, tokenizer version, bucket bits, scale and bias (f32), then one i8 a
    /// bucket (the weight over `scale`, rounded), zstd-compressed. Feature hashing is tied to
    /// [`BITS`] and the tokenizer's tokens.
    pub fn encode(m: &Weights) -> Vec<u8> {
        let max = m.w.iter().fold(0.0f32, |a, w| a.max(w.abs()));
        let scale = if max > 0.0 { max / 127.0 } else { 1.0 };
        let mut out = Vec::with_capacity(24 + m.w.len());
        out.extend_from_slice(MAGIC);
        for v in [tokens::VERSION, BITS] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&scale.to_le_bytes());
        out.extend_from_slice(&m.bias.to_le_bytes());
        out.extend(
            m.w.iter()
                .map(|w| (w / scale).round().clamp(-127.0, 127.0) as i8 as u8),
        );
        zstd::encode_all(out.as_slice(), 19).expect("compressing in memory")
    }

    pub fn decode(file: &[u8]) -> anyhow::Result<Self> {
        let raw = zstd::decode_all(file)?;
        anyhow::ensure!(raw.len() >= 24 && &raw[..8] == MAGIC, "not a spam LR model");
        let at = |i: usize| -> [u8; 4] { raw[i..i + 4].try_into().expect("4 bytes") };
        let version = u32::from_le_bytes(at(8));
        anyhow::ensure!(
            version == tokens::VERSION,
            "the LR model is for tokenizer {version}, this is {}",
            tokens::VERSION
        );
        let bits = u32::from_le_bytes(at(12));
        anyhow::ensure!(bits == BITS, "the LR model has {bits} bucket bits");
        anyhow::ensure!(raw.len() == 24 + (1 << bits), "a truncated spam LR model");
        Ok(Base {
            scale: f32::from_le_bytes(at(16)),
            bias: f32::from_le_bytes(at(20)),
            w: raw[24..].iter().map(|b| *b as i8).collect(),
        })
    }

    pub fn is_empty(&self) -> bool {
        self.w.is_empty()
    }

    fn weight(&self, bucket: u32) -> f32 {
        self.w
            .get(bucket as usize)
            .map_or(0.0, |w| f32::from(*w) * self.scale)
    }
}

/// The model in the binary (`assets/spam-lr.zst`). One that does not load (another tokenizer
/// version) leaves this learner to the user's own steps.
pub static BASE: LazyLock<Base> = LazyLock::new(|| {
    Base::decode(include_bytes!("../../assets/spam-lr.zst")).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "the shipped spam LR model does not load");
        Base::empty()
    })
});

/// A user's steps over the base model: bucket → weight delta, and the bias's.
#[derive(Debug, Default, Clone)]
pub struct Deltas {
    pub w: HashMap<u32, f32>,
    pub bias: f32,
}

/// The probability that a mail with features `f` (from [`of_tokens`]) is spam: the base
/// weights plus the user's deltas. None when neither knows anything.
pub fn spamminess(f: &[u32], base: &Base, user: &Deltas) -> Option<f64> {
    if base.is_empty() && user.w.is_empty() {
        return None;
    }
    Some(f64::from(sigmoid(margin_over(f, base, &user.w, user.bias))))
}

/// [`margin`] over the base weights plus a user's deltas `w` and bias delta `bias`.
fn margin_over(f: &[u32], base: &Base, w: &HashMap<u32, f32>, bias: f32) -> f32 {
    margin(f, base.bias, |b| {
        base.weight(b) + w.get(&b).copied().unwrap_or(0.0)
    }) + bias
}

/// (user, bucket) → the user's delta over the base weight; the bias under [`BIAS`], how many
/// deltas there are under [`COUNT`].
const DELTAS: TableDefinition<(u64, u32), f32> = TableDefinition::new("spam_lr");
/// The bias's and the count's keys (no bucket is this high).
const BIAS: u32 = u32::MAX;
const COUNT: u32 = u32::MAX - 1;
/// Deltas a user keeps at most; past it the smallest are dropped, down to 90%.
pub const MAX_DELTAS: usize = 50_000;
/// The step of one marking or example (spam weighing 2×), a quarter of the base model's
/// training step: the features every mail of a user shares (its recipient, plain text, a short
/// body) are in every step, and at the base step one plain mail marked spam took a short
/// personal mail from 1.2 points to 2.3, suspicious (`one_marking_does_not_make_unrelated_…`).
const USER_RATE: f32 = 0.5;

/// Schema 15.
pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(DELTAS)?;
    Ok(())
}

pub fn forget_user(txn: &WriteTransaction, user: u64) -> anyhow::Result<()> {
    txn.open_table(DELTAS)?
        .extract_from_if((user, 0)..=(user, u32::MAX), |_, _| true)?
        .for_each(drop);
    Ok(())
}

/// A user's deltas.
pub fn load(store: &Store, user: u64) -> anyhow::Result<Deltas> {
    let txn = store.db().begin_read()?;
    let mut out = Deltas::default();
    for e in txn
        .open_table(DELTAS)?
        .range((user, 0)..=(user, u32::MAX))?
    {
        let (k, v) = e?;
        match k.value().1 {
            BIAS => out.bias = v.value(),
            COUNT => {}
            b => {
                out.w.insert(b, v.value());
            }
        }
    }
    Ok(out)
}

/// One online step of the log loss on one mail the user trained (its tokens), over the base
/// model and the user's deltas so far. Returns the step's gradient, which [`unlearn`] takes
/// back (the model keeps it beside the mail's tokens).
pub fn learn(txn: &WriteTransaction, user: u64, spam: bool, tokens: &[u32]) -> anyhow::Result<f32> {
    learn_over(txn, user, spam, tokens, &BASE)
}

fn learn_over(
    txn: &WriteTransaction,
    user: u64,
    spam: bool,
    tokens: &[u32],
    base: &Base,
) -> anyhow::Result<f32> {
    let f = of_tokens(tokens);
    if f.is_empty() {
        return Ok(0.0);
    }
    let mut t = txn.open_table(DELTAS)?;
    let mut have: HashMap<u32, f32> = HashMap::with_capacity(f.len());
    for b in &f {
        if let Some(v) = t.get((user, *b))? {
            have.insert(*b, v.value());
        }
    }
    let bias = t.get((user, BIAS))?.map_or(0.0, |v| v.value());
    let p = sigmoid(margin_over(&f, base, &have, bias));
    let g = gradient(p, spam, USER_RATE, SPAM_WEIGHT);
    let (each, bias_step) = step(f.len(), g);
    let mut added = 0usize;
    for b in &f {
        let old = have.get(b).copied();
        added += usize::from(old.is_none());
        t.insert((user, *b), old.unwrap_or(0.0) + each)?;
    }
    t.insert((user, BIAS), bias + bias_step)?;
    if added > 0 {
        let mut n = t.get((user, COUNT))?.map_or(0, |v| v.value() as usize) + added;
        if n > MAX_DELTAS {
            n = prune(&mut t, user)?;
        }
        t.insert((user, COUNT), n as f32)?;
    }
    Ok(g)
}

/// Takes back the step [`learn`] took on `tokens` with gradient `g`: a removed example or a
/// reversed decision leaves no trace of its step. The deltas are sums of steps, so this is
/// exact whatever was learned since (up to a bucket pruned meanwhile, whose part is left
/// as it was: it was among the user's smallest).
pub fn unlearn(txn: &WriteTransaction, user: u64, tokens: &[u32], g: f32) -> anyhow::Result<()> {
    let f = of_tokens(tokens);
    if f.is_empty() || g == 0.0 {
        return Ok(());
    }
    let (each, bias_step) = step(f.len(), g);
    let mut t = txn.open_table(DELTAS)?;
    let mut removed = 0usize;
    for b in &f {
        let Some(old) = t.get((user, *b))?.map(|v| v.value()) else {
            continue;
        };
        let v = old - each;
        // What is left of a bucket only this step moved is rounding.
        if v.abs() <= each.abs() * 1e-4 {
            t.remove((user, *b))?;
            removed += 1;
        } else {
            t.insert((user, *b), v)?;
        }
    }
    let bias = t.get((user, BIAS))?.map_or(0.0, |v| v.value());
    t.insert((user, BIAS), bias - bias_step)?;
    if removed > 0 {
        let n = t.get((user, COUNT))?.map_or(0, |v| v.value() as usize);
        t.insert((user, COUNT), n.saturating_sub(removed) as f32)?;
    }
    Ok(())
}

/// Drops a user's smallest deltas, down to 90% of [`MAX_DELTAS`] (so this runs once in
/// thousands of steps). Returns how many are left.
fn prune(t: &mut redb::Table<'_, (u64, u32), f32>, user: u64) -> anyhow::Result<usize> {
    let mut all: Vec<(f32, u32)> = t
        .range((user, 0)..(user, COUNT))?
        .map_while(|e| e.ok())
        .map(|(k, v)| (v.value().abs(), k.value().1))
        .collect();
    all.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let keep = MAX_DELTAS * 9 / 10;
    let drop_n = all.len().saturating_sub(keep);
    for (_, b) in all.iter().take(drop_n) {
        t.remove((user, *b))?;
    }
    Ok(all.len() - drop_n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mail_tokens(raw: &str) -> Vec<u32> {
        crate::spam::learn::tokens_of_raw(raw.as_bytes())
    }

    const SPAM: &str = "From: deals4u@cheap-meds.test\r\nTo: you@b.test\r\nSubject: GET RICH QUICK!!! 100% FREE\r\n\r\nDear friend, CLICK HERE to claim your FREE money now! Limited time offer, \
        no risk, order today. To be removed from our list reply REMOVE. http://cheap-meds.test/cgi-bin/track?id=123\r\n";
    const HAM: &str = "From: dana@work.test\r\nTo: yossi@work.test\r\nSubject: Re: the build on Tuesday\r\n\r\nHi Yossi,\r\nI looked at the failing test again; the config \
        parser reads the old file. I'll send a patch after lunch.\r\nThanks,\r\nDana\r\n";

    /// A store holding only this module's table.
    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open_with(dir.path(), 8, &[]).unwrap();
        let txn = store.begin_write().unwrap();
        create_tables(&txn).unwrap();
        txn.commit().unwrap();
        (dir, store)
    }

    #[test]
    fn the_shipped_model_loads_and_knows_spam_from_ham() {
        assert!(!BASE.is_empty(), "assets/spam-lr.zst loads");
        let none = Deltas::default();
        let s = spamminess(&of_tokens(&mail_tokens(SPAM)), &BASE, &none).unwrap();
        let h = spamminess(&of_tokens(&mail_tokens(HAM)), &BASE, &none).unwrap();
        assert!(s > 0.6 && h < 0.4, "spam {s}, ham {h}");
    }

    #[test]
    fn quantised_weights_round_trip() {
        let mut m = Weights::zeros(BITS);
        m.w[3] = 2.0;
        m.w[5] = -1.0;
        m.bias = 0.25;
        let b = Base::decode(&Base::encode(&m)).unwrap();
        assert!((b.weight(3) - 2.0).abs() < 0.02 && (b.weight(5) + 1.0).abs() < 0.02);
        assert_eq!(b.weight(4), 0.0);
        assert_eq!(b.bias, 0.25);
    }

    #[test]
    fn a_user_s_steps_move_the_score_and_are_forgotten() {
        let (_dir, store) = store();
        let f = of_tokens(&mail_tokens(SPAM));
        let before = spamminess(&f, &BASE, &load(&store, 1).unwrap()).unwrap();
        let txn = store.begin_write().unwrap();
        learn(&txn, 1, false, &mail_tokens(SPAM)).unwrap();
        learn(&txn, 2, true, &mail_tokens(SPAM)).unwrap();
        txn.commit().unwrap();
        let after = spamminess(&f, &BASE, &load(&store, 1).unwrap()).unwrap();
        // One step moves the mail's margin (the log-odds) by about half the error.
        let logit = |p: f64| (p / (1.0 - p)).ln();
        assert!(
            logit(after) < logit(before) - 0.3,
            "marked not spam: {before} -> {after}"
        );
        let txn = store.begin_write().unwrap();
        forget_user(&txn, 1).unwrap();
        txn.commit().unwrap();
        let d = load(&store, 1).unwrap();
        assert!(d.w.is_empty() && d.bias == 0.0, "forgotten");
        assert!(
            !load(&store, 2).unwrap().w.is_empty(),
            "another user's stay"
        );
    }

    #[test]
    fn a_user_s_deltas_are_bounded() {
        let (_dir, store) = store();
        let txn = store.begin_write().unwrap();
        // Mails of 2,000 distinct tokens each, 30 of them: 60,000 buckets wanted at most.
        for i in 0..30u32 {
            let toks: Vec<u32> = (0..2_000).map(|k| i * 2_000 + k).collect();
            learn_over(&txn, 1, i % 2 == 0, &toks, &Base::empty()).unwrap();
        }
        txn.commit().unwrap();
        let n = load(&store, 1).unwrap().w.len();
        assert!(n <= MAX_DELTAS && n > MAX_DELTAS / 2, "{n} deltas");
    }

    /// A marking teaches about mail like the one marked, not about all of the user's mail: one
    /// plain mail marked spam leaves a short personal mail that shares its headers' shapes
    /// (same recipient, plain text, one line) well below the LR's first step of points.
    #[test]
    fn one_marking_does_not_make_unrelated_mail_spammy() {
        let (_dir, store) = store();
        let txn = store.begin_write().unwrap();
        let pills = "From: Noa <noa@outside.test>\r\nTo: user1@example.test\r\nSubject: Cheap pills\r\nMessage-ID: <spam@outside.test>\r\nDate: Fri, 27 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nplain text body\r\n";
        learn(&txn, 1, true, &mail_tokens(pills)).unwrap();
        txn.commit().unwrap();
        let personal = "From: =?UTF-8?B?16jXldeg15k=?= <roni@sender.test>\nTo: user1@example.test\nSubject: =?UTF-8?B?16TXkteZ16nXlCDXl9eT16nXlA==?=\nMessage-ID: <e2e-live@sender.test>\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\nנתראה מחר\n";
        let s = spamminess(
            &of_tokens(&mail_tokens(personal)),
            &BASE,
            &load(&store, 1).unwrap(),
        )
        .unwrap();
        assert!(s < 0.2, "a personal mail after one spam marking: {s}");
    }
}
