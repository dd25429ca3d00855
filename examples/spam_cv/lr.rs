//! The logistic regression's experiment options (`--score` other than bayes): which features
//! (the tokenizer's tokens as shipped, character 4-grams of the text, byte 4-grams of the raw
//! body or of the whole raw message), how many buckets, and how it is trained; and the stacked
//! Bayes opinion as extra features. The shipped learner is `src/spam/lr.rs` (its [`lr::margin`],
//! [`lr::Weights`] and [`lr::gradient`] are used here); [`DEFAULTS`] are its settings.

use mailclient::spam::lr;
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

/// The shipped design (`lr::train`): the tokenizer's tokens only (the 4-grams did worse).
pub const DEFAULTS: Params = Params {
    bits: lr::BITS,
    raw_bytes: 0,
    body_bytes: 0,
    text_chars: 0,
    tokens: true,
    rate: 2.0,
    epochs: 10,
    spam_weight: 2.0,
};

/// The mail's features: sorted, distinct bucket numbers.
pub fn features(raw: &[u8], mail: &Mail<'_>, tokens: &[u32], p: &Params) -> Vec<u32> {
    let shift = 32 - p.bits;
    let mut out: Vec<u32> = Vec::with_capacity(p.raw_bytes + p.text_chars + tokens.len());
    if p.raw_bytes > 0 {
        let r = &raw[..raw.len().min(p.raw_bytes)];
        for w in r.windows(4) {
            let g = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            out.push(lr::mix(g ^ 0x5bd1_e995) >> shift);
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
            out.push(lr::mix(g ^ 0x7f4a_7c15) >> shift);
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
                    lr::mix(h ^ *c).wrapping_add(0x6b43_a9b5)
                });
                out.push(h >> shift);
            }
            if n >= p.text_chars {
                break;
            }
        }
    }
    if p.tokens {
        out.extend(tokens.iter().map(|t| lr::token_bucket(*t, p.bits)));
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The weights, and the extra features' weights (not scaled with the rest: the stacked Bayes
/// opinion's bands).
#[derive(Clone)]
pub struct Model {
    pub weights: lr::Weights,
    pub extra: Vec<f32>,
}

/// Extra features at most.
pub const EXTRA: usize = 32;

impl Model {
    pub fn new(bits: u32) -> Self {
        Model {
            weights: lr::Weights::zeros(bits),
            extra: vec![0.0; EXTRA],
        }
    }

    /// The probability the mail is spam.
    pub fn score(&self, f: &[u32], extra: &[u32]) -> f32 {
        let w = &self.weights;
        let bias = w.bias + extra.iter().map(|i| self.extra[*i as usize]).sum::<f32>();
        lr::sigmoid(lr::margin(f, bias, |b| w.w[b as usize]))
    }

    /// One gradient step of the log loss on one mail.
    pub fn step(&mut self, f: &[u32], extra: &[u32], spam: bool, p: &Params) {
        let g = lr::gradient(self.score(f, extra), spam, p.rate, p.spam_weight);
        for i in extra {
            self.extra[*i as usize] += g;
        }
        self.weights.add(f, g);
    }

    /// Passes of SGD over the mails in the shipped training's shuffled order.
    pub fn train(&mut self, mails: &[(&[u32], &[u32], bool)], p: &Params) {
        lr::shuffled_passes(mails.len(), p.epochs, |i| {
            let (f, extra, spam) = mails[i];
            self.step(f, extra, spam, p);
        });
    }
}
