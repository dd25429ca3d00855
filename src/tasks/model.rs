//! A task: title required (spec §5), priority low/medium/high/urgent, status pending/completed,
//! a due time (kept as Unix seconds; given as RFC 3339, or as a local `YYYY-MM-DDTHH:MM` or
//! `YYYY-MM-DD` in the user's time zone), and optionally the mail it came from.

use chrono::{NaiveDate, NaiveDateTime, TimeZone};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::emails::view::iso;
use crate::error::{AppError, Result};
use crate::messages;

pub const MAX_TASKS: usize = 5000;
const MAX_TITLE: usize = 300;
const MAX_DESCRIPTION: usize = 10_000;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "TaskPriority")]
pub enum Priority {
    Low,
    #[default]
    Medium,
    High,
    Urgent,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "TaskStatus")]
pub enum Status {
    #[default]
    Pending,
    Completed,
}

/// What a client sends to create or change a task.
#[derive(Debug, Clone, Default, Deserialize, TS)]
#[serde(default)]
#[ts(optional_fields)]
pub struct TaskInput {
    pub title: String,
    pub description: String,
    pub priority: Priority,
    /// RFC 3339, or `YYYY-MM-DDTHH:MM` / `YYYY-MM-DD` in the user's time zone; empty: none.
    pub due_date: String,
    pub status: Option<Status>,
    /// The stored mail it came from.
    pub email_id: Option<String>,
}

/// A due time as given, in `tz` when it names no offset. A date alone is 09:00 that day.
pub fn parse_due(raw: &str, tz: chrono_tz::Tz) -> Result<Option<i64>> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(None);
    }
    let bad = || AppError::bad_request(messages::TASK_DUE_INVALID);
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(raw) {
        return Ok(Some(t.timestamp()));
    }
    let local = NaiveDateTime::parse_from_str(raw, "%Y-%m-%dT%H:%M")
        .or_else(|_| NaiveDateTime::parse_from_str(raw, "%Y-%m-%dT%H:%M:%S"))
        .or_else(|_| {
            NaiveDate::parse_from_str(raw, "%Y-%m-%d")
                .map(|d| d.and_hms_opt(9, 0, 0).expect("09:00 exists"))
        })
        .map_err(|_| bad())?;
    // A time skipped by a clock change is taken as the first valid one after it.
    let at = tz
        .from_local_datetime(&local)
        .earliest()
        .or_else(|| {
            tz.from_local_datetime(&(local + chrono::Duration::hours(1)))
                .earliest()
        })
        .ok_or_else(bad)?;
    Ok(Some(at.timestamp()))
}

/// A stored task.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Stored {
    pub id: u64,
    pub title: String,
    pub description: String,
    pub priority: Priority,
    pub due: Option<i64>,
    pub status: Status,
    /// Unix seconds.
    pub created: i64,
    pub completed: Option<i64>,
    pub email_id: Option<u64>,
    pub email_subject: Option<String>,
    /// The reminder for the current due time went out.
    #[serde(default)]
    pub reminded: bool,
}

/// Title and description trimmed and bounded.
pub fn checked_text(title: &str, description: &str) -> Result<(String, String)> {
    let (title, description) = (title.trim(), description.trim());
    if title.is_empty() {
        return Err(AppError::bad_request(messages::TASK_TITLE_REQUIRED));
    }
    if title.chars().count() > MAX_TITLE || description.chars().count() > MAX_DESCRIPTION {
        return Err(AppError::bad_request(messages::CONTACT_TOO_LONG));
    }
    Ok((title.to_string(), description.to_string()))
}

impl Stored {
    pub fn overdue(&self, now: i64) -> bool {
        self.status == Status::Pending && self.due.is_some_and(|d| d < now)
    }
}

/// A task as the API shows it (spec field names).
#[derive(Debug, Clone, Serialize, TS)]
pub struct Task {
    pub id: String,
    pub title: String,
    pub description: String,
    pub priority: Priority,
    /// RFC 3339, or null.
    pub due_date: Option<String>,
    pub status: Status,
    pub created_date: String,
    pub completed_date: Option<String>,
    /// The mail it came from (its stored id), and that mail's subject.
    pub email_id: Option<String>,
    pub email_subject: Option<String>,
    /// Pending and past its due time.
    pub overdue: bool,
}

impl Task {
    pub fn of(s: Stored, now: i64) -> Self {
        Self {
            id: s.id.to_string(),
            overdue: s.overdue(now),
            title: s.title,
            description: s.description,
            priority: s.priority,
            due_date: s.due.map(iso),
            status: s.status,
            created_date: iso(s.created),
            completed_date: s.completed.map(iso),
            email_id: s.email_id.map(|i| i.to_string()),
            email_subject: s.email_subject,
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono_tz::Asia::Jerusalem;

    use super::*;

    #[test]
    fn due_times_are_read_in_the_user_s_zone() {
        // 2026-11-24 14:30 in Jerusalem (UTC+2) is 12:30 UTC.
        let t = parse_due("2026-11-24T14:30", Jerusalem).unwrap().unwrap();
        assert_eq!(iso(t), "2026-11-24T12:30:00Z");
        // Summer time: UTC+3.
        let t = parse_due("2026-07-01T09:00", Jerusalem).unwrap().unwrap();
        assert_eq!(iso(t), "2026-07-01T06:00:00Z");
        let t = parse_due("2026-11-24", Jerusalem).unwrap().unwrap();
        assert_eq!(iso(t), "2026-11-24T07:00:00Z");
        let t = parse_due("2026-11-24T10:00:00+00:00", Jerusalem)
            .unwrap()
            .unwrap();
        assert_eq!(iso(t), "2026-11-24T10:00:00Z");
        assert_eq!(parse_due(" ", Jerusalem).unwrap(), None);
        assert!(parse_due("tomorrow", Jerusalem).is_err());
        assert!(parse_due("2026-13-01", Jerusalem).is_err());
        // 02:30 on the spring-forward night (2026-03-27) does not exist: 03:30 is taken.
        let t = parse_due("2026-03-27T02:30", Jerusalem).unwrap().unwrap();
        assert_eq!(iso(t), "2026-03-27T00:30:00Z");
    }

    #[test]
    fn overdue_is_pending_and_past_due() {
        let mut s = Stored {
            id: 1,
            title: "t".into(),
            description: String::new(),
            priority: Priority::High,
            due: Some(100),
            status: Status::Pending,
            created: 0,
            completed: None,
            email_id: None,
            email_subject: None,
            reminded: false,
        };
        assert!(s.overdue(101) && !s.overdue(100));
        s.status = Status::Completed;
        assert!(!s.overdue(101));
        s.status = Status::Pending;
        s.due = None;
        assert!(!s.overdue(101));
    }
}
