//! The spec's Email shape (000 §3) built from a stored message: the list row, and the whole
//! message for the reading pane with its sanitized body.

use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::listing::Thread;
use crate::mail::parse::{self, Full};
use crate::mail::sanitize;
use crate::mailstore::MessageMeta;

/// Inline images above this total stay placeholders.
const INLINE_IMAGE_BUDGET: usize = 5 * 1024 * 1024;

pub fn iso(ts: i64) -> String {
    OffsetDateTime::from_unix_timestamp(ts)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
        .format(&Rfc3339)
        .unwrap_or_default()
}

/// A list row: everything but the bodies.
pub fn row(m: &MessageMeta) -> Value {
    let s = &m.summary;
    let status = m.status.clone().unwrap_or_else(|| {
        // Until triage sets a status, unread mail shows as unread (spec 000 §4 lists it).
        if m.seen {
            String::new()
        } else {
            "unread".into()
        }
    });
    json!({
        "id": m.id.to_string(),
        "accountId": m.account_id,
        "threadId": m.thread_id,
        "messageId": s.message_id,
        "from": s.from,
        "from_name": s.from_name,
        "to": s.to,
        "cc": s.cc,
        "subject": s.subject,
        "preview": s.preview,
        "date": iso(m.date),
        "is_read": m.seen,
        "is_starred": m.flagged,
        "is_answered": m.answered,
        "is_draft": m.draft,
        "labels": m.keywords.iter().filter(|k| !k.starts_with('$')).collect::<Vec<_>>(),
        "status": if status.is_empty() { Value::Null } else { Value::String(status) },
        "priority": m.priority,
        "lastActivity": iso(m.activity()),
        "folder": m.folder,
        "isSpam": matches!(m.status.as_deref(), Some("spam" | "suspicious")),
        "isAdvertisement": m.status.as_deref() == Some("advertisement"),
        "spamScore": Value::Null,
        "references": s.references,
        "inReplyTo": s.in_reply_to,
        "originalMessageId": s.in_reply_to,
        "hasAttachments": m.has_attachments(),
        "attachments": s.attachments,
        "size": m.size,
        "parsed": s.parsed,
    })
}

/// The whole message: `body` is sanitized HTML (or the plain text as HTML), `bodyPlain` the
/// text, `remoteContentBlocked` whether remote images were held back.
pub fn whole(m: &MessageMeta, raw: &[u8], allow_remote: bool) -> Value {
    let Full {
        summary,
        html,
        text,
    } = parse::full(raw);
    let mut v = row(m);
    let (body, blocked) = if !summary.parsed {
        // Shown as it came, escaped: the user can still read what arrived.
        (
            format!("<pre dir=\"auto\">{}</pre>", sanitize::escape(&text)),
            false,
        )
    } else if html.trim().is_empty() {
        (sanitize::text_to_html(&text), false)
    } else {
        // Inline images need a second look at the MIME parts: only when the body uses them.
        let images = if html.contains("cid:") {
            inline_images(raw)
        } else {
            Default::default()
        };
        let s = sanitize::sanitize(&html, allow_remote, &|cid| images.get(cid).cloned());
        (
            format!("<div dir=\"auto\">{}</div>", s.html),
            s.remote_blocked,
        )
    };
    v["body"] = json!(body);
    v["bodyPlain"] = json!(text);
    v["remoteContentBlocked"] = json!(blocked);
    v
}

fn inline_images(raw: &[u8]) -> std::collections::HashMap<String, String> {
    let Some(msg) = mail_parser::MessageParser::default().parse(raw) else {
        return Default::default();
    };
    use mail_parser::MimeHeaders;
    let parts = msg.attachments().filter_map(|p| {
        let ct = p
            .content_type()
            .map(|c| format!("{}/{}", c.ctype(), c.subtype().unwrap_or("")))
            .unwrap_or_default()
            .to_ascii_lowercase();
        let cid = p.content_id().map(parse::clean_id)?;
        ct.starts_with("image/")
            .then(|| (Some(cid), ct, p.contents().to_vec()))
    });
    sanitize::inline_images(parts, INLINE_IMAGE_BUDGET)
}

/// Labels in the order the list shows them (at most 2 are shown): urgency, then the
/// statuses, then the mailbox's own labels.
const LABEL_ORDER: [&str; 8] = [
    "urgent",
    "needs_reply",
    "spam",
    "suspicious",
    "advertisement",
    "info",
    "processed",
    "unread",
];

/// A thread of a listing (spec 000 §3 Thread).
pub fn thread(t: &Thread) -> Value {
    let newest = &t.emails[0];
    let mut present: Vec<String> = Vec::new();
    let mut user_labels: Vec<String> = Vec::new();
    for m in &t.emails {
        if m.priority.as_deref() == Some("urgent") {
            present.push("urgent".into());
        }
        if let Some(s) = &m.status {
            present.push(s.clone());
        }
        for k in m.keywords.iter().filter(|k| !k.starts_with('$')) {
            if !user_labels.contains(k) {
                user_labels.push(k.clone());
            }
        }
    }
    let mut labels: Vec<String> = LABEL_ORDER
        .iter()
        .filter(|l| present.iter().any(|p| p == *l))
        .map(|l| l.to_string())
        .collect();
    labels.extend(user_labels);
    let mut participants: Vec<String> = Vec::new();
    for m in &t.emails {
        let name = m.sender_name();
        if !name.is_empty() && !participants.iter().any(|p| p == name) {
            participants.push(name.to_string());
        }
    }
    let subject = newest.summary.subject.trim();
    let priority = if t
        .emails
        .iter()
        .any(|m| m.priority.as_deref() == Some("urgent"))
    {
        Some("urgent".to_string())
    } else {
        newest.priority.clone()
    };
    json!({
        "id": newest.thread_id,
        "subject": subject,
        "hasNoSubject": subject.is_empty(),
        "count": t.emails.len(),
        "lastDate": iso(t.emails.iter().map(|m| m.date).max().unwrap_or(newest.date)),
        "isRead": t.emails.iter().all(|m| m.seen),
        "isStarred": t.emails.iter().any(|m| m.flagged),
        "labels": labels,
        "status": newest.status,
        "priority": priority,
        "hasAttachments": t.emails.iter().any(|m| m.has_attachments()),
        "participants": participants,
        "emails": t.emails.iter().map(row).collect::<Vec<_>>(),
    })
}
