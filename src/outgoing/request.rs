//! The JSON the compose page, the reply panel and the outbox editor send (spec 000 §3 Compose
//! output and Reply send payload), checked (spec 000 §5) and turned into a [`Composed`] mail.

use serde::Deserialize;
use serde_json::Value;
use ts_rs::TS;

use super::mime::{self, Mailbox};
use super::{Composed, uploads};
use crate::error::{AppError, Result};
use crate::messages;
use crate::store::Store;

/// Most addresses one mail may go to (a typo'd paste must not become a mass mailing).
const MAX_RECIPIENTS: usize = 100;

/// The mail as written. Recipients and ids stay free-form JSON here: [`addresses`] and [`id_of`]
/// read them, so a wrong shape gets the Hebrew message, not a parse error.
#[derive(Debug, Default, Deserialize, TS)]
#[serde(default, rename_all = "camelCase")]
#[ts(rename = "OutgoingMail", optional_fields)]
pub struct MailRequest {
    /// A list, or one string of comma-separated addresses (the reply payload's `to`).
    #[ts(type = "string | Array<string | { name?: string, email: string }>")]
    pub to: Value,
    #[ts(
        optional = nullable,
        type = "string | Array<string | { name?: string, email: string }>"
    )]
    pub cc: Value,
    #[ts(
        optional = nullable,
        type = "string | Array<string | { name?: string, email: string }>"
    )]
    pub bcc: Value,
    pub subject: String,
    /// HTML from the editor.
    pub body: String,
    /// low, medium (default), normal, high, urgent.
    pub priority: Option<String>,
    #[serde(rename = "from_name")]
    pub from_name: Option<String>,
    /// Which of the user's mailboxes (by address); the first one otherwise.
    pub from: Option<String>,
    pub original_message_id: Option<String>,
    pub in_reply_to: Option<String>,
    #[ts(as = "Option<Vec<String>>")]
    pub references: Vec<String>,
    /// The local id of the mail replied to.
    #[ts(optional = nullable, type = "string | number")]
    pub original_id: Value,
    /// Upload ids (`POST /api/attachments`).
    #[ts(optional = nullable, type = "Array<string | number>")]
    pub attachments: Vec<Value>,
    /// `sent` (default) or `drafts`.
    pub folder: Option<String>,
    /// RFC 3339: schedules the mail.
    #[serde(rename = "snoozed_until")]
    pub snoozed_until: Option<String>,
}

impl MailRequest {
    pub fn wants_draft(&self) -> bool {
        self.folder.as_deref() == Some("drafts")
    }

    /// The scheduled time, if any; in the past is an error.
    pub fn schedule(&self, now: i64) -> Result<Option<i64>> {
        let Some(text) = self
            .snoozed_until
            .as_deref()
            .filter(|s| !s.trim().is_empty())
        else {
            return Ok(None);
        };
        let at = time::OffsetDateTime::parse(
            text.trim(),
            &time::format_description::well_known::Rfc3339,
        )
        .map_err(|_| AppError::bad_request(messages::SCHEDULE_INVALID))?
        .unix_timestamp();
        // A minute of grace: "in one hour" picked just before the hour must not be refused.
        if at < now - 60 {
            return Err(AppError::bad_request(messages::SCHEDULE_IN_PAST));
        }
        Ok(Some(at))
    }
}

/// Splits `a@x, "Cohen, Dana" <d@y>; b@z` on commas and semicolons outside quotes and brackets.
pub fn split_addresses(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut quoted, mut angle) = (false, false);
    let mut current = String::new();
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            '<' if !quoted => angle = true,
            '>' if !quoted => angle = false,
            ',' | ';' if !quoted && !angle => {
                out.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    out.push(current);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Recipients as a list, one comma-separated string, or `{name, email}` objects; each checked.
pub fn addresses(value: &Value) -> Result<Vec<Mailbox>> {
    let items: Vec<String> = match value {
        Value::Null => Vec::new(),
        Value::String(s) => split_addresses(s),
        Value::Array(list) => list
            .iter()
            .flat_map(|v| match v {
                Value::String(s) => split_addresses(s),
                // {name, email} as the address book gives them.
                Value::Object(o) => {
                    let email = o.get("email").and_then(Value::as_str).unwrap_or_default();
                    let name = o.get("name").and_then(Value::as_str).unwrap_or_default();
                    vec![if name.is_empty() {
                        email.to_string()
                    } else {
                        format!("\"{}\" <{email}>", name.replace('"', ""))
                    }]
                }
                _ => Vec::new(),
            })
            .collect(),
        _ => {
            return Err(AppError::bad_request(messages::address_invalid(
                &value.to_string(),
            )));
        }
    };
    items
        .iter()
        .map(|s| {
            Mailbox::parse(s).ok_or_else(|| AppError::bad_request(messages::address_invalid(s)))
        })
        .collect()
}

pub fn id_of(value: &Value) -> Option<u64> {
    match value {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

/// The user's HTML made safe to keep and send: the same sanitizer the reading pane uses, with
/// remote images kept (the user put them there).
pub fn clean_html(html: &str) -> String {
    let html = html.trim();
    if html.is_empty() {
        return String::new();
    }
    // Plain text (the reply payload may carry it) becomes paragraphs.
    if !html.contains('<') {
        return crate::mail::sanitize::text_to_html(html);
    }
    crate::mail::sanitize::sanitize(html, true, &|_| None).html
}

/// A subject as one line: trimmed, no control characters (no header injection).
pub fn clean_subject(subject: &str) -> String {
    subject.trim().chars().filter(|c| !c.is_control()).collect()
}

/// Whether a body has anything to read (text or an image).
pub fn has_content(html: &str) -> bool {
    !crate::mail::preview::strip_html(html).trim().is_empty() || html.contains("<img")
}

/// Resolves a request into a mail from `from`. `draft` relaxes "recipient, subject and body
/// are required" to "something is written" (a real client saves half-written drafts).
pub fn compose(
    store: &Store,
    user_id: u64,
    from: Mailbox,
    req: &MailRequest,
    draft: bool,
    limits: &uploads::Limits,
) -> Result<Composed> {
    let to = addresses(&req.to)?;
    let cc = addresses(&req.cc)?;
    let bcc = addresses(&req.bcc)?;
    let html = clean_html(&req.body);
    let subject = clean_subject(&req.subject);
    let nobody = to.is_empty() && cc.is_empty() && bcc.is_empty();
    if draft {
        if nobody && subject.is_empty() && !has_content(&html) {
            return Err(AppError::bad_request(messages::DRAFT_EMPTY));
        }
    } else if nobody || subject.is_empty() || !has_content(&html) {
        return Err(AppError::bad_request(messages::COMPOSE_FIELDS_REQUIRED));
    }
    if to.len() + cc.len() + bcc.len() > MAX_RECIPIENTS {
        return Err(AppError::bad_request(messages::TOO_MANY_RECIPIENTS));
    }
    let priority = req.priority.clone().unwrap_or_else(|| "medium".into());
    if !["low", "medium", "normal", "high", "urgent"].contains(&priority.as_str()) {
        return Err(AppError::bad_request(messages::PRIORITY_INVALID));
    }
    let mut named = Vec::new();
    for v in &req.attachments {
        named.push(
            id_of(v)
                .or_else(|| v.get("id").and_then(id_of))
                .ok_or_else(|| AppError::bad_request(messages::UPLOAD_NOT_FOUND))?,
        );
    }
    let attachments = uploads::checked(store, user_id, &named, limits)?;
    let original_id = id_of(&req.original_id);
    let (in_reply_to, references) = threading(store, user_id, req, original_id);
    let name = req
        .from_name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_string)
        .unwrap_or(from.name.clone());
    let from = Mailbox { name, ..from };
    Ok(Composed {
        message_id: mime::new_message_id(&from.email),
        from,
        to,
        cc,
        bcc,
        subject,
        html,
        priority,
        in_reply_to,
        references,
        original_id,
        attachments,
        auto_reply: false,
        auto_forwarded: false,
    })
}

/// In-Reply-To and References: as given, else from the original (its References, then its
/// Message-ID), so a reply threads in every client.
fn threading(
    store: &Store,
    user_id: u64,
    req: &MailRequest,
    original_id: Option<u64>,
) -> (Option<String>, Vec<String>) {
    let bracket = crate::outgoing::mime::msg_id;
    let original = original_id.and_then(|id| crate::emails::get(store, user_id, id).ok());
    let parent = req
        .in_reply_to
        .as_deref()
        .or(req.original_message_id.as_deref())
        .and_then(bracket)
        .or_else(|| {
            original
                .as_ref()
                .and_then(|(m, _)| m.summary.message_id.as_deref().and_then(bracket))
        });
    let mut references: Vec<String> = req.references.iter().filter_map(|r| bracket(r)).collect();
    if references.is_empty()
        && let Some((m, _)) = &original
    {
        references = m
            .summary
            .references
            .iter()
            .filter_map(|r| bracket(r))
            .collect();
    }
    if let Some(p) = &parent
        && !references.contains(p)
    {
        references.push(p.clone());
    }
    (parent, references)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_strings_split_outside_quotes() {
        assert_eq!(
            split_addresses("a@x.com, \"Cohen, Dana\" <d@y.com>; b@z.com,"),
            ["a@x.com", "\"Cohen, Dana\" <d@y.com>", "b@z.com"]
        );
    }

    #[test]
    fn schedule_in_the_past_is_refused() {
        let req = MailRequest {
            snoozed_until: Some("2020-01-01T09:00:00+02:00".into()),
            ..Default::default()
        };
        assert!(req.schedule(1_790_000_000).is_err());
        let req = MailRequest {
            snoozed_until: Some("2026-11-23T09:00:00+02:00".into()),
            ..Default::default()
        };
        assert_eq!(req.schedule(1_700_000_000).unwrap(), Some(1_795_417_200));
    }

    #[test]
    fn plain_text_bodies_become_paragraphs_and_scripts_go() {
        assert_eq!(
            clean_html("שלום\n\nעולם"),
            "<p dir=\"auto\">שלום</p><p dir=\"auto\">עולם</p>"
        );
        let html = clean_html(
            "<p dir=\"rtl\" style=\"text-align: center\">x<script>alert(1)</script></p>",
        );
        assert!(!html.contains("script"), "{html}");
        assert!(html.contains("dir=\"rtl\""), "{html}");
        assert!(!has_content("<p> </p>"));
    }
}
