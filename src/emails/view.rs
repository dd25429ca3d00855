//! The spec's Email shape (000 §3) built from a stored message: the list row, and the whole
//! message for the reading pane with its sanitized body.

use serde::Serialize;
use ts_rs::TS;

use super::listing::Thread;
use crate::mail::parse::{self, AttachmentInfo, Full};
use crate::mail::sanitize;
use crate::mailstore::MessageMeta;

/// Inline images above this total stay placeholders.
const INLINE_IMAGE_BUDGET: usize = 5 * 1024 * 1024;

pub use crate::kit::iso;

/// A list row (spec 000 §3 Email, without the bodies).
#[derive(Debug, Clone, Serialize, TS)]
#[ts(rename = "Email")]
pub struct EmailRow {
    pub id: String,
    #[serde(rename = "accountId")]
    pub account_id: u64,
    #[serde(rename = "threadId")]
    pub thread_id: String,
    #[serde(rename = "messageId")]
    pub message_id: Option<String>,
    pub from: String,
    pub from_name: String,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    pub subject: String,
    pub preview: String,
    /// RFC 3339.
    pub date: String,
    pub is_read: bool,
    pub is_starred: bool,
    pub is_answered: bool,
    pub is_draft: bool,
    /// The mailbox's own labels: IMAP keywords without `$`, and the `$label` family
    /// (`mailstore::keywords::is_label`); `GET /api/labels` gives their names and colours.
    pub labels: Vec<String>,
    /// Gmail's labels of the mail: the label folders it is in besides its own folder and the
    /// labels X-GM-LABELS names, each once (decoded names, Hebrew readable). Absent on other
    /// mailboxes.
    #[serde(
        rename = "folderLabels",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[ts(optional)]
    pub folder_labels: Option<Vec<String>>,
    pub status: Option<String>,
    pub priority: Option<String>,
    /// RFC 3339: the mail's date or its last status change, whichever is later.
    #[serde(rename = "lastActivity")]
    pub last_activity: String,
    pub folder: String,
    #[serde(rename = "isSpam")]
    pub is_spam: bool,
    #[serde(rename = "isAdvertisement")]
    pub is_advertisement: bool,
    /// The spam engine's score in points when the mail was judged (null: never judged).
    #[serde(rename = "spamScore")]
    pub spam_score: Option<f64>,
    pub references: Vec<String>,
    #[serde(rename = "inReplyTo")]
    pub in_reply_to: Option<String>,
    #[serde(rename = "originalMessageId")]
    pub original_message_id: Option<String>,
    #[serde(rename = "hasAttachments")]
    pub has_attachments: bool,
    pub attachments: Vec<AttachmentInfo>,
    pub size: u32,
    /// False when the message could not be decoded; its body is then shown as it arrived.
    pub parsed: bool,
}

/// `GET /api/emails/{id}`: the row plus the bodies.
#[derive(Debug, Clone, Serialize, TS)]
pub struct EmailDetail {
    #[serde(flatten)]
    #[ts(flatten)]
    pub row: EmailRow,
    /// Sanitized on the server: safe to show in the sandboxed frame.
    pub body: String,
    #[serde(rename = "bodyPlain")]
    pub body_plain: String,
    /// Remote images were held back; `?remote=1` returns the body with them.
    #[serde(rename = "remoteContentBlocked")]
    pub remote_content_blocked: bool,
    /// The sender is on the user's "always show remote content" list.
    #[serde(
        rename = "remoteAllowedForSender",
        skip_serializing_if = "Option::is_none"
    )]
    #[ts(optional)]
    pub remote_allowed_for_sender: Option<bool>,
}

/// Gmail's labels of a mail: its places in label folders and the labels X-GM-LABELS named (a
/// label hidden from IMAP has no folder), each once, decoded and sorted; None when it has
/// none. Gmail's own folders (Important; `[Gmail]/` or, in some countries, `[Google Mail]/`)
/// are not the user's labels.
fn folder_labels(m: &MessageMeta) -> Option<Vec<String>> {
    let gmails_own = |f: &str| f.starts_with("[Gmail]/") || f.starts_with("[Google Mail]/");
    let mut raw: Vec<&str> = m
        .places
        .iter()
        .filter(|p| p.listed)
        .map(|p| p.folder.as_str())
        .chain(m.gm_labels.iter().map(String::as_str))
        .filter(|f| !gmails_own(f))
        .collect();
    raw.sort_unstable();
    raw.dedup();
    let mut labels: Vec<String> = raw.into_iter().map(crate::mail::mutf7::decode).collect();
    labels.sort();
    (!labels.is_empty()).then_some(labels)
}

/// A list row: everything but the bodies.
pub fn row(m: &MessageMeta) -> EmailRow {
    let s = &m.summary;
    // Until triage sets a status, unread mail shows as unread (spec 000 §4 lists it).
    let status = m
        .status
        .clone()
        .or_else(|| (!m.seen).then(|| "unread".to_string()));
    EmailRow {
        id: m.id.to_string(),
        account_id: m.account_id,
        thread_id: m.thread_id.clone(),
        message_id: s.message_id.clone(),
        from: s.from.clone(),
        from_name: s.from_name.clone(),
        to: s.to.clone(),
        cc: s.cc.clone(),
        subject: s.subject.clone(),
        preview: s.preview.clone(),
        date: iso(m.date),
        is_read: m.seen,
        is_starred: m.flagged,
        is_answered: m.answered,
        is_draft: m.draft,
        labels: m
            .keywords
            .iter()
            .filter(|k| crate::mailstore::keywords::is_label(k))
            .cloned()
            .collect(),
        folder_labels: folder_labels(m),
        status,
        priority: m.priority.clone(),
        last_activity: iso(m.activity()),
        folder: m.folder.clone(),
        is_spam: matches!(m.status.as_deref(), Some("spam" | "suspicious")),
        is_advertisement: m.status.as_deref() == Some("advertisement") || m.advertisement,
        // Stored as f32: rounded to hundredths so 5.3 is not sent as 5.300000190734863.
        spam_score: m.spam_score.map(|s| (f64::from(s) * 100.0).round() / 100.0),
        references: s.references.clone(),
        in_reply_to: s.in_reply_to.clone(),
        original_message_id: s.in_reply_to.clone(),
        has_attachments: m.has_attachments(),
        attachments: s.attachments.clone(),
        size: m.size,
        parsed: s.parsed,
    }
}

/// The whole message: `body` is sanitized HTML (or the plain text as HTML), `bodyPlain` the
/// text, `remoteContentBlocked` whether remote images were held back.
pub fn whole(m: &MessageMeta, raw: &[u8], allow_remote: bool) -> EmailDetail {
    let Full {
        summary,
        html,
        text,
    } = parse::full(raw);
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
    EmailDetail {
        row: row(m),
        body,
        body_plain: text,
        remote_content_blocked: blocked,
        remote_allowed_for_sender: None,
    }
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

/// A conversation of a listing (spec 000 §3 Thread).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "Thread")]
pub struct ThreadView {
    pub id: String,
    /// The newest mail's subject.
    pub subject: String,
    pub has_no_subject: bool,
    pub count: usize,
    /// RFC 3339: the newest mail's date.
    pub last_date: String,
    /// True only when every mail is read.
    pub is_read: bool,
    pub is_starred: bool,
    /// Statuses and IMAP labels, the most urgent first (the UI shows at most 2).
    pub labels: Vec<String>,
    pub status: Option<String>,
    pub priority: Option<String>,
    pub has_attachments: bool,
    /// Display names (or addresses) of the people in the thread.
    pub participants: Vec<String>,
    /// Newest first.
    pub emails: Vec<EmailRow>,
}

/// Characters of preview a row of a page of threads carries: the list shows one line of it
/// (the mail itself comes whole when opened), and it is most of a page's bytes.
pub const LIST_PREVIEW_CHARS: usize = 120;

/// A thread as a page of threads carries it: [`thread`] with its preview cut to one line's
/// worth.
pub fn list_thread(t: &Thread) -> ThreadView {
    let mut v = thread(t);
    for e in &mut v.emails {
        if let Some((at, _)) = e.preview.char_indices().nth(LIST_PREVIEW_CHARS) {
            e.preview.truncate(at);
            e.preview.push('…');
        }
    }
    v
}

/// A thread of a listing, its labels and priority as the list shows them: the totals cover all
/// of its kept mail, `emails` what the answer carries (the newest only, in a page of threads).
pub fn thread(t: &Thread) -> ThreadView {
    let newest = &t.emails[0];
    let totals = &t.totals;
    let mut labels: Vec<String> = LABEL_ORDER
        .iter()
        .filter(|l| (**l == "urgent" && totals.urgent) || totals.statuses.contains(l))
        .map(|l| l.to_string())
        .collect();
    for m in &t.emails {
        for k in m
            .keywords
            .iter()
            .filter(|k| crate::mailstore::keywords::is_label(k))
        {
            if !labels.contains(k) {
                labels.push(k.clone());
            }
        }
    }
    let subject = newest.summary.subject.trim();
    let priority = if totals.urgent {
        Some("urgent".to_string())
    } else {
        newest.priority.clone()
    };
    ThreadView {
        id: newest.thread_id.clone(),
        subject: subject.to_string(),
        has_no_subject: subject.is_empty(),
        count: totals.count,
        last_date: iso(t.emails.iter().map(|m| m.date).max().unwrap_or(newest.date)),
        is_read: totals.is_read,
        is_starred: totals.is_starred,
        labels,
        status: newest.status.clone(),
        priority,
        has_attachments: totals.has_attachments,
        participants: totals.participants.clone(),
        emails: t.emails.iter().map(row).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emails::listing::ThreadTotals;

    fn meta(body: &str) -> MessageMeta {
        let raw =
            format!("From: Dana <d@x.test>\r\nSubject: s\r\nMessage-ID: <a@x>\r\n\r\n{body}\r\n");
        MessageMeta {
            id: 1,
            account_id: 1,
            folder: "INBOX".into(),
            uid: 1,
            thread_id: "<a@x>".into(),
            date: 0,
            size: raw.len() as u32,
            seen: false,
            flagged: false,
            answered: false,
            draft: false,
            keywords: vec![],
            status: None,
            priority: None,
            hidden: false,
            last_activity: None,
            spam_score: None,
            advertisement: false,
            summary: crate::mail::parse::summary(raw.as_bytes()),
            places: Vec::new(),
            identity: None,
            gm_labels: Vec::new(),
        }
    }

    #[test]
    fn gmail_labels_are_its_label_places_and_x_gm_labels_each_once() {
        use crate::mailstore::Place;
        let mut m = meta("b");
        assert_eq!(folder_labels(&m), None);
        let place = |folder: &str, listed| Place {
            folder: folder.into(),
            uid: 1,
            listed,
        };
        m.places = vec![
            place("[Gmail]/All Mail", false),
            place("&BeIF0QXVBdMF1A-", true),
            place("[Google Mail]/Important", true),
            place("[Gmail]/Important", true),
        ];
        // One label both a folder and in X-GM-LABELS; one hidden from IMAP (no folder).
        m.gm_labels = vec!["&BeIF0QXVBdMF1A-".into(), "Receipts".into()];
        assert_eq!(
            folder_labels(&m),
            Some(vec!["Receipts".to_string(), "עבודה".into()])
        );
    }

    #[test]
    fn a_page_of_threads_carries_one_line_of_preview() {
        let t = Thread {
            emails: vec![meta(&"שלום עולם ".repeat(40))],
            totals: ThreadTotals::default(),
        };
        assert!(thread(&t).emails[0].preview.chars().count() > LIST_PREVIEW_CHARS);
        let row = &list_thread(&t).emails[0].preview;
        assert_eq!(row.chars().count(), LIST_PREVIEW_CHARS + 1);
        assert!(row.starts_with("שלום עולם") && row.ends_with('…'));
    }
}
