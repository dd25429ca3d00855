//! The learning classifier's tokens: the words of the subject and text (folded as search folds
//! Hebrew), the sender's domain, the hosts of links, and a few header facts, each hashed to
//! 32 bits and counted once per mail. Version 2 (chosen by cross-validation over the training
//! groups, `examples/spam_cv/`; docs/BENCHMARKS.md) adds the recipients' count and naming,
//! the sender's address shape, the subject's dress and word pairs, Latin words in capitals and
//! the pieces of link paths, and drops version 1's HTML tag and attribute names: in 2002 an
//! HTML mail was mostly spam, and a dozen tag tokens from that one fact made today's HTML mail
//! (Hebrew newsletters, receipts) look like spam. Charsets and transfer encodings are left out
//! for the same reason (UTF-8 and 8bit were mostly spam then; every Hebrew mail is both now).
//! Of mailing-list mail, the list's headers, footer and subject tag are left out: the message
//! is judged, not the list that relayed it (version 3 leaves out the tag).
//!
//! Changing what a token is changes `VERSION`: the shipped model is tied to it. A user's
//! counts are not versioned: version 2 kept every version 1 token that it still makes, and
//! version 3 every version 2 token (it only makes fewer of list mail's), so their counts keep
//! their meaning; the dropped tag tokens are never looked up again, and the new kinds start
//! from the shipped model alone. The training page's examples are keyed by the version, so
//! they are learned again (`learn.rs`).

use std::collections::HashSet;

use super::mail::Mail;

/// The tokenizer's version; stored with every model.
pub const VERSION: u32 = 3;
/// Tokens taken from the words of one mail at most, and from the rest (recipients, the
/// subject's dress, capitals, link paths) after them.
pub const MAX_TOKENS: usize = 1_500;
pub const EXTRA_TOKENS: usize = 600;
/// Words shorter or longer than these are not words (long ones become a length token).
const MIN_WORD: usize = 3;
const MAX_WORD: usize = 20;

/// FNV-1a, 32 bits: small, stable across versions of Rust (the model is a file).
pub fn hash(prefix: &str, word: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in prefix.bytes().chain([0u8]).chain(word.bytes()) {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

struct Bag {
    /// Tokens taken at most so far (the words get `MAX_TOKENS`, the rest `EXTRA_TOKENS`).
    limit: usize,
    seen: HashSet<u32>,
    out: Vec<u32>,
    /// The tokens as text, when explaining a score (`named`).
    names: Option<Vec<String>>,
}

impl Bag {
    fn add(&mut self, prefix: &str, word: &str) {
        if self.out.len() < self.limit {
            let h = hash(prefix, word);
            if self.seen.insert(h) {
                self.out.push(h);
                if let Some(n) = &mut self.names {
                    n.push(format!("{prefix}:{word}"));
                }
            }
        }
    }

    fn words(&mut self, prefix: &str, folded: &str) {
        for w in
            folded.split(|c: char| !(c.is_alphanumeric() || matches!(c, '$' | '!' | '\'' | '%')))
        {
            let w = w.trim_matches('\'');
            let n = w.chars().count();
            if n < MIN_WORD {
                if w.contains('$') || w.contains('!') {
                    self.add(prefix, w);
                }
                continue;
            }
            if n > MAX_WORD {
                let first = w.chars().next().unwrap_or('_');
                let kind = if first.is_ascii_digit() { '9' } else { first };
                self.add("skip", &format!("{kind}{}", n / 10 * 10));
                continue;
            }
            self.add(prefix, w);
            if self.out.len() >= self.limit {
                break;
            }
        }
    }
}

/// Headers a mailing list adds to what it relays.
fn is_list_header(name: &str) -> bool {
    name.starts_with("list-")
        || matches!(
            name,
            "x-beenthere"
                | "x-mailman-version"
                | "mailing-list"
                | "errors-to"
                | "precedence"
                | "sender"
        )
}

/// The text of a mail without the footer a mailing list appends (from a Mailman or SourceForge
/// separator line on): a list's envelope is not the message. Spam relayed by a list the user
/// reads otherwise carries the list's own ham tokens (97 of the spam-2 misses did).
fn message_text<'m>(mail: &'m Mail<'_>) -> &'m str {
    if !mail.list_mail {
        return &mail.text;
    }
    let cut = [
        "\n____________________",
        "\n--------------------------------------------",
    ]
    .iter()
    .filter_map(|m| mail.text.find(m))
    .min();
    match cut {
        Some(at) if at > 0 => &mail.text[..at],
        _ => &mail.text,
    }
}

/// Reply and forward prefixes a list's subject tag may follow (`Re: [SAtalk] …`).
const REPLY_PREFIXES: &[&str] = &["re", "fw", "fwd", "aw", "sv", "tr", "השב", "הועבר"];

/// The subject of a mail without the tag a mailing list puts before it (`[ILUG-Social]`,
/// `Re: [SAtalk]`): like the list's headers and footer, the tag names the list, not the
/// message (an ILUG-social mail was judged spam for `ilug social`, spam-1 holding spam the
/// list relayed). Only list mail loses it; a bracketed tag with spaces (`[Fwd: …]`) stays.
fn message_subject<'m>(mail: &'m Mail<'_>) -> std::borrow::Cow<'m, str> {
    if !mail.list_mail || !mail.subject.contains('[') {
        return std::borrow::Cow::Borrowed(&mail.subject);
    }
    std::borrow::Cow::Owned(without_list_tag(&mail.subject))
}

fn without_list_tag(subject: &str) -> String {
    let mut out = String::new();
    let mut rest = subject;
    // A few tags at most (`Re: [a] Re: [a] …`).
    for _ in 0..4 {
        let Some(open) = rest.find('[') else { break };
        let before = &rest[..open];
        let only_prefixes = before.split(':').all(|p| {
            let p = p.trim().to_lowercase();
            p.is_empty() || REPLY_PREFIXES.contains(&p.as_str())
        });
        let Some(len) = rest[open..].find(']') else {
            break;
        };
        let tag = &rest[open + 1..open + len];
        if !only_prefixes
            || tag.is_empty()
            || tag.chars().count() > 40
            || tag.contains(|c: char| c.is_whitespace() || c == '[')
        {
            break;
        }
        out.push_str(before);
        rest = rest[open + len + 1..].trim_start();
    }
    out.push_str(rest);
    out
}

/// How many of something, in a few bands (a token per band).
fn band(n: usize) -> &'static str {
    match n {
        0 => "0",
        1 => "1",
        2..=3 => "2-3",
        4..=7 => "4-7",
        8..=15 => "8-15",
        _ => "16+",
    }
}

/// The shape of an address's local part: digits as 9, letters as a, runs squeezed
/// (`john.smith` → `a.a`, `x7f3k2` → `a9a9a9`).
fn shape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars().take(64) {
        let c = if c.is_ascii_digit() {
            '9'
        } else if c.is_alphabetic() {
            'a'
        } else {
            c
        };
        if !out.ends_with(c) {
            out.push(c);
        }
    }
    out
}

/// The subject's dress: shouting, exclamation marks, a tracking number after padding, none.
fn subject_tokens(bag: &mut Bag, subject: &str) {
    let letters: Vec<char> = subject.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.len() >= 4
        && letters.iter().all(|c| !c.is_lowercase())
        && letters.iter().any(|c| c.is_uppercase())
    {
        bag.add("subj", "allcaps");
    }
    bag.add("subj!", band(subject.matches('!').count()));
    if subject.contains("  ") {
        bag.add("subj", "double-space");
    }
    if subject
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit() || c.is_whitespace())
        .count()
        >= 3
    {
        bag.add("subj", "trailing-number");
    }
    if subject.is_empty() {
        bag.add("subj", "empty");
    }
    // Word pairs of the subject ("free money" says more than "free" and "money").
    let folded = crate::search::analyzer::fold_text(subject);
    let mut prev: Option<&str> = None;
    for w in words_of(&folded).take(30) {
        if let Some(p) = prev {
            bag.add("sbi", &format!("{p} {w}"));
        }
        prev = Some(w);
    }
}

/// Words as the learner counts them (3 to 20 characters).
fn words_of(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '$' | '!' | '\'' | '%')))
        .map(|w| w.trim_matches('\''))
        .filter(|w| (MIN_WORD..=MAX_WORD).contains(&w.chars().count()))
}

/// Words written in capitals (Latin ones: Hebrew has no case), and how many.
fn caps_tokens(bag: &mut Bag, text: &str) {
    let mut n = 0;
    for w in text.split(|c: char| !c.is_alphanumeric()) {
        if w.len() >= 3 && w.chars().all(|c| c.is_ascii_uppercase()) {
            n += 1;
            if n <= 50 {
                bag.add("uc", w);
            }
        }
    }
    bag.add("ucn", band(n));
}

/// The pieces of the links' paths (`/cgi-bin/track?id=…` → `cgi`, `bin`, `track`, `id`), and
/// whether they carry a query, escapes or a user part.
fn url_path_tokens(bag: &mut Bag, html: &str, text: &str) {
    let urls = html
        .split("href")
        .skip(1)
        .take(100)
        .chain(text.split("http").skip(1).take(100));
    for part in urls {
        let url: String = part
            .trim_start_matches(['=', '"', '\'', ' ', ':', 's'])
            .chars()
            .take_while(|c| !c.is_whitespace() && !matches!(c, '"' | '\'' | '>' | '<'))
            .take(200)
            .collect();
        let path = url
            .trim_start_matches("http")
            .trim_start_matches("s://")
            .trim_start_matches("://");
        let path = path.split_once('/').map_or("", |(_, p)| p);
        for piece in path
            .split(|c: char| !c.is_alphanumeric())
            .filter(|p| (2..=20).contains(&p.len()))
            .take(10)
        {
            bag.add("urlp", &piece.to_ascii_lowercase());
        }
        if url.contains('?') {
            bag.add("url", "query");
        }
        if url.contains('%') {
            bag.add("url", "escaped");
        }
        if url.contains('@') {
            bag.add("url", "at");
        }
    }
}

/// The distinct tokens of a mail.
pub fn of(mail: &Mail<'_>) -> Vec<u32> {
    bag_of(mail, false).out
}

/// The tokens with their text (for explaining a score while tuning).
pub fn named(mail: &Mail<'_>) -> Vec<(u32, String)> {
    let bag = bag_of(mail, true);
    bag.out
        .into_iter()
        .zip(bag.names.unwrap_or_default())
        .collect()
}

fn bag_of(mail: &Mail<'_>, named: bool) -> Bag {
    let mut bag = Bag {
        limit: MAX_TOKENS,
        seen: HashSet::with_capacity(512),
        out: Vec::with_capacity(512),
        names: named.then(Vec::new),
    };
    let subject = message_subject(mail);
    bag.words("s", &crate::search::analyzer::fold_text(&subject));
    if !mail.from_domain.is_empty() {
        bag.add("fromd", &mail.from_domain);
    }
    if let Some(mailer) = mail.header("x-mailer").or(mail.header("user-agent")) {
        let first = mailer.split(['/', ' ', '(']).next().unwrap_or("");
        bag.add("mailer", &first.to_ascii_lowercase());
    }
    for ct in &mail.content_types {
        bag.add("ct", ct);
    }
    if mail.reply_to_domain.is_some() {
        bag.add("hdr", "reply-to");
    }
    if !mail.has_date {
        bag.add("hdr", "no-date");
    }
    if mail.message_id.is_none() {
        bag.add("hdr", "no-message-id");
    }
    if !mail.from.is_empty() {
        bag.add("from", &mail.from);
    }
    for name in mail
        .header_names
        .iter()
        .filter(|n| !(mail.list_mail && is_list_header(n)))
    {
        bag.add("hname", name);
    }
    for host in mail
        .links
        .iter()
        .map(|l| l.host.as_str())
        .chain(mail.text_hosts.iter().map(String::as_str))
        .filter(|h| !h.is_empty())
    {
        bag.add("url", host);
        for label in host.split('.').filter(|l| l.len() > 1) {
            bag.add("urlpart", label);
        }
    }
    if mail.images > 0 {
        bag.add("html", &format!("img{}", mail.images.min(5)));
    }
    let text = message_text(mail);
    let body = crate::search::analyzer::fold_text(text);
    bag.words("", &body);
    // Version 2: the kinds below have their own room after the words.
    bag.limit = MAX_TOKENS + EXTRA_TOKENS;
    let local = mail.from.split('@').next().unwrap_or("");
    bag.add("fromlocal", &shape(local));
    bag.add("to", band(mail.to_count));
    bag.add("cc", band(mail.cc_count));
    bag.add("to", if mail.to_named { "named" } else { "bare" });
    if mail.from.is_empty() || mail.to_first == mail.from {
        bag.add("to", "is-from");
    }
    subject_tokens(&mut bag, &subject);
    caps_tokens(&mut bag, text);
    url_path_tokens(&mut bag, &mail.html, text);
    bag
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::parse::parse_guarded;

    fn tokens(raw: &str) -> Vec<u32> {
        let msg = parse_guarded(raw.as_bytes());
        of(&Mail::of(msg.as_ref(), raw.as_bytes(), None))
    }

    #[test]
    fn hebrew_words_fold_like_search() {
        let a = tokens("From: a@b.test\r\nSubject: x\r\n\r\nשָׁלוֹם שלום\r\n");
        assert!(a.contains(&hash("", "שלומ")));
        // One token for the pointed and plain spellings.
        assert_eq!(a.iter().filter(|t| **t == hash("", "שלומ")).count(), 1);
    }

    #[test]
    fn subject_and_header_tokens_are_their_own() {
        let t = tokens("From: a@Shop.Test\r\nSubject: Money\r\n\r\nmoney\r\n");
        assert!(t.contains(&hash("s", "money")));
        assert!(t.contains(&hash("", "money")));
        assert!(t.contains(&hash("fromd", "shop.test")));
    }

    #[test]
    fn the_dress_of_a_mail() {
        let t = tokens(
            "From: x7f3k2@shop.test\r\nTo: a@b.test\r\nSubject: GET PAID NOW     18436\r\n\r\nFREE offer at http://shop.test/cgi-bin/track?id=1\r\n",
        );
        for (p, w) in [
            ("subj", "allcaps"),
            ("subj", "trailing-number"),
            ("sbi", "paid now"),
            ("uc", "FREE"),
            ("urlp", "track"),
            ("url", "query"),
            ("fromlocal", "a9a9a9"),
            ("to", "bare"),
        ] {
            assert!(t.contains(&hash(p, w)), "{p}:{w}");
        }
        // Hebrew has no capitals: a Hebrew subject is not shouting.
        let h = tokens("From: a@b.test\r\nSubject: שלום לכולם\r\n\r\nמה נשמע\r\n");
        assert!(!h.contains(&hash("subj", "allcaps")));
        assert!(h.contains(&hash("ucn", "0")));
    }

    #[test]
    fn a_list_s_envelope_is_not_the_message() {
        let raw = "From: a@b.test\r\nList-Id: <talk.lists.test>\r\nSubject: x\r\n\r\nbuy pills\r\n\
                   ____________________________________________\r\nlistinfo unsubscribe\r\n";
        let t = tokens(raw);
        assert!(t.contains(&hash("", "pills")));
        assert!(!t.contains(&hash("", "listinfo")));
        assert!(!t.contains(&hash("hname", "list-id")));
        // Not list mail: the same lines are the message.
        let t = tokens(&raw.replace("List-Id: <talk.lists.test>\r\n", ""));
        assert!(t.contains(&hash("", "listinfo")));
    }

    #[test]
    fn a_list_s_subject_tag_is_not_the_message() {
        let raw = "From: a@b.test\r\nList-Id: <social.lists.test>\r\n\
                   Subject: Re: [ILUG-Social] Cheap pints\r\n\r\nsee you there\r\n";
        let t = tokens(raw);
        assert!(t.contains(&hash("s", "cheap")));
        assert!(t.contains(&hash("sbi", "cheap pints")));
        assert!(!t.contains(&hash("s", "ilug")));
        assert!(!t.contains(&hash("sbi", "social cheap")));
        // Not list mail: the tag is the sender's own words.
        let t = tokens(&raw.replace("List-Id: <social.lists.test>\r\n", ""));
        assert!(t.contains(&hash("s", "ilug")));
        assert_eq!(without_list_tag("[SAtalk] Re: [SAtalk] x"), "Re: x");
        assert_eq!(without_list_tag("Fwd: [Fwd: a b] c"), "Fwd: [Fwd: a b] c");
        assert_eq!(without_list_tag("Price [50% off]"), "Price [50% off]");
        assert_eq!(without_list_tag("Win [now]"), "Win [now]", "not leading");
    }

    #[test]
    fn bounded_and_never_empty_handed() {
        let body: String = (0..5000).map(|i| format!("w{i}x ")).collect();
        let t = tokens(&format!("From: a@b.test\r\nSubject: x\r\n\r\n{body}\r\n"));
        assert!((MAX_TOKENS..=MAX_TOKENS + EXTRA_TOKENS).contains(&t.len()));
        let long =
            tokens("From: a@b.test\r\nSubject: x\r\n\r\naaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n");
        assert!(long.contains(&hash("skip", "a30")));
    }
}
