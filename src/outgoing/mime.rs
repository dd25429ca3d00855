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

mod text;
pub use text::{direction, html_document, html_to_text};

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

/// An iMIP calendar object and its method (`REPLY`, …): the `method=` of its `text/calendar`
/// part must name the calendar's METHOD (RFC 6047 §2.4).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct CalendarPart {
    pub method: String,
    /// The iCalendar text (CRLF lines).
    pub ics: String,
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
    /// The alternative's calendar part (an invitation's answer).
    pub calendar: Option<&'a CalendarPart>,
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
    let mut versions = vec![
        MimePart::new("text/plain", html_to_text(m.html)),
        MimePart::new("text/html", html_document(m.html)),
    ];
    if let Some(cal) = m.calendar {
        // Last: the richest version, which calendar clients read (RFC 6047 §2.4).
        let method: String = cal
            .method
            .chars()
            .filter(char::is_ascii_alphabetic)
            .collect();
        versions.push(MimePart::new(
            ContentType::new("text/calendar")
                .attribute("charset", "utf-8")
                .attribute("method", method),
            cal.ics.clone(),
        ));
    }
    let alternative = MimePart::new(
        ContentType::new("multipart/alternative").attribute("boundary", boundary(seed, "alt")),
        versions,
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

#[cfg(test)]
mod tests;
