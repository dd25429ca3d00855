//! The Inbox Zero panel (spec 000 §2, §4, §9): needs-reply, urgent, overdue and processed
//! counters, the most overdue reminders and the auto-archive candidates. The counters come from
//! the store's counters; overdue is what waits minus what has not waited long enough (the last
//! three days, read from the tags); reminders walk the waiting mail's tags from the oldest and
//! stop at ten; candidates are the inbox's range of the store's idle processed and info mail.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::account_ids;
use super::counting::for_each_count;
use super::listing::{Selector, is_unread_status, waits_for_user};
use super::triage::{AUTO_ARCHIVE_AFTER, DAY};
use crate::error::Result;
use crate::mailstore::{MailRead, flags, tag_of_status, tags};
use crate::store::Store;

/// Overdue after this many days, or after one day when urgent (spec 000 §9).
pub const OVERDUE_DAYS: i64 = 3;
pub const OVERDUE_URGENT_DAYS: i64 = 1;
/// Reminders returned (the panel shows 3 and "and N more").
const REMINDERS: usize = 10;
/// Candidates listed; the count covers all of them.
const CANDIDATES: usize = 100;

/// Whether a message is overdue at `now`, and how many whole days old it is.
pub fn overdue(role: &str, bits: u16, date: i64, now: i64) -> Option<i64> {
    if bits & flags::HIDDEN != 0 || !waits_for_user(role) {
        return None;
    }
    let age = now - date;
    let waiting = matches!(flags::status_of(bits), Some("needs_reply")) || is_unread_status(bits);
    let urgent = bits & flags::PRIORITY_URGENT != 0;
    (waiting && age >= OVERDUE_DAYS * DAY || urgent && age >= OVERDUE_URGENT_DAYS * DAY)
        .then_some(age / DAY)
}

#[derive(Debug, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "InboxZeroReminder")]
pub struct Reminder {
    pub id: String,
    pub subject: String,
    pub from: String,
    pub days_overdue: i64,
}

#[derive(Debug, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "AutoArchiveCandidate")]
pub struct Candidate {
    pub id: String,
    pub subject: String,
    pub status: Option<String>,
}

#[derive(Debug, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "InboxZeroResponse")]
pub struct InboxZero {
    pub needs_reply: usize,
    pub urgent: usize,
    pub overdue: usize,
    pub processed: usize,
    pub reminders: Vec<Reminder>,
    pub auto_archive: Vec<Candidate>,
    pub auto_archive_count: usize,
}

/// Mail that waits for the user (needs reply, or unread and untriaged) or is urgent: the
/// only mail that can be overdue.
fn may_be_overdue(bits: u16) -> bool {
    matches!(flags::status_of(bits), Some("needs_reply"))
        || is_unread_status(bits)
        || bits & flags::PRIORITY_URGENT != 0
}

/// The tags that hold every message [`may_be_overdue`] keeps.
fn waiting_tags() -> [u8; 3] {
    [
        tag_of_status("needs_reply").expect("a status"),
        tags::UNREAD,
        tags::URGENT,
    ]
}

pub fn inbox_zero(store: &Store, user_id: u64, now: i64) -> Result<InboxZero> {
    let archive = Selector::for_virtual("archive").expect("virtual");
    let (mut needs_reply, mut urgent, mut processed, mut waiting) = (0, 0, 0, 0);
    for_each_count(store, user_id, |role, bits, n| {
        if bits & flags::HIDDEN != 0 {
            return;
        }
        let waits = waits_for_user(role);
        if waits && flags::status_of(bits) == Some("needs_reply") {
            needs_reply += n;
        }
        if waits && bits & flags::PRIORITY_URGENT != 0 {
            urgent += n;
        }
        if archive.row_matches(role, bits) {
            processed += n;
        }
        if waits && may_be_overdue(bits) {
            waiting += n;
        }
    })?;
    let mail = MailRead::new(store)?;
    let accounts = account_ids(store, user_id)?;
    // Account → folder → role, looked up by the tagged rows' folder names without copying them.
    let mut roles: HashMap<u64, HashMap<String, String>> = HashMap::new();
    for account in &accounts {
        let folders = roles.entry(*account).or_default();
        for f in mail.folders(*account)? {
            folders.insert(f.name, f.role);
        }
    }
    let role_of = |account: u64, folder: &str| {
        roles
            .get(&account)
            .and_then(|f| f.get(folder))
            .map_or("", String::as_str)
    };

    // Overdue: all that waits, less what has not waited long enough yet (the last days only).
    let mut recent: HashSet<u64> = HashSet::new();
    let mut not_yet = 0;
    for account in &accounts {
        for tag in waiting_tags() {
            for r in mail.tagged_from(*account, tag, now - OVERDUE_DAYS * DAY + 1)? {
                let r = r?;
                let role = role_of(*account, &r.folder);
                if !waits_for_user(role) || !recent.insert(r.id) {
                    continue;
                }
                if let Some(e) = mail.index_entry(*account, &r.folder, r.date, r.id)?
                    && overdue(role, e.bits, r.date, now).is_none()
                {
                    not_yet += 1;
                }
            }
        }
    }

    // Reminders: the oldest overdue first, walking the waiting tags from the oldest.
    let mut overdue_ids: Vec<(i64, u64)> = Vec::new();
    for account in &accounts {
        let mut found: Vec<(i64, u64)> = Vec::new();
        for tag in waiting_tags() {
            let mut n = 0;
            for r in mail.tagged(*account, tag)? {
                let r = r?;
                let role = role_of(*account, &r.folder);
                if let Some(e) = mail.index_entry(*account, &r.folder, r.date, r.id)?
                    && overdue(role, e.bits, r.date, now).is_some()
                {
                    found.push((r.date, r.id));
                    n += 1;
                    if n == REMINDERS {
                        break;
                    }
                }
                if r.date > now {
                    break;
                }
            }
        }
        overdue_ids.extend(found);
    }
    overdue_ids.sort_unstable();
    overdue_ids.dedup();

    // Candidates: processed and info mail still in the inbox, idle a week or more, the longest
    // idle first. Each inbox's range is already in that order: the first CANDIDATES of each
    // are kept, the rest only counted.
    let mut candidates: Vec<(i64, u64)> = Vec::new();
    let mut candidate_count = 0;
    for account in &accounts {
        let inboxes = roles
            .get(account)
            .into_iter()
            .flatten()
            .filter(|(_, role)| role.as_str() == "inbox");
        for (folder, _) in inboxes {
            for (i, idle) in mail
                .idle_until(*account, folder, now - AUTO_ARCHIVE_AFTER)?
                .enumerate()
            {
                let idle = idle?;
                if i < CANDIDATES {
                    candidates.push(idle);
                }
                candidate_count += 1;
            }
        }
    }
    candidates.sort_unstable();

    let mut reminders = Vec::new();
    for (date, id) in overdue_ids.iter().take(REMINDERS) {
        if let Some(m) = mail.meta(*id)? {
            reminders.push(Reminder {
                id: id.to_string(),
                subject: m.summary.subject.clone(),
                from: m.sender_name().to_string(),
                days_overdue: (now - date) / DAY,
            });
        }
    }
    let mut auto_archive = Vec::new();
    for (_, id) in candidates.iter().take(CANDIDATES) {
        if let Some(m) = mail.meta(*id)? {
            auto_archive.push(Candidate {
                id: id.to_string(),
                subject: m.summary.subject.clone(),
                status: m.status.clone(),
            });
        }
    }
    Ok(InboxZero {
        needs_reply,
        urgent,
        overdue: waiting - not_yet,
        processed,
        reminders,
        auto_archive,
        auto_archive_count: candidate_count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(s: &str) -> u16 {
        flags::status_code(Some(s)) << flags::STATUS_SHIFT
    }

    #[test]
    fn overdue_at_the_day_boundaries() {
        let now = 1_800_000_000;
        let needs = status("needs_reply");
        assert_eq!(overdue("inbox", needs, now - 3 * DAY, now), Some(3));
        assert_eq!(overdue("inbox", needs, now - 3 * DAY + 1, now), None);
        // Unread and untriaged counts as the spec's unread status; read and untriaged does not.
        assert_eq!(overdue("inbox", 0, now - 3 * DAY, now), Some(3));
        assert_eq!(overdue("inbox", flags::SEEN, now - 30 * DAY, now), None);
        // Urgent: one day, whatever the status.
        let urgent = status("info") | flags::PRIORITY_URGENT | flags::SEEN;
        assert_eq!(overdue("inbox", urgent, now - DAY, now), Some(1));
        assert_eq!(overdue("inbox", urgent, now - DAY + 1, now), None);
        // Processed mail and mail in Sent or Trash never waits.
        assert_eq!(
            overdue("inbox", status("processed"), now - 9 * DAY, now),
            None
        );
        assert_eq!(overdue("sent", needs, now - 9 * DAY, now), None);
        assert_eq!(overdue("", needs, now - 4 * DAY, now), Some(4));
    }
}
