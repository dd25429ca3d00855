//! Where a mail carries its calendar: a `text/calendar` part (inline in the alternative, as
//! iMIP puts it, RFC 6047 §2.4) or an attached `.ics` (`application/ics`, or any part named
//! `*.ics`). At most a few parts are read, each bounded; a forwarded mail's own parts are not.

use mail_parser::{MessagePart, MimeHeaders, PartType};

use super::event::{self, Event, MAX_ICS_BYTES};
use crate::mail::parse::{AttachmentInfo, parse_guarded};

/// Calendar parts read at most.
const MAX_PARTS: usize = 3;

/// Whether a stored summary's parts include a calendar: the cheap check before the mail is
/// read (mail-parser lists a `text/calendar` part of the alternative with the attachments).
pub fn listed(attachments: &[AttachmentInfo]) -> bool {
    attachments
        .iter()
        .any(|a| is_calendar(&a.content_type, &a.filename))
}

fn is_calendar(content_type: &str, name: &str) -> bool {
    let ct = content_type.to_ascii_lowercase();
    ct == "text/calendar"
        || ct == "application/ics"
        || (ct == "application/octet-stream" && name.to_ascii_lowercase().ends_with(".ics"))
}

/// One calendar part's text and its `method=` parameter.
pub struct Part {
    pub text: String,
    pub method: Option<String>,
}

fn part_of(p: &MessagePart<'_>) -> Option<Part> {
    let ct = p.content_type()?;
    let full = format!("{}/{}", ct.ctype(), ct.subtype().unwrap_or_default());
    let name = p.attachment_name().unwrap_or_default();
    if !is_calendar(&full, name) || p.contents().len() > MAX_ICS_BYTES {
        return None;
    }
    let text = match &p.body {
        PartType::Text(t) | PartType::Html(t) => t.to_string(),
        PartType::Binary(b) | PartType::InlineBinary(b) => String::from_utf8_lossy(b).into_owned(),
        _ => return None,
    };
    Some(Part {
        text,
        method: ct.attribute("method").map(str::to_string),
    })
}

/// The calendar parts of a mail, in order (an inline `text/calendar` before an attached copy).
pub fn calendars(raw: &[u8]) -> Vec<Part> {
    let Some(msg) = parse_guarded(raw) else {
        return Vec::new();
    };
    let mut out: Vec<Part> = msg
        .parts
        .iter()
        .filter_map(part_of)
        .take(MAX_PARTS)
        .collect();
    // The inline part is the one iMIP defines; Outlook and Google also attach a copy.
    out.sort_by_key(|p| p.method.is_none());
    out
}

/// The first event of a mail's calendar parts, read in `tz` where it names no zone.
pub fn first_event(raw: &[u8], tz: chrono_tz::Tz) -> Option<(Event, String)> {
    calendars(raw)
        .into_iter()
        .find_map(|p| event::parse(&p.text, tz, p.method.as_deref()).map(|e| (e, p.text)))
}
