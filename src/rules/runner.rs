//! Rules on incoming mail, on the scheduler (`rules`, every [`TICK`]): the job follows the
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
use std::time::Duration;

use super::actions::{self, Outcome};
use super::forwarding::Policy;
use super::matching::{self, Mail};
use super::model::{Stored, StoredRule};
use super::{ACTIVITY, Activity, RULES};
use crate::accounts;
use crate::emails::routes::blocking;
use crate::error::Result;
use crate::mailstore::{Kind, MailRead, MessageMeta, changes};
use crate::outgoing::{Outbox, uploads};
use crate::state::AppState;
use crate::store::Store;

pub const JOB: &str = "rules";
pub const TICK: Duration = Duration::from_secs(3);
const CURSOR: &str = "rules";
const BATCH: usize = 2000;
const ROUNDS: usize = 50;
/// Activity entries kept per user.
const KEEP_ACTIVITY: usize = 1000;
/// The newest inbox mails "run now" looks at.
pub const EXISTING_MAX: usize = 5000;
/// Mail dated this long before it was stored is history, not new mail.
pub const HISTORY_SECS: i64 = 3 * 86_400;

/// At start, before any sync: the job's place in the change log.
pub fn join(store: &Store) -> anyhow::Result<()> {
    changes::join(store, CURSOR).map(|_| ())
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
    let at = time::OffsetDateTime::now_utc().unix_timestamp();
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
pub async fn run(state: AppState) -> anyhow::Result<()> {
    let limits = uploads::Limits::from(&state.config.compose);
    let per_day = state.config.limits.forwards_per_day;
    let mailboxes = state.mailboxes.clone();
    // An account with no status is not syncing here (a local import): its mail is not new.
    let syncing_new = move |account: u64| {
        mailboxes
            .status(account)
            .is_some_and(|s| s.initial_sync_done)
    };
    let forwarded = blocking(&state, move |store| {
        follow(store, &limits, per_day, &syncing_new)
    })
    .await?;
    if forwarded {
        state.service::<Outbox>().wake.notify_one();
    }
    Ok(())
}

/// Reads the log since the cursor and runs the rules on new INBOX mail: mail of accounts
/// past their first sync (`past_first_sync`), not dated long before it was stored.
fn follow(
    store: &Store,
    limits: &uploads::Limits,
    forwards_per_day: u32,
    past_first_sync: &dyn Fn(u64) -> bool,
) -> Result<bool> {
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let mut from = changes::join(store, CURSOR)?;
    // Nobody has a rule that runs (the usual case, and always during a first sync before any
    // rule exists): step over the log instead of reading it.
    let everyone: Vec<(u64, Stored)> = RULES.everyone(store)?;
    if !everyone.iter().any(|(_, r)| r.rule.is_active) {
        let last = changes::last_seq(store)?;
        if last > from {
            changes::ack(store, CURSOR, last)?;
        }
        return Ok(false);
    }
    let mut rules_of: HashMap<u64, Vec<(u64, StoredRule)>> = HashMap::new();
    let mut ctx_of: HashMap<u64, actions::Ctx> = HashMap::new();
    let mut inbox_of: HashMap<u64, Option<(u64, String)>> = HashMap::new();
    let mut forwarded = false;
    for _ in 0..ROUNDS {
        let batch = changes::after(store, from, BATCH)?;
        let Some(last) = batch.last().map(|c| c.seq) else {
            break;
        };
        for c in &batch {
            if c.kind != Kind::Added || c.reason != changes::Reason::Sync {
                continue;
            }
            let account = match inbox_of.get(&c.account) {
                Some(a) => a.clone(),
                None => {
                    let a = accounts::get(store, c.account)?.map(|a| {
                        let inbox = MailRead::new(store)
                            .and_then(|r| r.roles(a.id))
                            .ok()
                            .and_then(|r| r.get("inbox").cloned())
                            .unwrap_or_else(|| "INBOX".into());
                        (a.user_id, inbox)
                    });
                    inbox_of.insert(c.account, a.clone());
                    a
                }
            };
            let Some((user_id, inbox)) = account else {
                continue;
            };
            if c.folder != inbox || !past_first_sync(c.account) {
                continue;
            }
            if let std::collections::hash_map::Entry::Vacant(e) = rules_of.entry(user_id) {
                e.insert(
                    active(store, user_id)?
                        .into_iter()
                        .map(|r| (r.id, r.rule))
                        .collect(),
                );
                ctx_of.insert(
                    user_id,
                    actions::Ctx {
                        limits: *limits,
                        policy: Policy::of(store, user_id, forwards_per_day)?,
                    },
                );
            }
            let rules = &rules_of[&user_id];
            if rules.is_empty() {
                continue;
            }
            let read = MailRead::new(store)?;
            let Some(meta) = read.meta(c.message)? else {
                continue;
            };
            if meta.hidden || meta.draft || meta.folder != inbox || meta.date < now - HISTORY_SECS {
                continue;
            }
            let raw = read.raw(c.message)?.unwrap_or_default();
            drop(read);
            let sent = run_on(store, user_id, &meta, &raw, rules, &ctx_of[&user_id])?;
            if sent {
                // A forward is the one action not harmless twice: the log is acked past this
                // mail at once, so a crash later in the batch does not forward it again.
                changes::ack(store, CURSOR, c.seq)?;
            }
            forwarded |= sent;
        }
        changes::ack(store, CURSOR, last)?;
        from = last;
        if batch.len() < BATCH {
            break;
        }
    }
    Ok(forwarded)
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
