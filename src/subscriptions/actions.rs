//! What the manager does for a sender besides unsubscribing: blocking it (a rule of the user's,
//! seen and edited on the rules page, that sends its future mail to Promotions or Trash) and
//! archiving everything it sent (the inbox mail from its address, through triage); and one
//! attempt to leave it, with the fallbacks of `unsubscribe`.

use super::model::{Attempt, AttemptState, Method, Sender};
use super::unsubscribe::{self, Unsubscriber};
use super::{SENDERS, model};
use crate::emails::triage::{self, BULK_MAX, BulkAction};
use crate::error::{AppError, Result};
use crate::kit::now;
use crate::mailstore::MailRead;
use crate::messages;
use crate::rules::model::{Action, ActionKind, Condition, Field, RuleInput};
use crate::rules::routes::Forward;
use crate::state::AppState;
use crate::store::Store;

fn not_found() -> AppError {
    AppError::NotFound(messages::SUBSCRIPTION_NOT_FOUND.into())
}

pub fn sender(store: &Store, user_id: u64, id: u64) -> Result<Sender> {
    SENDERS.get(store, user_id, id)?.ok_or_else(not_found)
}

/// Where a blocked sender's mail goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "BlockTarget")]
pub enum BlockTo {
    Promotions,
    Trash,
}

/// Blocks a sender with a rule (one per sender: blocking again replaces its action).
pub fn block(store: &Store, user_id: u64, id: u64, to: BlockTo) -> Result<u64> {
    let s = sender(store, user_id, id)?;
    if let Some(rule) = s.blocked_rule
        && crate::rules::RULES
            .get::<crate::rules::model::Stored>(store, user_id, rule)?
            .is_some()
    {
        crate::rules::RULES.remove(store, user_id, rule)?;
    }
    let action = match to {
        BlockTo::Promotions => Action {
            kind: ActionKind::SetStatus,
            value: "advertisement".into(),
        },
        BlockTo::Trash => Action {
            kind: ActionKind::Delete,
            value: String::new(),
        },
    };
    let input = RuleInput {
        name: messages::subscription_rule_name(&s.address),
        is_active: true,
        match_all: true,
        conditions: vec![Condition {
            field: Field::From,
            negate: false,
            value: s.address.clone(),
            header: String::new(),
        }],
        actions: vec![action],
        stop: true,
        confirm_forward: None,
    };
    let rule = crate::rules::routes::create_rule(store, user_id, input, Forward::MayWait)?;
    SENDERS.update(store, user_id, id, |x: &mut Sender| {
        x.blocked_rule = Some(rule.id);
        Ok(())
    })?;
    Ok(rule.id)
}

/// Whether the sender's blocking rule still exists (the user may have deleted it).
pub fn blocked(store: &Store, user_id: u64, s: &Sender) -> Result<bool> {
    Ok(match s.blocked_rule {
        Some(rule) => crate::rules::RULES
            .get::<crate::rules::model::Stored>(store, user_id, rule)?
            .is_some(),
        None => false,
    })
}

/// Archives every inbox mail from the sender's address (as the user's own 'processed').
/// Returns how many.
pub fn archive_all(state: &AppState, user_id: u64, id: u64) -> Result<usize> {
    let store = &state.store;
    let s = sender(store, user_id, id)?;
    let mut ids = Vec::new();
    {
        let read = MailRead::new(store)?;
        let roles = read.roles(s.account)?;
        if let Some(inbox) = roles.get("inbox") {
            for row in read.rows(s.account, inbox)? {
                let id = row?.id();
                if read.meta(id)?.is_some_and(|m| {
                    !m.hidden && m.summary.from.trim().eq_ignore_ascii_case(&s.address)
                }) {
                    ids.push(id);
                }
                if ids.len() >= 10 * BULK_MAX {
                    break;
                }
            }
        }
    }
    let mut done = 0;
    for chunk in ids.chunks(BULK_MAX) {
        let out = triage::bulk(
            store,
            &state.hooks,
            user_id,
            chunk,
            &BulkAction::Status("processed".into(), None),
        )?;
        done += out.updated;
    }
    state.mailboxes.wake(s.account);
    Ok(done)
}

/// What one attempt to leave a sender gave: the attempt, and the links for the user to open.
pub struct Left {
    pub attempt: Attempt,
    pub open: Vec<String>,
}

/// Tries to leave a sender: one click, else (or when the click failed) `mailto:`, else its
/// page or the removal links for the user to open. Every try is recorded.
pub async fn leave(state: &AppState, user_id: u64, id: u64) -> Result<Left> {
    let s = state
        .store_blocking(move |store| sender(store, user_id, id))
        .await?;
    let Some((method, target)) = unsubscribe::method_of(&s.methods) else {
        return Err(AppError::bad_request(messages::UNSUBSCRIBE_NO_METHOD));
    };
    let attempt =
        |method: Method, target: &str, state: AttemptState, reason: Option<String>| Attempt {
            id: 0,
            sender_id: s.id,
            address: s.address.clone(),
            method,
            target: crate::kit::cut(target, 2000).to_string(),
            state,
            reason,
            at: now(),
            outbox_id: None,
        };
    let mut tries = Vec::new();
    let mut open = Vec::new();
    let mut mailto = method == Method::Mailto;
    match method {
        Method::OneClick => match state.service::<Unsubscriber>().one_click(&target).await {
            Ok(()) => tries.push(attempt(method, &target, AttemptState::Done, None)),
            Err(reason) => {
                tries.push(attempt(method, &target, AttemptState::Failed, Some(reason)));
                // The next way there is, when the click did not work.
                mailto = s.methods.mailto.is_some();
                if !mailto && let Some(link) = &s.methods.link {
                    tries.push(attempt(Method::Link, link, AttemptState::Opened, None));
                    open.push(link.clone());
                }
            }
        },
        Method::Mailto => {}
        Method::Link | Method::BodyLink => {
            open = target.lines().map(str::to_string).collect();
            tries.push(attempt(method, &target, AttemptState::Opened, None));
        }
    }
    if mailto && let Some(uri) = s.methods.mailto.clone() {
        let (s2, uri2) = (s.clone(), uri.clone());
        let queued = state
            .store_blocking(move |store| unsubscribe::queue_mailto(store, user_id, &s2, &uri2))
            .await;
        tries.push(match queued {
            Ok(outbox_id) => {
                state.service::<crate::outgoing::Outbox>().wake.notify_one();
                Attempt {
                    outbox_id: Some(outbox_id),
                    ..attempt(Method::Mailto, &uri, AttemptState::Waiting, None)
                }
            }
            Err(e) => attempt(
                Method::Mailto,
                &uri,
                AttemptState::Failed,
                Some(e.user_message()),
            ),
        });
    }
    let recorded = state
        .store_blocking(move |store| {
            let mut last = None;
            for a in tries {
                last = Some(unsubscribe::record(store, user_id, a)?);
            }
            Ok(last)
        })
        .await?;
    Ok(Left {
        attempt: recorded.expect("one try at least"),
        open,
    })
}

/// The newest attempt for each sender, settling `mailto:` ones the outbox has finished.
pub fn attempts(store: &Store, user_id: u64) -> Result<Vec<Attempt>> {
    let mut all: Vec<Attempt> = super::ATTEMPTS.list(store, user_id)?;
    for a in all.iter_mut() {
        unsubscribe::settle(store, user_id, a)?;
    }
    all.sort_by_key(|a| std::cmp::Reverse((a.at, a.id)));
    all.truncate(model::KEEP_ATTEMPTS);
    Ok(all)
}
