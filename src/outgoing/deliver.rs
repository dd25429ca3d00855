//! One outbox item through SMTP and IMAP. A send goes out once (SMTP), then its copy goes into
//! Sent, the draft it came from leaves Drafts and the mail it answers gets \Answered; each
//! stage is recorded so a retry resumes where it stopped. A failure keeps the item with its
//! Hebrew error and a backoff; a permanent refusal waits for the user.

use crate::accounts::{self, AccountRecord};
use crate::error::AppError;
use crate::mail::net::MailError;
use crate::mail::smtp::SendError;
use crate::messages;
use crate::notices::{Notice, Notices, SendFailed};
use crate::state::{AppState, MailChange};
use crate::store::Store;
use crate::sync::{SyncEvent, SyncManager};

use super::mailbox::{self, Mailbox};
use super::mime::{self, Copy};
use super::outbox::{self, Item, Kind, Stage};
use super::{Composed, uploads};

/// Why an attempt failed, for the user.
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    /// Retrying cannot help (the server refused for good, the mailbox is gone).
    pub permanent: bool,
}

impl From<MailError> for Failure {
    fn from(e: MailError) -> Self {
        tracing::warn!(error = %e, "sending: mail server trouble");
        Self {
            message: e.message,
            permanent: false,
        }
    }
}

impl From<SendError> for Failure {
    fn from(e: SendError) -> Self {
        match e {
            SendError::Mail(e) => e.into(),
            SendError::Refused { permanent, reply } => {
                tracing::warn!(%reply, permanent, "sending: refused by the SMTP server");
                Self {
                    message: messages::smtp_refused(&reply),
                    permanent,
                }
            }
        }
    }
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        if let Some(mail) = e.downcast_ref::<MailError>() {
            return mail.clone().into();
        }
        if crate::oauth::sign_in_needed(&e) {
            // Kept and retried: it goes once the user signs in again.
            return Self {
                message: messages::OAUTH_SIGN_IN_NEEDED.into(),
                permanent: false,
            };
        }
        tracing::warn!(error = %format!("{e:#}"), "sending: mailbox trouble");
        Self {
            message: messages::MAILBOX_UNAVAILABLE.into(),
            permanent: false,
        }
    }
}

impl From<AppError> for Failure {
    fn from(e: AppError) -> Self {
        Self {
            message: e.user_message(),
            permanent: !matches!(e, AppError::Internal(_)),
        }
    }
}

/// The bytes of a mail, with its attachments read from the uploads. The attachments are checked
/// again (each once, within the limits) before any is read: an entry queued before a limit, or
/// by an older version, fails on its own with a message and never takes the server down.
pub fn build(
    store: &Store,
    user_id: u64,
    mail: &Composed,
    copy: Copy,
    date: i64,
    limits: &uploads::Limits,
) -> Result<Vec<u8>, AppError> {
    let ids = uploads::checked(store, user_id, &mail.attachments, limits)?;
    let attachments: Vec<mime::Attachment> = uploads::load(store, user_id, &ids)?
        .into_iter()
        .map(|(u, data)| mime::Attachment {
            name: u.name,
            content_type: u.content_type,
            data,
        })
        .collect();
    let mut extra: Vec<(&str, String)> = Vec::new();
    if mail.auto_reply && copy == Copy::Kept {
        extra.push((super::AUTO_REPLY_HEADER, "yes".to_string()));
    }
    if mail.auto_forwarded {
        extra.push(("Auto-Submitted", "auto-forwarded".to_string()));
        extra.push((super::FORWARDED_HEADER, mail.from.email.clone()));
    }
    Ok(mime::build(
        &mime::Message {
            from: &mail.from,
            to: &mail.to,
            cc: &mail.cc,
            bcc: &mail.bcc,
            subject: &mail.subject,
            html: &mail.html,
            priority: &mail.priority,
            message_id: &mail.message_id,
            in_reply_to: mail.in_reply_to.as_deref(),
            references: &mail.references,
            date: time::OffsetDateTime::from_unix_timestamp(date)
                .unwrap_or_else(|_| time::OffsetDateTime::now_utc()),
            attachments: &attachments,
            extra: &extra,
            calendar: mail.calendar.as_ref(),
        },
        copy,
    ))
}

fn limits(state: &AppState) -> uploads::Limits {
    uploads::Limits::from(&state.config.compose)
}

/// Works one claimed item and writes the outcome back.
pub async fn run(state: &AppState, mut item: Item) {
    let outcome = match item.kind {
        Kind::Send => send(state, &mut item).await,
        Kind::Draft => save_draft(state, &mut item).await,
    };
    let store = state.store.clone();
    let (user_id, account_id) = (item.user_id, item.account_id);
    let kind = item.kind;
    let failed = failed_notice(&item, &outcome);
    let written = tokio::task::spawn_blocking(move || match outcome {
        Ok(()) => outbox::finish(&store, &item),
        Err(f) => {
            item.attempts += 1;
            item.retry = !f.permanent;
            item.next_try = Some(super::now() + outbox::backoff_secs(item.attempts));
            item.last_error = Some(if item.stage == Stage::CopyToSent {
                format!("{} ({})", messages::SENT_COPY_PENDING, f.message)
            } else {
                f.message
            });
            outbox::release(&store, item)
        }
    })
    .await;
    if let Ok(Err(e)) | Err(e) = written.map_err(AppError::internal) {
        tracing::error!(error = %e, "cannot write an outbox item back");
    }
    if let Some(notice) = failed {
        state
            .service::<Notices>()
            .send(user_id, Notice::SendFailed(notice));
    }
    notify(state, user_id, account_id, MailChange::Outbox);
    if kind == Kind::Draft {
        notify(state, user_id, account_id, MailChange::Drafts);
    }
}

/// The notice of a scheduled mail that failed: once, at its first failure (or when the
/// outbox gives up on it), not at every retry.
fn failed_notice(item: &Item, outcome: &Result<(), Failure>) -> Option<SendFailed> {
    let Err(f) = outcome else { return None };
    let first = item.attempts == 0 || f.permanent;
    (item.kind == Kind::Send && item.scheduled && first).then(|| SendFailed {
        id: item.id.to_string(),
        subject: item.mail.subject.clone(),
        to: item.mail.to.iter().map(|m| m.email.clone()).collect(),
        message: f.message.clone(),
        retrying: !f.permanent,
    })
}

pub fn notify(state: &AppState, user_id: u64, account_id: u64, reason: MailChange) {
    state.service::<SyncManager>().notify(SyncEvent::Changed {
        user_id,
        account_id,
        reason,
    });
}

/// The item's mailbox; gone (disconnected) is a failure retrying cannot fix.
fn account_of(store: &Store, item: &Item) -> Result<AccountRecord, Failure> {
    accounts::get(store, item.account_id)?.ok_or(Failure {
        message: messages::MAIL_NOT_CONNECTED.into(),
        permanent: true,
    })
}

async fn send(state: &AppState, item: &mut Item) -> Result<(), Failure> {
    let store = &state.store;
    let sync = state.service::<SyncManager>();
    let shared = sync.shared();
    let account = account_of(store, item)?;
    if item.stage == Stage::Deliver {
        let sent_at = super::now();
        let wire = build(
            store,
            item.user_id,
            &item.mail,
            Copy::Wire,
            sent_at,
            &limits(state),
        )?;
        let endpoint = account.smtp_endpoint(shared.timeout, &shared.hosts);
        let mut smtp = shared
            .oauth
            .smtp(&shared.tls, &endpoint, &account)
            .await
            .map_err(Failure::from)?;
        let sent = tokio::time::timeout(
            shared.timeout * 4,
            smtp.send(&item.mail.from.email, &item.mail.recipients(), &wire),
        )
        .await
        .map_err(|_| Failure {
            message: messages::mail_timeout(&account.servers.smtp_server),
            permanent: false,
        })?;
        sent?;
        smtp.quit().await;
        tracing::info!(item = item.id, account = account.id, "mail sent");
        item.stage = Stage::CopyToSent;
        item.sent_at = Some(sent_at);
        let (s, snapshot) = (store.clone(), item.clone());
        // Recorded at once: whatever happens next, it is never sent a second time.
        tokio::task::spawn_blocking(move || outbox::record(&s, &snapshot))
            .await
            .map_err(anyhow::Error::from)??;
        notify(state, item.user_id, item.account_id, MailChange::Outbox);
    }
    let mut mb = Mailbox::open(shared, store, &account).await?;
    let result = async {
        if !mailbox::provider_keeps_sent(&account) {
            let folder = mb.folder("sent").await?;
            // The copy says when it was sent, however late it is filed.
            let date = item.sent_at.unwrap_or_else(super::now);
            let kept = build(
                store,
                item.user_id,
                &item.mail,
                Copy::Kept,
                date,
                &limits(state),
            )?;
            mb.append_once(&folder, false, &kept, &item.mail.message_id)
                .await?;
        }
        if let Some(draft) = item.draft_copy.clone() {
            mb.expunge(&draft).await?;
            notify(state, item.user_id, item.account_id, MailChange::Drafts);
        }
        if let Some(original) = item.mail.original_id
            && let Err(e) = mb.mark_answered(original).await
        {
            // Only a flag: the mail is sent and filed.
            tracing::warn!(error = %format!("{e:#}"), "cannot mark the original answered");
        }
        Ok::<_, Failure>(())
    }
    .await;
    mb.close().await;
    result?;
    notify(state, item.user_id, item.account_id, MailChange::Sync);
    Ok(())
}

async fn save_draft(state: &AppState, item: &mut Item) -> Result<(), Failure> {
    let store = &state.store;
    let account = account_of(store, item)?;
    let sync = state.service::<SyncManager>();
    let mut mb = Mailbox::open(sync.shared(), store, &account).await?;
    let result = async {
        let folder = mb.folder("drafts").await?;
        let raw = build(
            store,
            item.user_id,
            &item.mail,
            Copy::Kept,
            super::now(),
            &limits(state),
        )?;
        mb.append_once(&folder, true, &raw, &item.mail.message_id)
            .await?;
        // The version this one replaces (an edit made while the mailbox was away).
        if let Some(old) = item.draft_copy.clone() {
            mb.expunge(&old).await?;
        }
        Ok::<_, Failure>(())
    }
    .await;
    mb.close().await;
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outgoing::Composed;
    use crate::outgoing::mime::Mailbox as Address;

    fn item(scheduled: bool, attempts: u32, kind: Kind) -> Item {
        let mail = Composed {
            to: vec![Address {
                name: "נועה".into(),
                email: "noa@example.test".into(),
            }],
            subject: "הזמנה".into(),
            ..Composed::default()
        };
        let mut item = Item::new(1, 1, kind, mail, 0);
        item.scheduled = scheduled;
        item.attempts = attempts;
        item
    }

    fn failure(permanent: bool) -> Result<(), Failure> {
        Err(Failure {
            message: "השרת דחה".into(),
            permanent,
        })
    }

    /// A scheduled send is announced at its first failure and when the outbox gives up, never
    /// at a retry; a queued send, a draft and a success are not announced.
    #[test]
    fn a_failed_scheduled_send_is_announced_once() {
        let first = failed_notice(&item(true, 0, Kind::Send), &failure(false)).unwrap();
        assert_eq!((first.subject.as_str(), first.retrying), ("הזמנה", true));
        assert_eq!(first.to, ["noa@example.test"]);
        assert!(failed_notice(&item(true, 2, Kind::Send), &failure(false)).is_none());
        assert!(
            !failed_notice(&item(true, 2, Kind::Send), &failure(true))
                .unwrap()
                .retrying
        );
        assert!(failed_notice(&item(false, 0, Kind::Send), &failure(false)).is_none());
        assert!(failed_notice(&item(true, 0, Kind::Draft), &failure(false)).is_none());
        assert!(failed_notice(&item(true, 0, Kind::Send), &Ok(())).is_none());
    }
}
