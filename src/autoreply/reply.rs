//! Writing one auto-reply: the user's AI provider drafts it (the card's tone, length and
//! creativity over the AI-training settings, in the mail's language), and it goes into the
//! mailbox's Drafts as a `\Draft` marked as an auto-reply, threaded to the original. Its
//! Message-ID is derived from the user and the mail, and Drafts is searched for it before the
//! APPEND: a try cut short by a crash (after the provider answered, after the APPEND) never
//! leaves a second draft.

use axum::http::HeaderMap;
use sha2::{Digest, Sha256};

use super::settings::{Length, Settings, Tone};
use crate::accounts::AccountRecord;
use crate::ai::{self, answer, prompts, source};
use crate::mail::parse;
use crate::mailstore::MessageMeta;
use crate::outgoing::drafts::reply_subject;
use crate::outgoing::mailbox::Mailbox as ImapMailbox;
use crate::outgoing::{self, Composed, deliver, mime, uploads};
use crate::state::{AppState, MailChange};

/// What the provider is told besides the mail: a first answer for the user to review.
const INSTRUCTIONS: &str = "This reply is drafted automatically and the user will review it \
before sending. Answer what the email asks when the email itself gives the answer; otherwise \
acknowledge it and say the user will reply soon. Never promise, agree to, or decide anything on \
the user's behalf.";

/// The draft's Message-ID: the same for the same user and mail.
pub fn draft_message_id(user_id: u64, key: &str, from: &str) -> String {
    let digest = Sha256::digest(format!("{user_id}\n{key}").as_bytes());
    let domain = from
        .rsplit_once('@')
        .map(|(_, d)| d)
        .filter(|d| {
            !d.is_empty()
                && d.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
        })
        .unwrap_or("mailclient.local");
    format!("<autoreply.{}@{domain}>", hex::encode(&digest[..12]))
}

fn words(length: Length) -> u32 {
    match length {
        Length::Short => 60,
        Length::Medium => 150,
        Length::Long => 300,
    }
}

fn tone(t: Tone) -> &'static str {
    match t {
        Tone::Professional => "professional",
        Tone::Friendly => "friendly",
        Tone::Formal => "formal",
    }
}

/// The domain of an address, lower case.
fn domain(address: &str) -> String {
    address
        .trim()
        .rsplit_once('@')
        .map_or("", |(_, d)| d)
        .trim_end_matches('>')
        .to_ascii_lowercase()
}

/// What was written: the draft's Message-ID, and its Reply-To when that is of another domain
/// than the sender's (flagged in the activity: anyone can write a Reply-To).
#[derive(Debug)]
pub struct Written {
    pub message_id: String,
    pub reply_to_elsewhere: Option<String>,
}

/// Who the answer goes to: Reply-To when the mail has one, else From.
fn reply_to(meta: &MessageMeta, raw: &[u8]) -> outgoing::Mailbox {
    let given = parse::parse_guarded(raw).and_then(|m| {
        m.reply_to().and_then(|a| a.first()).and_then(|a| {
            Some((
                a.name().unwrap_or_default().to_string(),
                a.address()?.to_string(),
            ))
        })
    });
    let (name, email) = match given {
        Some((n, e)) if mime::valid_address(e.trim()) => (n, e.trim().to_string()),
        _ => (
            meta.summary.from_name.clone(),
            meta.summary.from.trim().to_string(),
        ),
    };
    outgoing::Mailbox {
        name: name.trim().to_string(),
        email,
    }
}

/// Writes the draft answering `meta` (unless Drafts has it already). Returns what it wrote, or
/// the reason it could not (Hebrew).
pub async fn write(
    state: &AppState,
    user_id: u64,
    account: &AccountRecord,
    meta: &MessageMeta,
    raw: &[u8],
    key: &str,
    settings: &Settings,
) -> Result<Written, String> {
    let mut prepared = ai::prepare(state, user_id, &ai::Extras::default(), &HeaderMap::new())
        .await
        .map_err(|e| e.user_message())?;
    prepared.training.tone = tone(settings.auto_reply_tone).into();
    prepared.training.max_length = words(settings.auto_reply_length);
    prepared.training.creativity = f64::from(settings.auto_reply_creativity);
    let with_context = prepared.training.include_context;
    let id = meta.id;
    let (mail, context) = state
        .store_blocking(move |store| source::stored(store, user_id, id, with_context))
        .await
        .map_err(|e| e.user_message())?;
    let ask = prompts::smart_reply(
        &prepared.training,
        None,
        &mail,
        &context,
        Some(INSTRUCTIONS),
        prepared.address(Some(account.id)),
    );
    // The draft reads in the direction of the language it was asked in.
    let language = prompts::answer_language(
        &prepared.training,
        &format!("{} {}", mail.subject, mail.body),
    );
    let text = state
        .service::<ai::Ai>()
        .complete(user_id, &prepared.endpoint, &ask)
        .await
        .and_then(|t| answer::plain(&t))
        .map_err(|f| f.reason())?;

    let (acc, to) = (account.clone(), reply_to(meta, raw));
    let reply_to_elsewhere =
        (domain(&to.email) != domain(&meta.summary.from)).then(|| to.email.clone());
    let from = state
        .store_blocking(move |store| Ok(outgoing::sender(store, user_id, &acc)))
        .await
        .map_err(|e| e.user_message())?;
    let message_id = draft_message_id(user_id, key, &from.email);
    // The ids of received mail: filtered like any id taken into a header.
    let parent = meta
        .summary
        .message_id
        .as_deref()
        .and_then(outgoing::mime::msg_id);
    let mut references: Vec<String> = meta
        .summary
        .references
        .iter()
        .filter_map(|r| outgoing::mime::msg_id(r))
        .collect();
    if let Some(p) = &parent
        && !references.contains(p)
    {
        references.push(p.clone());
    }
    let composed = Composed {
        from,
        to: vec![to],
        cc: Vec::new(),
        bcc: Vec::new(),
        subject: reply_subject(&meta.summary.subject),
        html: crate::ai::routes::editor_html_in(&text, language),
        priority: "medium".into(),
        message_id: message_id.clone(),
        in_reply_to: parent,
        references,
        original_id: Some(meta.id),
        attachments: Vec::new(),
        auto_reply: true,
        calendar: None,
        auto_forwarded: false,
    };
    append_once(state, user_id, account, &composed)
        .await
        .map_err(|e| deliver::Failure::from(e).message)?;
    Ok(Written {
        message_id,
        reply_to_elsewhere,
    })
}

/// APPENDs to Drafts unless a draft with the same Message-ID is there.
async fn append_once(
    state: &AppState,
    user_id: u64,
    account: &AccountRecord,
    mail: &Composed,
) -> anyhow::Result<()> {
    let mut mb = ImapMailbox::of_state(state, account).await?;
    let result = async {
        let folder = mb.folder("drafts").await?;
        if mb.holds(&folder, &mail.message_id).await? {
            tracing::info!(user_id, "auto-reply: the draft is in Drafts already");
            return Ok(());
        }
        let raw = deliver::build(
            &state.store,
            user_id,
            mail,
            mime::Copy::Kept,
            outgoing::now(),
            &uploads::Limits::from(&state.config.compose),
        )?;
        mb.append(&folder, true, true, &raw, &mail.message_id)
            .await?;
        Ok::<_, anyhow::Error>(())
    }
    .await;
    mb.close().await;
    deliver::notify(state, user_id, account.id, MailChange::Drafts);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_draft_id_is_stable_per_user_and_mail() {
        let a = draft_message_id(1, "3:<m@x>", "me@home.test");
        assert_eq!(a, draft_message_id(1, "3:<m@x>", "me@home.test"));
        assert_ne!(a, draft_message_id(2, "3:<m@x>", "me@home.test"));
        assert_ne!(a, draft_message_id(1, "3:<n@x>", "me@home.test"));
        assert!(a.starts_with("<autoreply.") && a.ends_with("@home.test>"));
        assert!(draft_message_id(1, "k", "broken").ends_with("@mailclient.local>"));
    }
}
