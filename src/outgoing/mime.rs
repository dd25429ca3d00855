//! The mail we send or save, as RFC 5322 bytes written by `mail-builder` (the author of
//! mail-parser, which reads them back): UTF-8 everywhere, 7-bit on the wire (RFC 2047 words in
//! headers, RFC 2231 file names, base64 or quoted-printable bodies, whichever is shorter), an
//! HTML part that carries `dir` so Hebrew reads right to left in the recipient's client, and a
//! plain-text alternative. What is ours: addresses and ids checked before they reach a header,
//! the direction, the plain text, and boundaries taken from the Message-ID, so the copy filed
//! in Sent is the bytes that were sent (plus Bcc).

use crate::auth::tokens::random_hex;
use mail_builder::MessageBuilder;
use mail_builder::headers::address::Address;
use mail_builder::headers::content_type::ContentType;
use mail_builder::headers::date::Date;
use mail_builder::headers::message_id::MessageId;
use mail_builder::headers::raw::Raw;
use mail_builder::mime::MimePart;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

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

    /// As mail-builder writes it (the name quoted or RFC 2047-encoded as it needs).
    fn address(&self) -> Address<'static> {
        let name = clean(&self.name);
        Address::new_address(
            (!name.trim().is_empty()).then_some(name),
            self.email.clone(),
        )
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

/// The bytes of the mail. Both copies come from one builder, so the kept one is the wire one
/// plus its Bcc line (and the extra headers given only for it).
pub fn build(m: &Message, copy: Copy) -> Vec<u8> {
    let mut b = MessageBuilder::new()
        .date(Date::new(m.date.unix_timestamp()))
        .from(m.from.address());
    if !m.to.is_empty() {
        b = b.to(address_list(m.to));
    }
    if !m.cc.is_empty() {
        b = b.cc(address_list(m.cc));
    }
    if copy == Copy::Kept && !m.bcc.is_empty() {
        b = b.bcc(address_list(m.bcc));
    }
    b = b.subject(clean(m.subject));
    let own_id = msg_id(m.message_id).unwrap_or_else(|| new_message_id(&m.from.email));
    b = b.message_id(bare(&own_id));
    // Ids come from stored mail (a draft, the mail answered): filtered here, where every path
    // to the wire passes, like every other header value.
    if let Some(parent) = m.in_reply_to.and_then(msg_id) {
        b = b.in_reply_to(bare(&parent));
    }
    let references: Vec<String> = m
        .references
        .iter()
        .filter_map(|r| msg_id(r))
        .map(|r| bare(&r))
        .collect();
    if !references.is_empty() {
        b = b.references(MessageId::new_list(references.into_iter()));
    }
    for (name, value) in priority_headers(m.priority) {
        b = b.header(*name, Raw::new(*value));
    }
    for (name, value) in m.extra {
        b = b.header(*name, Raw::new(clean(value)));
    }
    b = b.header(
        "User-Agent",
        Raw::new(concat!("mailclient/", env!("CARGO_PKG_VERSION"))),
    );

    let seed = &own_id;
    let alternative = MimePart::new(
        ContentType::new("multipart/alternative").attribute("boundary", boundary(seed, "alt")),
        vec![
            MimePart::new("text/plain", html_to_text(m.html)),
            MimePart::new("text/html", html_document(m.html)),
        ],
    );
    let body = if m.attachments.is_empty() {
        alternative
    } else {
        let mut parts = vec![alternative];
        for a in m.attachments {
            let name = clean(&a.name);
            parts.push(
                MimePart::new(
                    ContentType::new(content_type(&a.content_type)).attribute("name", name.clone()),
                    a.data.as_slice(),
                )
                .attachment(name),
            );
        }
        MimePart::new(
            ContentType::new("multipart/mixed").attribute("boundary", boundary(seed, "mixed")),
            parts,
        )
    };
    b.body(body)
        .write_to_vec()
        .expect("writing to a Vec does not fail")
}

fn address_list(list: &[Mailbox]) -> Address<'static> {
    Address::new_list(list.iter().map(Mailbox::address).collect())
}

/// Text for a header without control characters: a CR or LF would end the header for some
/// readers (and start another).
fn clean(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).collect()
}

/// `<id>` without its brackets, as mail-builder takes it.
fn bare(id: &str) -> String {
    id.trim_start_matches('<').trim_end_matches('>').to_string()
}

/// A boundary of the mail's own: from its Message-ID, so building it again gives the same
/// bytes. `=_` never occurs in base64 or quoted-printable, the bodies' encodings.
fn boundary(message_id: &str, kind: &str) -> String {
    let digest = Sha256::digest(message_id.as_bytes());
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    format!("=_{kind}_{hex}")
}

/// An attachment's type as the upload gave it, or `application/octet-stream` when it is not a
/// plain `type/subtype`.
fn content_type(given: &str) -> &str {
    if given.contains('/')
        && given
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/.+-_".contains(c))
    {
        given
    } else {
        "application/octet-stream"
    }
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
    format!("<{}.{}@{}>", random_hex(10), crate::kit::now(), domain)
}

/// The HTML part: a whole document whose body carries the direction of the text (its first
/// strong character), unless the editor already set one on its root. No `text-align` on the
/// wrapper: it is inherited, and would push an English paragraph (`<p dir="ltr">`) of a Hebrew
/// mail to the right; `dir` aligns each paragraph to its own start.
pub fn html_document(html: &str) -> String {
    let dir = direction(&crate::mail::preview::strip_html(html));
    format!(
        "<!DOCTYPE html>\r\n<html dir=\"{dir}\"><head><meta charset=\"utf-8\"></head>\r\n\
         <body dir=\"{dir}\"><div dir=\"{dir}\" style=\"direction:{dir}\">{html}</div></body></html>\r\n"
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
        assert!(text.contains("References: <root@x> <ok@x>\r\n"), "{text}");
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
        let from = Mailbox {
            name: "x\r\nTo: y@example.test".into(),
            email: "me@example.test".into(),
        };
        let raw = build(
            &Message {
                from: &from,
                to: std::slice::from_ref(&from),
                cc: &[],
                bcc: &[],
                subject: "a\r\nBcc: x@y.z",
                html: "<p>x</p>",
                priority: "medium",
                message_id: "<i@x>",
                in_reply_to: None,
                references: &[],
                date: OffsetDateTime::now_utc(),
                attachments: &[],
                extra: &[("X-Mailclient-Test", "1\r\nBcc: z@y.z".into())],
            },
            Copy::Wire,
        );
        let text = String::from_utf8(raw).unwrap();
        assert!(
            !text.contains("\nBcc:") && !text.contains("\nTo: y@"),
            "{text}"
        );
        let m = MessageParser::default().parse(text.as_bytes()).unwrap();
        assert_eq!(m.subject(), Some("aBcc: x@y.z"));
        assert!(m.bcc().is_none());
    }

    #[test]
    fn the_kept_copy_is_the_sent_bytes_plus_bcc() {
        let from = Mailbox::parse("דנה <dana@example.test>").unwrap();
        let to = [Mailbox::parse("avi@example.test").unwrap()];
        let bcc = [Mailbox::parse("secret@example.test").unwrap()];
        let pdf = Attachment {
            name: "דוח.pdf".into(),
            content_type: "application/pdf".into(),
            data: vec![1, 2, 3],
        };
        let message = Message {
            from: &from,
            to: &to,
            cc: &[],
            bcc: &bcc,
            subject: "שלום",
            html: "<p>שלום</p>",
            priority: "high",
            message_id: "<same@example.test>",
            in_reply_to: None,
            references: &[],
            date: OffsetDateTime::from_unix_timestamp(1_790_000_000).unwrap(),
            attachments: std::slice::from_ref(&pdf),
            extra: &[],
        };
        let wire = build(&message, Copy::Wire);
        assert_eq!(
            wire,
            build(&message, Copy::Wire),
            "built twice, the same bytes"
        );
        let kept = String::from_utf8(build(&message, Copy::Kept)).unwrap();
        let bcc_line = "Bcc: <secret@example.test>\r\n";
        assert!(kept.contains(bcc_line), "{kept}");
        assert_eq!(kept.replacen(bcc_line, "", 1).as_bytes(), wire.as_slice());
    }

    #[test]
    fn a_hebrew_attachment_name_and_a_leading_dot_read_back_as_written() {
        let from = Mailbox::parse("me@example.test").unwrap();
        let att = Attachment {
            name: "הצעת מחיר – שלב א׳ \"סופי\".docx".into(),
            content_type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
                .into(),
            data: b"PK\x03\x04 not really a docx".to_vec(),
        };
        let raw = build(
            &Message {
                from: &from,
                to: std::slice::from_ref(&from),
                cc: &[],
                bcc: &[],
                subject: "קובץ",
                html: "<p>.שורה שמתחילה בנקודה</p><p>.</p><p>...</p>",
                priority: "medium",
                message_id: "<d@x>",
                in_reply_to: None,
                references: &[],
                date: OffsetDateTime::now_utc(),
                attachments: std::slice::from_ref(&att),
                extra: &[],
            },
            Copy::Wire,
        );
        assert!(raw.is_ascii(), "7-bit clean");
        let text = String::from_utf8(raw.clone()).unwrap();
        // RFC 2231 for the name (mail-builder writes `filename*`), never raw UTF-8.
        assert!(text.contains("filename*"), "{text}");
        let m = MessageParser::default().parse(&raw).unwrap();
        let got = m.attachment(0).unwrap();
        assert_eq!(got.attachment_name(), Some(att.name.as_str()));
        assert_eq!(got.contents(), att.data.as_slice());
        let plain = m.body_text(0).unwrap();
        assert_eq!(plain, ".שורה שמתחילה בנקודה\r\n.\r\n...\r\n");
    }
}
