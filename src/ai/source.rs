//! The mail an AI call is about, as text: one of the user's stored mails (with the earlier mails
//! it answers when the settings include context), or content the request carries. Bodies are
//! clipped so a huge mail cannot make a huge (and costly) request.
//!
//! Context is taken only from the mails this one names in References or In-Reply-To, and only
//! when its sender is someone the user knows (a contact, or someone they wrote to). The list's
//! threads also join mail by subject, which anyone can write: `Re: Your verification code` from a
//! stranger must not bring the user's real mail into a prompt (and so into a draft addressed to
//! the stranger).

use serde::Deserialize;

use crate::emails;
use crate::error::Result;
use crate::mail::parse;
use crate::mailstore::{self as mstore, MailRead};
use crate::outgoing::mime::html_to_text;
use crate::store::Store;

/// The most of one mail's body sent to the provider, in characters.
pub const MAX_BODY_CHARS: usize = 12_000;
/// The most of an earlier thread mail.
const MAX_CONTEXT_CHARS: usize = 3_000;
/// Earlier thread mails given as context.
const MAX_CONTEXT_MAILS: usize = 3;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct MailText {
    pub from: String,
    pub subject: String,
    /// RFC 3339, or what the request said.
    pub date: String,
    pub body: String,
    /// The Message-ID, when the mail is a stored one.
    pub message_id: Option<String>,
    /// The mailbox it is in, when the mail is a stored one.
    pub account_id: Option<u64>,
}

/// `emailContent` of a request: an object with the mail's fields, or just its text.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum GivenContent {
    Fields {
        #[serde(default)]
        from: String,
        #[serde(default)]
        subject: String,
        #[serde(default)]
        body: String,
        #[serde(default)]
        date: String,
    },
    Text(String),
}

impl GivenContent {
    pub fn into_text(self) -> MailText {
        match self {
            Self::Fields {
                from,
                subject,
                body,
                date,
            } => MailText {
                from: clip_chars(from.trim(), 300),
                subject: clip_chars(subject.trim(), 500),
                date: clip_chars(date.trim(), 100),
                body: body_text(&body),
                message_id: None,
                account_id: None,
            },
            Self::Text(body) => MailText {
                body: body_text(&body),
                ..MailText::default()
            },
        }
    }
}

/// Text of a body that may be HTML (compose's editor) or plain text, clipped.
pub fn body_text(body: &str) -> String {
    let looks_html = body.contains('<') && body.contains('>');
    let text = if looks_html {
        html_to_text(body)
    } else {
        body.replace("\r\n", "\n")
    };
    clip_chars(text.trim(), MAX_BODY_CHARS)
}

pub fn clip_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

fn mail_text(meta: &mstore::MessageMeta, raw: &[u8], max: usize) -> MailText {
    let full = parse::full(raw);
    let body = if full.text.trim().is_empty() && !full.html.is_empty() {
        html_to_text(&full.html)
    } else {
        full.text
    };
    let from = if meta.summary.from_name.trim().is_empty() {
        meta.summary.from.clone()
    } else {
        format!("{} <{}>", meta.summary.from_name.trim(), meta.summary.from)
    };
    MailText {
        from,
        subject: meta.summary.subject.clone(),
        date: emails::view::iso(meta.date),
        body: clip_chars(body.trim(), max),
        message_id: meta.summary.message_id.clone(),
        account_id: Some(meta.account_id),
    }
}

/// Whether the user knows `from`: one of their contacts, or someone they wrote to.
fn known_sender(store: &Store, user_id: u64, from: &str) -> Result<bool> {
    let from = from.trim().to_lowercase();
    if from.is_empty() {
        return Ok(false);
    }
    if crate::contacts::all(store, user_id)?
        .iter()
        .any(|c| c.fields.email.trim().eq_ignore_ascii_case(&from))
    {
        return Ok(true);
    }
    Ok(crate::outgoing::contacts::written_to(store, user_id)?.contains(&from))
}

/// A Message-ID as compared here: without its angle brackets, lower case.
fn id_key(id: &str) -> String {
    id.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_ascii_lowercase()
}

/// A stored mail of the user (404 when it is not theirs), and when `with_context` up to three
/// earlier mails it names (References, In-Reply-To), oldest first; none when its sender is a
/// stranger.
pub fn stored(
    store: &Store,
    user_id: u64,
    id: u64,
    with_context: bool,
) -> Result<(MailText, Vec<MailText>)> {
    let (meta, raw) = emails::get(store, user_id, id)?;
    let mail = mail_text(&meta, &raw, MAX_BODY_CHARS);
    let named: std::collections::HashSet<String> = meta
        .summary
        .references
        .iter()
        .chain(meta.summary.in_reply_to.iter())
        .map(|r| id_key(r))
        .filter(|r| !r.is_empty())
        .collect();
    if !with_context || named.is_empty() || !known_sender(store, user_id, &meta.summary.from)? {
        return Ok((mail, Vec::new()));
    }
    let thread = mstore::thread_hash(&meta.thread_id);
    let stored = MailRead::new(store)?;
    // Mail the user threw away or that is spam is not part of the conversation.
    let skipped: Vec<String> = stored
        .folders(meta.account_id)?
        .into_iter()
        .filter(|f| matches!(f.role.as_str(), "trash" | "junk"))
        .map(|f| f.name)
        .collect();
    let mut earlier: Vec<(i64, u64)> = Vec::new();
    for row in stored.account_rows(meta.account_id)? {
        let row = row?;
        if row.id() != id
            && row.date() <= meta.date
            && row.view().thread() == thread
            && !skipped.iter().any(|s| s == row.folder())
        {
            earlier.push((row.date(), row.id()));
        }
    }
    earlier.sort_unstable();
    let mut context = Vec::new();
    for (_, other) in earlier.iter().rev() {
        if context.len() == MAX_CONTEXT_MAILS {
            break;
        }
        let Some(m) = stored.meta(*other)? else {
            continue;
        };
        // Only a mail this one names (the thread may hold others, joined by subject); a draft is
        // not part of the conversation yet; the same mail in two folders (INBOX and Archive) is
        // told once.
        let Some(its_id) = m.summary.message_id.as_deref().map(id_key) else {
            continue;
        };
        if !named.contains(&its_id)
            || m.draft
            || m.hidden
            || (m.summary.message_id.is_some() && m.summary.message_id == meta.summary.message_id)
        {
            continue;
        }
        if context
            .iter()
            .any(|c: &MailText| c.message_id.is_some() && c.message_id == m.summary.message_id)
        {
            continue;
        }
        let raw = stored.raw(*other)?.unwrap_or_default();
        context.push(mail_text(&m, &raw, MAX_CONTEXT_CHARS));
    }
    context.reverse();
    Ok((mail, context))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_content_is_text_whatever_its_form() {
        let c: GivenContent = serde_json::from_str(
            r#"{"from": "dana@x", "subject": "פגישה", "body": "<p>שלום</p><p>מחר?</p>"}"#,
        )
        .unwrap();
        let t = c.into_text();
        assert_eq!(t.subject, "פגישה");
        assert!(t.body.contains("שלום") && t.body.contains("מחר?") && !t.body.contains('<'));
        let c: GivenContent = serde_json::from_str(r#""רק טקסט""#).unwrap();
        assert_eq!(c.into_text().body, "רק טקסט");
        assert_eq!(clip_chars("אבגד", 2), "אב…");
    }
}
