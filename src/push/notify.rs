//! What is sent, when: a user's notes go to each of their devices that is on; a device in its
//! quiet hours holds them (counted, the newest kept) and gets one summary when the quiet ends.
//! The `push` job hears of new inbox mail through the change log (an arrivals follower: not
//! spam, not ads, not a mailbox's old mail found by a first sync), one note per user and run
//! (one mail: its sender and subject; more: how many and from whom), and sends the summaries
//! that are due. The other notes (a task's reminder, an auto-reply draft, a scheduled send that
//! failed) come from the features' notices ([`listen`]).

use std::collections::BTreeMap;

use super::DEVICES;
use super::model::{Device, Note};
use super::quiet;
use super::send::{Outcome, Push};
use crate::emails::arrivals::{self, Arrival, Follower, Then};
use crate::error::Result;
use crate::messages;
use crate::notices::{Notice, Notices};
use crate::state::AppState;
use crate::store::Store;

pub const JOB: &str = "push";
/// The job's place in the change log.
const CURSOR: &str = "push";
/// Mail dated longer ago than this is a mailbox's history coming in, not news.
const NEWS_SECS: i64 = 24 * 3600;
/// The mails a grouped note names.
const NAMED: usize = 3;

/// At start, before any sync: the job's place in the change log.
pub fn join(store: &Store) -> anyhow::Result<()> {
    arrivals::join(store, CURSOR)
}

/// The link that opens a mail.
fn mail_url(id: u64) -> String {
    format!("/#/Inbox?mail={id}")
}

/// New inbox mail of users with a device, by user.
struct NewMail {
    now: i64,
    users_with_devices: Option<Vec<u64>>,
    found: BTreeMap<u64, Vec<(u64, String, String)>>,
}

impl Follower for NewMail {
    fn cursor(&self) -> &'static str {
        CURSOR
    }

    fn anyone(&self) -> bool {
        self.users_with_devices
            .as_ref()
            .is_some_and(|u| !u.is_empty())
    }

    fn wants(&mut self, _store: &Store, user_id: u64) -> Result<bool> {
        Ok(self
            .users_with_devices
            .as_ref()
            .is_some_and(|u| u.contains(&user_id)))
    }

    fn arrived(&mut self, _store: &Store, mail: &Arrival<'_>) -> Result<Then> {
        let m = &mail.meta;
        let junk = matches!(m.status.as_deref(), Some("spam" | "advertisement"));
        if junk || m.advertisement || m.date < self.now - NEWS_SECS {
            return Ok(Then::Next);
        }
        let from = if m.summary.from_name.trim().is_empty() {
            m.summary.from.clone()
        } else {
            m.summary.from_name.clone()
        };
        let subject = if m.summary.subject.trim().is_empty() {
            messages::PUSH_NO_SUBJECT.to_string()
        } else {
            m.summary.subject.clone()
        };
        self.found
            .entry(mail.user_id)
            .or_default()
            .push((m.id, from, subject));
        Ok(Then::Next)
    }
}

/// One note for a user's new mails: the one mail, or how many and the newest senders.
pub fn mail_note(mails: &[(u64, String, String)]) -> Option<Note> {
    let (id, from, subject) = mails.last()?;
    if mails.len() == 1 {
        return Some(Note::new(from, subject, mail_url(*id), "mail"));
    }
    let named: Vec<String> = mails
        .iter()
        .rev()
        .take(NAMED)
        .map(|(_, from, subject)| format!("{from}: {subject}"))
        .collect();
    Some(Note::new(
        &messages::push_new_mails(mails.len()),
        &named.join("\n"),
        "/#/Inbox".into(),
        "mail",
    ))
}

/// The summary of what quiet hours held.
fn held_note(d: &Device) -> Option<Note> {
    let last = d.held_last.clone()?;
    if d.held <= 1 {
        return Some(last);
    }
    let body = format!("{}: {}", last.title, last.body);
    Some(Note::new(
        &messages::push_held(d.held),
        &body,
        last.url,
        "held",
    ))
}

/// Sends `note` to each of the user's devices that is on (held on those in quiet hours).
pub async fn notify(state: &AppState, user_id: u64, note: Note) -> anyhow::Result<()> {
    let push = state.service::<Push>();
    if !push.enabled() {
        return Ok(());
    }
    let now = crate::kit::now();
    let (devices, tz) = state
        .store_blocking(move |store| {
            let devices: Vec<Device> = DEVICES.list(store, user_id)?;
            Ok((devices, crate::settings::load(store, user_id)?.tz()))
        })
        .await?;
    let mut held_any = false;
    for d in devices.into_iter().filter(|d| d.enabled) {
        if quiet::until(&d.quiet, tz, now).is_some() {
            let kept = note.clone();
            state
                .store_blocking(move |store| {
                    DEVICES.update(store, user_id, d.id, |d: &mut Device| {
                        d.held = d.held.saturating_add(1);
                        d.held_last = Some(kept);
                        Ok(())
                    })
                })
                .await?;
            held_any = true;
            continue;
        }
        let outcome = push.deliver(&d, &note, false).await;
        record(state, user_id, d.id, outcome).await?;
    }
    if held_any {
        // The job sleeps until the first quiet end: it must look again.
        state.jobs().trigger(state, JOB);
    }
    Ok(())
}

/// Writes a delivery's outcome on the device (a gone subscription drops it).
pub async fn record(
    state: &AppState,
    user_id: u64,
    id: u64,
    outcome: Outcome,
) -> anyhow::Result<()> {
    let now = crate::kit::now();
    state
        .store_blocking(move |store| match outcome {
            Outcome::Gone => DEVICES.remove(store, user_id, id).map(|_| ()),
            Outcome::Sent => DEVICES
                .update(store, user_id, id, |d: &mut Device| {
                    d.last_sent = Some(now);
                    d.last_error = None;
                    Ok(())
                })
                .map(|_| ()),
            Outcome::Failed(why) => DEVICES
                .update(store, user_id, id, |d: &mut Device| {
                    d.last_error = Some(why);
                    Ok(())
                })
                .map(|_| ()),
        })
        .await
        .map_err(Into::into)
}

/// One run of the job: new inbox mail, then the summaries whose quiet ended. Returns when the
/// next quiet ends with something held (Unix ms).
pub async fn run(state: AppState) -> anyhow::Result<Option<i64>> {
    let now = crate::kit::now();
    let found = state
        .store_blocking(move |store| {
            let everyone: Vec<(u64, Device)> = DEVICES.everyone(store)?;
            let mut users: Vec<u64> = everyone
                .iter()
                .filter(|(_, d)| d.enabled)
                .map(|(u, _)| *u)
                .collect();
            users.dedup();
            let mut f = NewMail {
                now,
                users_with_devices: Some(users),
                found: BTreeMap::new(),
            };
            while arrivals::follow(store, &mut f)? {}
            Ok(f.found)
        })
        .await?;
    for (user, mails) in found {
        if let Some(note) = mail_note(&mails) {
            notify(&state, user, note).await?;
        }
    }
    held_summaries(&state, now).await
}

/// Sends what quiet hours held on devices whose quiet is over; when the next one ends.
async fn held_summaries(state: &AppState, now: i64) -> anyhow::Result<Option<i64>> {
    let held = state
        .store_blocking(move |store| {
            let all: Vec<(u64, Device)> = DEVICES.everyone(store)?;
            let mut out = Vec::new();
            for (user, d) in all.into_iter().filter(|(_, d)| d.held > 0) {
                let tz = crate::settings::load(store, user)?.tz();
                out.push((user, quiet::until(&d.quiet, tz, now), d));
            }
            Ok(out)
        })
        .await?;
    let push = state.service::<Push>();
    let mut next = None;
    for (user, until, d) in held {
        if let Some(end) = until {
            next = crate::jobs::sooner(next, end);
            continue;
        }
        let note = held_note(&d);
        let id = d.id;
        state
            .store_blocking(move |store| {
                DEVICES.update(store, user, id, |d: &mut Device| {
                    d.held = 0;
                    d.held_last = None;
                    Ok(())
                })
            })
            .await?;
        if let (Some(note), true) = (note, d.enabled && push.enabled()) {
            let outcome = push.deliver(&d, &note, false).await;
            record(state, user, id, outcome).await?;
        }
    }
    Ok(next.map(|s| s * 1000))
}

/// The note a feature's notice makes, if it is one a device hears of.
pub fn notice_note(notice: &Notice) -> Option<Note> {
    Some(match notice {
        Notice::TaskDue(t) => Note::new(
            messages::PUSH_TASK_TITLE,
            &t.title,
            "/#/Tasks".into(),
            "task",
        ),
        Notice::AutoReply(a) => {
            let from = if a.from_name.is_empty() {
                &a.from
            } else {
                &a.from_name
            };
            Note::new(
                messages::PUSH_AUTO_REPLY_TITLE,
                &format!("{from}: {}", a.subject),
                "/#/Inbox?folder=drafts".into(),
                "auto-reply",
            )
        }
        Notice::SendFailed(f) => Note::new(
            messages::PUSH_SEND_FAILED_TITLE,
            &format!("{}: {}", f.subject, f.message),
            "/#/Inbox?folder=outbox".into(),
            "send-failed",
        ),
        _ => return None,
    })
}

/// Follows the notices of every feature for as long as the server runs (`serve`).
pub fn listen(state: &AppState) {
    let mut rx = state.service::<Notices>().subscribe();
    let state = state.clone();
    tokio::spawn(async move {
        loop {
            match rx.recv().await {
                Ok((user, notice)) => {
                    if let Some(note) = notice_note(&notice)
                        && let Err(e) = notify(&state, user, note).await
                    {
                        tracing::warn!(error = %e, "push: a notice was not sent");
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => {
                    tracing::warn!(missed = n, "push: notices came faster than they were sent");
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notices::{SendFailed, TaskDue};

    fn mail(id: u64, from: &str, subject: &str) -> (u64, String, String) {
        (id, from.into(), subject.into())
    }

    /// One mail is its sender and subject and opens it; many are one note that counts them and
    /// names the newest three, and opens the inbox; none is no note.
    #[test]
    fn new_mail_is_one_note_however_many_arrive() {
        assert_eq!(mail_note(&[]), None);
        let one = mail_note(&[mail(7, "נועה", "פגישה")]).unwrap();
        assert_eq!(
            (
                one.title.as_str(),
                one.body.as_str(),
                one.url.as_str(),
                one.tag.as_str()
            ),
            ("נועה", "פגישה", "/#/Inbox?mail=7", "mail")
        );
        let many: Vec<_> = (1..=5)
            .map(|i| mail(i, &format!("שולח {i}"), &format!("נושא {i}")))
            .collect();
        let note = mail_note(&many).unwrap();
        assert_eq!(note.title, messages::push_new_mails(5));
        assert_eq!(note.body, "שולח 5: נושא 5\nשולח 4: נושא 4\nשולח 3: נושא 3");
        assert_eq!((note.url.as_str(), note.tag.as_str()), ("/#/Inbox", "mail"));
        // A long subject is cut to what a notification shows.
        let long = mail_note(&[mail(1, "א", &"ב".repeat(1000))]).unwrap();
        assert_eq!(long.body.len(), 240, "bytes: the payload's bound");
    }

    /// A task's reminder and a failed scheduled send are notes; a folder change is not.
    #[test]
    fn the_notices_a_device_hears_of() {
        let task = notice_note(&Notice::TaskDue(TaskDue {
            id: "1".into(),
            title: "לשלם ארנונה".into(),
            due_date: None,
        }))
        .unwrap();
        assert_eq!(
            (task.title.as_str(), task.body.as_str()),
            (messages::PUSH_TASK_TITLE, "לשלם ארנונה")
        );
        let failed = notice_note(&Notice::SendFailed(SendFailed {
            id: "2".into(),
            subject: "הזמנה".into(),
            to: vec![],
            message: "השרת דחה".into(),
            retrying: true,
        }))
        .unwrap();
        assert_eq!(failed.body, "הזמנה: השרת דחה");
        let folders = Notice::FoldersChanged(crate::notices::FoldersChanged { account_id: 1 });
        assert_eq!(notice_note(&folders), None);
    }
}
