//! Building the RFC 5322 bytes of a mail we send or save: UTF-8 everywhere, encoded so any
//! server and client reads it (RFC 2047 words in headers, RFC 2231 file names, base64 bodies),
//! an HTML part that carries `dir` so Hebrew reads right to left in the recipient's client, and
//! a plain-text alternative.

use crate::auth::tokens::random_hex;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc2822;

/// A name and an address.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Mailbox {
    #[serde(default)]
    pub name: String,
    pub email: String,
}

impl Mailbox {
    /// `Name <a@b>`, `"Name" <a@b>` or `a@b`. `None` when there is no plausible address.
    pub fn parse(input: &str) -> Option<Self> {
        let input = input.trim();
        let (name, email) = match (input.rfind('<'), input.rfind('>')) {
            (Some(open), Some(close)) if open < close && input[close + 1..].trim().is_empty() => {
                let name = input[..open].trim().trim_matches('"').trim();
                (name.to_string(), input[open + 1..close].trim().to_string())
            }
            _ => (String::new(), input.to_string()),
        };
        valid_address(&email).then_some(Self { name, email })
    }

    /// The header form: the name RFC 2047-encoded (or quoted) when there is one.
    fn header(&self) -> String {
        if self.name.is_empty() {
            return self.email.clone();
        }
        format!("{} <{}>", phrase(&self.name), self.email)
    }
}

/// An address we are willing to put on the envelope: one `@`, a dotted domain, no spaces,
/// control characters or characters that would end the address or the SMTP command.
pub fn valid_address(email: &str) -> bool {
    let Some((local, domain)) = email.rsplit_once('@') else {
        return false;
    };
    !local.is_empty()
        && !local.contains('@')
        && local.len() <= 64
        && domain.len() <= 253
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains("..")
        && email
            .chars()
            .all(|c| c.is_ascii_graphic() && !matches!(c, '<' | '>' | ',' | ';' | '"' | '\\'))
        && domain.chars().all(|c| {
            c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '[' || c == ']' || c == ':'
        })
}

/// Priority as the compose page offers it (spec 000 §9).
pub fn priority_headers(priority: &str) -> &'static [(&'static str, &'static str)] {
    match priority {
        "urgent" => &[
            ("X-Priority", "1 (Highest)"),
            ("Importance", "high"),
            ("Priority", "urgent"),
        ],
        "high" => &[("X-Priority", "2 (High)"), ("Importance", "high")],
        "low" => &[
            ("X-Priority", "5 (Lowest)"),
            ("Importance", "low"),
            ("Priority", "non-urgent"),
        ],
        _ => &[],
    }
}

pub struct Attachment {
    pub name: String,
    pub content_type: String,
    pub data: Vec<u8>,
}

/// Everything the bytes are built from.
pub struct Message<'a> {
    pub from: &'a Mailbox,
    pub to: &'a [Mailbox],
    pub cc: &'a [Mailbox],
    /// Written only into copies we keep (Drafts, Sent), never into what SMTP carries.
    pub bcc: &'a [Mailbox],
    pub subject: &'a str,
    /// The body as the editor wrote it (already sanitized by the caller).
    pub html: &'a str,
    pub priority: &'a str,
    pub message_id: &'a str,
    pub in_reply_to: Option<&'a str>,
    pub references: &'a [String],
    pub date: OffsetDateTime,
    pub attachments: &'a [Attachment],
    /// Extra headers (ours, e.g. the draft's link to its original).
    pub extra: &'a [(&'a str, String)],
}

/// Which copy: what goes over SMTP leaves out Bcc.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Copy {
    Wire,
    Kept,
}

pub fn build(m: &Message, copy: Copy) -> Vec<u8> {
    let mut out = String::new();
    let mut header = |name: &str, value: &str| {
        out.push_str(name);
        out.push_str(": ");
        out.push_str(value);
        out.push_str("\r\n");
    };
    header("Date", &m.date.format(&Rfc2822).unwrap_or_default());
    header("From", &m.from.header());
    if !m.to.is_empty() {
        header("To", &address_list(m.to));
    }
    if !m.cc.is_empty() {
        header("Cc", &address_list(m.cc));
    }
    if copy == Copy::Kept && !m.bcc.is_empty() {
        header("Bcc", &address_list(m.bcc));
    }
    header("Subject", &unstructured(m.subject));
    header("Message-ID", m.message_id);
    // Ids come from stored mail (a draft, the mail answered): filtered here, where every path
    // to the wire passes, like every other header value.
    if let Some(parent) = m.in_reply_to.and_then(msg_id) {
        header("In-Reply-To", &parent);
    }
    let references: Vec<String> = m.references.iter().filter_map(|r| msg_id(r)).collect();
    if !references.is_empty() {
        header("References", &references.join("\r\n "));
    }
    for (name, value) in priority_headers(m.priority) {
        header(name, value);
    }
    for (name, value) in m.extra {
        header(name, value);
    }
    header(
        "User-Agent",
        concat!("mailclient/", env!("CARGO_PKG_VERSION")),
    );
    header("MIME-Version", "1.0");

    let alternative = boundary("alt");
    let mut body = String::new();
    let part = |out: &mut String, ctype: &str, text: &str| {
        out.push_str(&format!(
            "Content-Type: {ctype}; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        ));
        out.push_str(&base64_lines(text.as_bytes()));
    };
    body.push_str(&format!("--{alternative}\r\n"));
    part(&mut body, "text/plain", &html_to_text(m.html));
    body.push_str(&format!("--{alternative}\r\n"));
    part(&mut body, "text/html", &html_document(m.html));
    body.push_str(&format!("--{alternative}--\r\n"));

    if m.attachments.is_empty() {
        out.push_str(&format!(
            "Content-Type: multipart/alternative; boundary=\"{alternative}\"\r\n\r\n"
        ));
        out.push_str(&body);
    } else {
        let mixed = boundary("mixed");
        out.push_str(&format!(
            "Content-Type: multipart/mixed; boundary=\"{mixed}\"\r\n\r\n"
        ));
        out.push_str(&format!(
            "--{mixed}\r\nContent-Type: multipart/alternative; boundary=\"{alternative}\"\r\n\r\n"
        ));
        out.push_str(&body);
        for a in m.attachments {
            out.push_str(&format!("--{mixed}\r\n"));
            out.push_str(&attachment_headers(a));
            out.push_str(&base64_lines(&a.data));
        }
        out.push_str(&format!("--{mixed}--\r\n"));
    }
    out.into_bytes()
}

fn address_list(list: &[Mailbox]) -> String {
    list.iter()
        .map(Mailbox::header)
        .collect::<Vec<_>>()
        .join(",\r\n ")
}

fn boundary(kind: &str) -> String {
    format!("=_{kind}_{}", random_hex(12))
}

/// A Message-ID as In-Reply-To and References carry it: `<id>`, the id printable ASCII without
/// angle brackets or spaces, at most 900 bytes. `None` for anything else: it would reach the
/// header raw (a bare CR or LF ends a header line for some readers, and starts another).
pub fn msg_id(id: &str) -> Option<String> {
    let id = id.trim().trim_start_matches('<').trim_end_matches('>');
    (!id.is_empty()
        && id.len() <= 900
        && id
            .chars()
            .all(|c| c.is_ascii_graphic() && c != '<' && c != '>'))
    .then(|| format!("<{id}>"))
}

/// A new Message-ID on the sender's domain.
pub fn new_message_id(from: &str) -> String {
    let domain = from.rsplit_once('@').map_or("mailclient.local", |(_, d)| d);
    format!(
        "<{}.{}@{}>",
        random_hex(10),
        OffsetDateTime::now_utc().unix_timestamp(),
        domain
    )
}

/// A header text as is when it is short printable ASCII, else RFC 2047 `B` words of UTF-8,
/// each under 76 characters and cut only between characters.
fn unstructured(text: &str) -> String {
    let text: String = text.chars().filter(|c| !c.is_control()).collect();
    if text.is_ascii() && text.len() <= 900 && !text.contains("=?") {
        return text;
    }
    encoded_words(&text)
}

/// A display name: plain, quoted, or encoded.
fn phrase(name: &str) -> String {
    let name: String = name.chars().filter(|c| !c.is_control()).collect();
    if !name.is_ascii() || name.contains("=?") {
        return encoded_words(&name);
    }
    if name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || " !#$%&'*+-/=?^_`{|}~".contains(c))
    {
        name
    } else {
        format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

fn encoded_words(text: &str) -> String {
    // 45 bytes of UTF-8 → 60 base64 characters + 12 of `=?utf-8?B??=`: under 76.
    let mut words = Vec::new();
    let mut chunk = String::new();
    for c in text.chars() {
        if chunk.len() + c.len_utf8() > 45 {
            words.push(std::mem::take(&mut chunk));
        }
        chunk.push(c);
    }
    if !chunk.is_empty() || words.is_empty() {
        words.push(chunk);
    }
    words
        .iter()
        .map(|w| format!("=?utf-8?B?{}?=", B64.encode(w.as_bytes())))
        .collect::<Vec<_>>()
        .join("\r\n ")
}

fn base64_lines(data: &[u8]) -> String {
    let encoded = B64.encode(data);
    let mut out = String::with_capacity(encoded.len() + encoded.len() / 38 + 2);
    for line in encoded.as_bytes().chunks(76) {
        out.push_str(std::str::from_utf8(line).expect("base64 is ASCII"));
        out.push_str("\r\n");
    }
    out
}

/// Content-Type and Content-Disposition of an attachment. The name goes both ways: RFC 2231
/// `filename*` (the standard) and an RFC 2047 `name` (what older clients read).
fn attachment_headers(a: &Attachment) -> String {
    let ctype = if a.content_type.contains('/')
        && a.content_type
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/.+-_".contains(c))
    {
        a.content_type.as_str()
    } else {
        "application/octet-stream"
    };
    let name: String = a
        .name
        .chars()
        .filter(|c| !c.is_control() && *c != '"')
        .collect();
    let legacy = if name.is_ascii() {
        format!("\"{name}\"")
    } else {
        format!("\"{}\"", encoded_words(&name).replace("\r\n ", " "))
    };
    // The legacy form is one line: left out when a very long name would make that line too
    // long (the RFC 2231 form carries it in pieces).
    let legacy = if legacy.len() > 900 {
        String::new()
    } else {
        format!("; name={legacy}")
    };
    format!(
        "Content-Type: {ctype}{legacy}\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment;\r\n{}\r\n\r\n",
        rfc2231_filename(&name)
    )
}

/// `filename*0*=utf-8''…; filename*1*=…` in pieces that keep each line short.
fn rfc2231_filename(name: &str) -> String {
    // Pieces end between characters, never inside one: some readers decode each piece on its
    // own, and half a Hebrew letter would come out as garbage.
    let mut pieces: Vec<String> = vec![String::new()];
    for c in name.chars() {
        let mut escaped = String::new();
        let mut buf = [0u8; 4];
        for &b in c.encode_utf8(&mut buf).as_bytes() {
            if b.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&b) {
                escaped.push(b as char);
            } else {
                escaped.push_str(&format!("%{b:02X}"));
            }
        }
        let last = pieces.last_mut().expect("one piece at least");
        if !last.is_empty() && last.len() + escaped.len() > 60 {
            pieces.push(escaped);
        } else {
            last.push_str(&escaped);
        }
    }
    if pieces.len() <= 1 {
        return format!(" filename*=utf-8''{}", pieces[0]);
    }
    pieces
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let charset = if i == 0 { "utf-8''" } else { "" };
            format!(" filename*{i}*={charset}{p}")
        })
        .collect::<Vec<_>>()
        .join(";\r\n")
}

/// The HTML part: a whole document whose body carries the direction of the text (its first
/// strong character), unless the editor already set one on its root.
pub fn html_document(html: &str) -> String {
    let dir = direction(&crate::mail::preview::strip_html(html));
    let align = if dir == "rtl" { "right" } else { "left" };
    format!(
        "<!DOCTYPE html>\r\n<html dir=\"{dir}\"><head><meta charset=\"utf-8\"></head>\r\n\
         <body dir=\"{dir}\"><div dir=\"{dir}\" style=\"direction:{dir};text-align:{align}\">{html}</div></body></html>\r\n"
    )
}

/// `rtl` when the first strong character is Hebrew or Arabic, else `ltr`.
pub fn direction(text: &str) -> &'static str {
    for c in text.chars() {
        if matches!(c, '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}')
        {
            return "rtl";
        }
        if c.is_alphabetic() {
            return "ltr";
        }
    }
    "rtl"
}

/// The plain-text alternative: block ends become line breaks, list items get a dash, links
/// keep their address, entities are decoded.
pub fn html_to_text(html: &str) -> String {
    let mut marked = String::with_capacity(html.len());
    let mut links: Vec<Option<String>> = Vec::new();
    let lower = html.to_ascii_lowercase();
    let mut i = 0;
    while let Some(p) = lower[i..].find('<') {
        let start = i + p;
        marked.push_str(&crate::mail::preview::decode_entities(&html[i..start]));
        let end = lower[start..]
            .find('>')
            .map_or(lower.len(), |e| start + e + 1);
        let tag = &lower[start..end];
        let name: String = tag
            .trim_start_matches(['<', '/'])
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        let closing = tag.starts_with("</");
        i = end;
        match (name.as_str(), closing) {
            ("script" | "style" | "head" | "title", false) => {
                // Their content is not text.
                let close = format!("</{name}");
                i = lower[i..].find(&close).map_or(lower.len(), |q| {
                    let at = i + q;
                    lower[at..].find('>').map_or(lower.len(), |e| at + e + 1)
                });
            }
            ("br", _) => marked.push('\n'),
            ("p" | "div" | "h1" | "h2" | "h3" | "h4" | "blockquote" | "ul" | "ol" | "tr", true) => {
                marked.push('\n')
            }
            ("li", false) => marked.push_str("\n- "),
            ("a", false) => links.push(attribute(&html[start..end], "href")),
            ("a", true) => {
                // After the link text: "text <https://…>" (a mailto: shows as its text).
                if let Some(Some(href)) = links.pop()
                    && !href.starts_with("mailto:")
                {
                    marked.push_str(&format!(" <{href}>"));
                }
            }
            _ => {}
        }
    }
    marked.push_str(&crate::mail::preview::decode_entities(&html[i..]));
    let with_links = marked;
    let lines: Vec<String> = with_links
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    let mut out = String::new();
    let mut blank = 0;
    for line in lines {
        if line.is_empty() {
            blank += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank > 0 { "\r\n\r\n" } else { "\r\n" });
        }
        blank = 0;
        out.push_str(&line);
    }
    out.push_str("\r\n");
    out
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    let p = lower.find(&format!("{name}="))? + name.len() + 1;
    let rest = &tag[p..];
    let (value, _) = match rest.chars().next()? {
        q @ ('"' | '\'') => rest[1..].split_once(q)?,
        _ => rest
            .split_once(|c: char| c.is_whitespace() || c == '>')
            .unwrap_or((rest, "")),
    };
    Some(value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mail_parser::{MessageParser, MimeHeaders};

    fn sample(attachments: &[Attachment]) -> Vec<u8> {
        let from = Mailbox {
            name: "דנה כהן".into(),
            email: "dana@example.test".into(),
        };
        let to = [Mailbox {
            name: "Avi, Jr.".into(),
            email: "avi@example.test".into(),
        }];
        let bcc = [Mailbox::parse("secret@example.test").unwrap()];
        let refs = ["<root@x>".to_string(), "<parent@x>".to_string()];
        build(
            &Message {
                from: &from,
                to: &to,
                cc: &[],
                bcc: &bcc,
                subject: "Re: פגישת צוות ביום שלישי בשעה עשר בבוקר עם כל הצוות של הפרויקט",
                html: "<p>שלום <b>אבי</b>,</p><p>נתראה ב-10:00 &amp; <a href=\"https://x.test/a\">קישור</a></p><ul><li>אחד</li><li>two</li></ul>",
                priority: "urgent",
                message_id: "<m1@example.test>",
                in_reply_to: Some("<parent@x>"),
                references: &refs,
                date: OffsetDateTime::from_unix_timestamp(1_790_000_000).unwrap(),
                attachments,
                extra: &[],
            },
            Copy::Wire,
        )
    }

    #[test]
    fn a_hebrew_reply_reads_back_whole() {
        let pdf = Attachment {
            name: "סיכום פגישה — רבעון שלישי 2026 (טיוטה סופית).pdf".into(),
            content_type: "application/pdf".into(),
            data: (0..=255u8).cycle().take(5000).collect(),
        };
        let raw = sample(std::slice::from_ref(&pdf));
        let text = String::from_utf8(raw.clone()).unwrap();
        assert!(text.is_ascii(), "7-bit clean on the wire");
        assert!(text.lines().all(|l| l.len() <= 998));
        assert!(!text.contains("secret@"), "no Bcc on the wire");
        let m = MessageParser::default().parse(&raw).unwrap();
        assert_eq!(
            m.subject().unwrap(),
            "Re: פגישת צוות ביום שלישי בשעה עשר בבוקר עם כל הצוות של הפרויקט"
        );
        let from = m.from().unwrap().first().unwrap();
        assert_eq!(from.name.as_deref(), Some("דנה כהן"));
        let to = m.to().unwrap().first().unwrap();
        assert_eq!(
            (to.name.as_deref(), to.address.as_deref()),
            (Some("Avi, Jr."), Some("avi@example.test"))
        );
        assert_eq!(m.in_reply_to().as_text(), Some("parent@x"));
        assert_eq!(
            m.references().as_text_list().unwrap(),
            ["root@x", "parent@x"]
        );
        assert_eq!(m.header_raw("X-Priority").unwrap().trim(), "1 (Highest)");
        let html = m.body_html(0).unwrap();
        assert!(html.contains("<body dir=\"rtl\">"), "{html}");
        let plain = m.body_text(0).unwrap();
        assert!(plain.contains("שלום אבי,"), "{plain}");
        assert!(plain.contains("נתראה ב-10:00 & קישור"), "{plain}");
        assert!(plain.contains("https://x.test/a"), "{plain}");
        assert!(plain.contains("- אחד"), "{plain}");
        let att = m.attachment(0).unwrap();
        assert_eq!(att.attachment_name().unwrap(), pdf.name);
        assert_eq!(att.contents(), pdf.data.as_slice());
    }

    #[test]
    fn ids_that_are_not_message_ids_never_reach_a_header() {
        assert_eq!(msg_id(" parent@x "), Some("<parent@x>".into()));
        assert_eq!(msg_id("<a\rBcc: evil@x>"), None);
        assert_eq!(msg_id("a\nb@x"), None);
        assert_eq!(msg_id("<a b@x>"), None);
        assert_eq!(msg_id("<>"), None);
        let from = Mailbox::parse("dana@example.test").unwrap();
        let refs = [
            "<root@x>".to_string(),
            "<r\rX-Injected: 1>".to_string(),
            "<ok@x>".to_string(),
        ];
        let raw = build(
            &Message {
                from: &from,
                to: std::slice::from_ref(&from),
                cc: &[],
                bcc: &[],
                subject: "s",
                html: "<p>x</p>",
                priority: "medium",
                message_id: "<m@x>",
                in_reply_to: Some("<p\rBcc: evil@example.test>"),
                references: &refs,
                date: OffsetDateTime::from_unix_timestamp(1_790_000_000).unwrap(),
                attachments: &[],
                extra: &[],
            },
            Copy::Wire,
        );
        let text = String::from_utf8(raw).unwrap();
        let bare_cr = text
            .as_bytes()
            .windows(2)
            .any(|w| w[0] == b'\r' && w[1] != b'\n');
        assert!(!bare_cr, "{text}");
        assert!(!text.contains("In-Reply-To"), "{text}");
        assert!(
            !text.contains("evil@") && !text.contains("X-Injected"),
            "{text}"
        );
        assert!(
            text.contains("References: <root@x>\r\n <ok@x>\r\n"),
            "{text}"
        );
    }

    #[test]
    fn the_kept_copy_has_bcc() {
        let raw = build_kept();
        let m = MessageParser::default().parse(&raw).unwrap();
        assert_eq!(
            m.bcc().unwrap().first().unwrap().address.as_deref(),
            Some("secret@example.test")
        );
    }

    fn build_kept() -> Vec<u8> {
        let from = Mailbox::parse("me@example.test").unwrap();
        let bcc = [Mailbox::parse("secret@example.test").unwrap()];
        build(
            &Message {
                from: &from,
                to: &[],
                cc: &[],
                bcc: &bcc,
                subject: "hello",
                html: "<p>hello</p>",
                priority: "medium",
                message_id: "<k@x>",
                in_reply_to: None,
                references: &[],
                date: OffsetDateTime::now_utc(),
                attachments: &[],
                extra: &[],
            },
            Copy::Kept,
        )
    }

    #[test]
    fn english_text_is_left_to_right() {
        assert_eq!(direction("Hello שלום"), "ltr");
        assert_eq!(direction("  123 שלום"), "rtl");
        assert!(html_document("<p>Hi</p>").contains("dir=\"ltr\""));
    }

    #[test]
    fn addresses_are_checked() {
        for ok in [
            "a@b.co",
            "Dana <dana@x.test>",
            "\"Cohen, Dana\" <d.c+tag@mail.x.test>",
        ] {
            assert!(Mailbox::parse(ok).is_some(), "{ok}");
        }
        for bad in [
            "",
            "a",
            "a@b",
            "a@@b.c",
            "a b@c.d",
            "a@b.c>\r\nRCPT TO:<x@y.z",
            "<>",
            "a@.b.c",
            "a@b.c.",
        ] {
            assert!(Mailbox::parse(bad).is_none(), "{bad:?}");
        }
        let m = Mailbox::parse("\"Cohen, Dana\" <d@x.test>").unwrap();
        assert_eq!(m.name, "Cohen, Dana");
    }

    #[test]
    fn header_injection_is_impossible() {
        assert_eq!(unstructured("a\r\nBcc: x@y.z"), "aBcc: x@y.z");
        assert!(!phrase("x\r\nTo: y").contains('\n'));
    }
}
