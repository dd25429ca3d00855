//! The auto-reply monitor, a job on the scheduler (every [`TICK`], the shortest check
//! interval). Each run:
//! 1. follows the mail store's change log (its own durable cursor) and queues, for each user
//!    with auto-reply on, the mail the sync added to an INBOX: new mail is picked up within a
//!    tick, whatever the user's interval;
//! 2. checks each user with mail that just arrived, or whose `autoReplyCheckInterval` has
//!    passed (failed tries wait for it), deciding each waiting mail once (`rules`) and
//!    writing a draft for the ones it answers (`reply`).
//!
//! Only mail that arrived after auto-reply was turned on, and not more than a day before it
//! was seen, is considered: a first sync or a re-sync of old mail is never answered.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use serde_json::json;

use super::journal::{self, Decision};
use super::rules::{self, Reason};
use super::settings::{self, Stored};
use super::{facts, reply};
use crate::accounts::{self, AccountRecord};
use crate::emails::routes::blocking;
use crate::live::Notices;
use crate::mailstore::{Kind, MailRead, changes};
use crate::state::AppState;

/// The job's name and period.
pub const JOB: &str = "auto-reply";
pub const TICK: Duration = Duration::from_secs(6);
/// The change log reader's name.
const CURSOR: &str = "auto-reply";
/// Change-log entries read per round, and rounds per run at most.
const BATCH: usize = 2000;
const ROUNDS: usize = 50;
/// Tries before a mail is given up (the provider or the mailbox failing).
const MAX_ATTEMPTS: u32 = 3;
/// Mail decided per user per run (each answer is a provider call).
const PER_RUN: usize = 25;
/// How old a mail's date may be when it is seen and still be answered.
const MAX_AGE_SECS: i64 = 86_400;

fn now_ms() -> i64 {
    (time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
}

/// At start, before any sync: the monitor's place in the change log (the first start ever
/// begins at its end, never at its history).
pub fn join(store: &crate::store::Store) -> anyhow::Result<()> {
    changes::join(store, CURSOR).map(|_| ())
}

/// One run of the job.
pub async fn run(state: AppState) -> anyhow::Result<()> {
    let arrived = blocking(&state, collect).await?;
    let users = blocking(&state, settings::enabled).await?;
    let now = now_ms();
    for (user_id, stored) in users {
        let due = arrived.contains(&user_id)
            || stored
                .last_check_ms
                .is_none_or(|last| now - last >= stored.settings.interval_ms() - 500);
        if !due {
            continue;
        }
        tracing::debug!(user_id, "auto-reply: checking");
        blocking(&state, move |store| {
            settings::update(store, user_id, |s| {
                s.last_check_ms = Some(now);
                Ok(())
            })
        })
        .await?;
        if let Err(e) = check_user(&state, user_id, &stored).await {
            tracing::warn!(user_id, error = %e.user_message(), "auto-reply check failed");
        }
    }
    Ok(())
}

/// Follows the change log: queues new INBOX mail for the users with auto-reply on. Returns
/// those users.
fn collect(store: &crate::store::Store) -> crate::error::Result<HashSet<u64>> {
    let mut from = changes::join(store, CURSOR)?;
    let enabled: HashMap<u64, Stored> = settings::enabled(store)?.into_iter().collect();
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let mut accounts: HashMap<u64, Option<(AccountRecord, String)>> = HashMap::new();
    let mut queued = Vec::new();
    for _ in 0..ROUNDS {
        let batch = changes::after(store, from, BATCH)?;
        let Some(last) = batch.last().map(|c| c.seq) else {
            break;
        };
        if !enabled.is_empty() {
            let read = MailRead::new(store)?;
            for c in &batch {
                if c.kind != Kind::Added || c.reason != changes::Reason::Sync {
                    continue;
                }
                let account = match accounts.get(&c.account) {
                    Some(a) => a.clone(),
                    None => {
                        let a = accounts::get(store, c.account)?
                            .filter(|a| enabled.contains_key(&a.user_id))
                            .map(|a| {
                                let inbox = read
                                    .roles(a.id)
                                    .ok()
                                    .and_then(|r| r.get("inbox").cloned())
                                    .unwrap_or_else(|| "INBOX".into());
                                (a, inbox)
                            });
                        accounts.insert(c.account, a.clone());
                        a
                    }
                };
                let Some((account, inbox)) = account else {
                    continue;
                };
                if c.folder != inbox {
                    continue;
                }
                let Some(meta) = read.meta(c.message)? else {
                    continue;
                };
                let since = enabled[&account.user_id].enabled_at.unwrap_or(now);
                if meta.draft || meta.date < since.max(now - MAX_AGE_SECS) - 600 {
                    continue;
                }
                queued.push((account.user_id, c.message, now));
            }
        }
        tracing::debug!(
            from,
            entries = batch.len(),
            queued = queued.len(),
            "auto-reply: change log read"
        );
        journal::queue(store, &queued)?;
        changes::ack(store, CURSOR, last)?;
        from = last;
        if batch.len() < BATCH {
            break;
        }
    }
    Ok(queued.into_iter().map(|(u, _, _)| u).collect())
}

/// The user's check: each waiting mail decided, oldest first.
async fn check_user(state: &AppState, user_id: u64, stored: &Stored) -> crate::error::Result<()> {
    let waiting = blocking(state, move |store| journal::pending(store, user_id)).await?;
    if waiting.is_empty() {
        return Ok(());
    }
    let (tz, own, accounts) = blocking(state, move |store| {
        let tz = crate::settings::load(store, user_id)?.tz();
        let accounts = accounts::list_for_user(store, user_id)?;
        let own: Vec<String> = accounts.iter().map(|a| a.email.to_lowercase()).collect();
        Ok((tz, own, accounts))
    })
    .await?;
    let s = &stored.settings;
    for (message, pending) in waiting.into_iter().take(PER_RUN) {
        let loaded = blocking(state, move |store| {
            let Ok((meta, raw)) = crate::emails::get(store, user_id, message) else {
                return Ok(None);
            };
            let read = MailRead::new(store)?;
            let roles = read.roles(meta.account_id)?;
            Ok(Some((meta, raw, roles)))
        })
        .await?;
        let Some((meta, raw, roles)) = loaded else {
            record(state, user_id, gone(message), s).await?;
            continue;
        };
        let key = format!(
            "{}:{}",
            meta.account_id,
            meta.summary
                .message_id
                .clone()
                .unwrap_or_else(|| format!("local-{message}"))
        );
        let k = key.clone();
        if blocking(state, move |store| journal::decided(store, user_id, &k)).await? {
            // The same mail again (a copy, a re-sync): decided once.
            blocking(state, move |store| {
                journal::drop_one(store, user_id, message)
            })
            .await?;
            continue;
        }
        let role_of = |f: &str| roles.iter().find(|(_, n)| *n == f).map(|(r, _)| r.as_str());
        let junk = role_of(&meta.folder) == Some("junk");
        let in_inbox = role_of(&meta.folder) == Some("inbox")
            || (meta.folder.eq_ignore_ascii_case("INBOX") && !roles.contains_key("inbox"));
        let mut decision = Decision {
            seq: 0,
            at: time::OffsetDateTime::now_utc().unix_timestamp(),
            message,
            key: key.clone(),
            from: meta.summary.from.trim().to_lowercase(),
            from_name: meta.summary.from_name.clone(),
            subject: meta.summary.subject.clone(),
            reason: Reason::Answered,
            detail: None,
            thread: meta.thread_id.clone(),
            draft: None,
            reply_to_elsewhere: None,
        };
        let facts = facts::of(&meta, &raw, junk, pending.arrived);
        let start = crate::settings::prefs::day_start(tz, decision.at);
        let day = blocking(state, move |store| journal::day(store, user_id, start)).await?;
        let skip = if !in_inbox && !junk {
            Some(Reason::Gone)
        } else {
            rules::skip(s, tz, &own, &day, &facts)
        };
        if let Some(reason) = skip {
            decision.reason = reason;
            record(state, user_id, decision, s).await?;
            continue;
        }
        let Some(account) = accounts.iter().find(|a| a.id == meta.account_id) else {
            continue;
        };
        match reply::write(state, user_id, account, &meta, &raw, &key, s).await {
            Ok(written) => {
                decision.draft = Some(written.message_id);
                decision.reply_to_elsewhere = written.reply_to_elsewhere;
                record(state, user_id, decision, s).await?;
            }
            Err(why) if pending.attempts + 1 >= MAX_ATTEMPTS => {
                tracing::warn!(user_id, reason = %why, "auto-reply: given up on a mail");
                decision.reason = Reason::Failed;
                decision.detail = Some(why);
                record(state, user_id, decision, s).await?;
            }
            Err(why) => {
                tracing::info!(user_id, reason = %why, "auto-reply: will try again");
                blocking(state, move |store| {
                    journal::failed_try(store, user_id, message)
                })
                .await?;
                // The provider or the mailbox is failing: the rest waits for the next check.
                break;
            }
        }
    }
    Ok(())
}

fn gone(message: u64) -> Decision {
    Decision {
        seq: 0,
        at: time::OffsetDateTime::now_utc().unix_timestamp(),
        message,
        key: format!("gone-{message}"),
        from: String::new(),
        from_name: String::new(),
        subject: String::new(),
        reason: Reason::Gone,
        detail: None,
        thread: String::new(),
        draft: None,
        reply_to_elsewhere: None,
    }
}

/// Stores the decision and, for an answer, tells the user's sessions when they asked to be.
async fn record(
    state: &AppState,
    user_id: u64,
    d: Decision,
    s: &settings::Settings,
) -> crate::error::Result<()> {
    let d = blocking(state, move |store| {
        journal::record_decision(store, user_id, d)
    })
    .await?;
    tracing::info!(user_id, reason = ?d.reason, "auto-reply decision");
    if d.reason == Reason::Answered && s.auto_reply_notifications {
        state.service::<Notices>().send(
            user_id,
            "auto_reply",
            json!({
                "from": d.from,
                "fromName": d.from_name,
                "subject": d.subject,
                "message": d.reason.text(),
            }),
        );
    }
    Ok(())
}
