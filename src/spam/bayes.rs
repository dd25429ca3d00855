//! The learning classifier: Gary Robinson's token probabilities combined with Fisher's
//! chi-square method, as SpamBayes and Bogofilter do. The counts come from the shipped base
//! model (trained from the development corpus, `examples/spam_base_model.rs`) plus the
//! user's own training, which weighs more than the corpus (see `USER_WEIGHT`).

use std::collections::HashMap;
use std::sync::LazyLock;

use super::tokens;

/// The classifier's knobs. [`SHIPPED`] is what runs; `examples/spam_cv/` varies them in
/// cross-validation without rebuilding the library.
#[derive(Debug, Clone, Copy)]
pub struct Params {
    /// Robinson's strength of the background belief, and that belief.
    pub s: f64,
    pub x: f64,
    /// Tokens nearer 0.5 than this say nothing; at most this many of the strongest are
    /// combined.
    pub min_strength: f64,
    pub max_discriminators: usize,
    /// Fewer strong tokens than this is too little to go on (one English word in the subject
    /// of a short Hebrew mail would decide it alone): the opinion stays 0.5.
    pub min_clues: usize,
    /// How far a token's count is trusted as if spam and ham had been trained in equal numbers
    /// (0: raw counts, as SpamBayes; 1: counted down to the smaller class's size).
    pub balance: f64,
}

pub const SHIPPED: Params = Params {
    s: 0.45,
    x: 0.5,
    min_strength: 0.1,
    max_discriminators: 150,
    min_clues: 5,
    balance: 1.0,
};

/// One mail the user trained counts as this many corpus mails.
pub const USER_WEIGHT: u32 = 3;

/// Token counts: how many spam and ham mails carried a token, and how many mails in all.
pub trait Counts {
    fn token(&self, token: u32) -> (u32, u32);
    fn totals(&self) -> (u32, u32);
}

/// The shipped model: a sorted table of (token, spam, ham).
pub struct Base {
    pub spam: u32,
    pub ham: u32,
    entries: Vec<(u32, u16, u16)>,
}

const MAGIC: &[u8; 8] = b"MCSPAM01";

impl Base {
    pub fn empty() -> Self {
        Base {
            spam: 0,
            ham: 0,
            entries: Vec::new(),
        }
    }

    /// The file: magic, tokenizer version, spam and ham totals, entry count, entries (each a
    /// little-endian u32 token and two u16 counts), zstd-compressed.
    pub fn encode(spam: u32, ham: u32, counts: &HashMap<u32, (u32, u32)>) -> Vec<u8> {
        let mut entries: Vec<(u32, u16, u16)> = counts
            .iter()
            .map(|(t, (s, h))| (*t, (*s).min(65_535) as u16, (*h).min(65_535) as u16))
            .collect();
        entries.sort_unstable();
        let mut out = Vec::with_capacity(24 + entries.len() * 8);
        out.extend_from_slice(MAGIC);
        for v in [tokens::VERSION, spam, ham, entries.len() as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for (t, s, h) in entries {
            out.extend_from_slice(&t.to_le_bytes());
            out.extend_from_slice(&s.to_le_bytes());
            out.extend_from_slice(&h.to_le_bytes());
        }
        zstd::encode_all(out.as_slice(), 19).expect("compressing in memory")
    }

    pub fn decode(file: &[u8]) -> anyhow::Result<Self> {
        let raw = zstd::decode_all(file)?;
        anyhow::ensure!(raw.len() >= 24 && &raw[..8] == MAGIC, "not a spam model");
        let u32_at = |i: usize| u32::from_le_bytes(raw[i..i + 4].try_into().expect("4 bytes"));
        let version = u32_at(8);
        anyhow::ensure!(
            version == tokens::VERSION,
            "the model is for tokenizer {version}, this is {}",
            tokens::VERSION
        );
        let n = u32_at(20) as usize;
        anyhow::ensure!(raw.len() == 24 + n * 8, "a truncated spam model");
        let mut entries = Vec::with_capacity(n);
        for e in raw[24..].chunks_exact(8) {
            let t = u32::from_le_bytes(e[..4].try_into().expect("4"));
            let s = u16::from_le_bytes(e[4..6].try_into().expect("2"));
            let h = u16::from_le_bytes(e[6..8].try_into().expect("2"));
            entries.push((t, s, h));
        }
        Ok(Base {
            spam: u32_at(12),
            ham: u32_at(16),
            entries,
        })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl Counts for Base {
    fn token(&self, token: u32) -> (u32, u32) {
        match self.entries.binary_search_by_key(&token, |e| e.0) {
            Ok(i) => (u32::from(self.entries[i].1), u32::from(self.entries[i].2)),
            Err(_) => (0, 0),
        }
    }

    fn totals(&self) -> (u32, u32) {
        (self.spam, self.ham)
    }
}

/// The model in the binary (`assets/spam-base.zst`). One that does not load (another
/// tokenizer version) leaves the classifier to the user's own training.
pub static BASE: LazyLock<Base> = LazyLock::new(|| {
    Base::decode(include_bytes!("../../assets/spam-base.zst")).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "the shipped spam model does not load");
        Base::empty()
    })
});

/// The base model (or, in the experiments, any counts) with a user's training over it.
pub struct Layered<'a, B: Counts = Base> {
    pub base: &'a B,
    /// token → (spam, ham), already weighted.
    pub user: &'a HashMap<u32, (u32, u32)>,
    pub user_totals: (u32, u32),
}

impl<B: Counts> Counts for Layered<'_, B> {
    fn token(&self, token: u32) -> (u32, u32) {
        let (s, h) = self.base.token(token);
        let (us, uh) = self.user.get(&token).copied().unwrap_or((0, 0));
        (s + us, h + uh)
    }

    fn totals(&self) -> (u32, u32) {
        let (s, h) = self.base.totals();
        (s + self.user_totals.0, h + self.user_totals.1)
    }
}

/// Robinson's f(w): the token's spam probability pulled toward 0.5 by how rarely it was seen.
/// How often it was seen is counted as if both classes had as many mails as the smaller one:
/// the shipped model knows five times more ham than spam, and a word seen in two of 2,750 ham
/// and none of 500 spam is no strong sign of ham (it would be seen in 0.4 of the spam if it
/// were as common there). Cross-validation over the training groups: recall 88.0 → 91.6%, no
/// easy ham lost (docs/BENCHMARKS.md).
/// One token's spam probability from its counts (Robinson's f(w)).
pub fn probability(s: u32, h: u32, nspam: u32, nham: u32, p: &Params) -> f64 {
    let (s, h) = (f64::from(s), f64::from(h));
    let (ns, nh) = (f64::from(nspam.max(1)), f64::from(nham.max(1)));
    let spam_ratio = s / ns;
    let ham_ratio = h / nh;
    let q = if spam_ratio + ham_ratio == 0.0 {
        p.x
    } else {
        spam_ratio / (spam_ratio + ham_ratio)
    };
    let smaller = ns.min(nh);
    let down = |class: f64| {
        let r = smaller / class;
        if p.balance == 1.0 {
            r
        } else {
            r.powf(p.balance)
        }
    };
    let n = s * down(ns) + h * down(nh);
    (p.s * p.x + n * q) / (p.s + n)
}

fn chi2q(x2: f64, v: usize) -> f64 {
    let m = x2 / 2.0;
    let mut term = (-m).exp();
    let mut sum = term;
    for i in 1..v / 2 {
        term *= m / i as f64;
        sum += term;
    }
    sum.min(1.0)
}

/// How spammy the tokens are, from 0 (ham) to 1 (spam); None when the model has not seen
/// both spam and ham yet.
pub fn spamminess(tokens: &[u32], counts: &impl Counts) -> Option<f64> {
    spamminess_with(tokens, counts, &SHIPPED)
}

/// [`spamminess`] with other knobs (the cross-validation's).
pub fn spamminess_with(tokens: &[u32], counts: &impl Counts, p: &Params) -> Option<f64> {
    let (nspam, nham) = counts.totals();
    if nspam == 0 || nham == 0 {
        return None;
    }
    let mut clues: Vec<f64> = tokens
        .iter()
        .filter_map(|t| {
            let (s, h) = counts.token(*t);
            if s + h == 0 {
                return None;
            }
            let f = probability(s, h, nspam, nham, p);
            ((f - 0.5).abs() >= p.min_strength).then_some(f)
        })
        .collect();
    if clues.len() < p.min_clues {
        return Some(0.5);
    }
    clues.sort_by(|a, b| (b - 0.5).abs().total_cmp(&(a - 0.5).abs()));
    clues.truncate(p.max_discriminators);
    let n = clues.len();
    let (mut ln_ham, mut ln_spam) = (0.0, 0.0);
    for f in &clues {
        let f = f.clamp(1e-6, 1.0 - 1e-6);
        ln_spam += (1.0 - f).ln();
        ln_ham += f.ln();
    }
    let h = chi2q(-2.0 * ln_ham, 2 * n);
    let s = chi2q(-2.0 * ln_spam, 2 * n);
    Some(((1.0 + h - s) / 2.0).clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Toy(HashMap<u32, (u32, u32)>, (u32, u32));
    impl Counts for Toy {
        fn token(&self, t: u32) -> (u32, u32) {
            self.0.get(&t).copied().unwrap_or((0, 0))
        }
        fn totals(&self) -> (u32, u32) {
            self.1
        }
    }

    #[test]
    fn spam_tokens_score_high_and_ham_tokens_low() {
        let mut m = HashMap::new();
        for t in 0..20 {
            m.insert(t, (40, 1));
            m.insert(100 + t, (1, 80));
        }
        let toy = Toy(m, (50, 100));
        assert!(spamminess(&(0..20).collect::<Vec<_>>(), &toy).unwrap() > 0.99);
        assert!(spamminess(&(100..120).collect::<Vec<_>>(), &toy).unwrap() < 0.01);
        let mixed: Vec<u32> = (0..10).chain(100..110).collect();
        let m = spamminess(&mixed, &toy).unwrap();
        assert!((0.3..0.7).contains(&m), "{m}");
        assert_eq!(spamminess(&[999], &toy), Some(0.5));
        assert_eq!(
            spamminess(&[0, 1, 2, 3], &toy),
            Some(0.5),
            "too little to go on"
        );
        assert_eq!(spamminess(&[1], &Toy(HashMap::new(), (0, 5))), None);
    }

    #[test]
    fn the_model_file_round_trips_and_refuses_garbage() {
        let mut m = HashMap::new();
        m.insert(7, (3, 1));
        m.insert(2, (0, 9));
        let b = Base::decode(&Base::encode(10, 20, &m)).unwrap();
        assert_eq!((b.spam, b.ham, b.len()), (10, 20, 2));
        assert_eq!(b.token(7), (3, 1));
        assert_eq!(b.token(5), (0, 0));
        assert!(Base::decode(b"nonsense").is_err());
    }

    #[test]
    fn the_shipped_model_loads() {
        assert!(
            BASE.spam >= 400 && BASE.ham >= 2000,
            "{} / {}",
            BASE.spam,
            BASE.ham
        );
        assert!(BASE.len() > 10_000);
    }
}
