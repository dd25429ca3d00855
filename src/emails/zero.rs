//! The Inbox Zero panel (spec 000 §2, §4, §9): needs-reply, urgent, overdue and processed
//! counters, the most overdue reminders and the auto-archive candidates, computed on the
//! server in one walk of the index.

use serde::Serialize;

use super::listing::{Selector, for_each_row, is_unread_status, waits_for_user};
use super::triage::{DAY, is_auto_archive_candidate};
use crate::error::Result;
use crate::mailstore::{MailRead, flags};
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

pub fn inbox_zero(store: &Store, user_id: u64, now: i64) -> Result<InboxZero> {
    let archive = Selector::for_virtual("archive").expect("virtual");
    let (mut needs_reply, mut urgent, mut processed) = (0, 0, 0);
    let mut overdue_ids: Vec<(i64, u64)> = Vec::new();
    let mut candidates: Vec<(i64, u64)> = Vec::new();
    for_each_row(store, user_id, |_, f, r| {
        let row = r.view();
        let bits = row.bits();
        if bits & flags::HIDDEN != 0 {
            return;
        }
        let role = f.role.as_str();
        let waits = waits_for_user(role);
        if waits && flags::status_of(bits) == Some("needs_reply") {
            needs_reply += 1;
        }
        if waits && bits & flags::PRIORITY_URGENT != 0 {
            urgent += 1;
        }
        if archive.row_matches(role, bits) {
            processed += 1;
        }
        if overdue(role, bits, r.date(), now).is_some() {
            overdue_ids.push((r.date(), r.id()));
        }
        if is_auto_archive_candidate(role, bits, row.activity(), now) {
            candidates.push((row.activity(), r.id()));
        }
    })?;
    // Most overdue (oldest) first; candidates idle longest first.
    overdue_ids.sort_unstable();
    candidates.sort_unstable();
    let mail = MailRead::new(store)?;
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
        overdue: overdue_ids.len(),
        processed,
        reminders,
        auto_archive,
        auto_archive_count: candidates.len(),
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
