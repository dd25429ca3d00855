//! Carrying out a rule's actions on one stored mail, through the features that own each
//! change: triage for statuses, moves, labels and Trash, the flags for read and starred, the
//! outbox for a forward (the original attached as message/rfc822, through the user's SMTP,
//! marked and bounded as `forwarding` says). Each action's outcome is reported for the rule's
//! activity list; one failing does not stop the others.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::forwarding;
use super::model::{Action, ActionKind, StoredRule};
use crate::emails::{self, triage};
use crate::error::{AppError, Result};
use crate::hooks::Hooks;
use crate::outgoing::outbox::{self, Item, Kind};
use crate::outgoing::{self, Composed, uploads};
use crate::store::Store;

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

/// Queues the forward of message `id` to `to`; the outbox sends it at once. Refused (with the
/// Hebrew reason) when `forwarding` says it must not go: an unconfirmed address, the user's own
/// or a robot's mail, a loop, the day's cap.
fn forward(
    store: &Store,
    user_id: u64,
    id: u64,
    to: &str,
    rule: &StoredRule,
    ctx: &Ctx,
) -> Result<()> {
    let (meta, raw) = emails::get(store, user_id, id)?;
    if let Some(why) = forwarding::refused(rule, to, &meta.summary.from, &raw, &ctx.policy) {
        return Err(AppError::bad_request(why));
    }
    forwarding::take(store, user_id, ctx.policy.per_day)?.map_err(AppError::bad_request)?;
    let (limits, rule) = (&ctx.limits, rule.name.as_str());
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
        attachments: vec![upload.id],
        auto_forwarded: true,
        ..Composed::to_one(from, to, subject, html)
    };
    outbox::add(
        store,
        Item::new(user_id, account.id, Kind::Send, mail, outgoing::now()),
    )?;
    Ok(())
}

/// What the actions need besides the mail: the upload limits (a forward attaches the original)
/// and the user's forwarding policy.
pub struct Ctx {
    pub limits: uploads::Limits,
    pub policy: forwarding::Policy,
    /// The seams a status change goes through (a marking as spam trains spam detection).
    pub hooks: Hooks,
}

fn one(
    store: &Store,
    user_id: u64,
    id: u64,
    a: &Action,
    rule: &StoredRule,
    ctx: &Ctx,
) -> Result<()> {
    match a.kind {
        ActionKind::SetStatus => {
            triage::set_status(store, &ctx.hooks, user_id, id, &a.value, None).map(|_| ())
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
        ActionKind::ForwardTo => forward(store, user_id, id, &a.value, rule, ctx),
        ActionKind::Delete => triage::trash(store, user_id, id).map(|_| ()),
    }
}

/// Runs the rule's actions on message `id`, in order; a move or delete goes last (the others
/// change the mail where it is). `forwarded` is set by the first forward: a mail is forwarded
/// once, whatever the rules (and only when it went: `forwarded` says the outbox has work).
pub fn apply(
    store: &Store,
    user_id: u64,
    id: u64,
    rule: &StoredRule,
    forwarded: &mut bool,
    ctx: &Ctx,
) -> Vec<Outcome> {
    let mut actions: Vec<&Action> = rule.actions.iter().collect();
    actions.sort_by_key(|a| matches!(a.kind, ActionKind::MoveToFolder | ActionKind::Delete));
    let mut out = Vec::new();
    let mut tried = false;
    for a in actions {
        if a.kind == ActionKind::ForwardTo {
            if *forwarded || tried {
                continue;
            }
            tried = true;
        }
        let result = one(store, user_id, id, a, rule, ctx);
        if a.kind == ActionKind::ForwardTo && result.is_ok() {
            *forwarded = true;
        }
        out.push(Outcome {
            kind: a.kind,
            value: a.value.clone(),
            ok: result.is_ok(),
            error: result.err().map(|e| e.user_message()),
        });
    }
    out
}
