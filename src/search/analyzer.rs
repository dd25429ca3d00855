//! Text analysis for Hebrew and English mail (see ../shared/recipes "Hebrew in tantivy").
//!
//! One tokenizer does the Hebrew work that tantivy's `SimpleTokenizer` cannot: it keeps a word
//! whole across niqqud and cantillation (and drops them), across ״ ׳ " ' between two Hebrew
//! letters (צה״ל, צה"ל and צהל are one word), folds final letters (ך ם ן ף ץ) and lower-cases.
//! On the index side it also emits, at the same position, the word without a leading prefix
//! (ו ה ב כ ל מ ש and their usual combinations) when at least [`MIN_STEM`] letters remain: a
//! query for פגישה then finds והפגישה, בפגישה and שבפגישה. Queries are analyzed without those
//! variants (several tokens at one position would turn a word into a phrase). English words go
//! through the Snowball stemmer afterwards.

use tantivy::tokenizer::{
    RawTokenizer, RemoveLongFilter, TextAnalyzer, Token, TokenStream, Tokenizer,
};

use super::stem::EnglishStemmer;

/// Index-side analyzer of subject and body (prefix variants, stemming).
pub const INDEX: &str = "mail";
/// Query-side analyzer of subject and body (stemming, no variants).
pub const QUERY: &str = "mail_query";
/// Names and addresses, and prefix (`word*`) queries: normalization only.
pub const PLAIN: &str = "mail_plain";

/// A prefix is stripped only when this many letters remain (שלום must not yield לום's cousin ום).
pub const MIN_STEM: usize = 3;

/// Prefix letter sequences, longest first, with the final-letter folding already applied.
const PREFIXES: &[&str] = &[
    "לכש", "וכש", "ושה", "ושב", "ושל", "ושמ", "ושכ", "ומה", "ומש", "כשה", "כשב", "כשל", "כשמ",
    "וה", "וב", "וכ", "ול", "ומ", "וש", "שה", "שב", "שכ", "של", "שמ", "מה", "מש", "כש", "ו", "ה",
    "ב", "כ", "ל", "מ", "ש",
];

/// Words longer than this many bytes are dropped (base64 runs, URLs glued together).
const MAX_TOKEN_BYTES: usize = 60;

/// The three analyzers, to register on the index.
pub fn analyzers() -> [(&'static str, TextAnalyzer); 3] {
    let stemmed = |variants| {
        TextAnalyzer::builder(MailTokenizer::new(variants))
            .filter(RemoveLongFilter::limit(MAX_TOKEN_BYTES))
            .filter(EnglishStemmer)
            .build()
    };
    [
        (INDEX, stemmed(true)),
        (QUERY, stemmed(false)),
        (
            PLAIN,
            TextAnalyzer::builder(MailTokenizer::new(false))
                .filter(RemoveLongFilter::limit(MAX_TOKEN_BYTES))
                .build(),
        ),
    ]
}

/// The analyzer registered as `name` (one of [`INDEX`], [`QUERY`], [`PLAIN`]).
pub fn get(name: &str) -> TextAnalyzer {
    analyzers()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, a)| a)
        .expect("a known analyzer")
}

/// The index-side words of subject and body ([`INDEX`]) before stemming: snippets stem only the
/// words that may stem to a query word (see [`may_stem_to`]).
pub fn unstemmed() -> TextAnalyzer {
    TextAnalyzer::builder(MailTokenizer::new(true))
        .filter(RemoveLongFilter::limit(MAX_TOKEN_BYTES))
        .build()
}

/// One word through the stemmer of [`INDEX`] and [`QUERY`].
pub struct WordStemmer(TextAnalyzer);

impl Default for WordStemmer {
    fn default() -> Self {
        Self(
            TextAnalyzer::builder(RawTokenizer::default())
                .filter(EnglishStemmer)
                .build(),
        )
    }
}

impl WordStemmer {
    /// Whether `word` (a token of [`unstemmed`]) stems to `stem`.
    pub fn stems_to(&mut self, word: &str, stem: &str) -> bool {
        let mut s = self.0.token_stream(word);
        s.advance() && s.token().text == stem
    }

    pub fn stem(&mut self, word: &str) -> String {
        let mut s = self.0.token_stream(word);
        if s.advance() {
            s.token().text.clone()
        } else {
            String::new()
        }
    }
}

/// Whether `word` may stem to `stem` at all, without stemming it. The Snowball English stemmer
/// only rewrites a word's end: the first letter is always kept, and so is the second when the
/// stem has three letters or more, but for a `y` (dying → die, lying → lie). Tested on every
/// short letter string in `stemming_keeps_the_first_letters`.
pub fn may_stem_to(word: &str, stem: &str) -> bool {
    let mut w = word.chars();
    let mut s = stem.chars();
    if w.next() != s.next() {
        return false;
    }
    let (w1, s1) = (w.next(), s.next());
    if s.next().is_none() {
        return true;
    }
    w1 == s1 || w1 == Some('y')
}

/// The words of `text` as `analyzer` sees them (query building and tests).
pub fn words(analyzer: &mut TextAnalyzer, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut stream = analyzer.token_stream(text);
    while stream.advance() {
        out.push(stream.token().text.clone());
    }
    out
}

#[derive(Clone)]
pub struct MailTokenizer {
    variants: bool,
    token: Token,
    pending: Vec<String>,
}

impl MailTokenizer {
    pub fn new(variants: bool) -> Self {
        Self {
            variants,
            token: Token::default(),
            pending: Vec::new(),
        }
    }
}

pub struct MailTokenStream<'a> {
    text: &'a str,
    at: usize,
    variants: bool,
    token: &'a mut Token,
    pending: &'a mut Vec<String>,
}

impl Tokenizer for MailTokenizer {
    type TokenStream<'a> = MailTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> MailTokenStream<'a> {
        self.token.reset();
        self.pending.clear();
        MailTokenStream {
            text,
            at: 0,
            variants: self.variants,
            token: &mut self.token,
            pending: &mut self.pending,
        }
    }
}

pub fn is_hebrew_letter(c: char) -> bool {
    ('\u{05D0}'..='\u{05EA}').contains(&c)
}

/// Niqqud, cantillation and the other Hebrew points: part of the word, never of the token.
fn is_hebrew_mark(c: char) -> bool {
    matches!(
        c,
        '\u{0591}'
            ..='\u{05BD}'
                | '\u{05BF}'
                | '\u{05C1}'
                | '\u{05C2}'
                | '\u{05C4}'
                | '\u{05C5}'
                | '\u{05C7}'
    )
}

/// Invisible characters that must not split a word (direction marks, joiners).
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}'..='\u{200F}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}'
    )
}

/// Gershayim, geresh and their ASCII stand-ins: inside a Hebrew word (צה״ל, ג׳ירפה) they join.
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{05F4}' | '\u{05F3}' | '"' | '\'' | '\u{2019}')
}

fn fold(c: char) -> char {
    match c {
        'ך' => 'כ',
        'ם' => 'מ',
        'ן' => 'נ',
        'ף' => 'פ',
        'ץ' => 'צ',
        _ => c,
    }
}

/// Whether the word continues at byte `at` of `text`, given the last letter taken.
fn continues(text: &str, at: usize, last: Option<char>) -> Option<(char, usize)> {
    let mut chars = text[at..].chars();
    let c = chars.next()?;
    if c.is_alphanumeric() || is_hebrew_mark(c) || is_invisible(c) {
        return Some((c, c.len_utf8()));
    }
    if is_joiner(c) && last.is_some_and(is_hebrew_letter) {
        let next = text[at + c.len_utf8()..]
            .chars()
            .find(|n| !is_hebrew_mark(*n) && !is_invisible(*n));
        if next.is_some_and(is_hebrew_letter) {
            return Some((c, c.len_utf8()));
        }
    }
    None
}

impl MailTokenStream<'_> {
    /// Reads the next word into the token; false at the end of the text.
    fn next_word(&mut self) -> bool {
        let text = self.text;
        // Skip to the start of a word (a letter or digit, not a lone point).
        loop {
            let Some(c) = text[self.at..].chars().next() else {
                return false;
            };
            if c.is_alphanumeric() && !is_hebrew_mark(c) {
                break;
            }
            self.at += c.len_utf8();
        }
        let start = self.at;
        self.token.text.clear();
        let mut last = None;
        while let Some((c, len)) = continues(text, self.at, last) {
            self.at += len;
            // Hebrew points count as alphabetic in Unicode: test them first.
            if is_hebrew_mark(c) || is_invisible(c) {
                continue;
            }
            if c.is_alphanumeric() {
                if c.is_ascii() {
                    self.token.text.push(c.to_ascii_lowercase());
                } else if is_hebrew_letter(c) {
                    self.token.text.push(fold(c));
                } else {
                    self.token.text.extend(c.to_lowercase());
                }
                last = Some(c);
            }
        }
        self.token.offset_from = start;
        self.token.offset_to = self.at;
        self.token.position = self.token.position.wrapping_add(1);
        self.token.position_length = 1;
        true
    }
}

/// The forms of a Hebrew word without a leading prefix, longest remainder first.
pub fn prefix_variants(word: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if !word.chars().next().is_some_and(is_hebrew_letter) {
        return out;
    }
    let letters = word.chars().count();
    for p in PREFIXES {
        let plen = p.chars().count();
        if letters >= plen + MIN_STEM
            && let Some(rest) = word.strip_prefix(p)
            && !out.iter().any(|o| o == rest)
        {
            out.push(rest.to_string());
        }
    }
    out.sort_by_key(|v| std::cmp::Reverse(v.len()));
    out
}

impl TokenStream for MailTokenStream<'_> {
    fn advance(&mut self) -> bool {
        if let Some(v) = self.pending.pop() {
            // Same position and offsets as the word it came from.
            self.token.text = v;
            return true;
        }
        if !self.next_word() {
            return false;
        }
        if self.variants {
            let mut v = prefix_variants(&self.token.text);
            v.reverse(); // popped from the end: longest remainder first
            *self.pending = v;
        }
        true
    }

    fn token(&self) -> &Token {
        self.token
    }

    fn token_mut(&mut self) -> &mut Token {
        self.token
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyze(name: &str, text: &str) -> Vec<String> {
        let mut a = get(name);
        words(&mut a, text)
    }

    #[test]
    fn niqqud_and_cantillation_are_dropped() {
        assert_eq!(analyze(QUERY, "שָׁלוֹם"), vec!["שלומ"]);
        // Genesis 1:1 with te'amim: every word whole.
        assert_eq!(
            analyze(QUERY, "בְּרֵאשִׁ֖ית בָּרָ֣א אֱלֹהִ֑ים"),
            vec!["בראשית", "ברא", "אלהימ"]
        );
    }

    #[test]
    fn final_letters_fold() {
        assert_eq!(
            analyze(QUERY, "מלך ארץ שלום ספרן כסף"),
            vec!["מלכ", "ארצ", "שלומ", "ספרנ", "כספ"]
        );
    }

    #[test]
    fn acronyms_stay_whole() {
        for t in ["צה״ל", "צה\"ל", "צהל", "צה׳ל"] {
            assert_eq!(analyze(QUERY, t), vec!["צהל"], "{t}");
        }
        // A quote around a word is not a joiner.
        assert_eq!(analyze(QUERY, "\"שלום\" 'x'"), vec!["שלומ", "x"]);
        assert_eq!(analyze(QUERY, "דו\"ח"), vec!["דוח"]);
    }

    #[test]
    fn index_side_adds_prefix_variants_at_the_same_position() {
        let mut a = get(INDEX);
        let mut s = a.token_stream("שבפגישה היום");
        let mut got = Vec::new();
        while s.advance() {
            let t = s.token();
            got.push((t.text.clone(), t.position, t.offset_from, t.offset_to));
        }
        let n = "שבפגישה".len();
        assert_eq!(
            got,
            vec![
                ("שבפגישה".into(), 0, 0, n),
                ("בפגישה".into(), 0, 0, n),
                ("פגישה".into(), 0, 0, n),
                ("היומ".into(), 1, n + 1, n + 1 + "היום".len()),
                ("יומ".into(), 1, n + 1, n + 1 + "היום".len()),
            ]
        );
    }

    #[test]
    fn short_remainders_are_not_produced() {
        // לום (3) from שלום is produced; ום (2) is not.
        assert_eq!(prefix_variants("שלומ"), vec!["לומ"]);
        assert!(prefix_variants("הלכ").is_empty());
        assert_eq!(prefix_variants("והפגישה"), vec!["הפגישה", "פגישה"]);
        assert!(prefix_variants("meeting").is_empty());
    }

    #[test]
    fn english_is_lowercased_and_stemmed() {
        assert_eq!(
            analyze(QUERY, "Meetings RUNNING invoices"),
            vec!["meet", "run", "invoic"]
        );
        assert_eq!(
            analyze(PLAIN, "Dana.Cohen@Example.com"),
            vec!["dana", "cohen", "example", "com"]
        );
    }

    #[test]
    fn stemming_keeps_the_first_letters() {
        let mut stemmer = WordStemmer::default();
        let mut check = |w: &str| {
            let stem = stemmer.stem(w);
            assert!(may_stem_to(w, &stem), "{w} -> {stem}");
        };
        // Every string of up to four letters from those the stemmer's rules turn on, of five
        // and six from smaller sets, the stemmer's exceptions and words of mail.
        let all = |set: &str, len: usize| {
            let set: Vec<char> = set.chars().collect();
            let mut words = vec![String::new()];
            for _ in 0..len {
                words = words
                    .iter()
                    .flat_map(|w| set.iter().map(move |c| format!("{w}{c}")))
                    .collect();
            }
            words
        };
        for (set, len) in [
            ("abcdegilnorstuyz", 1),
            ("abcdegilnorstuyz", 2),
            ("abcdegilnorstuyz", 3),
            ("abcdegilnorstuyz", 4),
            ("adegilnsy", 5),
            ("aedinsy", 6),
        ] {
            for w in all(set, len) {
                check(&w);
            }
        }
        let text = "skies skis dying lying tying vying idly gently ugly early only singly sky news \
            howe atlas cosmos bias andes inning outing canning herring earring proceed exceed \
            succeed generously communication arsenal emergency internationalization univers \
            lately organization past caresses ponies ties cats feed agreed plastered bled motoring \
            sing conflated troubled sized hopping tanned falling hissing fizzed failing filing \
            happy sky relational conditional rational valenci hesitanci digitizer conformabli \
            radicalli differentli vileli analogousli vietnamization predication operator feudalism \
            decisiveness hopefulness callousness formaliti sensitiviti sensibiliti triplicate \
            formative formalize electriciti electrical hopeful goodness revival allowance inference \
            airliner gyroscopic adjustable defensible irritant replacement adjustment dependent \
            adoption homologou communism activate angulariti homologous effective bowdlerize \
            yes yesterday ayes eyed youth yying ying aing aed oed ied ies sses ss us is as";
        for w in text.split_whitespace() {
            check(w);
        }
    }

    #[test]
    fn mixed_and_invisible_characters() {
        assert_eq!(
            analyze(QUERY, "\u{200F}של\u{200D}ום\u{200F} 2024"),
            vec!["שלומ", "2024"]
        );
        assert_eq!(analyze(QUERY, "a\u{05BE}b"), vec!["a", "b"]);
        assert!(analyze(QUERY, "").is_empty());
        assert!(analyze(QUERY, "!!! --- ...").is_empty());
        // A point with no letter is not a word.
        assert_eq!(analyze(QUERY, "\u{05B8} .\u{05B8}x"), vec!["x"]);
    }
}

/// Text folded for a plain "contains" match as the index sees words (contacts' search, rules):
/// lower case, Hebrew points and invisible marks gone, final letters as their ordinary forms,
/// geresh and gershayim dropped — so "שָׁלוֹם", "שלום" and "של״ם" compare by their letters.
pub fn fold_text(text: &str) -> String {
    text.chars()
        .filter(|c| {
            !is_hebrew_mark(*c) && !is_invisible(*c) && !matches!(c, '\u{05F4}' | '\u{05F3}')
        })
        .map(fold)
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod fold_tests {
    #[test]
    fn fold_ignores_niqqud_final_letters_and_case() {
        assert_eq!(super::fold_text("שָׁלוֹם"), "שלומ");
        assert!(super::fold_text("משה כהן").contains(&super::fold_text("כהן")));
        assert!(super::fold_text("מחשבים").contains(&super::fold_text("מחשב")));
        assert_eq!(super::fold_text("צה״ל"), "צהל");
        assert_eq!(super::fold_text("Dana@EXAMPLE.com"), "dana@example.com");
    }
}
