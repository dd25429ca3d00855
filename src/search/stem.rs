//! The English Snowball stemmer of the index and query analyzers, with a per-thread memo.
//!
//! Stemming was a tenth of an import's CPU and of the indexer's behind a sync: mail repeats
//! its words (Zipf), so a memo of the words seen last answers most tokens without running
//! the algorithm. Words with no ASCII letter and no apostrophe (Hebrew, numbers) come out of
//! the English algorithm as they went in (every rule it has matches ASCII letters or an
//! apostrophe), so they skip it. The output is tantivy's `Stemmer` exactly (tested below): an
//! index written with either reads the same.

use std::cell::RefCell;
use std::collections::HashMap;

use tantivy::tokenizer::{Token, TokenFilter, TokenStream, Tokenizer};

/// Words the memo of one thread holds before it starts again (about 1.5 MB).
const MEMO_WORDS: usize = 20_000;

struct Memo {
    stemmer: frostem::Stemmer,
    // foldhash: a memo lookup per token, where SipHash was a third of the stemmer's time;
    // still seeded per process, so mail cannot be written to collide.
    words: HashMap<String, String, foldhash::fast::RandomState>,
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo {
        stemmer: frostem::Stemmer::new(frostem::Algorithm::English),
        words: HashMap::default(),
    });
}

/// Stems `word` in place.
pub fn stem_in_place(word: &mut String) {
    if !word.bytes().any(|b| b.is_ascii_alphabetic() || b == b'\'') {
        return;
    }
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        if let Some(stem) = memo.words.get(word.as_str()) {
            if stem != word {
                word.clear();
                word.push_str(stem);
            }
            return;
        }
        let stem = memo.stemmer.stem(word).into_owned();
        if memo.words.len() >= MEMO_WORDS {
            // Forgetting all at once costs one refill of the frequent words; an LRU would
            // cost a list update on every token.
            memo.words.clear();
        }
        memo.words.insert(std::mem::take(word), stem.clone());
        *word = stem;
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
    fn the_memo_starts_again_when_full() {
        for i in 0..(MEMO_WORDS + 10) {
            let mut w = format!("word{i}s");
            stem_in_place(&mut w);
            assert_eq!(w, format!("word{i}"));
        }
        MEMO.with(|m| assert!(m.borrow().words.len() <= MEMO_WORDS));
        let mut w = "meetings".to_string();
        stem_in_place(&mut w);
        assert_eq!(w, "meet");
    }
}
