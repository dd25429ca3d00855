//! The auto-reply monitor, a due-time job on the scheduler: it runs when new mail is logged,
//! when a user's check is due and when the settings change, and sleeps otherwise. Each run:
//! 1. follows the mail store's change log (its own durable cursor) and queues, for each user
//!    with auto-reply on, the mail the sync added to an INBOX (cheap: no provider call);
//! 2. checks each user whose `autoReplyCheckInterval` has passed since their last check
//!    ([`due`]), deciding each waiting mail once (`rules`) and writing a draft for the ones it
//!    answers (`reply`). The interval paces this work: a new mail is answered at the user's
//!    next check, within the interval of its arrival, and a mail deleted or moved out of the
//!    inbox before then is not answered at all.
//!
//! Only mail that arrived after auto-reply was turned on, and not more than a day before it
//! was seen, is considered: a first sync or a re-sync of old mail is never answered.

use std::collections::{HashMap, HashSet};

use super::journal::{self, Decision};
use super::rules::{self, Reason};
use super::settings::{self, Stored};
use super::{facts, reply};
use crate::accounts;
use crate::emails::arrivals::{self, Arrival, Follower, Then};
use crate::error::Result;
use crate::kit::now_ms;
use crate::mailstore::MailRead;
use crate::notices::{AutoReplyDrafted, Notice, Notices};
use crate::state::AppState;
use crate::store::Store;

/// The job's name.
pub const JOB: &str = "auto-reply";
/// The change log reader's name.
const CURSOR: &str = "auto-reply";
/// Tries before a mail is given up (the provider or the mailbox failing).
const MAX_ATTEMPTS: u32 = 3;
/// Mail decided per user per run (each answer is a provider call).
const PER_RUN: usize = 25;
/// How old a mail's date may be when it is seen and still be answered.
const MAX_AGE_SECS: i64 = 86_400;

/// At start, before any sync: the monitor's place in the change log (the first start ever
/// begins at its end, never at its history).
pub fn join(store: &Store) -> anyhow::Result<()> {
    arrivals::join(store, CURSOR)
}

/// One run of the job. Returns when it is next due: the soonest check of a user with
/// auto-reply on (none when nobody has it on), at once when the log had more to read.
pub async fn run(state: AppState) -> anyhow::Result<Option<i64>> {
    let (arrived, more) = state.store_blocking(collect).await?;
    if !arrived.is_empty() {
        tracing::debug!(
            users = arrived.len(),
            "auto-reply: new mail waits for its check"
        );
    }
    let users = state.store_blocking(settings::enabled).await?;
    let now = now_ms();
    let mut next = crate::jobs::again_if(more);
    for (user_id, stored) in users {
        let interval = stored.settings.interval_ms();
        if !due(stored.last_check_ms, interval, now) {
            let at = stored.last_check_ms.unwrap_or(now) + interval;
            next = crate::jobs::sooner(next, at);
            continue;
        }
        next = crate::jobs::sooner(next, now + interval);
        tracing::debug!(user_id, "auto-reply: checking");
        state
            .store_blocking(move |store| {
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
    Ok(next)
}

/// Whether the user's check is due: never checked, or their interval has passed since (less
/// half a second, so a 6-second interval is not missed by a tick that came a little early).
/// New mail does not make it due: it waits for the check, as the setting says.
fn due(last_check_ms: Option<i64>, interval_ms: i64, now_ms: i64) -> bool {
    last_check_ms.is_none_or(|last| now_ms - last >= interval_ms - 500)
}

/// The monitor as a follower of new inbox mail: each mail of a user with auto-reply on that
/// arrived after it was turned on, and not more than a day before it was seen, is queued.
struct Collect {
    enabled: HashMap<u64, Stored>,
    now: i64,
    queued: Vec<(u64, u64, i64)>,
    users: HashSet<u64>,
}

impl Follower for Collect {
    fn cursor(&self) -> &'static str {
        CURSOR
    }

    fn anyone(&self) -> bool {
        !self.enabled.is_empty()
    }

    fn wants(&mut self, _: &Store, user_id: u64) -> Result<bool> {
        Ok(self.enabled.contains_key(&user_id))
    }

    fn arrived(&mut self, _: &Store, mail: &Arrival<'_>) -> Result<Then> {
        let since = self.enabled[&mail.user_id].enabled_at.unwrap_or(self.now);
        if mail.meta.date >= since.max(self.now - MAX_AGE_SECS) - 600 {
            self.queued.push((mail.user_id, mail.meta.id, self.now));
        }
        Ok(Then::Next)
    }

    /// The batch's mail is queued before the log is acknowledged past it.
    fn batch_done(&mut self, store: &Store) -> Result<()> {
        tracing::debug!(queued = self.queued.len(), "auto-reply: change log read");
        journal::queue(store, &self.queued)?;
        self.users.extend(self.queued.drain(..).map(|(u, _, _)| u));
        Ok(())
    }
}

/// Follows the change log: queues new INBOX mail for the users with auto-reply on. Returns
/// those users, and whether the log has more for another run.
fn collect(store: &Store) -> Result<(HashSet<u64>, bool)> {
    let mut c = Collect {
        enabled: settings::enabled(store)?.into_iter().collect(),
        now: crate::kit::now(),
        queued: Vec::new(),
        users: HashSet::new(),
    };
    let more = arrivals::follow(store, &mut c)?;
    Ok((c.users, more))
}

/// The user's check: each waiting mail decided, oldest first.
async fn check_user(state: &AppState, user_id: u64, stored: &Stored) -> crate::error::Result<()> {
    let waiting = state
        .store_blocking(move |store| journal::pending(store, user_id))
        .await?;
    if waiting.is_empty() {
        return Ok(());
    }
    let (tz, own, accounts) = state
        .store_blocking(move |store| {
            let tz = crate::settings::load(store, user_id)?.tz();
            let accounts = accounts::list_for_user(store, user_id)?;
            let own: Vec<String> = accounts.iter().map(|a| a.email.to_lowercase()).collect();
            Ok((tz, own, accounts))
        })
        .await?;
    let s = &stored.settings;
    for (message, pending) in waiting.into_iter().take(PER_RUN) {
        let loaded = state
            .store_blocking(move |store| {
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
        if state
            .store_blocking(move |store| journal::decided(store, user_id, &k))
            .await?
        {
            // The same mail again (a copy, a re-sync): decided once.
            state
                .store_blocking(move |store| journal::drop_one(store, user_id, message))
                .await?;
            continue;
        }
        let role_of = |f: &str| roles.iter().find(|(_, n)| *n == f).map(|(r, _)| r.as_str());
        let junk = role_of(&meta.folder) == Some("junk");
        let in_inbox = role_of(&meta.folder) == Some("inbox")
            || (meta.folder.eq_ignore_ascii_case("INBOX") && !roles.contains_key("inbox"));
        let mut decision = Decision {
            seq: 0,
            at: crate::kit::now(),
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
        let day = state
            .store_blocking(move |store| journal::day(store, user_id, start))
            .await?;
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
                state
                    .store_blocking(move |store| journal::failed_try(store, user_id, message))
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
        at: crate::kit::now(),
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
    let d = state
        .store_blocking(move |store| journal::record_decision(store, user_id, d))
        .await?;
    tracing::info!(user_id, reason = ?d.reason, "auto-reply decision");
    if d.reason == Reason::Answered && s.auto_reply_notifications {
        let notice = AutoReplyDrafted {
            from: d.from,
            from_name: d.from_name,
            subject: d.subject,
            message: d.reason.text().into(),
        };
        state
            .service::<Notices>()
            .send(user_id, Notice::AutoReply(notice));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::due;

    #[test]
    fn the_check_interval_paces_the_checks() {
        let two_minutes = 120_000;
        assert!(due(None, two_minutes, 1_000_000), "a first check at once");
        // Checked 6 s ago (a tick): not due, new mail or not, until two minutes have passed.
        assert!(!due(Some(994_000), two_minutes, 1_000_000));
        assert!(!due(Some(1_000_000 - 119_000), two_minutes, 1_000_000));
        assert!(due(Some(1_000_000 - 120_000), two_minutes, 1_000_000));
        // The shortest interval, one tick, is not missed by a tick a little early.
        assert!(due(Some(1_000_000 - 5_700), 6_000, 1_000_000));
    }
}
