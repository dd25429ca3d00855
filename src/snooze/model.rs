//! A snooze: the thread, its wake-up time, and how it ended; and the IMAP keywords that keep it
//! in the mailbox (`$Snoozed`, and `$SnoozedUntil-20250314T0600Z`: the time, UTC to the
//! minute), so another client sees it and a reinstall finds it again.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::kit::iso;

/// The keyword every snoozed mail carries.
pub const KEYWORD: &str = "$Snoozed";
const UNTIL_PREFIX: &str = "$SnoozedUntil-";
const UNTIL_FORMAT: &str = "%Y%m%dT%H%MZ";

/// Active snoozes a user may hold, and woken ones kept for the list.
pub const MAX_ACTIVE: usize = 1000;
pub const KEEP_WOKEN: usize = 50;

/// The keyword that carries the wake-up time.
pub fn until_keyword(at: i64) -> String {
    let t = chrono::DateTime::from_timestamp(at, 0).unwrap_or_default();
    format!("{UNTIL_PREFIX}{}", t.format(UNTIL_FORMAT))
}

/// The wake-up time a mail's keywords carry.
pub fn until_of(keywords: &[String]) -> Option<i64> {
    keywords.iter().find_map(|k| {
        let head = k.get(..UNTIL_PREFIX.len())?;
        if !head.eq_ignore_ascii_case(UNTIL_PREFIX) {
            return None;
        }
        let rest = &k[UNTIL_PREFIX.len()..];
        chrono::NaiveDateTime::parse_from_str(rest, UNTIL_FORMAT)
            .ok()
            .map(|t| t.and_utc().timestamp())
    })
}

/// Whether a keyword is one of a snooze's.
pub fn is_snooze_keyword(k: &str) -> bool {
    k.eq_ignore_ascii_case(KEYWORD)
        || k.get(..UNTIL_PREFIX.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(UNTIL_PREFIX))
}

/// What woke a thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "SnoozeWokeBy")]
pub enum WokeBy {
    /// Its time came.
    Time,
    /// A reply arrived in the thread.
    Reply,
    /// The user brought it back.
    User,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Woke {
    pub at: i64,
    pub by: WokeBy,
}

/// One snoozed thread (stored per user).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snooze {
    pub id: u64,
    pub account: u64,
    pub thread_id: String,
    /// Unix seconds.
    pub until: i64,
    pub created: i64,
    pub subject: String,
    pub from: String,
    /// The Message-IDs snoozed (their copies in the Snoozed folder are found by thread).
    pub message_ids: Vec<String>,
    /// None while it sleeps.
    #[serde(default)]
    pub woke: Option<Woke>,
}

impl Snooze {
    pub fn active(&self) -> bool {
        self.woke.is_none()
    }
}

/// A snooze as the list shows it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SnoozeItem")]
pub struct Item {
    pub id: String,
    pub thread_id: String,
    /// The thread's newest mail here (to open it), when the store has it.
    pub email_id: Option<String>,
    pub subject: String,
    pub from: String,
    /// RFC 3339.
    pub until: String,
    pub created: String,
    /// RFC 3339, once woken.
    pub woke_at: Option<String>,
    pub woke_by: Option<WokeBy>,
}

impl Item {
    pub fn of(s: &Snooze, email_id: Option<u64>) -> Self {
        Self {
            id: s.id.to_string(),
            thread_id: s.thread_id.clone(),
            email_id: email_id.map(|id| id.to_string()),
            subject: s.subject.clone(),
            from: s.from.clone(),
            until: iso(s.until),
            created: iso(s.created),
            woke_at: s.woke.map(|w| iso(w.at)),
            woke_by: s.woke.map(|w| w.by),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_keyword_round_trips_to_the_minute() {
        let at = 1_741_939_200 + 37; // 2025-03-14T08:00:37Z
        let k = until_keyword(at);
        assert_eq!(k, "$SnoozedUntil-20250314T0800Z");
        assert_eq!(until_of(&[KEYWORD.into(), k.clone()]), Some(at - 37));
        assert!(is_snooze_keyword(&k) && is_snooze_keyword("$snoozed"));
        assert!(!is_snooze_keyword("$Junk"));
        // Not a time: ignored, never a panic.
        for bad in [
            "$SnoozedUntil-",
            "$SnoozedUntil-x",
            "$SnoozedUntil-2025",
            "$Snooz",
        ] {
            assert_eq!(until_of(&[bad.to_string()]), None, "{bad}");
        }
        assert_eq!(
            until_of(&["$snoozeduntil-20250314T0800Z".into()]),
            Some(at - 37)
        );
    }
}
