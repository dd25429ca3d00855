//! The learning classifier's tokens: the words of the subject and text (folded as search folds
//! Hebrew), the sender's domain, the hosts of links, and a few header facts, each hashed to
//! 32 bits and counted once per mail. Charsets and transfer encodings are left out: the corpus
//! the shipped model learned from is from 2002, when UTF-8 and 8bit mail were mostly spam, and
//! every Hebrew mail today is both. Changing what a token is changes `VERSION`: the shipped
//! model and every user's counts are tied to it.

use std::collections::HashSet;

use super::mail::Mail;

/// The tokenizer's version; stored with every model.
pub const VERSION: u32 = 1;
/// Tokens taken from one mail at most.
pub const MAX_TOKENS: usize = 1_500;
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
    seen: HashSet<u32>,
    out: Vec<u32>,
    /// The tokens as text, when explaining a score (`named`).
    names: Option<Vec<String>>,
}

impl Bag {
    fn add(&mut self, prefix: &str, word: &str) {
        if self.out.len() < MAX_TOKENS {
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
            if self.out.len() >= MAX_TOKENS {
                break;
            }
        }
    }
}

/// The tags and attribute names of the HTML (`font`, `bgcolor`, …): how a mail is dressed
/// says much about who sent it.
fn html_tokens(bag: &mut Bag, html: &str) {
    let mut rest = html;
    let mut seen = 0;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let end = rest.find('>').unwrap_or(rest.len()).min(400);
        let tag = &rest[..end];
        let mut parts = tag.split(|c: char| c.is_whitespace() || c == '=');
        if let Some(name) = parts.next() {
            let name = name.trim_start_matches('/').to_ascii_lowercase();
            if !name.is_empty()
                && name.len() <= 12
                && name.chars().all(|c| c.is_ascii_alphanumeric())
            {
                bag.add("tag", &name);
            }
        }
        for attr in tag.split_whitespace().skip(1) {
            if let Some((a, _)) = attr.split_once('=') {
                let a = a.to_ascii_lowercase();
                if a.len() <= 15 && a.chars().all(|c| c.is_ascii_alphabetic() || c == '-') {
                    bag.add("attr", &a);
                }
            }
        }
        seen += 1;
        if seen > 2_000 || bag.out.len() >= MAX_TOKENS {
            break;
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
        seen: HashSet::with_capacity(512),
        out: Vec::with_capacity(512),
        names: named.then(Vec::new),
    };
    let subject = crate::search::analyzer::fold_text(&mail.subject);
    bag.words("s", &subject);
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
    for name in &mail.header_names {
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
    html_tokens(&mut bag, &mail.html);
    if mail.images > 0 {
        bag.add("html", &format!("img{}", mail.images.min(5)));
    }
    let body = crate::search::analyzer::fold_text(&mail.text);
    bag.words("", &body);
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
    fn bounded_and_never_empty_handed() {
        let body: String = (0..5000).map(|i| format!("w{i}x ")).collect();
        let t = tokens(&format!("From: a@b.test\r\nSubject: x\r\n\r\n{body}\r\n"));
        assert_eq!(t.len(), MAX_TOKENS);
        let long =
            tokens("From: a@b.test\r\nSubject: x\r\n\r\naaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n");
        assert!(long.contains(&hash("skip", "a30")));
    }
}
