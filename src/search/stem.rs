//! The English Snowball stemmer of the index and query analyzers, with a per-thread memo.
//!
//! Stemming was a tenth of an import's CPU and of the indexer's behind a sync: mail repeats
//! its words (Zipf), so a memo of the words seen last answers most tokens without running
//! the algorithm. Words with no ASCII letter and no apostrophe (Hebrew, numbers) come out of
//! the English algorithm as they went in (every rule it has matches ASCII letters or an
//! apostrophe), so they skip it. The output is tantivy's `Stemmer` exactly (tested below): an
//! index written with either reads the same.

use std::cell::RefCell;
use std::hash::BuildHasher;

use tantivy::tokenizer::{Token, TokenFilter, TokenStream, Tokenizer};

/// Slots of one thread's memo: 32,768 of 48 bytes, 1.5 MB.
const SLOTS: usize = 1 << 15;
/// The longest word (and stem) a slot holds, in bytes. Longer words are stemmed every time:
/// they are rare, and a slot with its bytes inline costs no allocation and no pointer to follow.
const INLINE: usize = 23;

/// A word and its stem. The memo is direct-mapped, like a CPU cache: a word's hash picks its
/// one slot, and a word that hashes to a taken slot replaces what was there. It replaced a
/// `HashMap` of `String`s, whose lookups (key compares through heap pointers) took more of the
/// import's indexing threads than the stemming they saved; the import used about a tenth less
/// CPU after, though the memo alone, outside the import, measured the same (docs/BENCHMARKS.md,
/// issue 23, sixth pass).
#[derive(Clone, Copy)]
struct Slot {
    /// 0 while empty: a word that reaches the memo has an ASCII letter or an apostrophe.
    word_len: u8,
    word: [u8; INLINE],
    stem_len: u8,
    stem: [u8; INLINE],
}

impl Slot {
    const EMPTY: Slot = Slot {
        word_len: 0,
        word: [0; INLINE],
        stem_len: 0,
        stem: [0; INLINE],
    };

    fn word(&self) -> &[u8] {
        &self.word[..self.word_len as usize]
    }

    fn stem(&self) -> &[u8] {
        &self.stem[..self.stem_len as usize]
    }
}

struct Memo {
    stemmer: frostem::Stemmer,
    // Seeded per process, so mail cannot be written to make words evict each other.
    hasher: foldhash::fast::RandomState,
    slots: Box<[Slot]>,
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo {
        stemmer: frostem::Stemmer::new(frostem::Algorithm::English),
        hasher: foldhash::fast::RandomState::default(),
        slots: vec![Slot::EMPTY; SLOTS].into_boxed_slice(),
    });
}

/// Stems `word` in place.
pub fn stem_in_place(word: &mut String) {
    if !word.bytes().any(|b| b.is_ascii_alphabetic() || b == b'\'') {
        return;
    }
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        let memo = &mut *memo;
        // A word longer than a slot holds has none, and is stemmed every time.
        let slot = (word.len() <= INLINE)
            .then(|| &mut memo.slots[memo.hasher.hash_one(word.as_bytes()) as usize & (SLOTS - 1)]);
        if let Some(hit) = slot.as_deref().filter(|s| s.word() == word.as_bytes()) {
            // Stored from a `str`, so always UTF-8; a damaged slot would only be stemmed again.
            if let Ok(stem) = std::str::from_utf8(hit.stem()) {
                if stem != word {
                    word.clear();
                    word.push_str(stem);
                }
                return;
            }
        }
        let stem = memo.stemmer.stem(word);
        if let Some(slot) = slot.filter(|_| stem.len() <= INLINE) {
            slot.word_len = word.len() as u8;
            slot.word[..word.len()].copy_from_slice(word.as_bytes());
            slot.stem_len = stem.len() as u8;
            slot.stem[..stem.len()].copy_from_slice(stem.as_bytes());
        }
        if *stem != **word {
            *word = stem.into_owned();
        }
    });
}

/// The filter, in a `TextAnalyzer` builder where tantivy's `Stemmer::new(English)` would go.
#[derive(Clone, Copy, Default)]
pub struct EnglishStemmer;

impl TokenFilter for EnglishStemmer {
    type Tokenizer<T: Tokenizer> = StemFilter<T>;

    fn transform<T: Tokenizer>(self, tokenizer: T) -> StemFilter<T> {
        StemFilter(tokenizer)
    }
}

#[derive(Clone)]
pub struct StemFilter<T>(T);

impl<T: Tokenizer> Tokenizer for StemFilter<T> {
    type TokenStream<'a> = StemStream<T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        StemStream(self.0.token_stream(text))
    }
}

pub struct StemStream<S>(S);

impl<S: TokenStream> TokenStream for StemStream<S> {
    fn advance(&mut self) -> bool {
        if !self.0.advance() {
            return false;
        }
        stem_in_place(&mut self.0.token_mut().text);
        true
    }

    fn token(&self) -> &Token {
        self.0.token()
    }

    fn token_mut(&mut self) -> &mut Token {
        self.0.token_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::tokenizer::{Language, RawTokenizer, Stemmer, TextAnalyzer};

    fn through(mut a: TextAnalyzer, word: &str) -> String {
        let mut s = a.token_stream(word);
        assert!(s.advance());
        s.token().text.clone()
    }

    #[test]
    fn stems_exactly_as_tantivy_does() {
        let theirs = || {
            TextAnalyzer::builder(RawTokenizer::default())
                .filter(Stemmer::new(Language::English))
                .build()
        };
        let ours = || {
            TextAnalyzer::builder(RawTokenizer::default())
                .filter(EnglishStemmer)
                .build()
        };
        let words = [
            "meetings",
            "meeting",
            "dogs",
            "running",
            "generously",
            "yes",
            "y",
            "sky",
            "'s",
            "'quoted",
            "dog's",
            "café",
            "naïve",
            "é",
            "ünïcödé",
            "12345",
            "2026",
            "a1b2",
            "פגישה",
            "שלומ",
            "צהל",
            "פגישות123",
            "x",
            "ying",
            "agreed",
            "ponies",
        ];
        // Twice: the second pass answers from the memo.
        for _ in 0..2 {
            for w in words {
                assert_eq!(through(ours(), w), through(theirs(), w), "{w:?}");
            }
        }
    }

    #[test]
    fn words_that_share_a_slot_replace_each_other_and_long_words_skip_the_memo() {
        // Twice the slots: every slot is taken and replaced, and each word still gets its stem.
        for round in 0..2 {
            for i in 0..(2 * SLOTS) {
                let mut w = format!("word{i}s");
                stem_in_place(&mut w);
                assert_eq!(w, format!("word{i}"), "round {round}");
            }
        }
        let mut w = "meetings".to_string();
        stem_in_place(&mut w);
        assert_eq!(w, "meet");
        // Longer than a slot holds: stemmed, not memoised.
        let long = "internationalisationsss".repeat(2);
        let mut w = long.clone();
        stem_in_place(&mut w);
        assert_eq!(
            w,
            frostem::Stemmer::new(frostem::Algorithm::English).stem(&long)
        );
    }
}
