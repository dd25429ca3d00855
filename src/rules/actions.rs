//! Carrying out a rule's actions on one stored mail, through the features that own each
//! change: triage for statuses, moves, labels and Trash, the flags for read and starred, the
//! outbox for a forward (the original attached as message/rfc822, through the user's SMTP).
//! Each action's outcome is reported for the rule's activity list; one failing does not stop
//! the others.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::model::{Action, ActionKind, StoredRule};
use crate::emails::{self, triage};
use crate::error::Result;
use crate::hooks::Hooks;
use crate::outgoing::outbox::{self, Item, Kind};
use crate::outgoing::{self, Composed, Mailbox, mime, uploads};
use crate::state::AppState;
use crate::store::Store;

/// What the actions need besides the store: the attachment limits of a forward, and the seams a
/// status change goes through (a marking as spam trains spam detection).
pub struct Tools {
    pub limits: uploads::Limits,
    pub hooks: Hooks,
}

impl Tools {
    pub fn of(state: &AppState) -> Self {
        Self {
            limits: uploads::Limits::from(&state.config.compose),
            hooks: state.hooks.clone(),
        }
    }
}

/// One action's outcome.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(rename = "RuleActionOutcome")]
pub struct Outcome {
    pub kind: ActionKind,
    pub value: String,
    pub ok: bool,
    /// Why it failed (Hebrew).
    #[serde(default)]
    pub error: Option<String>,
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Queues the forward of message `id` to `to`; the outbox sends it at once.
fn forward(
    store: &Store,
    user_id: u64,
    id: u64,
    to: &str,
    rule: &str,
    limits: &uploads::Limits,
) -> Result<()> {
    let (meta, raw) = emails::get(store, user_id, id)?;
    let account = crate::accounts::get(store, meta.account_id)?
        .ok_or_else(|| crate::error::AppError::NotFound(crate::messages::EMAIL_NOT_FOUND.into()))?;
    let upload = uploads::save(
        store,
        user_id,
        "original.eml",
        "message/rfc822",
        &raw,
        limits,
    )?;
    let from = outgoing::sender(store, user_id, &account);
    let s = &meta.summary;
    let subject = if s.subject.to_lowercase().starts_with("fwd:") {
        s.subject.clone()
    } else {
        format!("Fwd: {}", s.subject)
    };
    let html = format!(
        "<p>הודעה שהועברה אוטומטית לפי הכלל „{}”. ההודעה המקורית מצורפת.</p>\
         <p>מאת: {} &lt;{}&gt;<br>נושא: {}</p>",
        escape(rule),
        escape(&s.from_name),
        escape(&s.from),
        escape(&s.subject)
    );
    let mail = Composed {
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
        attachments: vec![upload.id],
        auto_reply: false,
        calendar: None,
    };
    outbox::add(
        store,
        Item::new(user_id, account.id, Kind::Send, mail, outgoing::now()),
    )?;
    Ok(())
}

fn one(store: &Store, user_id: u64, id: u64, a: &Action, rule: &str, tools: &Tools) -> Result<()> {
    match a.kind {
        ActionKind::SetStatus => {
            triage::set_status(store, &tools.hooks, user_id, id, &a.value, None).map(|_| ())
        }
        ActionKind::MoveToFolder => {
            triage::move_to_folder(store, user_id, id, &a.value).map(|_| ())
        }
        ActionKind::AddLabel => triage::add_label(store, user_id, id, &a.value).map(|_| ()),
        ActionKind::MarkAsRead => {
            emails::set_flags(store, user_id, id, Some(true), None).map(|_| ())
        }
        ActionKind::MarkAsStarred => {
            emails::set_flags(store, user_id, id, None, Some(true)).map(|_| ())
        }
        ActionKind::ForwardTo => forward(store, user_id, id, &a.value, rule, &tools.limits),
        ActionKind::Delete => triage::trash(store, user_id, id).map(|_| ()),
    }
}

/// Runs the rule's actions on message `id`, in order; a move or delete goes last (the others
/// change the mail where it is). `forwarded` is set by the first forward: a mail is forwarded
/// once, whatever the rules.
pub fn apply(
    store: &Store,
    user_id: u64,
    id: u64,
    rule: &StoredRule,
    forwarded: &mut bool,
    tools: &Tools,
) -> Vec<Outcome> {
    let mut actions: Vec<&Action> = rule.actions.iter().collect();
    actions.sort_by_key(|a| matches!(a.kind, ActionKind::MoveToFolder | ActionKind::Delete));
    let mut out = Vec::new();
    for a in actions {
        if a.kind == ActionKind::ForwardTo {
            if *forwarded {
                continue;
            }
            *forwarded = true;
        }
        let result = one(store, user_id, id, a, &rule.name, tools);
        out.push(Outcome {
            kind: a.kind,
            value: a.value.clone(),
            ok: result.is_ok(),
            error: result.err().map(|e| e.user_message()),
        });
    }
    out
}
