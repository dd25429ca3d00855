//! Snippets: the 150 characters of a result's body around the query's words, as plain parts
//! with the hits marked. The stored preview is tried first; a hit past it needs the message
//! parsed ([`parse_and_snip`], on every core), and the parsed texts are cached
//! ([`TextCache`]) for the next page or keystroke.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use tantivy::tokenizer::TextAnalyzer;

use super::super::{analyzer, schema};
use crate::mail::parse;
use crate::mailstore::MailRead;
use crate::store::Store;

/// Spec 001: a search result's body preview is 150 characters.
pub const SNIPPET_CHARS: usize = 150;

/// A piece of a result's body preview; `hit` pieces are the query's words as found.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct SnippetPart {
    pub text: String,
    pub hit: bool,
}

/// Snippets: 150 characters of the body around the query's words, as plain parts. The stored
/// preview (the body's first 300 characters) is tried first: most hits are there, and it needs
/// no decompressing and parsing of the message.
pub(super) struct Snippets {
    words: HashSet<String>,
    /// The index's words before stemming, and the stemmer: only the words that may stem to a
    /// query word ([`analyzer::may_stem_to`]) are stemmed.
    tokens: TextAnalyzer,
    stemmer: analyzer::WordStemmer,
    /// The text searched, ASCII lower-cased (kept for the next one).
    lower: String,
}

impl Snippets {
    pub(super) fn new(words: &[String]) -> Self {
        Self {
            words: words.iter().cloned().collect(),
            tokens: analyzer::unstemmed(),
            stemmer: analyzer::WordStemmer::default(),
            lower: String::new(),
        }
    }

    /// The snippet from the stored preview, when it has a hit (or the query has no words).
    pub(super) fn in_preview(&mut self, preview: &str) -> Option<Vec<SnippetPart>> {
        if self.words.is_empty() {
            return Some(snippet_parts(clip_parts(
                vec![(preview.to_string(), false)],
                SNIPPET_CHARS,
            )));
        }
        self.around_hits(preview).map(snippet_parts)
    }

    /// The snippet from the body text; the preview's start when the body has no hit either.
    pub(super) fn in_body(&mut self, body: &str, preview: &str) -> Vec<SnippetPart> {
        let body = schema::cut(body, schema::MAX_BODY_BYTES);
        match self.around_hits(body) {
            Some(parts) => snippet_parts(parts),
            None => snippet_parts(clip_parts(
                vec![(preview.to_string(), false)],
                SNIPPET_CHARS,
            )),
        }
    }

    /// The snippet of a message; `raw` is read only when the preview has no hit.
    #[cfg(test)]
    fn of(&mut self, preview: &str, raw: impl FnOnce() -> Vec<u8>) -> Vec<SnippetPart> {
        if let Some(s) = self.in_preview(preview) {
            return s;
        }
        self.in_body(&parse::body_text(&raw()), preview)
    }

    /// 150 characters from a little before the first hit, every hit in them marked.
    fn around_hits(&mut self, text: &str) -> Option<Vec<(String, bool)>> {
        // Tokenizing a long body up to a late hit is most of a snippet's cost: start near the
        // first place a query word could be (a stem is nearly always the start of the word, a
        // Hebrew variant the end of one), and scan from the top only when none is seen.
        let skip = self.first_candidate(text).map_or(0, |at| {
            let mut from = at.saturating_sub(CANDIDATE_BACK_BYTES);
            while !text.is_char_boundary(from) {
                from -= 1;
            }
            // From a word start, never mid-word.
            text[from..at]
                .find(char::is_whitespace)
                .map_or(from, |w| from + w)
        });
        let first = match self.hits(&text[skip..], true).into_iter().next() {
            Some(r) => (r.start + skip)..(r.end + skip),
            None if skip > 0 => self.hits(text, true).into_iter().next()?,
            None => return None,
        };
        // Start at a word boundary about LEAD_CHARS before the hit.
        let before: Vec<(usize, char)> = text[..first.start].char_indices().collect();
        let mut start = before
            .len()
            .checked_sub(LEAD_CHARS)
            .map_or(0, |i| before[i].0);
        if start > 0 {
            start = text[start..first.start]
                .find(char::is_whitespace)
                .map_or(first.start, |w| start + w);
        }
        let end = text[start..]
            .char_indices()
            .nth(SNIPPET_CHARS * 2)
            .map_or(text.len(), |(i, _)| start + i);
        let window = &text[start..end];
        let mut parts = Vec::new();
        if start > 0 {
            parts.push(("…".to_string(), false));
        }
        let mut at = 0;
        for r in self.hits(window, false) {
            if r.start < at {
                continue;
            }
            if r.start > at {
                parts.push((window[at..r.start].to_string(), false));
            }
            parts.push((window[r.clone()].to_string(), true));
            at = r.end;
        }
        if at < window.len() {
            parts.push((window[at..].to_string(), false));
        }
        let mut parts = clip_parts(parts, SNIPPET_CHARS);
        let shown: usize = parts.iter().map(|(t, _)| t.chars().count()).sum();
        if (end < text.len() || shown >= SNIPPET_CHARS)
            && let Some(last) = parts.last_mut().filter(|(_, hit)| !*hit)
        {
            // Cut at the last whole word, and say the text goes on.
            if let Some(space) = last.0.rfind(' ') {
                last.0.truncate(space);
            }
            last.0.push('…');
        }
        Some(parts)
    }

    /// The first byte where a query word's letters appear (ASCII case ignored; a folded final
    /// letter left off), if any.
    fn first_candidate(&mut self, text: &str) -> Option<usize> {
        let lower = &mut self.lower;
        lower.clear();
        lower.push_str(text);
        lower.make_ascii_lowercase();
        self.words
            .iter()
            .filter_map(|w| {
                let w = w.trim_end_matches(['כ', 'מ', 'נ', 'פ', 'צ']);
                (w.chars().count() >= 2).then(|| lower.find(w)).flatten()
            })
            .min()
    }

    /// Byte ranges of the words of `text` that match the query (only the first when `first`).
    fn hits(&mut self, text: &str, first: bool) -> Vec<std::ops::Range<usize>> {
        let mut out: Vec<std::ops::Range<usize>> = Vec::new();
        let mut stream = self.tokens.token_stream(text);
        while stream.advance() {
            let t = stream.token();
            // A prefix variant of a word already found comes with the same offsets.
            if out.last().is_some_and(|r| r.start == t.offset_from) {
                continue;
            }
            let hit = self
                .words
                .iter()
                .any(|w| analyzer::may_stem_to(&t.text, w) && self.stemmer.stems_to(&t.text, w));
            if hit {
                out.push(t.offset_from..t.offset_to);
                if first {
                    break;
                }
            }
        }
        out
    }
}

/// (row, message id, preview) → (row, message id, body text, snippet): the stored messages
/// read and parsed on up to every core.
pub(super) fn parse_and_snip(
    store: &Store,
    items: Vec<(usize, u64, String)>,
    words: &[String],
) -> Vec<(usize, u64, std::sync::Arc<String>, Vec<SnippetPart>)> {
    let run = |chunk: Vec<(usize, u64, String)>| {
        let mut snippets = Snippets::new(words);
        // Unreadable mail gets the preview's start, as mail with no hit in its text.
        let mail = MailRead::new(store).ok();
        chunk
            .into_iter()
            .map(|(at, id, preview)| {
                let raw = mail
                    .as_ref()
                    .and_then(|m| m.raw(id).ok().flatten())
                    .unwrap_or_default();
                let body = std::sync::Arc::new(parse::body_text(&raw));
                let snippet = snippets.in_body(&body, &preview);
                (at, id, body, snippet)
            })
            .collect::<Vec<_>>()
    };
    if items.len() < 2 {
        return run(items);
    }
    // Asking the system costs system calls (cgroup files): once per process.
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let threads = *CORES.get_or_init(|| {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(4)
    });
    if threads < 2 {
        return run(items);
    }
    let per = items.len().div_ceil(threads);
    let mut chunks = Vec::new();
    let mut items = items;
    while !items.is_empty() {
        let rest = items.split_off(per.min(items.len()));
        chunks.push(items);
        items = rest;
    }
    // One chunk on this thread, the others on their own.
    let here = chunks.remove(0);
    std::thread::scope(|s| {
        let handles: Vec<_> = chunks.into_iter().map(|c| s.spawn(|| run(c))).collect();
        let mut out = run(here);
        for h in handles {
            out.extend(h.join().unwrap_or_default());
        }
        out
    })
}

/// Body texts of recently shown results (a page shown again, the next search as the user
/// types, a live refresh after new mail): parsing is what a page of results costs. Bounded
/// by bytes; emptied when full.
#[derive(Default)]
pub struct TextCache {
    inner: std::sync::Mutex<(HashMap<u64, std::sync::Arc<String>>, usize)>,
}

const TEXT_CACHE_BYTES: usize = 32 << 20;

impl TextCache {
    pub(super) fn get(&self, id: u64) -> Option<std::sync::Arc<String>> {
        self.inner.lock().ok()?.0.get(&id).cloned()
    }

    pub(super) fn put(&self, id: u64, body: std::sync::Arc<String>) {
        let Ok(mut g) = self.inner.lock() else { return };
        if g.1 + body.len() > TEXT_CACHE_BYTES {
            g.0.clear();
            g.1 = 0;
        }
        g.1 += body.len();
        g.0.insert(id, body);
    }
}

/// How far before a likely hit the scan for it starts.
const CANDIDATE_BACK_BYTES: usize = 400;

/// Characters kept before the first hit, so the hit is inside the 150.
const LEAD_CHARS: usize = 40;

/// White space collapsed, at most `max` characters in all.
fn clip_parts(parts: Vec<(String, bool)>, max: usize) -> Vec<(String, bool)> {
    let mut left = max;
    let mut out = Vec::new();
    let mut last_space = true;
    for (text, hit) in parts {
        if left == 0 {
            break;
        }
        let mut t = String::new();
        for c in text.chars() {
            if left == 0 {
                break;
            }
            if c.is_whitespace() {
                if last_space {
                    continue;
                }
                t.push(' ');
                last_space = true;
            } else {
                t.push(c);
                last_space = false;
            }
            left -= 1;
        }
        if !t.is_empty() {
            out.push((t, hit));
        }
    }
    if let Some((t, _)) = out.last_mut() {
        let trimmed = t.trim_end().len();
        t.truncate(trimmed);
    }
    out.retain(|(t, _)| !t.is_empty());
    out
}

fn snippet_parts(parts: Vec<(String, bool)>) -> Vec<SnippetPart> {
    parts
        .into_iter()
        .map(|(text, hit)| SnippetPart { text, hit })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The texts of the hit parts, as the wire shows them.
    fn hit_texts(parts: &serde_json::Value) -> Vec<&str> {
        parts
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["hit"] == true)
            .map(|p| p["text"].as_str().unwrap())
            .collect()
    }

    #[test]
    fn snippets_highlight_the_query_words_in_the_body() {
        let mut s = Snippets::new(&["softwar".to_string(), "פגישה".to_string()]);
        let raw = format!(
            "Subject: x\r\n\r\n{}Our Software is free. והפגישה מחר. {}\r\n",
            "filler words here. ".repeat(40),
            "more words after. ".repeat(20)
        );
        let parts =
            serde_json::to_value(s.of("filler words here.", || raw.clone().into_bytes())).unwrap();
        let hits = hit_texts(&parts);
        assert_eq!(hits, ["Software", "והפגישה"], "{parts}");
        let text: String = parts
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["text"].as_str().unwrap())
            .collect();
        assert!(text.starts_with('…') && text.ends_with('…'), "{text}");
        assert!(text.chars().count() <= SNIPPET_CHARS + 2, "{text}");
        // A hit far down a long body, and a Hebrew word whose final letter is folded.
        let mut late = Snippets::new(&["wildlif".to_string(), "שלומ".to_string()]);
        let long = format!("{} Wildlife is here, שלום.", "word ".repeat(20_000));
        let parts = serde_json::to_value(late.in_body(&long, "start")).unwrap();
        let hits = hit_texts(&parts);
        assert_eq!(hits, ["Wildlife", "שלום"], "{parts}");
        // Only words that may stem to a query word are stemmed: a changed second letter
        // (dying → die) and a suffix rewritten (happiness → happi) still match.
        let mut stemmed = Snippets::new(&["die".to_string(), "happi".to_string()]);
        let parts = stemmed.in_body("Nobody is dying of happiness here, die-hard dyed", "x");
        let hits: Vec<&str> = parts
            .iter()
            .filter(|p| p.hit)
            .map(|p| p.text.as_str())
            .collect();
        assert_eq!(hits, ["dying", "happiness", "die"], "{parts:?}");
        // A hit in the preview needs no message at all.
        let parts = s.of("והפגישה נדחתה", || {
            panic!("the preview had the hit")
        });
        assert_eq!(
            parts[0],
            SnippetPart {
                text: "והפגישה".into(),
                hit: true
            }
        );
    }

    #[test]
    fn parts_are_clipped_and_white_space_collapsed() {
        let parts = clip_parts(
            vec![
                ("  a\n\n b ".into(), false),
                ("פגישה".into(), true),
                (" c".repeat(200), false),
            ],
            20,
        );
        let text: String = parts.iter().map(|(t, _)| t.as_str()).collect();
        assert!(text.chars().count() <= 20, "{text}");
        assert!(text.starts_with("a b פגישה c"));
        assert_eq!(parts[1], ("פגישה".into(), true));
    }
}
