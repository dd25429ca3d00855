//! The `followups` job, on the scheduler at due times and on new mail: it follows the change
//! log for the user's sent mail (the sync's and this client's own sent copies: cursor
//! `followups-sent`) and for new inbox mail (cursor `followups-answers`); decides whether a new
//! sent mail awaits an answer (the AI when the user has a provider, else `detect`); clears a
//! follow-up when an answer arrives in its thread; and reminds once when one's time passed with
//! no answer (a notice to the user's sessions). Then it sleeps until the next reminder.

use std::collections::HashMap;

use axum::http::HeaderMap;

use super::detect::{self, Source};
use super::model::{FollowUp, MAX_OPEN, State};
use super::{FOLLOWUPS, nudge};
use crate::ai;
use crate::emails::arrivals::{self, Arrival, Follower, Then};
use crate::error::Result;
use crate::kit::now;
use crate::mailstore::{Reason, thread_hash};
use crate::messages;
use crate::notices::{FollowUpDue, Notice, Notices};
use crate::state::AppState;
use crate::store::Store;

pub const JOB: &str = "followups";
const SENT: &str = "followups-sent";
const ANSWERS: &str = "followups-answers";

/// At start, before any sync: the followers' places in the change log.
pub fn join(store: &Store) -> anyhow::Result<()> {
    arrivals::join(store, SENT)?;
    arrivals::join(store, ANSWERS)
}

/// The people a mail went to, as they read.
fn recipients(meta: &crate::mailstore::MessageMeta) -> Vec<String> {
    let s = &meta.summary;
    s.to.iter().chain(&s.cc).take(20).cloned().collect()
}

/// Sent mail: each new one is recorded as being decided (a mail in a thread already awaited
/// restarts that wait instead).
struct Sent {
    /// The user's mailbox addresses, by account.
    own: HashMap<u64, String>,
    added: usize,
}

impl Follower for Sent {
    fn cursor(&self) -> &'static str {
        SENT
    }
    fn role(&self) -> &'static str {
        "sent"
    }
    fn takes(&self, reason: Reason) -> bool {
        matches!(reason, Reason::Sync | Reason::Outgoing)
    }
    fn arrived(&mut self, store: &Store, mail: &Arrival<'_>) -> Result<Then> {
        let meta = &mail.meta;
        let own = self.own.get(&mail.account_id).cloned().unwrap_or_default();
        let to = recipients(meta);
        // Mail to oneself only awaits nobody.
        if to.is_empty()
            || to
                .iter()
                .all(|t| t.to_lowercase().contains(&own.to_lowercase()) && !own.is_empty())
        {
            return Ok(Then::Next);
        }
        let prefs = crate::settings::load(store, mail.user_id)?;
        let days = prefs.follow_up_days;
        let txn = store.begin_write()?;
        let mut all: Vec<FollowUp> = FOLLOWUPS.list_in(&txn, mail.user_id)?;
        let hash = thread_hash(&meta.thread_id);
        if all.iter().any(|f| {
            f.account == mail.account_id
                && f.message_id.is_some()
                && f.message_id == meta.summary.message_id
        }) {
            return Ok(Then::Next);
        }
        let same_thread = all.iter_mut().find(|f| {
            f.open() && f.account == mail.account_id && thread_hash(&f.thread_id) == hash
        });
        let rec = match same_thread {
            // A second mail (a nudge) in an awaited thread: the wait starts again from it.
            Some(f) if f.state == State::Waiting => {
                f.email_id = meta.id;
                f.message_id = meta.summary.message_id.clone();
                f.sent_at = meta.date;
                f.due = meta.date + i64::from(f.days.max(1)) * super::model::DAY;
                f.reminded = false;
                f.clone()
            }
            _ => {
                let id =
                    FOLLOWUPS.new_id_in(&txn, mail.user_id, MAX_OPEN, messages::FOLLOWUPS_FULL)?;
                FollowUp {
                    id,
                    account: mail.account_id,
                    email_id: meta.id,
                    message_id: meta.summary.message_id.clone(),
                    thread_id: meta.thread_id.clone(),
                    subject: meta.summary.subject.clone(),
                    to,
                    sent_at: meta.date,
                    due: meta.date + i64::from(days) * super::model::DAY,
                    days,
                    source: Source::Question,
                    state: State::Deciding,
                    reminded: false,
                    ended_at: None,
                }
            }
        };
        FOLLOWUPS.put_in(&txn, mail.user_id, rec.id, &rec)?;
        txn.commit()?;
        self.added += 1;
        Ok(Then::Next)
    }
}

/// Inbox mail: an answer in an awaited thread (from someone else, after the mail was sent)
/// clears it.
struct Answers {
    open: Vec<(u64, FollowUp)>,
    own: HashMap<u64, String>,
    now: i64,
}

impl Follower for Answers {
    fn cursor(&self) -> &'static str {
        ANSWERS
    }
    fn anyone(&self) -> bool {
        !self.open.is_empty()
    }
    fn wants(&mut self, _: &Store, user_id: u64) -> Result<bool> {
        Ok(self.open.iter().any(|(u, _)| *u == user_id))
    }
    fn arrived(&mut self, store: &Store, mail: &Arrival<'_>) -> Result<Then> {
        let meta = &mail.meta;
        let own = self
            .own
            .get(&mail.account_id)
            .map(String::as_str)
            .unwrap_or("");
        if !own.is_empty() && meta.summary.from.eq_ignore_ascii_case(own) {
            return Ok(Then::Next);
        }
        let hash = thread_hash(&meta.thread_id);
        for (user, f) in self.open.iter_mut().filter(|(u, f)| {
            *u == mail.user_id
                && f.open()
                && f.account == mail.account_id
                && thread_hash(&f.thread_id) == hash
                && meta.date >= f.sent_at - 60
        }) {
            let now = self.now;
            if let Some(done) = FOLLOWUPS.update(store, *user, f.id, |x: &mut FollowUp| {
                if x.open() {
                    x.state = State::Answered;
                    x.ended_at = Some(now);
                }
                Ok(())
            })? {
                *f = done;
            }
        }
        Ok(Then::Next)
    }
}

/// The mailbox addresses of every account, by account id.
fn own_addresses(store: &Store) -> Result<HashMap<u64, String>> {
    Ok(crate::accounts::list_all(store)?
        .into_iter()
        .map(|a| (a.id, a.email))
        .collect())
}

fn open_ones(store: &Store) -> Result<Vec<(u64, FollowUp)>> {
    Ok(FOLLOWUPS
        .everyone::<FollowUp>(store)?
        .into_iter()
        .filter(|(_, f)| f.open())
        .collect())
}

/// The followers' part of a run: new sent mail recorded, answers cleared.
pub fn follow(store: &Store, now: i64) -> Result<()> {
    let own = own_addresses(store)?;
    let mut sent = Sent {
        own: own.clone(),
        added: 0,
    };
    arrivals::follow(store, &mut sent)?;
    let mut answers = Answers {
        open: open_ones(store)?,
        own,
        now,
    };
    arrivals::follow(store, &mut answers).map(|_| ())
}

/// Decides one sent mail without AI: the rules of `detect` over its own words.
fn by_rules(store: &Store, user_id: u64, f: &FollowUp) -> Option<Source> {
    let (mail, _) = ai::source::stored(store, user_id, f.email_id, false).ok()?;
    detect::asks(&crate::mail::quote::own_text(&format!(
        "{}\n{}",
        mail.subject, mail.body
    )))
}

/// Decides the mail being decided: the AI when the user has a provider (the rules when it
/// fails), else the rules. A mail that awaits nothing is dropped.
pub async fn decide(state: &AppState) -> Result<()> {
    let deciding: Vec<(u64, FollowUp)> = state
        .store_blocking(|store| {
            Ok(open_ones(store)?
                .into_iter()
                .filter(|(_, f)| f.state == State::Deciding)
                .collect())
        })
        .await?;
    for (user, f) in deciding {
        let verdict = match ai::prepare(state, user, &ai::Extras::default(), &HeaderMap::new())
            .await
        {
            Ok(prepared) => {
                let id = f.email_id;
                let mail = state
                    .store_blocking(move |store| ai::source::stored(store, user, id, false))
                    .await;
                match mail {
                    Ok((mail, _)) => {
                        let ask = nudge::decide_ask(&mail);
                        match ai::run(state, user, &prepared, &ask, "", nudge::read_decision).await
                        {
                            Ok(true) => Some(Some(Source::Ai)),
                            Ok(false) => Some(None),
                            Err(e) => {
                                tracing::warn!(user, error = %e, "follow-up: the AI did not decide; the rules do");
                                None
                            }
                        }
                    }
                    // The mail is gone: nothing to await.
                    Err(_) => Some(None),
                }
            }
            Err(_) => None,
        };
        let f2 = f.clone();
        let verdict = match verdict {
            Some(v) => v,
            None => {
                state
                    .store_blocking(move |store| Ok(by_rules(store, user, &f2)))
                    .await?
            }
        };
        state
            .store_blocking(move |store| {
                match verdict {
                    Some(source) => {
                        FOLLOWUPS.update(store, user, f.id, |x: &mut FollowUp| {
                            if x.state == State::Deciding {
                                x.state = State::Waiting;
                                x.source = source;
                            }
                            Ok(())
                        })?;
                    }
                    None => {
                        FOLLOWUPS.remove(store, user, f.id)?;
                    }
                }
                Ok(())
            })
            .await?;
    }
    Ok(())
}

/// The follow-ups reminded of now (by user), and the next reminder's time.
pub type Reminded = (Vec<(u64, FollowUp)>, Option<i64>);

/// Reminds once of each follow-up whose time passed with no answer (marked first: a crash
/// loses a reminder rather than repeating it). Returns them and the next reminder's time.
pub fn remind(store: &Store, now: i64) -> Result<Reminded> {
    let mut due = Vec::new();
    let mut next: Option<i64> = None;
    for (user, f) in open_ones(store)? {
        if f.state != State::Waiting || f.reminded {
            continue;
        }
        if f.due > now {
            next = crate::jobs::sooner(next, f.due);
            continue;
        }
        if let Some(f) = FOLLOWUPS.update(store, user, f.id, |x: &mut FollowUp| {
            x.reminded = true;
            Ok(())
        })? {
            due.push((user, f));
        }
    }
    Ok((due, next))
}

/// Drops each user's oldest ended follow-ups past the ones kept.
fn trim_ended(store: &Store) -> Result<()> {
    let mut by_user: HashMap<u64, Vec<FollowUp>> = HashMap::new();
    for (user, f) in FOLLOWUPS.everyone::<FollowUp>(store)? {
        if !f.open() {
            by_user.entry(user).or_default().push(f);
        }
    }
    for (user, mut ended) in by_user {
        if ended.len() <= super::model::KEEP_ENDED {
            continue;
        }
        ended.sort_by_key(|f| std::cmp::Reverse(f.ended_at.unwrap_or(0)));
        for f in &ended[super::model::KEEP_ENDED..] {
            FOLLOWUPS.remove(store, user, f.id)?;
        }
    }
    Ok(())
}

/// The job: follow, decide, remind; the next due time in milliseconds.
pub async fn run(state: AppState) -> anyhow::Result<Option<i64>> {
    let now = now();
    state
        .store_blocking(move |store| follow(store, now))
        .await?;
    decide(&state).await?;
    let (due, next) = state
        .store_blocking(move |store| {
            let out = remind(store, now)?;
            trim_ended(store)?;
            Ok(out)
        })
        .await?;
    let notices = state.service::<Notices>();
    for (user, f) in due {
        notices.send(
            user,
            Notice::FollowUpDue(FollowUpDue {
                id: f.id.to_string(),
                email_id: f.email_id.to_string(),
                subject: f.subject.clone(),
                to: f.to.clone(),
                message: messages::FOLLOW_UP_DUE.to_string(),
            }),
        );
    }
    Ok(next.map(|at| at * 1000))
}
