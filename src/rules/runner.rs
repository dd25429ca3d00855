//! Rules on incoming mail, on the scheduler (`rules`, run when new mail is logged): the job follows the
//! mail store's change log with its own cursor (placed at start-up: the first start never
//! runs rules on history) and runs the user's active rules, in order, on each mail the sync
//! added to an INBOX — with no browser open. "Run now" (`existing`) applies a rule to the mail
//! already in the inbox.
//!
//! A mailbox's history is not new mail: while an account's first sync is still running, and
//! for mail dated more than [`HISTORY_SECS`] before it was stored (the last chunk of a first
//! sync can be stored just as the sync reports itself done), the rules do not run. A forward
//! rule must never send a mailbox's past on when the mailbox is connected.

use std::collections::HashMap;

use super::actions::{self, Outcome};
use super::forwarding::Policy;
use super::matching::{self, Mail};
use super::model::{Stored, StoredRule};
use super::{ACTIVITY, Activity, RULES};
use crate::accounts;
use crate::emails::arrivals::{self, Arrival, Follower, Then};
use crate::error::Result;
use crate::hooks::Hooks;
use crate::mailstore::{MailRead, MessageMeta};
use crate::outgoing::{Outbox, uploads};
use crate::state::AppState;
use crate::store::Store;

pub const JOB: &str = "rules";
const CURSOR: &str = "rules";
/// Activity entries kept per user.
const KEEP_ACTIVITY: usize = 1000;
/// The newest inbox mails "run now" looks at.
pub const EXISTING_MAX: usize = 5000;
/// Mail dated this long before it was stored is history, not new mail.
pub const HISTORY_SECS: i64 = 3 * 86_400;

/// At start, before any sync: the job's place in the change log.
pub fn join(store: &Store) -> anyhow::Result<()> {
    arrivals::join(store, CURSOR)
}

/// The user's active rules, in order.
pub fn active(store: &Store, user_id: u64) -> Result<Vec<Stored>> {
    let mut rules: Vec<Stored> = RULES.list(store, user_id)?;
    rules.retain(|r| r.rule.is_active);
    rules.sort_by_key(|r| (r.position, r.id));
    Ok(rules)
}

/// Runs `rules` on one mail; records what each matching rule did. Returns whether something
/// was forwarded.
pub fn run_on(
    store: &Store,
    user_id: u64,
    meta: &MessageMeta,
    raw: &[u8],
    rules: &[(u64, StoredRule)],
    ctx: &actions::Ctx,
) -> Result<bool> {
    let mail = Mail::read(meta, raw);
    let mut forwarded = false;
    for (rule_id, rule) in rules {
        if !matching::matches(rule, &mail) {
            continue;
        }
        let outcomes = actions::apply(store, user_id, meta.id, rule, &mut forwarded, ctx);
        record(store, user_id, *rule_id, meta, outcomes)?;
        if rule.stop {
            break;
        }
    }
    Ok(forwarded)
}

/// Records what a rule did to one mail in the user's rule activity (the oldest trimmed).
pub fn record(
    store: &Store,
    user_id: u64,
    rule_id: u64,
    meta: &MessageMeta,
    outcomes: Vec<Outcome>,
) -> Result<()> {
    let at = crate::kit::now();
    let (subject, from) = (meta.summary.subject.clone(), meta.summary.from.clone());
    let message = meta.id;
    ACTIVITY.insert(store, user_id, usize::MAX, "", move |seq| Activity {
        seq,
        rule_id,
        at,
        message,
        subject,
        from,
        outcomes,
    })?;
    if ACTIVITY.count(store, user_id)? > KEEP_ACTIVITY + 100 {
        ACTIVITY.trim_oldest(store, user_id, KEEP_ACTIVITY)?;
    }
    Ok(())
}

/// One run of the job.
/// One run of the job (on new mail): returns when it is due again, at once when the log had
/// more than one run reads, else none (it sleeps until new mail comes).
pub async fn run(state: AppState) -> anyhow::Result<Option<i64>> {
    let base = Base {
        limits: uploads::Limits::from(&state.config.compose),
        forwards_per_day: state.config.limits.forwards_per_day,
        hooks: state.hooks.clone(),
    };
    let mailboxes = state.mailboxes.clone();
    // An account with no status is not syncing here (a local import): its mail is not new.
    let syncing_new = move |account: u64| {
        mailboxes
            .status(account)
            .is_some_and(|s| s.initial_sync_done)
    };
    let (forwarded, more) = state
        .store_blocking(move |store| follow(store, &base, &syncing_new))
        .await?;
    if forwarded {
        state.service::<Outbox>().wake.notify_one();
    }
    Ok(crate::jobs::again_if(more))
}

/// The rules as a follower of new inbox mail: mail of accounts past their first sync
/// (`past_first_sync`), not dated long before it was stored.
struct Runner<'a> {
    base: &'a Base,
    past_first_sync: &'a dyn Fn(u64) -> bool,
    now: i64,
    /// Whether anyone has a rule that runs.
    anyone: bool,
    /// Each user's active rules and what their actions need (their forwarding policy).
    rules_of: HashMap<u64, (Vec<(u64, StoredRule)>, actions::Ctx)>,
    forwarded: bool,
}

/// What every user's actions share: the upload limits, the forwards a day, the seams.
struct Base {
    limits: uploads::Limits,
    forwards_per_day: u32,
    hooks: Hooks,
}

impl Follower for Runner<'_> {
    fn cursor(&self) -> &'static str {
        CURSOR
    }

    fn anyone(&self) -> bool {
        self.anyone
    }

    fn wants(&mut self, store: &Store, user_id: u64) -> Result<bool> {
        if let std::collections::hash_map::Entry::Vacant(e) = self.rules_of.entry(user_id) {
            let rules = active(store, user_id)?
                .into_iter()
                .map(|r| (r.id, r.rule))
                .collect();
            let ctx = actions::Ctx {
                limits: self.base.limits,
                policy: Policy::of(store, user_id, self.base.forwards_per_day)?,
                hooks: self.base.hooks.clone(),
            };
            e.insert((rules, ctx));
        }
        Ok(!self.rules_of[&user_id].0.is_empty())
    }

    fn arrived(&mut self, store: &Store, mail: &Arrival<'_>) -> Result<Then> {
        if !(self.past_first_sync)(mail.account_id) || mail.meta.date < self.now - HISTORY_SECS {
            return Ok(Then::Next);
        }
        let raw = mail.raw()?;
        let (rules, ctx) = &self.rules_of[&mail.user_id];
        let sent = run_on(store, mail.user_id, &mail.meta, &raw, rules, ctx)?;
        self.forwarded |= sent;
        // A forward is the one action not harmless twice.
        Ok(if sent { Then::AckHere } else { Then::Next })
    }
}

/// Reads the log since the cursor and runs the rules on new INBOX mail. Returns whether
/// something was forwarded, and whether the log has more for another run.
fn follow(
    store: &Store,
    base: &Base,
    past_first_sync: &dyn Fn(u64) -> bool,
) -> Result<(bool, bool)> {
    // Nobody has a rule that runs (the usual case, and always during a first sync before any
    // rule exists): the log is stepped over instead of read.
    let everyone: Vec<(u64, Stored)> = RULES.everyone(store)?;
    let mut runner = Runner {
        base,
        past_first_sync,
        now: crate::kit::now(),
        anyone: everyone.iter().any(|(_, r)| r.rule.is_active),
        rules_of: HashMap::new(),
        forwarded: false,
    };
    let more = arrivals::follow(store, &mut runner)?;
    Ok((runner.forwarded, more))
}

/// The newest inbox mails of the user that `rule` matches (at most [`EXISTING_MAX`] looked at).
pub fn existing(
    store: &Store,
    user_id: u64,
    rule: &StoredRule,
) -> Result<(usize, Vec<MessageMeta>)> {
    let read = MailRead::new(store)?;
    let mut scanned = 0;
    let mut hits = Vec::new();
    for account in accounts::list_for_user(store, user_id)? {
        let inbox = read
            .roles(account.id)?
            .get("inbox")
            .cloned()
            .unwrap_or_else(|| "INBOX".into());
        for row in read.rows(account.id, &inbox)?.rev() {
            if scanned >= EXISTING_MAX {
                break;
            }
            let id = row?.id();
            let Some(meta) = read.meta(id)? else { continue };
            if meta.hidden {
                continue;
            }
            scanned += 1;
            let raw = read.raw(id)?.unwrap_or_default();
            if matching::matches(rule, &Mail::read(&meta, &raw)) {
                hits.push(meta);
            }
        }
    }
    Ok((scanned, hits))
}
