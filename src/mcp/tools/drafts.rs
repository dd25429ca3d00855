//! `write_reply_draft`: a reply to one of the user's mails, written by the agent as plain text,
//! saved the way the reply panel saves one (`outgoing::drafts::save`): APPENDed to the
//! mailbox's Drafts with `\Draft`, linked to the mail by In-Reply-To and References, or kept in
//! the outbox until the mailbox answers. Never sent: a person reviews and sends it.

use serde_json::{Value, json};

use super::args;
use super::done;
use crate::error::Result;
use crate::outgoing::drafts::{self, Original, SaveRequest};
use crate::state::AppState;

const MAX_BODY: usize = 20_000;

pub fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "email_id": {"type": "string", "description": "The mail to answer."},
            "body": {"type": "string", "description": "The reply, as plain text (paragraphs separated by blank lines).", "maxLength": MAX_BODY},
            "subject": {"type": "string", "description": "Default: \"Re: \" and the mail's subject."}
        },
        "required": ["email_id", "body"],
        "additionalProperties": false
    })
}

/// `write_reply_draft`.
pub async fn write(state: &AppState, user: u64, a: Value) -> Result<Value> {
    let id = args::id(&a, "email_id")?;
    let body = args::required(&a, "body", MAX_BODY)?.to_string();
    let subject = args::text(&a, "subject", 300)?.map(str::to_string);
    let meta = state
        .store_blocking(move |store| Ok(crate::emails::get(store, user, id)?.0))
        .await?;
    let s = &meta.summary;
    let req = SaveRequest {
        original_email: Original {
            id: json!(id),
            message_id: s.message_id.clone(),
            from: s.from.clone(),
            from_name: s.from_name.clone(),
            subject: s.subject.clone(),
        },
        // The agent's text, escaped: it becomes paragraphs, never markup.
        draft_content: crate::mail::sanitize::text_to_html(&body),
        subject,
        to: None,
    };
    let saved = drafts::save(state, user, req).await?;
    Ok(done(json!({
        "draftId": saved.id,
        "savedInMailbox": saved.in_mailbox,
        "inReplyTo": id.to_string(),
        "sent": false,
    })))
}
