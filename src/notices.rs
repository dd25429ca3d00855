//! Notices a feature sends to every live session of a user: a task's reminder, a draft the
//! auto-reply wrote, a mail judged spam, a mailbox that needs a new sign-in, a scheduled send
//! that failed. Each is a typed
//! [`Notice`]; the live channel (`crate::live`) forwards it on its `system` channel as one of its
//! typed events. The broadcast sits below every feature that sends one (the OAuth sign-in is
//! below the live channel itself), so a notice is a plain service, not a hook.

use serde::Serialize;
use tokio::sync::broadcast;
use ts_rs::TS;

/// A task's due time came (`task_due`).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "TaskDueNotice")]
pub struct TaskDue {
    pub id: String,
    pub title: String,
    /// RFC 3339.
    pub due_date: Option<String>,
}

/// The auto-reply monitor wrote a draft (`auto_reply`).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "AutoReplyNotice")]
pub struct AutoReplyDrafted {
    pub from: String,
    pub from_name: String,
    pub subject: String,
    /// The decision in Hebrew.
    pub message: String,
}

/// A new mail was judged spam and moved (`spam_detected`).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SpamNotice")]
pub struct SpamDetected {
    pub id: u64,
    pub from: String,
    pub from_name: String,
    pub subject: String,
    pub score: Option<f32>,
    pub message: String,
}

/// A mailbox's refresh token was refused: the user must sign in again (`oauth_sign_in_needed`).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "OAuthSignInNotice")]
pub struct SignInNeeded {
    pub email: String,
    /// google or microsoft.
    pub provider: String,
    pub message: String,
}

/// A snoozed thread is back in the inbox (`snooze_woke`).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SnoozeWokeNotice")]
pub struct SnoozeWoke {
    pub id: String,
    pub thread_id: String,
    pub email_id: Option<String>,
    pub subject: String,
    pub from: String,
    /// time, reply or user.
    #[ts(type = "\"time\" | \"reply\" | \"user\"")]
    pub by: String,
    pub message: String,
}

/// A sent mail's wait for an answer is over, unanswered (`follow_up_due`).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "FollowUpDueNotice")]
pub struct FollowUpDue {
    pub id: String,
    pub email_id: String,
    pub subject: String,
    pub to: Vec<String>,
    pub message: String,
}

/// A scheduled mail could not be sent at its time (`send_failed`); the outbox tries again
/// unless the failure is one retrying cannot fix.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SendFailedNotice")]
pub struct SendFailed {
    pub id: String,
    pub subject: String,
    pub to: Vec<String>,
    /// Why, in Hebrew.
    pub message: String,
    /// Whether the outbox tries again.
    pub retrying: bool,
}

/// The user's own folders changed shape: made, renamed, moved or deleted (`folders_changed`).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "FoldersChangedNotice")]
pub struct FoldersChanged {
    pub account_id: u64,
}

/// What a feature tells a user's sessions.
#[derive(Debug, Clone)]
pub enum Notice {
    TaskDue(TaskDue),
    AutoReply(AutoReplyDrafted),
    SpamDetected(SpamDetected),
    SignInNeeded(SignInNeeded),
    SnoozeWoke(SnoozeWoke),
    FollowUpDue(FollowUpDue),
    FoldersChanged(FoldersChanged),
    SendFailed(SendFailed),
}

/// The broadcast of notices (a service every feature may send on).
pub struct Notices(broadcast::Sender<(u64, Notice)>);

impl Default for Notices {
    fn default() -> Self {
        Self(broadcast::channel(256).0)
    }
}

impl Notices {
    /// Every notice, with the user it is for.
    pub fn subscribe(&self) -> broadcast::Receiver<(u64, Notice)> {
        self.0.subscribe()
    }

    /// Tells `user_id`'s sessions. No session listening is fine: the pages read the state when
    /// they open.
    pub fn send(&self, user_id: u64, notice: Notice) {
        let _ = self.0.send((user_id, notice));
    }
}
