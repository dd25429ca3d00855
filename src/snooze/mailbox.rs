//! What a snooze does to the mail, inside the caller's write transaction (so the record and
//! the queued mailbox changes commit together, and a crash leaves either both or neither):
//!
//! - snoozing: the thread's inbox mail is hidden here at once and queued to move to the
//!   mailbox's Snoozed folder (created when missing) with `$Snoozed` and the time keyword;
//! - waking: its mail in Snoozed is queued back to INBOX without those keywords, the newest
//!   unread and listed at the wake-up time (so the thread comes back at the top); mail whose
//!   move to Snoozed was still queued simply stays in the inbox;
//! - a new time: the time keyword of its mail is replaced.
//!
//! The account's sync task writes the queued changes to the mailbox (a local account's, to the
//! store), as it does for triage.

use std::collections::HashMap;

use super::model::{KEYWORD, Snooze, is_snooze_keyword, until_keyword};
use crate::error::{AppError, Result};
use crate::mailstore::{Carried, MailWrite, MessageMeta, PendingFlags, thread_hash};
use crate::messages;

/// A thread's mail the snooze touches: in the inbox (still there, or hidden with its move to
/// Snoozed queued) and in the Snoozed folder.
struct Members {
    inbox: Vec<MessageMeta>,
    snoozed: Vec<MessageMeta>,
    pending: HashMap<u64, PendingFlags>,
}

fn members(w: MailWrite, account: u64, thread_id: &str) -> Result<Members> {
    let roles = w.roles(account)?;
    let inbox_name = roles
        .get("inbox")
        .cloned()
        .unwrap_or_else(|| "INBOX".into());
    let snoozed_name = roles.get("snoozed").cloned();
    let pending: HashMap<u64, PendingFlags> = w.pending(account)?.into_iter().collect();
    let mut out = Members {
        inbox: Vec::new(),
        snoozed: Vec::new(),
        pending,
    };
    for (_, id, folder) in w.members(account, thread_hash(thread_id))? {
        let Some(meta) = w.meta(id)? else { continue };
        if meta.draft {
            continue;
        }
        if folder == inbox_name {
            out.inbox.push(meta);
        } else if Some(&folder) == snoozed_name.as_ref() && !meta.hidden {
            out.snoozed.push(meta);
        }
    }
    Ok(out)
}

/// Whether a hidden inbox mail is on its way to Snoozed.
fn moving_to_snoozed(m: &Members, meta: &MessageMeta) -> bool {
    meta.hidden
        && m.pending
            .get(&meta.id)
            .is_some_and(|op| op.move_to.as_deref() == Some("snoozed"))
}

fn carried(meta: &MessageMeta, last_activity: Option<i64>, date: Option<i64>) -> Carried {
    Carried {
        status: meta.status.clone(),
        priority: meta.priority.clone(),
        last_activity,
        spam_score: meta.spam_score,
        advertisement: meta.advertisement,
        date,
    }
}

fn without_snooze(keywords: &[String]) -> Vec<String> {
    keywords
        .iter()
        .filter(|k| !is_snooze_keyword(k))
        .cloned()
        .collect()
}

/// Snoozes the thread of `meta` (a mail of the user's) until `until`. Returns the record to
/// store (id 0 when new: the caller numbers it), or an error when no mail of the thread is in
/// the inbox.
pub fn snooze(w: MailWrite, meta: &MessageMeta, until: i64, now: i64) -> Result<Snooze> {
    let m = members(w, meta.account_id, &meta.thread_id)?;
    let shown: Vec<&MessageMeta> = m.inbox.iter().filter(|x| !x.hidden).collect();
    if shown.is_empty() {
        return Err(AppError::bad_request(messages::SNOOZE_NOT_IN_INBOX));
    }
    let add = vec![KEYWORD.to_string(), until_keyword(until)];
    for x in &shown {
        let mut x = (*x).clone();
        x.hidden = true;
        x.keywords = without_snooze(&x.keywords);
        x.keywords.extend(add.iter().cloned());
        w.write_meta(&x)?;
        let add = add.clone();
        w.queue_change(&x, move |op| {
            op.add_keywords.retain(|k| !is_snooze_keyword(k));
            op.add_keywords.extend(add);
            op.remove_keywords.retain(|k| !is_snooze_keyword(k));
            op.move_to = Some("snoozed".into());
            op.create_target = true;
        })?;
        if let Some(mid) = x.summary.message_id.as_deref() {
            w.carry(x.account_id, mid, &carried(&x, x.last_activity, None))?;
        }
    }
    let newest = shown
        .iter()
        .max_by_key(|x| (x.date, x.id))
        .expect("one at least");
    Ok(Snooze {
        id: 0,
        account: meta.account_id,
        thread_id: meta.thread_id.clone(),
        until,
        created: now,
        subject: newest.summary.subject.clone(),
        from: newest.sender_name().to_string(),
        message_ids: shown
            .iter()
            .filter_map(|x| x.summary.message_id.clone())
            .collect(),
        woke: None,
    })
}

/// Brings a snoozed thread back to the inbox at `now`. Returns the id of its newest mail that
/// is (or will be, once the sync moved it) back, if any.
pub fn wake(w: MailWrite, s: &Snooze, now: i64) -> Result<Option<u64>> {
    let m = members(w, s.account, &s.thread_id)?;
    let staying: Vec<&MessageMeta> = m
        .inbox
        .iter()
        .filter(|x| moving_to_snoozed(&m, x))
        .collect();
    let back: Vec<&MessageMeta> = m.snoozed.iter().collect();
    let newest = staying
        .iter()
        .chain(back.iter())
        .max_by_key(|x| (x.date, x.id))
        .map(|x| x.id);
    // Still in the inbox: the queued move is dropped, the mail shown again.
    for x in staying {
        let mut x = x.clone();
        x.hidden = false;
        x.keywords = without_snooze(&x.keywords);
        x.last_activity = Some(now);
        let unread = Some(x.id) == newest;
        if unread {
            x.seen = false;
        }
        w.write_meta(&x)?;
        w.queue_change(&x, |op| {
            op.move_to = None;
            op.create_target = false;
            op.add_keywords.retain(|k| !is_snooze_keyword(k));
            if unread {
                op.seen = Some(false);
            }
        })?;
    }
    // In Snoozed: back to INBOX, the newest unread and at the top.
    for x in back {
        let mut x = x.clone();
        let remove: Vec<String> = x
            .keywords
            .iter()
            .filter(|k| is_snooze_keyword(k))
            .cloned()
            .chain(std::iter::once(KEYWORD.to_string()))
            .collect();
        x.hidden = true;
        x.keywords = without_snooze(&x.keywords);
        let unread = Some(x.id) == newest;
        if unread {
            x.seen = false;
        }
        w.write_meta(&x)?;
        w.queue_change(&x, move |op| {
            op.add_keywords.retain(|k| !is_snooze_keyword(k));
            op.remove_keywords = remove;
            op.remove_keywords.dedup();
            op.move_to = Some("inbox".into());
            if unread {
                op.seen = Some(false);
            }
        })?;
        if let Some(mid) = x.summary.message_id.as_deref() {
            let date = unread.then_some(now.max(x.date));
            w.carry(x.account_id, mid, &carried(&x, Some(now), date))?;
        }
    }
    Ok(newest)
}

/// Gives a sleeping thread a new wake-up time: its mail's time keyword is replaced.
pub fn retime(w: MailWrite, s: &Snooze, until: i64) -> Result<()> {
    let m = members(w, s.account, &s.thread_id)?;
    let new = until_keyword(until);
    let moving: Vec<&MessageMeta> = m
        .inbox
        .iter()
        .filter(|x| moving_to_snoozed(&m, x))
        .collect();
    for x in moving.into_iter().chain(m.snoozed.iter()) {
        let mut x = x.clone();
        let old: Vec<String> = x
            .keywords
            .iter()
            .filter(|k| is_snooze_keyword(k) && !k.eq_ignore_ascii_case(KEYWORD))
            .cloned()
            .collect();
        x.keywords.retain(|k| !old.contains(k));
        x.keywords.push(new.clone());
        w.write_meta(&x)?;
        let new = new.clone();
        let in_snoozed = !x.hidden;
        w.queue_change(&x, move |op| {
            op.add_keywords
                .retain(|k| !is_snooze_keyword(k) || k.eq_ignore_ascii_case(KEYWORD));
            op.add_keywords.push(new);
            if in_snoozed {
                op.remove_keywords = old;
            }
        })?;
    }
    Ok(())
}

/// A mail found in the Snoozed folder after its thread was woken (its move was still on its
/// way): sent back after the others.
pub fn return_late(w: MailWrite, meta: &MessageMeta, now: i64) -> Result<()> {
    let s = Snooze {
        id: 0,
        account: meta.account_id,
        thread_id: meta.thread_id.clone(),
        until: now,
        created: now,
        subject: String::new(),
        from: String::new(),
        message_ids: Vec::new(),
        woke: None,
    };
    wake(w, &s, now).map(|_| ())
}
