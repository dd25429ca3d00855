//! The token kinds and rules tried beside the shipped ones (`--feat`, `--drop`).

use super::*;

/// Which token kinds to add to (`--feat a,b`) or drop from (`--drop prefix,…`) the shipped
/// tokenizer's.
pub(crate) struct Feats {
    pub(crate) add: Vec<String>,
    pub(crate) drop: Vec<String>,
    /// bayes (as shipped), lr, avg, halves, sum, stack.
    pub(crate) score: String,
    pub(crate) lr: lr::Params,
    pub(crate) lr_points: f32,
    /// The LR's own spam cutoff (`--lr-from`; else `--spam-from`).
    pub(crate) lr_from: Option<f64>,
    /// The learners' ham points (below zero) times this (`--neg-scale`, 1 as shipped).
    pub(crate) neg_scale: f32,
}

impl Feats {
    pub(crate) fn from_args() -> Self {
        let list = |name: &str| -> Vec<String> {
            arg::<String>(name)
                .map(|v| v.split(',').map(str::to_string).collect())
                .unwrap_or_default()
        };
        let mut l = lr::DEFAULTS;
        if let Some(v) = arg("--lr-bits") {
            l.bits = v;
        }
        if let Some(v) = arg("--lr-raw") {
            l.raw_bytes = v;
        }
        if let Some(v) = arg("--lr-body") {
            l.body_bytes = v;
        }
        if let Some(v) = arg("--lr-text") {
            l.text_chars = v;
        }
        if let Some(v) = arg::<u8>("--lr-tokens") {
            l.tokens = v == 1;
        }
        if let Some(v) = arg("--lr-rate") {
            l.rate = v;
        }
        if let Some(v) = arg("--lr-epochs") {
            l.epochs = v;
        }
        if let Some(v) = arg("--lr-spam-weight") {
            l.spam_weight = v;
        }
        Feats {
            add: list("--feat"),
            drop: list("--drop"),
            score: arg("--score").unwrap_or_else(|| "bayes".into()),
            lr: l,
            lr_points: arg("--lr-points").unwrap_or(1.0),
            lr_from: arg("--lr-from"),
            neg_scale: arg("--neg-scale").unwrap_or(1.0),
        }
    }
    pub(crate) fn on(&self, f: &str) -> bool {
        self.add.iter().any(|a| a == f)
    }
}

pub(crate) fn tokenize(
    mail: &Mail<'_>,
    msg: Option<&mail_parser::Message<'_>>,
    f: &Feats,
) -> (Vec<u32>, Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut names = Vec::new();
    for (h, name) in tokens::named(mail) {
        let prefix = name.split(':').next().unwrap_or("");
        if f.drop.iter().any(|d| d == prefix) {
            continue;
        }
        if seen.insert(h) {
            out.push(h);
            names.push(name);
        }
    }
    let mut add = |prefix: &str, word: &str| {
        let h = tokens::hash(prefix, word);
        if seen.insert(h) {
            out.push(h);
            names.push(format!("{prefix}:{word}"));
        }
    };
    extras(mail, msg, f, &mut add);
    (out, names)
}

/// Rules tried here before they become checks (`--feat rule-…`).
pub(crate) fn extra_rules(mail: &Mail<'_>, f: &Feats) -> Vec<(&'static str, f32)> {
    let mut out = Vec::new();
    if f.on("rule-subjtag") {
        // A subject padded with spaces, then a tracking tag ("Get paid …          18436").
        let s = mail.subject.trim_end();
        if let Some((head, tag)) = s.rsplit_once(char::is_whitespace) {
            let pad = head.len() - head.trim_end().len();
            if pad >= 2
                && (3..=12).contains(&tag.len())
                && tag.chars().all(|c| c.is_ascii_alphanumeric())
                && tag.chars().any(|c| c.is_ascii_digit())
            {
                out.push(("SUBJ_TRACKING_TAG", 1.5));
            }
        }
    }
    if f.on("rule-phrases") {
        const MORE: &[&str] = &[
            "remove in the subject",
            "one time mailing",
            "sent in compliance",
            "no longer wish to receive",
            "100% guaranteed",
            "extra income",
            "home based business",
            "money order",
            "financial freedom",
            "lowest rates",
            "dear sir",
            "apologize for any inconvenience",
            "bulk email",
            "email marketing",
            "limited time",
            "to be removed from",
            "no risk",
        ];
        let folded = mail.folded();
        let n = MORE.iter().filter(|p| folded.contains(*p)).count().min(3);
        if n > 0 {
            out.push(("SPAM_PHRASE_MORE", 0.6 * n as f32));
        }
    }
    out
}

pub(crate) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '$' | '!' | '\'' | '%')))
        .map(|w| w.trim_matches('\''))
        .filter(|w| {
            let n = w.chars().count();
            (3..=20).contains(&n)
        })
}

pub(crate) fn bucket(n: usize) -> String {
    match n {
        0 => "0".into(),
        1 => "1".into(),
        2..=3 => "2-3".into(),
        4..=7 => "4-7".into(),
        8..=15 => "8-15".into(),
        _ => "16+".into(),
    }
}

pub(crate) fn extras(
    mail: &Mail<'_>,
    msg: Option<&mail_parser::Message<'_>>,
    f: &Feats,
    add: &mut dyn FnMut(&str, &str),
) {
    use mail_parser::MimeHeaders;
    let Some(msg) = msg else { return };
    if f.on("fromname") {
        let n = mailclient::search::analyzer::fold_text(&mail.from_name);
        if n.is_empty() {
            add("fromname", "none");
        }
        for w in words(&n) {
            add("fromname", w);
        }
    }
    if f.on("html-tags") {
        // Version 1's HTML tag and attribute names (dropped in version 2).
        let mut rest = mail.html.as_str();
        let mut seen = 0;
        while let Some(i) = rest.find('<') {
            rest = &rest[i + 1..];
            let end = rest.find('>').unwrap_or(rest.len()).min(400);
            let tag = &rest[..end];
            if let Some(name) = tag.split(|c: char| c.is_whitespace() || c == '=').next() {
                let name = name.trim_start_matches('/').to_ascii_lowercase();
                if !name.is_empty()
                    && name.len() <= 12
                    && name.chars().all(|c| c.is_ascii_alphanumeric())
                {
                    add("tag", &name);
                }
            }
            for attr in tag.split_whitespace().skip(1) {
                if let Some((a, _)) = attr.split_once('=') {
                    let a = a.to_ascii_lowercase();
                    if a.len() <= 15 && a.chars().all(|c| c.is_ascii_alphabetic() || c == '-') {
                        add("attr", &a);
                    }
                }
            }
            seen += 1;
            if seen > 2_000 {
                break;
            }
        }
    }
    if f.on("cte") {
        for part in msg.parts.iter().take(50) {
            if let Some(e) = part.content_transfer_encoding() {
                add("cte", &e.to_ascii_lowercase());
            }
        }
    }
    if f.on("charset") {
        for part in msg.parts.iter().take(50) {
            if let Some(c) = part.content_type().and_then(|c| c.attribute("charset")) {
                add("charset", &c.to_ascii_lowercase());
            }
        }
    }
    if f.on("mailer") {
        if let Some(m) = mail.header("x-mailer").or(mail.header("user-agent")) {
            let m: String = m
                .to_ascii_lowercase()
                .chars()
                .map(|c| if c.is_ascii_digit() { '9' } else { c })
                .take(40)
                .collect();
            add("mailerfull", &m);
            for w in words(&m) {
                add("mailerw", w);
            }
        } else {
            add("mailer", "none");
        }
    }
    if f.on("msgid") {
        match &mail.message_id {
            None => add("msgid", "none"),
            Some(id) => {
                let id = id.trim().trim_start_matches('<').trim_end_matches('>');
                match id.rsplit_once('@') {
                    Some((local, dom)) => {
                        let dom = dom.to_ascii_lowercase();
                        if !mail.from_domain.is_empty()
                            && mailclient::spam::checks::site(&dom)
                                == mailclient::spam::checks::site(&mail.from_domain)
                        {
                            add("msgid", "from-site");
                        }
                        if !dom.contains('.') {
                            add("msgid", "nodot");
                        }
                        add("msgidshape", &ascii_shape(local));
                    }
                    None => add("msgid", "no-at"),
                }
            }
        }
    }
    if f.on("date")
        && let Some(d) = mail.header("date")
    {
        add("dateshape", &ascii_shape(d));
    }
    if f.on("hdrcase") {
        for h in msg.headers().iter().take(100) {
            let n = h.name();
            if n.starts_with("X-") || n.starts_with("x-") {
                add("hcase", n);
            }
        }
    }
    if f.on("hcount") {
        add("hcount", &bucket(msg.headers().len() / 2));
    }
    if f.on("bigram") {
        let folded = mailclient::search::analyzer::fold_text(&mail.text);
        let mut prev: Option<&str> = None;
        let mut k = 0;
        for w in words(&folded) {
            if let Some(p) = prev {
                add("bi", &format!("{p} {w}"));
                k += 1;
                if k > 700 {
                    break;
                }
            }
            prev = Some(w);
        }
    }
    if f.on("emails") {
        let mut n = 0;
        for w in mail.text.split_whitespace() {
            if let Some((_, d)) = w
                .trim_matches(|c: char| !c.is_alphanumeric())
                .split_once('@')
                && d.contains('.')
            {
                n += 1;
                if n <= 20 {
                    add("emaild", &d.to_ascii_lowercase());
                }
            }
        }
    }
    if f.on("size") {
        add("textlen", &bucket(mail.text.len() / 500));
        add(
            "htmlonly",
            if mail.plain.trim().is_empty() && !mail.html.is_empty() {
                "yes"
            } else {
                "no"
            },
        );
    }
    if f.on("shapes") {
        // Shapes that do not depend on the words of one season's campaigns.
        let text = &mail.text;
        let (mut money, mut pct, mut excl, mut upper, mut letters) = (0, 0, 0, 0, 0);
        for w in text.split_whitespace().take(5_000) {
            let w = w.trim_matches(|c: char| matches!(c, '.' | ',' | ')' | '(' | ':' | ';'));
            if w.starts_with('$') && w[1..].starts_with(|c: char| c.is_ascii_digit()) {
                money += 1;
            }
            if w.ends_with('%') && w[..w.len() - 1].chars().all(|c| c.is_ascii_digit()) {
                pct += 1;
            }
        }
        for c in text.chars().take(20_000) {
            if c == '!' {
                excl += 1;
            }
            if c.is_alphabetic() {
                letters += 1;
                if c.is_uppercase() {
                    upper += 1;
                }
            }
        }
        add("money", &bucket(money));
        add("pct", &bucket(pct));
        add("excl", &bucket(excl));
        if letters > 0 {
            add("upperpct", &((upper * 10 / letters).min(5)).to_string());
        }
        let folded = mail.folded();
        for p in [
            "1-800", "1-888", "1-877", "1-866", "(800)", "(888)", "(877)", "(866)",
        ] {
            if folded.contains(p) {
                add("tollfree", "yes");
                break;
            }
        }
        let mut hosts: Vec<&str> = mail
            .links
            .iter()
            .map(|l| l.host.as_str())
            .filter(|h| !h.is_empty())
            .collect();
        add("links", &bucket(mail.links.len()));
        hosts.sort_unstable();
        hosts.dedup();
        add("linkhosts", &bucket(hosts.len()));
        for h in hosts.iter().take(20) {
            if let Some(tld) = h.rsplit('.').next() {
                add("tld", tld);
            }
            if h.chars().any(|c| c.is_ascii_digit()) {
                add("hostshape", "digits");
            }
            add("hostlabels", &h.split('.').count().min(5).to_string());
        }
    }
    if f.on("replyto")
        && let Some(d) = &mail.reply_to_domain
    {
        add("replytod", d);
        if *d != mail.from_domain {
            add("replyto", "other-domain");
        }
    }
}

/// Digits as 9, ASCII letters as a, runs squeezed (`<20020801.123@x>`'s `9.9`).
pub(crate) fn ascii_shape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let c = if c.is_ascii_digit() {
            '9'
        } else if c.is_ascii_alphabetic() {
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
