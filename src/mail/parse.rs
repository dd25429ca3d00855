//! Turning raw RFC 822 bytes into what the store lists and the reading pane shows. Every
//! charset mail-parser knows (windows-1255, iso-8859-8, iso-8859-8-i among them), RFC 2047 and
//! 2231 words, HTML and plain bodies, attachments. A message that does not parse is kept as a
//! `parsed: false` summary with its raw bytes, never dropped; a panic inside the parser is
//! caught and treated the same way.

use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};

use mail_parser::{Address, HeaderValue, Message, MessageParser, MimeHeaders};
use serde::{Deserialize, Serialize};

use super::preview;

/// What the list needs: computed once at sync time and stored.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    pub parsed: bool,
    pub message_id: Option<String>,
    pub in_reply_to: Option<String>,
    pub references: Vec<String>,
    pub subject: String,
    pub from: String,
    pub from_name: String,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    /// Unix seconds from the Date header; `None` when missing or absurd.
    pub date: Option<i64>,
    pub preview: String,
    pub attachments: Vec<AttachmentInfo>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "EmailAttachment")]
pub struct AttachmentInfo {
    /// Position in the message's attachment list; the download endpoint's index.
    pub index: usize,
    pub filename: String,
    pub content_type: String,
    pub size: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub content_id: Option<String>,
    #[serde(default)]
    pub inline: bool,
}

/// The whole message, for the reading pane.
#[derive(Debug, Clone, Default)]
pub struct Full {
    pub summary: Summary,
    /// Unsanitized HTML (sanitize before showing). Empty when the message has only text.
    pub html: String,
    pub text: String,
}

const MAX_HEADER_TEXT: usize = 2_000;

/// The parser every summary, view and index uses: mail-parser's defaults, except that
/// `Received` headers stay raw text. Nothing here reads them, and tokenizing each hop of every
/// message was a twentieth of the sync's CPU.
static PARSER: std::sync::LazyLock<MessageParser> = std::sync::LazyLock::new(|| {
    use mail_parser::HeaderName as H;
    // A parser with any header configured parses only those: list mail-parser's defaults.
    let mut p = MessageParser::new()
        .with_mime_headers()
        .with_date_headers()
        .with_address_headers()
        .with_message_ids()
        .header_text(H::Subject)
        .header_text(H::Comments)
        .header_id(H::ReturnPath)
        .header_comma_separated(H::Keywords)
        .header_comma_separated(H::ContentLanguage)
        .header_raw(H::Received);
    for list in [
        H::ListArchive,
        H::ListHelp,
        H::ListId,
        H::ListOwner,
        H::ListPost,
        H::ListSubscribe,
        H::ListUnsubscribe,
    ] {
        p = p.header_address(list);
    }
    p
});

pub fn parse_guarded(raw: &[u8]) -> Option<Message<'_>> {
    // mail-parser is not expected to panic, but mail is hostile input: a panic here must cost
    // one message, not the sync task.
    catch_unwind(AssertUnwindSafe(|| PARSER.parse(raw))).unwrap_or_else(|_| {
        tracing::warn!("mail parser panicked; keeping the message raw");
        None
    })
}

pub fn summary(raw: &[u8]) -> Summary {
    // Guard the whole summary, not only the parser: a bug in our own previews or names must
    // cost one message, never the sync of the account.
    catch_unwind(AssertUnwindSafe(|| match parse_guarded(raw) {
        Some(msg) if looks_like_mail(&msg) => summarize(&msg),
        _ => unparsed_summary(raw),
    }))
    .unwrap_or_else(|_| {
        tracing::warn!("summarizing a message panicked; keeping it raw");
        unparsed_summary(raw)
    })
}

/// [`summary`] and what `then` makes of the parsed message (None when it did not parse as
/// mail), from one parse: the sync's spam check reads the message its summary came from. A
/// panic in `then` costs its answer only.
pub fn summary_with<T>(
    raw: &[u8],
    then: impl FnOnce(Option<&Message<'_>>, &Summary) -> Option<T>,
) -> (Summary, Option<T>) {
    let parsed = catch_unwind(AssertUnwindSafe(|| {
        parse_guarded(raw).filter(looks_like_mail)
    }))
    .unwrap_or(None);
    let summary = match &parsed {
        Some(msg) => catch_unwind(AssertUnwindSafe(|| summarize(msg)))
            .unwrap_or_else(|_| unparsed_summary(raw)),
        None => unparsed_summary(raw),
    };
    let out =
        catch_unwind(AssertUnwindSafe(|| then(parsed.as_ref(), &summary))).unwrap_or_else(|_| {
            tracing::warn!("a check of a parsed message panicked; skipping it");
            None
        });
    (summary, out)
}

pub fn full(raw: &[u8]) -> Full {
    let Some(msg) = parse_guarded(raw).filter(looks_like_mail) else {
        return Full {
            summary: unparsed_summary(raw),
            html: String::new(),
            text: lossy_head(raw),
        };
    };
    let (first, text) = texts(&msg);
    let summary = summarize_with(&msg, &first);
    let html = if msg.html_body_count() > 0 && msg.html_bodies().any(|p| p.is_text_html()) {
        (0..msg.html_body_count())
            .filter_map(|i| msg.body_html(i))
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        String::new()
    };
    // One line ending for the API, whatever the message used.
    let text = text.replace("\r\n", "\n");
    Full {
        summary,
        html,
        text,
    }
}

/// What a search finds a message by besides its summary.
#[derive(Debug, Clone, Default)]
pub struct Searchable {
    /// The text parts (HTML-only mail converted to text); unparseable mail: its bytes as text.
    pub text: String,
    /// To and Cc, names and addresses (the summary keeps addresses only).
    pub recipients: String,
}

/// The body text of a message (the search snippet's source).
pub fn body_text(raw: &[u8]) -> String {
    catch_unwind(AssertUnwindSafe(|| match parse_guarded(raw) {
        Some(msg) if looks_like_mail(&msg) => text_of(&msg),
        _ => lossy_head(raw),
    }))
    .unwrap_or_else(|_| lossy_head(raw))
}

fn text_of(msg: &Message<'_>) -> String {
    texts(msg).1
}

/// The first text part (the preview's source) and every text part joined (what search and
/// the reading pane read), each through the base64-HTML rule. Each part is read once:
/// mail-parser converts an HTML-only body to text on every call.
fn texts(msg: &Message<'_>) -> (String, String) {
    let parts: Vec<Option<Cow<'_, str>>> = (0..msg.text_body_count())
        .map(|i| msg.body_text(i))
        .collect();
    let decode = |t: String| preview::maybe_decode_base64_html(&t).unwrap_or(t);
    let first = decode(
        parts
            .first()
            .and_then(|p| p.as_deref())
            .unwrap_or("")
            .to_string(),
    );
    let all = if parts.len() == 1 && parts[0].is_some() {
        first.clone()
    } else {
        decode(
            parts
                .iter()
                .flatten()
                .map(|p| p.as_ref())
                .collect::<Vec<_>>()
                .join("\n"),
        )
    };
    (first, all)
}

/// [`summary`] and [`Searchable`] from one parse (the importer's and indexer's path).
pub fn searchable(raw: &[u8]) -> (Summary, Searchable) {
    catch_unwind(AssertUnwindSafe(|| match parse_guarded(raw) {
        Some(msg) if looks_like_mail(&msg) => {
            let (first, text) = texts(&msg);
            let mut recipients = String::new();
            for a in [msg.to(), msg.cc()].into_iter().flatten() {
                for x in a.iter().take(500) {
                    for part in [x.name(), x.address()].into_iter().flatten() {
                        recipients.push_str(part);
                        recipients.push(' ');
                    }
                }
            }
            (
                summarize_with(&msg, &first),
                Searchable { text, recipients },
            )
        }
        _ => (unparsed_summary(raw), unparsed_searchable(raw)),
    }))
    .unwrap_or_else(|_| {
        tracing::warn!("reading a message for search panicked; keeping it raw");
        (unparsed_summary(raw), unparsed_searchable(raw))
    })
}

fn unparsed_searchable(raw: &[u8]) -> Searchable {
    Searchable {
        text: lossy_head(raw),
        recipients: String::new(),
    }
}

fn lossy_head(raw: &[u8]) -> String {
    String::from_utf8_lossy(&raw[..raw.len().min(1 << 20)]).into_owned()
}

/// The bytes and metadata of attachment `index`, for download.
pub fn attachment(raw: &[u8], index: usize) -> Option<(AttachmentInfo, Vec<u8>)> {
    let msg = parse_guarded(raw)?;
    let part = msg.attachments().nth(index)?;
    let info = attachment_info(index, part);
    Some((info, part.contents().to_vec()))
}

/// A parse that found neither headers nor a body is not a message (an empty file, random
/// bytes): show it raw rather than as an empty mail.
fn looks_like_mail(msg: &Message<'_>) -> bool {
    msg.headers()
        .iter()
        .any(|h| !matches!(h.name, mail_parser::HeaderName::Other(_)))
}

fn summarize(msg: &Message<'_>) -> Summary {
    let text = msg.body_text(0).unwrap_or(Cow::Borrowed(""));
    let text = preview::maybe_decode_base64_html(&text).map_or(text, Cow::Owned);
    summarize_with(msg, &text)
}

/// The summary of `msg` whose first text part (decoded) is `text`.
fn summarize_with(msg: &Message<'_>, text: &str) -> Summary {
    let (from, from_name) = msg
        .from()
        .and_then(|a| a.first())
        .map(|a| {
            (
                a.address().unwrap_or_default().trim().to_string(),
                clip(a.name().unwrap_or_default().trim()),
            )
        })
        .unwrap_or_default();
    Summary {
        parsed: true,
        message_id: msg.message_id().map(clean_id).filter(|s| !s.is_empty()),
        in_reply_to: id_list(msg.in_reply_to()).into_iter().next(),
        references: id_list(msg.references()),
        subject: clip(msg.subject().unwrap_or_default().trim()),
        from,
        from_name,
        to: addresses(msg.to()),
        cc: addresses(msg.cc()),
        date: msg
            .date()
            .map(|d| d.to_timestamp())
            .filter(|t| plausible(*t)),
        preview: preview::preview(text),
        attachments: msg
            .attachments()
            .enumerate()
            .map(|(i, p)| attachment_info(i, p))
            .collect(),
    }
}

fn unparsed_summary(raw: &[u8]) -> Summary {
    let head = String::from_utf8_lossy(&raw[..raw.len().min(4096)]);
    Summary {
        parsed: false,
        subject: crate::messages::UNPARSED_MAIL_SUBJECT.into(),
        preview: preview::preview(&head),
        ..Summary::default()
    }
}

fn attachment_info(index: usize, part: &mail_parser::MessagePart<'_>) -> AttachmentInfo {
    let content_type = part
        .content_type()
        .map(|ct| match ct.subtype() {
            Some(sub) => format!("{}/{}", ct.ctype(), sub),
            None => ct.ctype().to_string(),
        })
        .unwrap_or_else(|| "application/octet-stream".into())
        .to_ascii_lowercase();
    let filename = part
        .attachment_name()
        .map(sanitize_filename)
        .filter(|n| !n.is_empty())
        .or_else(|| {
            part.message()
                .and_then(|m| m.subject())
                .map(|s| format!("{}.eml", sanitize_filename(s)))
        })
        .unwrap_or_else(|| format!("attachment-{}", index + 1));
    let inline = part
        .content_disposition()
        .is_some_and(|d| d.ctype().eq_ignore_ascii_case("inline"));
    AttachmentInfo {
        index,
        filename,
        content_type,
        size: part.contents().len(),
        content_id: part.content_id().map(clean_id),
        inline,
    }
}

/// File names come from the sender: no path separators or control characters.
pub fn sanitize_filename(name: &str) -> String {
    let cleaned: String = name
        .chars()
        // Direction controls would let `invoice\u{202E}fdp.exe` show as `invoiceexe.pdf` in a
        // right-to-left screen: a name keeps only what it shows.
        .filter(|c| !is_bidi_control(*c))
        .map(|c| match c {
            '/' | '\\' => '_',
            c if c.is_control() => '_',
            c => c,
        })
        .collect();
    clip(cleaned.trim().trim_start_matches('.'))
}

/// The Unicode direction marks, embeddings, overrides and isolates.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn addresses(a: Option<&Address<'_>>) -> Vec<String> {
    a.map(|a| {
        a.iter()
            .filter_map(|x| x.address())
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .take(500)
            .collect()
    })
    .unwrap_or_default()
}

fn id_list(v: &HeaderValue<'_>) -> Vec<String> {
    let ids: Vec<String> = match v {
        HeaderValue::Text(t) => vec![clean_id(t)],
        HeaderValue::TextList(list) => list.iter().map(|t| clean_id(t)).collect(),
        _ => Vec::new(),
    };
    ids.into_iter()
        .filter(|s| !s.is_empty())
        .take(200)
        .collect()
}

/// Mailing-list mail: List-Id, List-Unsubscribe or List-Post, or `Precedence: list`.
pub fn is_list_mail(msg: &Message<'_>) -> bool {
    ["List-Id", "List-Unsubscribe", "List-Post"]
        .iter()
        .any(|h| !matches!(msg.header(*h), None | Some(HeaderValue::Empty)))
        || msg
            .header_raw("Precedence")
            .is_some_and(|p| p.trim().eq_ignore_ascii_case("list"))
}

pub fn clean_id(id: &str) -> String {
    clip(
        id.trim()
            .trim_start_matches('<')
            .trim_end_matches('>')
            .trim(),
    )
}

fn clip(s: &str) -> String {
    if s.len() <= MAX_HEADER_TEXT {
        return s.to_string();
    }
    let mut end = MAX_HEADER_TEXT;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

fn plausible(t: i64) -> bool {
    // After 1980 and not more than two days in the future.
    let now = crate::kit::now();
    (315_532_800..now + 2 * 86_400).contains(&t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_1255_subject_and_body() {
        let raw = b"From: =?windows-1255?B?5On55e0=?= <a@example.test>\r\nTo: b@example.test\r\nSubject: =?windows-1255?B?+cjR7OXJ7SDn4fjp7SCWIOHj6ffk?=\r\nMessage-ID: <x1@example.test>\r\nDate: Mon, 2 Nov 2026 10:00:00 +0200\r\nContent-Type: text/plain; charset=windows-1255\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\xf9\xec\xe5\xed \xf2\xe5\xec\xed\r\n";
        let s = summary(raw);
        assert!(s.parsed);
        assert_eq!(s.subject, "שָׁלוֹם חברים – בדיקה");
        assert_eq!(s.preview, "שלום עולם");
        assert_eq!(s.message_id.as_deref(), Some("x1@example.test"));
        assert_eq!(s.to, vec!["b@example.test"]);
        assert!(s.date.is_some());
    }

    #[test]
    fn garbage_is_kept_unparsed() {
        for raw in [
            &b""[..],
            b"\0\0\0",
            b"\xff\xfe garbage",
            b"just some text\n",
        ] {
            let s = summary(raw);
            assert!(!s.parsed, "{raw:?}");
            assert_eq!(s.subject, crate::messages::UNPARSED_MAIL_SUBJECT);
        }
    }

    #[test]
    fn references_and_reply_ids() {
        let raw =
            b"Subject: Re: x\r\nIn-Reply-To: <p@x>\r\nReferences: <r@x> <p@x>\r\n\r\nbody\r\n";
        let s = summary(raw);
        assert_eq!(s.in_reply_to.as_deref(), Some("p@x"));
        assert_eq!(s.references, vec!["r@x", "p@x"]);
    }

    #[test]
    fn attachment_names_are_safe() {
        assert_eq!(sanitize_filename("../../etc/passwd"), "_.._etc_passwd");
        assert_eq!(sanitize_filename("דוח.pdf"), "דוח.pdf");
        // A right-to-left override cannot disguise an executable as a PDF.
        assert_eq!(
            sanitize_filename("invoice\u{202E}fdp.exe"),
            "invoicefdp.exe"
        );
        assert_eq!(
            sanitize_filename("\u{2067}חשבונית\u{2069}.pdf\u{200F}"),
            "חשבונית.pdf"
        );
    }
}
