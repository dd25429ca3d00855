//! A discriminative learner beside the Bayes classifier: logistic regression over hashed,
//! binary features (character 4-grams of the subject and text, byte 4-grams of the raw
//! message's start, the tokenizer's tokens), trained by a few passes of stochastic gradient
//! descent, as in the TREC spam track's best filters (Goodman & Yih 2006; Sculley & Wachman
//! 2007). Each mail's feature vector is binary and scaled to unit length. Tried in
//! cross-validation beside the Bayes classifier (`--score` in `main.rs`; docs/BENCHMARKS.md,
//! issue 18): not shipped.

use mailclient::spam::mail::Mail;

/// Which features, and how the weights are learned.
#[derive(Debug, Clone, Copy)]
pub struct Params {
    /// 2^bits hash buckets.
    pub bits: u32,
    /// Byte 4-grams of the raw message's first this many bytes (0: none).
    pub raw_bytes: usize,
    /// Byte 4-grams of the raw body (after the header block, as sent: HTML source, encodings),
    /// its first this many bytes (0: none).
    pub body_bytes: usize,
    /// Character 4-grams of the lower-cased subject and text, first this many characters (0:
    /// none).
    pub text_chars: usize,
    /// The tokenizer's tokens as features.
    pub tokens: bool,
    /// Gradient step, passes over the training mail, and how much more a spam's error weighs.
    pub rate: f32,
    pub epochs: usize,
    pub spam_weight: f32,
}

/// The design cross-validation chose: the tokenizer's tokens only (the 4-grams did worse).
pub const DEFAULTS: Params = Params {
    bits: 18,
    raw_bytes: 0,
    body_bytes: 0,
    text_chars: 0,
    tokens: true,
    rate: 2.0,
    epochs: 10,
    spam_weight: 2.0,
};

/// murmur3's finaliser: spreads a 4-gram (or a token) over the buckets.
fn mix(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h
}

/// The mail's features: sorted, distinct bucket numbers.
pub fn features(raw: &[u8], mail: &Mail<'_>, tokens: &[u32], p: &Params) -> Vec<u32> {
    let shift = 32 - p.bits;
    let mut out: Vec<u32> = Vec::with_capacity(p.raw_bytes + p.text_chars + tokens.len());
    if p.raw_bytes > 0 {
        let r = &raw[..raw.len().min(p.raw_bytes)];
        for w in r.windows(4) {
            let g = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            out.push(mix(g ^ 0x5bd1_e995) >> shift);
        }
    }
    if p.body_bytes > 0 {
        let start = raw
            .windows(2)
            .position(|w| w == b"\n\n")
            .map(|i| i + 2)
            .or_else(|| raw.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4))
            .unwrap_or(raw.len());
        let b = &raw[start..raw.len().min(start + p.body_bytes)];
        for w in b.windows(4) {
            let g = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            out.push(mix(g ^ 0x7f4a_7c15) >> shift);
        }
    }
    if p.text_chars > 0 {
        // Lower-cased, whitespace runs as one space: "F R E E" and "FREE" stay apart, a
        // line break does not matter.
        let mut win = [0u32; 4];
        let mut n = 0usize;
        let mut last_space = true;
        let chars = mail
            .subject
            .chars()
            .chain(std::iter::once('\n'))
            .chain(mail.text.chars());
        for c in chars {
            let c = if c.is_whitespace() {
                if last_space {
                    continue;
                }
                last_space = true;
                ' '
            } else {
                last_space = false;
                c.to_lowercase().next().unwrap_or(c)
            };
            win = [win[1], win[2], win[3], c as u32];
            n += 1;
            if n >= 4 {
                let h = win.iter().fold(0x9747_b28c_u32, |h, c| {
                    mix(h ^ *c).wrapping_add(0x6b43_a9b5)
                });
                out.push(h >> shift);
            }
            if n >= p.text_chars {
                break;
            }
        }
    }
    if p.tokens {
        out.extend(tokens.iter().map(|t| mix(t ^ 0x1b87_3593) >> shift));
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Weights (one per bucket), the extra features' weights (not scaled with the rest: the
/// stacked Bayes opinion's bands) and the bias.
#[derive(Clone)]
pub struct Model {
    pub w: Vec<f32>,
    pub extra: Vec<f32>,
    pub bias: f32,
}

/// Extra features at most.
pub const EXTRA: usize = 32;

fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

impl Model {
    pub fn new(bits: u32) -> Self {
        Model {
            w: vec![0.0; 1 << bits],
            extra: vec![0.0; EXTRA],
            bias: 0.0,
        }
    }

    fn margin(&self, f: &[u32], extra: &[u32]) -> f32 {
        let mut z = self.bias + extra.iter().map(|i| self.extra[*i as usize]).sum::<f32>();
        if !f.is_empty() {
            let v = 1.0 / (f.len() as f32).sqrt();
            z += v * f.iter().map(|i| self.w[*i as usize]).sum::<f32>();
        }
        z
    }

    /// The probability the mail is spam.
    pub fn score(&self, f: &[u32], extra: &[u32]) -> f32 {
        sigmoid(self.margin(f, extra))
    }

    /// One gradient step of the log loss on one mail.
    pub fn step(&mut self, f: &[u32], extra: &[u32], spam: bool, rate: f32, spam_weight: f32) {
        let y = if spam { 1.0 } else { 0.0 };
        let g = (y - self.score(f, extra)) * rate * if spam { spam_weight } else { 1.0 };
        for i in extra {
            self.extra[*i as usize] += g;
        }
        self.bias += g * 0.1;
        if f.is_empty() {
            return;
        }
        let v = g / (f.len() as f32).sqrt();
        for i in f {
            self.w[*i as usize] += v;
        }
    }

    /// Passes of SGD over the mails in a fixed shuffled order per pass.
    pub fn train(&mut self, mails: &[(&[u32], &[u32], bool)], p: &Params) {
        let mut order: Vec<usize> = (0..mails.len()).collect();
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..p.epochs {
            for i in (1..order.len()).rev() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                order.swap(i, (seed % (i as u64 + 1)) as usize);
            }
            for &i in &order {
                let (f, extra, spam) = mails[i];
                self.step(f, extra, spam, p.rate, p.spam_weight);
            }
        }
    }
}
