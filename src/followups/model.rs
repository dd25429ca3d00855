//! A sent mail awaiting an answer: which mail, why, until when, and how it ended.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::detect::Source;
use crate::kit::iso;

/// Follow-ups a user may hold (waiting and being decided), and ended ones kept for the list.
pub const MAX_OPEN: usize = 2000;
pub const KEEP_ENDED: usize = 100;
/// A time chosen for one mail is at most this far.
pub const MAX_AHEAD_SECS: i64 = 366 * 86_400;
pub const DAY: i64 = 86_400;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "FollowUpState")]
pub enum State {
    /// Sent just now: the AI (or the rules) has yet to say whether it asks something.
    Deciding,
    /// Waiting for an answer.
    Waiting,
    /// Someone answered in the thread.
    Answered,
    /// The user stopped waiting.
    Dismissed,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FollowUp {
    pub id: u64,
    pub account: u64,
    /// The sent mail's stored id (when it was tracked).
    pub email_id: u64,
    pub message_id: Option<String>,
    pub thread_id: String,
    pub subject: String,
    /// Recipients as people read them.
    pub to: Vec<String>,
    pub sent_at: i64,
    /// When the reminder comes (sent + days, or the time the user chose).
    pub due: i64,
    pub days: u32,
    pub source: Source,
    pub state: State,
    #[serde(default)]
    pub reminded: bool,
    #[serde(default)]
    pub ended_at: Option<i64>,
}

impl FollowUp {
    /// Still to be answered (or decided).
    pub fn open(&self) -> bool {
        matches!(self.state, State::Deciding | State::Waiting)
    }
}

/// A follow-up as the "awaiting reply" list shows it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "FollowUpItem")]
pub struct Item {
    pub id: String,
    pub email_id: String,
    pub thread_id: String,
    pub subject: String,
    pub to: Vec<String>,
    /// RFC 3339.
    pub sent_at: String,
    pub due: String,
    pub days: u32,
    pub source: Source,
    pub state: State,
    /// Its time passed with no answer.
    pub overdue: bool,
    pub ended_at: Option<String>,
}

impl Item {
    pub fn of(f: &FollowUp, now: i64) -> Self {
        Self {
            id: f.id.to_string(),
            email_id: f.email_id.to_string(),
            thread_id: f.thread_id.clone(),
            subject: f.subject.clone(),
            to: f.to.clone(),
            sent_at: iso(f.sent_at),
            due: iso(f.due),
            days: f.days,
            source: f.source,
            state: f.state,
            overdue: f.state == State::Waiting && f.due <= now,
            ended_at: f.ended_at.map(iso),
        }
    }
}
