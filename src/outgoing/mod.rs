//! Mail we write: sending (SMTP, then a copy in Sent), drafts in the mailbox's Drafts folder,
//! scheduled send, undo send, and the outbox that keeps every one of them until the mailbox has
//! it. Nothing the user wrote lives only in a request: it is in the store (the outbox) before
//! the request answers, and leaves the outbox only when the mailbox holds it.
//!
//! - `request`: the JSON the compose page and reply panel send, checked and turned into a
//!   [`Composed`] mail.
//! - `mime`: the bytes (Hebrew-safe headers, `dir` on the HTML, a text alternative).
//! - `outbox`: the durable queue; `scheduler`: the in-process task that works it.
//! - `mailbox`: the IMAP side (APPEND to Drafts/Sent, expunging a draft, \Answered).
//! - `deliver`: one outbox item through SMTP and IMAP, with retry and backoff.
//! - `drafts`, `uploads`, `contacts`: the drafts page, attachments, compose's address book.
//!
//! An item's life in the outbox: a send waits `[compose] undo_send_secs` (undo is `POST
//! /api/outbox/{id}/undo`), a scheduled mail its time (its copy waits in Drafts), a failed one its
//! backoff (`outbox::backoff_secs`: 30 s doubling up to 30 min; a permanent SMTP refusal waits for
//! the user). `deliver` records `Stage::CopyToSent` as soon as SMTP accepted, so a retry never
//! sends twice. A draft the mailbox cannot take now waits as `Kind::Draft` and is listed with
//! `savedInGmail: false`. Drafts link to their original by In-Reply-To (the drafts list finds it
//! through the thread hash). Ids taken from stored mail into In-Reply-To/References go through
//! `mime::msg_id`, and `mime::build` filters them again, so a bare CR in a stored header never
//! reaches a mail we write.

pub mod contacts;
pub mod deliver;
pub mod drafts;
pub mod mailbox;
pub mod mime;
pub mod outbox;
pub mod request;
pub mod routes;
pub mod scheduler;
pub mod uploads;

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::accounts::{self, AccountRecord};
use crate::error::{AppError, Result};
use crate::feature::{Feature, need};
use crate::forget::{self, Step};
use crate::jobs::Spec;
use crate::messages;
use crate::store::Store;
pub use mime::{CalendarPart, Mailbox};
pub use routes::router;

/// Mail we write: routes, the outbox's and the uploads' forget steps, the outbox's jobs, and
/// the outbox itself (woken after an account is forgotten, so it drops what went).
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    forget: &[
        Step {
            name: "outbox",
            account: outbox::forget_account,
            user: outbox::forget_user,
        },
        Step {
            name: "attachments",
            account: forget::nothing,
            user: uploads::forget_user,
        },
    ],
    jobs: |_| {
        vec![
            Spec::due(scheduler::SEND, scheduler::pass),
            Spec::new(
                scheduler::SWEEP,
                Duration::from_secs(3600),
                scheduler::sweep_uploads,
            ),
        ]
    },
    init: |setup| {
        let outbox = Outbox::new();
        setup.on_forget(outbox.clone());
        setup.provide(outbox)
    },
    prepare: scheduler::prepare,
    needs: &[
        need::<Outbox>,
        need::<crate::sync::SyncManager>,
        need::<crate::notices::Notices>,
    ],
    ..Feature::named("outgoing")
};

/// A mail as the user wrote it, ready to build: what the outbox keeps.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Composed {
    pub from: Mailbox,
    pub to: Vec<Mailbox>,
    #[serde(default)]
    pub cc: Vec<Mailbox>,
    #[serde(default)]
    pub bcc: Vec<Mailbox>,
    pub subject: String,
    /// Sanitized HTML from the editor.
    pub html: String,
    /// low, medium, high, urgent.
    #[serde(default)]
    pub priority: String,
    pub message_id: String,
    #[serde(default)]
    pub in_reply_to: Option<String>,
    #[serde(default)]
    pub references: Vec<String>,
    /// The stored mail this answers, to mark it \Answered once sent.
    #[serde(default)]
    pub original_id: Option<u64>,
    /// Upload ids.
    #[serde(default)]
    pub attachments: Vec<u64>,
    /// Written by the auto-reply monitor: the copy in Drafts says so (`AUTO_REPLY_HEADER`), so
    /// the pending-replies page shows its badge and the monitor can find and clear it.
    #[serde(default)]
    pub auto_reply: bool,
    /// An iMIP calendar object (an answer to an invitation, RFC 6047): sent as the
    /// alternative's `text/calendar` part, beside the text and HTML.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calendar: Option<CalendarPart>,
    /// Written by a forward rule: marked `Auto-Submitted: auto-forwarded` (RFC 3834) and with
    /// [`FORWARDED_HEADER`], so no rule of ours forwards it again.
    #[serde(default)]
    pub auto_forwarded: bool,
}

/// The header that marks a forward a rule wrote, naming the user whose rule it was: no rule of
/// ours forwards such a mail again (`rules::forwarding`).
pub const FORWARDED_HEADER: &str = "X-Mailclient-Forwarded";

/// The header that marks a draft the auto-reply monitor wrote (kept copies only, never sent).
pub const AUTO_REPLY_HEADER: &str = "X-Mailclient-Auto-Reply";

impl Composed {
    /// A new mail the application writes to one address (a form's notice, a rule's forward):
    /// no copies, no thread, no attachments, medium priority.
    pub fn to_one(from: Mailbox, to: &str, subject: String, html: String) -> Self {
        Self {
            message_id: mime::new_message_id(&from.email),
            from,
            to: vec![Mailbox {
                name: String::new(),
                email: to.to_string(),
            }],
            cc: Vec::new(),
            bcc: Vec::new(),
            subject,
            html,
            priority: "medium".into(),
            in_reply_to: None,
            references: Vec::new(),
            original_id: None,
            attachments: Vec::new(),
            auto_reply: false,
            auto_forwarded: false,
            calendar: None,
        }
    }

    /// Everyone on the envelope.
    pub fn recipients(&self) -> Vec<String> {
        let mut all: Vec<String> = Vec::new();
        for m in self.to.iter().chain(&self.cc).chain(&self.bcc) {
            if !all.iter().any(|a| a.eq_ignore_ascii_case(&m.email)) {
                all.push(m.email.clone());
            }
        }
        all
    }
}

/// The shared outbox service: the scheduler waits on `wake`.
pub struct Outbox {
    pub wake: tokio::sync::Notify,
}

impl Outbox {
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            wake: tokio::sync::Notify::new(),
        })
    }
}

/// After an account is forgotten the outbox runs, and finds its queued mail gone.
impl forget::Hooks for Outbox {
    fn forgotten(&self, _: &[u64]) {
        self.wake.notify_one();
    }
}

/// The mailbox a user writes from: the one that received the mail being answered, else the one
/// whose address `from` names, else their first.
pub fn sending_account(
    store: &Store,
    user_id: u64,
    from: Option<&str>,
    original: Option<u64>,
) -> Result<AccountRecord> {
    let all = accounts::list_for_user(store, user_id)?;
    if let Some((meta, _)) = original.and_then(|id| crate::emails::get(store, user_id, id).ok())
        && let Some(account) = all.iter().find(|a| a.id == meta.account_id)
        && !account.is_local()
    {
        return Ok(account.clone());
    }
    let chosen = from
        .and_then(Mailbox::parse)
        .and_then(|m| {
            all.iter()
                .find(|a| a.email.eq_ignore_ascii_case(&m.email))
                .cloned()
        })
        .or_else(|| all.iter().find(|a| !a.is_local()).cloned())
        .or_else(|| all.into_iter().next())
        .ok_or_else(|| AppError::BadRequest(messages::MAIL_NOT_CONNECTED.into()))?;
    if chosen.is_local() {
        return Err(AppError::BadRequest(
            messages::LOCAL_ACCOUNT_NO_SERVER.into(),
        ));
    }
    Ok(chosen)
}

/// When a mail sent now may go: after the whole undo delay. The store keeps whole seconds, so
/// a part-second is rounded up: the server never sends while the page still offers "undo".
pub fn undo_deadline(undo_secs: u64) -> i64 {
    if undo_secs == 0 {
        return now();
    }
    now() + undo_secs as i64 + 1
}

/// Who a mail is from: the mailbox's address with the app user's name.
pub fn sender(store: &Store, user_id: u64, account: &AccountRecord) -> Mailbox {
    let name = crate::auth::users::get(store, user_id)
        .ok()
        .flatten()
        .map(|u| u.name)
        .unwrap_or_default();
    Mailbox {
        name,
        email: account.email.clone(),
    }
}

pub use crate::kit::{iso, now};

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    request::MailRequest,
    drafts::SaveRequest,
    drafts::Original,
    drafts::UpdateRequest,
    routes::SendResponse,
    routes::OutboxResponse,
    outbox::OutboxItem,
    outbox::Kind,
    outbox::State,
    outbox::OutboxMail,
    routes::UpdateOutboxResponse,
    routes::UndoSendResponse,
    routes::RetryOutboxResponse,
    uploads::UploadedAttachment,
    routes::DraftsResponse,
    drafts::Draft,
    drafts::DraftOriginal,
    drafts::DraftSaved,
    routes::SaveDraftResponse,
    routes::UpdateDraftResponse,
    routes::DeleteDraftResponse,
    routes::DeleteAllDraftsResponse,
    routes::ContactsResponse,
    contacts::ComposeContact,
);
