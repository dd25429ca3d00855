//! The `snooze` job, on the scheduler at due times: it wakes the threads whose time came,
//! those a reply arrived in (new inbox mail of the thread: the change log, cursor
//! `snooze-replies`), and takes up snoozes found in the mailbox's Snoozed folder (another
//! client of ours, a reinstall: cursor `snooze-found`, with the time its keyword carries). It
//! then sleeps until the next wake-up time, or until new mail arrives.
//!
//! Each wake-up commits the record as woken together with the mail's queued moves, so a
//! restart or a kill -9 loses none and wakes none twice; the notice goes after the commit (a
//! crash between the two loses a notice, never repeats one).

use std::collections::HashSet;

use super::model::{MAX_ACTIVE, Snooze, Woke, WokeBy, until_of};
use super::{SNOOZES, mailbox};
use crate::emails::arrivals::{self, Arrival, Follower, Then};
use crate::error::Result;
use crate::kit::now;
use crate::mailstore::{MailWrite, Reason, thread_hash};
use crate::messages;
use crate::notices::{Notice, Notices, SnoozeWoke};
use crate::state::AppState;
use crate::store::Store;

pub const JOB: &str = "snooze";
const REPLIES: &str = "snooze-replies";
const FOUND: &str = "snooze-found";

/// A woken thread, for its notice.
pub struct Woken {
    pub user_id: u64,
    pub snooze: Snooze,
    pub email_id: Option<u64>,
}

/// At start, before any sync: the followers' places in the change log.
pub fn join(store: &Store) -> anyhow::Result<()> {
    arrivals::join(store, REPLIES)?;
    arrivals::join(store, FOUND)
}

/// Wakes one snooze of `user_id` (when it still sleeps) in one transaction with its mail.
pub fn wake_one(
    store: &Store,
    user_id: u64,
    id: u64,
    by: WokeBy,
    now: i64,
) -> Result<Option<Woken>> {
    let txn = store.begin_write()?;
    let Some(mut s) = SNOOZES.get_in::<Snooze>(&txn, user_id, id)? else {
        return Ok(None);
    };
    if !s.active() {
        return Ok(None);
    }
    let email_id = mailbox::wake(MailWrite::new(&txn, Reason::Status), &s, now)?;
    s.woke = Some(Woke { at: now, by });
    SNOOZES.put_in(&txn, user_id, id, &s)?;
    txn.commit()?;
    Ok(Some(Woken {
        user_id,
        snooze: s,
        email_id,
    }))
}

/// Every user's sleeping snoozes.
fn sleeping(store: &Store) -> Result<Vec<(u64, Snooze)>> {
    Ok(SNOOZES
        .everyone::<Snooze>(store)?
        .into_iter()
        .filter(|(_, s)| s.active())
        .collect())
}

/// Replies: new inbox mail in a sleeping thread wakes it.
struct Replies {
    sleeping: Vec<(u64, Snooze)>,
    woken: Vec<Woken>,
    now: i64,
}

impl Follower for Replies {
    fn cursor(&self) -> &'static str {
        REPLIES
    }
    fn anyone(&self) -> bool {
        !self.sleeping.is_empty()
    }
    fn wants(&mut self, _: &Store, user_id: u64) -> Result<bool> {
        Ok(self.sleeping.iter().any(|(u, _)| *u == user_id))
    }
    fn arrived(&mut self, store: &Store, mail: &Arrival<'_>) -> Result<Then> {
        let hash = thread_hash(&mail.meta.thread_id);
        let hit = self.sleeping.iter().position(|(u, s)| {
            *u == mail.user_id
                && s.account == mail.account_id
                && thread_hash(&s.thread_id) == hash
                && s.active()
        });
        if let Some(i) = hit {
            let (user, s) = &self.sleeping[i];
            if let Some(w) = wake_one(store, *user, s.id, WokeBy::Reply, self.now)? {
                self.sleeping[i].1.woke = w.snooze.woke;
                self.woken.push(w);
            }
        }
        Ok(Then::Next)
    }
}

/// Found: mail in a Snoozed folder with a time keyword that no sleeping snooze covers.
struct Found {
    sleeping: Vec<(u64, Snooze)>,
    now: i64,
    adopted: usize,
}

impl Follower for Found {
    fn cursor(&self) -> &'static str {
        FOUND
    }
    fn role(&self) -> &'static str {
        "snoozed"
    }
    fn takes(&self, reason: Reason) -> bool {
        matches!(reason, Reason::Sync | Reason::Moved)
    }
    fn arrived(&mut self, store: &Store, mail: &Arrival<'_>) -> Result<Then> {
        let meta = &mail.meta;
        let hash = thread_hash(&meta.thread_id);
        let covered = self.sleeping.iter().any(|(u, s)| {
            *u == mail.user_id && s.account == mail.account_id && thread_hash(&s.thread_id) == hash
        });
        if covered {
            return Ok(Then::Next);
        }
        let Some(until) = until_of(&meta.keywords) else {
            // Moved here by hand in another client, with no time: left where it is.
            return Ok(Then::Next);
        };
        let txn = store.begin_write()?;
        let mine: Vec<Snooze> = SNOOZES.list_in(&txn, mail.user_id)?;
        let woken_with_it = mine.iter().any(|s| {
            s.account == mail.account_id
                && thread_hash(&s.thread_id) == hash
                && !s.active()
                && (s.until - until).abs() < 60
        });
        if woken_with_it {
            // Its thread woke while this copy was on its way here: it follows the others.
            mailbox::return_late(MailWrite::new(&txn, Reason::Status), meta, self.now)?;
        } else {
            let id = SNOOZES.new_id_in(&txn, mail.user_id, MAX_ACTIVE, messages::SNOOZES_FULL)?;
            let s = Snooze {
                id,
                account: mail.account_id,
                thread_id: meta.thread_id.clone(),
                until,
                created: self.now,
                subject: meta.summary.subject.clone(),
                from: meta.sender_name().to_string(),
                message_ids: meta.summary.message_id.iter().cloned().collect(),
                woke: None,
            };
            SNOOZES.put_in(&txn, mail.user_id, id, &s)?;
            self.sleeping.push((mail.user_id, s));
            self.adopted += 1;
        }
        txn.commit()?;
        Ok(Then::Next)
    }
}

/// One run: replies, found snoozes, then the threads whose time came. Returns the woken ones
/// and the next wake-up time (Unix seconds).
pub fn step(store: &Store, now: i64) -> Result<(Vec<Woken>, Option<i64>)> {
    let mut found = Found {
        sleeping: sleeping(store)?,
        now,
        adopted: 0,
    };
    arrivals::follow(store, &mut found)?;
    if found.adopted > 0 {
        tracing::info!(count = found.adopted, "snoozes found in the mailbox");
    }
    let mut replies = Replies {
        sleeping: found.sleeping,
        woken: Vec::new(),
        now,
    };
    arrivals::follow(store, &mut replies)?;
    let mut woken = replies.woken;
    let mut next: Option<i64> = None;
    for (user, s) in replies.sleeping.into_iter().filter(|(_, s)| s.active()) {
        if s.until <= now {
            woken.extend(wake_one(store, user, s.id, WokeBy::Time, now)?);
        } else {
            next = crate::jobs::sooner(next, s.until);
        }
    }
    trim_woken(store, &woken)?;
    Ok((woken, next))
}

/// Keeps each user's newest woken snoozes only.
fn trim_woken(store: &Store, woken: &[Woken]) -> Result<()> {
    let users: HashSet<u64> = woken.iter().map(|w| w.user_id).collect();
    for user in users {
        let all: Vec<Snooze> = SNOOZES.list(store, user)?;
        let mut old: Vec<&Snooze> = all.iter().filter(|s| !s.active()).collect();
        if old.len() <= super::model::KEEP_WOKEN {
            continue;
        }
        old.sort_by_key(|s| std::cmp::Reverse(s.woke.map_or(0, |w| w.at)));
        for s in &old[super::model::KEEP_WOKEN..] {
            SNOOZES.remove(store, user, s.id)?;
        }
    }
    Ok(())
}

/// Tells the user's sessions, and asks the sync to move the mail now.
pub fn announce(state: &AppState, woken: Vec<Woken>) {
    let notices = state.service::<Notices>();
    let mut accounts = HashSet::new();
    for w in woken {
        accounts.insert(w.snooze.account);
        let by = w.snooze.woke.map_or(WokeBy::Time, |x| x.by);
        let message = match by {
            WokeBy::Reply => messages::SNOOZE_WOKE_BY_REPLY,
            _ => messages::SNOOZE_WOKE,
        };
        notices.send(
            w.user_id,
            Notice::SnoozeWoke(SnoozeWoke {
                id: w.snooze.id.to_string(),
                thread_id: w.snooze.thread_id.clone(),
                email_id: w.email_id.map(|id| id.to_string()),
                subject: w.snooze.subject.clone(),
                from: w.snooze.from.clone(),
                by: serde_json::to_value(by)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                message: message.to_string(),
            }),
        );
    }
    for account in accounts {
        state.mailboxes.wake(account);
    }
}

/// The job: a step, the notices, and the next due time in milliseconds.
pub async fn run(state: AppState) -> anyhow::Result<Option<i64>> {
    let now = now();
    let (woken, next) = state.store_blocking(move |store| step(store, now)).await?;
    announce(&state, woken);
    Ok(next.map(|at| at * 1000))
}
