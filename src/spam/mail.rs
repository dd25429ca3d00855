//! The shared context every check reads: one mail's headers, text, HTML and links, taken from
//! the parsed message once. Every part is bounded, so a huge or hostile mail costs at most a
//! few hundred kilobytes of scanning.

use mail_parser::{Address, HeaderValue, Message, MimeHeaders};

use crate::kit::cut;
use crate::mail::parse::Summary;

/// Text and HTML scanned per mail at most (bytes).
pub const MAX_TEXT: usize = 100_000;
pub const MAX_HTML: usize = 200_000;
/// Links and images looked at per mail at most.
pub const MAX_LINKS: usize = 200;

/// A link in the HTML: where it goes and what it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// Lower-cased host of the href (empty for mailto: and relative links).
    pub host: String,
    /// The visible text, trimmed and bounded.
    pub text: String,
}

/// One mail as the checks see it.
#[derive(Debug, Default)]
pub struct Mail<'a> {
    pub summary: Option<&'a Summary>,
    /// The sender's address and domain, lower-cased.
    pub from: String,
    pub from_domain: String,
    pub from_name: String,
    pub reply_to_domain: Option<String>,
    pub return_path_domain: Option<String>,
    pub subject: String,
    /// The text parts (HTML-only mail converted to text), bounded.
    pub text: String,
    /// The HTML parts as sent, bounded; empty when the mail has none.
    pub html: String,
    /// The text of the text/plain parts only (for the text/HTML comparison).
    pub plain: String,
    pub links: Vec<Link>,
    /// Hosts of the URLs written in the text.
    pub text_hosts: Vec<String>,
    pub images: usize,
    /// Header name (lower-case) → raw values, for the headers the checks read.
    pub headers: Vec<(String, String)>,
    pub has_date: bool,
    pub date_ok: bool,
    /// The Date header and when the first relay took the mail (its earliest Received header),
    /// Unix seconds.
    pub date: Option<i64>,
    pub received_at: Option<i64>,
    pub message_id: Option<String>,
    pub content_types: Vec<String>,
    /// A part, the Subject or the From is declared in a charset of a far script (CJK, Thai):
    /// evidence for the far-script check besides the decoded letters.
    pub far_charset: bool,
    pub list_mail: bool,
    /// Every header's name, lower-cased (the learner counts which headers a mail carries).
    pub header_names: Vec<String>,
    /// How many addresses To and Cc hold, whether the first To has a display name, and that
    /// address (lower-cased): the learner's recipient tokens.
    pub to_count: usize,
    pub cc_count: usize,
    pub to_named: bool,
    pub to_first: String,
    folded: std::cell::OnceCell<String>,
}

/// The headers checks read, by lower-case name.
const WANTED: &[&str] = &[
    "authentication-results",
    "x-mailer",
    "user-agent",
    "list-unsubscribe",
    "list-id",
    "precedence",
    "x-spam-flag",
    "x-spam-status",
    "message-id",
    "date",
    "received",
];

pub fn domain_of(address: &str) -> String {
    address
        .rsplit_once('@')
        .map(|(_, d)| d.trim().trim_end_matches('>').to_lowercase())
        .unwrap_or_default()
}

fn first_address(a: Option<&Address<'_>>) -> Option<String> {
    a?.first()?.address().map(|s| s.trim().to_lowercase())
}

impl<'a> Mail<'a> {
    /// The context of a parsed message (`msg` None: a mail that did not parse, judged on its
    /// raw head only).
    pub fn of(msg: Option<&Message<'_>>, raw: &[u8], summary: Option<&'a Summary>) -> Self {
        let Some(msg) = msg else {
            let text = String::from_utf8_lossy(&raw[..raw.len().min(MAX_TEXT)]).into_owned();
            return Mail {
                summary,
                text,
                ..Mail::default()
            };
        };
        let from = first_address(msg.from()).unwrap_or_default();
        let from_name = msg
            .from()
            .and_then(|a| a.first())
            .and_then(|a| a.name())
            .unwrap_or("")
            .trim()
            .to_string();
        let mut headers = Vec::new();
        let mut header_names: Vec<String> = Vec::new();
        for h in msg.headers().iter().take(200) {
            let name = h.name().to_ascii_lowercase();
            if header_names.len() < 100 && !header_names.contains(&name) {
                header_names.push(name.clone());
            }
            if !WANTED.contains(&name.as_str()) {
                continue;
            }
            let (a, b) = (h.offset_start as usize, h.offset_end as usize);
            if let Some(v) = msg.raw_message.get(a..b) {
                let v = String::from_utf8_lossy(v);
                headers.push((name, cut(v.trim(), 4_000).to_string()));
            }
        }
        let has_date = headers.iter().any(|(n, _)| n == "date");
        let now = crate::kit::now();
        let date_ok = msg
            .date()
            .map(|d| d.to_timestamp())
            .is_some_and(|t| t > 315_532_800 && t < now + 2 * 86_400);
        // The earliest hop: collectors (fetchmail) and late local deliveries add later ones.
        let received_at = headers
            .iter()
            .filter(|(n, _)| n == "received")
            .take(12)
            .filter_map(|(_, v)| v.rsplit_once(';'))
            .filter_map(|(_, d)| mail_parser::DateTime::parse_rfc822(d.trim()))
            .map(|d| d.to_timestamp())
            .min();
        let message_id = headers
            .iter()
            .find(|(n, _)| n == "message-id")
            .map(|(_, v)| v.clone());
        let mut text = String::new();
        for i in 0..msg.text_body_count().min(8) {
            if let Some(t) = msg.body_text(i) {
                text.push_str(cut(&t, MAX_TEXT.saturating_sub(text.len())));
                text.push('\n');
            }
            if text.len() >= MAX_TEXT {
                break;
            }
        }
        let mut plain = String::new();
        for part in msg.text_bodies().take(8) {
            if part.is_text() && !part.is_text_html() {
                let t = part.text_contents().unwrap_or("");
                plain.push_str(cut(t, MAX_TEXT.saturating_sub(plain.len())));
            }
        }
        let mut html = String::new();
        if msg.html_bodies().any(|p| p.is_text_html()) {
            for i in 0..msg.html_body_count().min(8) {
                if let Some(h) = msg.body_html(i) {
                    html.push_str(cut(&h, MAX_HTML.saturating_sub(html.len())));
                }
                if html.len() >= MAX_HTML {
                    break;
                }
            }
        }
        // HTML sent as text (no Content-Type, or text/plain): read it as the HTML it is.
        if html.is_empty() && looks_like_html(&text) {
            html = text.clone();
            text = strip_tags(&html);
            plain.clear();
        }
        let mut content_types = Vec::new();
        for part in msg.parts.iter().take(50) {
            if let Some(ct) = part.content_type() {
                let t = format!(
                    "{}/{}",
                    ct.ctype().to_ascii_lowercase(),
                    ct.subtype().unwrap_or("").to_ascii_lowercase()
                );
                if !content_types.contains(&t) {
                    content_types.push(t);
                }
            }
        }
        let far_charset = declares_far_charset(msg);
        let return_path_domain = match msg.header("Return-Path") {
            Some(HeaderValue::Text(t)) => Some(domain_of(t)),
            _ => msg.header_raw("Return-Path").map(domain_of),
        }
        .filter(|d| !d.is_empty());
        let (links, images) = scan_html(&html);
        Mail {
            summary,
            from_domain: domain_of(&from),
            from,
            from_name,
            reply_to_domain: first_address(msg.reply_to())
                .map(|a| domain_of(&a))
                .filter(|d| !d.is_empty()),
            return_path_domain,
            subject: msg.subject().unwrap_or("").trim().to_string(),
            text_hosts: text_hosts(&text),
            text,
            plain,
            html,
            links,
            images,
            headers,
            has_date,
            date_ok,
            date: msg.date().map(|d| d.to_timestamp()),
            received_at,
            message_id,
            content_types,
            far_charset,
            list_mail: crate::mail::parse::is_list_mail(msg),
            header_names,
            to_count: msg.to().map_or(0, |a| a.iter().take(1_000).count()),
            cc_count: msg.cc().map_or(0, |a| a.iter().take(1_000).count()),
            to_named: msg
                .to()
                .and_then(|a| a.first())
                .is_some_and(|a| a.name().is_some()),
            to_first: first_address(msg.to()).unwrap_or_default(),
            folded: Default::default(),
        }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The words of the subject and text as people read them (lower-cased, folded as the
    /// search index folds Hebrew: niqqud dropped, final letters as their plain forms).
    pub fn folded(&self) -> &str {
        self.folded.get_or_init(|| {
            let mut s = String::with_capacity(self.subject.len() + self.text.len() + 1);
            s.push_str(&self.subject);
            s.push('\n');
            s.push_str(&self.text);
            crate::search::analyzer::fold_text(&s)
        })
    }
}

/// Charsets of scripts far from a Hebrew reader's (Chinese, Japanese, Korean, Thai).
const FAR_CHARSETS: &[&str] = &[
    "iso-2022-jp",
    "euc-jp",
    "shift_jis",
    "sjis",
    "gb2312",
    "gbk",
    "gb18030",
    "big5",
    "euc-kr",
    "ks_c_5601-1987",
    "iso-2022-kr",
    "tis-620",
    "windows-874",
    "euc-tw",
    "hz-gb-2312",
    "cp932",
    "windows-31j",
    "shift-jis",
    "x-sjis",
    "cp936",
    "euc-cn",
    "cp949",
    "iso-2022-cn",
    "big5-hkscs",
    "iso-8859-11",
];

/// Whether a part (of the first 50), or an encoded word of the Subject or the From, declares
/// a far script's charset.
fn declares_far_charset(msg: &Message<'_>) -> bool {
    // An encoded word may name a language after the charset (`=?ISO-2022-JP*ja?…`).
    let far = |c: &str| {
        let c = c.split('*').next().unwrap_or("").trim();
        FAR_CHARSETS.iter().any(|f| f.eq_ignore_ascii_case(c))
    };
    if msg
        .parts
        .iter()
        .take(50)
        .filter_map(|p| p.content_type().and_then(|c| c.attribute("charset")))
        .any(far)
    {
        return true;
    }
    for name in ["Subject", "From"] {
        let Some(raw) = msg.header_raw(name) else {
            continue;
        };
        // `=?charset?enc?text?=`; a long header has at most 64 of them looked at.
        let mut rest = cut(raw, 4_000);
        for _ in 0..64 {
            let Some(i) = rest.find("=?") else { break };
            rest = &rest[i + 2..];
            if let Some(j) = rest.find('?')
                && far(&rest[..j])
            {
                return true;
            }
        }
    }
    false
}

/// The host of a URL (`http://`, `https://` or `www.`), lower-cased, without port or
/// credentials.
pub fn host_of(url: &str) -> Option<String> {
    let url = url.trim().trim_matches(['"', '\'']);
    let lower = url.to_ascii_lowercase();
    let rest = if let Some(r) = lower.strip_prefix("http://") {
        r
    } else if let Some(r) = lower.strip_prefix("https://") {
        r
    } else if lower.starts_with("www.") {
        &lower
    } else {
        lower.strip_prefix("//")?
    };
    let authority = rest.split(['/', '?', '#', '\\']).next().unwrap_or("");
    let host = authority.rsplit('@').next().unwrap_or("");
    let host = if host.starts_with('[') {
        host.split(']').next().unwrap_or("").trim_start_matches('[')
    } else {
        host.split(':').next().unwrap_or("")
    };
    let host = host.trim_end_matches('.');
    (!host.is_empty() && host.len() <= 253).then(|| host.to_string())
}

fn text_hosts(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '(' | ')' | '"'))
    {
        if out.len() >= MAX_LINKS {
            break;
        }
        if let Some(h) = host_of(word)
            && !out.contains(&h)
        {
            out.push(h);
        }
    }
    out
}

/// Whether text is HTML source: an html or body tag, or several formatting tags, near its start.
fn looks_like_html(text: &str) -> bool {
    let head = cut(text, 5_000).to_ascii_lowercase();
    head.contains("<html")
        || head.contains("<body")
        || ["<font", "<br>", "<p>", "<table", "<a href", "<img", "<div"]
            .iter()
            .map(|t| head.matches(t).count())
            .sum::<usize>()
            >= 4
}

/// Finds `name="value"` (or unquoted) in a tag's attributes.
pub fn attr<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
    let lower = tag.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find(name) {
        let at = from + i;
        from = at + name.len();
        let before_ok = at == 0 || lower.as_bytes()[at - 1].is_ascii_whitespace();
        let rest = lower[from..].trim_start();
        if !before_ok || !rest.starts_with('=') {
            continue;
        }
        let skip = tag.len() - rest.len() + 1;
        let value = tag[skip..].trim_start();
        let v = match value.chars().next() {
            Some(q @ ('"' | '\'')) => value[1..].split(q).next().unwrap_or(""),
            _ => value
                .split(|c: char| c.is_whitespace() || c == '>')
                .next()
                .unwrap_or(""),
        };
        return Some(v);
    }
    None
}

/// The links (href host and visible text) and the number of images of an HTML body: a small
/// scanner, not a parser; it only needs tags and the text between `<a>` and `</a>`.
fn scan_html(html: &str) -> (Vec<Link>, usize) {
    let mut links = Vec::new();
    let mut images = 0;
    let lower = html.to_ascii_lowercase();
    let mut i = 0;
    while let Some(off) = lower[i..].find('<') {
        let start = i + off;
        let Some(end_off) = lower[start..].find('>') else {
            break;
        };
        let end = start + end_off;
        let tag = &html[start + 1..end];
        let name = lower[start + 1..end]
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap_or("");
        i = end + 1;
        match name {
            "img" => images += 1,
            "a" if links.len() < MAX_LINKS => {
                let href = attr(tag, "href").unwrap_or("");
                let close = lower[i..].find("</a").map_or(lower.len(), |c| i + c);
                let text = strip_tags(&html[i..close]);
                links.push(Link {
                    host: host_of(href).unwrap_or_default(),
                    text: cut(text.trim(), 300).to_string(),
                });
            }
            _ => {}
        }
    }
    (links, images)
}

/// The text of an HTML fragment (tags dropped, a few entities decoded).
pub fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len().min(4096));
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&nbsp;", " ")
        .replace("&amp;", "&")
        .replace("&#46;", ".")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_of_urls() {
        assert_eq!(
            host_of("https://User@Bank.example:8443/x").as_deref(),
            Some("bank.example")
        );
        assert_eq!(
            host_of("www.shop.co.il/a").as_deref(),
            Some("www.shop.co.il")
        );
        assert_eq!(host_of("http://[::1]/").as_deref(), Some("::1"));
        assert_eq!(host_of("mailto:a@b"), None);
    }

    #[test]
    fn links_and_their_text() {
        let (links, images) = scan_html(
            r#"<p>hi<a HREF="http://evil.test/x">www.bank.co.il</a><img src=x><A href='https://ok.test'>שלום <b>כאן</b></a>"#,
        );
        assert_eq!(images, 1);
        assert_eq!(
            links[0],
            Link {
                host: "evil.test".into(),
                text: "www.bank.co.il".into()
            }
        );
        assert_eq!(links[1].text, "שלום כאן");
    }
}
