//! Every event the live channel sends, as one typed enum: serialised as `{"type": …, "data":
//! …}` and exported to the web like the HTTP types (`LiveEvent` in `web/src/api/generated.ts`),
//! so the web switches over a generated union instead of guarding each payload by hand.

use serde::Serialize;
use ts_rs::TS;

use crate::emails::Counts;
use crate::notices::{
    AutoReplyDrafted, FoldersChanged, FollowUpDue, Notice, SendFailed, SignInNeeded, SnoozeWoke,
    SpamDetected, TaskDue,
};
use crate::settings::routes::{SettingsChanged, SettingsConflictResponse};
pub use crate::state::MailChange;
use crate::state::SyncStatus;

/// The channels a session subscribes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "LiveChannel")]
pub enum Channel {
    /// Mail events and counts.
    Mail,
    /// Another session's preference changes, this session's lost races.
    Settings,
    /// Notices, sync status, sign-in problems.
    System,
}

impl Channel {
    pub const ALL: [Channel; 3] = [Channel::Mail, Channel::Settings, Channel::System];
}

/// New mail the mailbox brought into one folder.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(rename = "NewMailEvent")]
pub struct NewMail {
    /// The folder's role (inbox, sent, …), or its name for the user's own folders.
    pub folder: String,
    pub count: u64,
    /// Brought by the mailbox's first sync: its history, not news.
    pub initial: bool,
}

/// How loud a system notification is (the server sends errors only: a mailbox's sign-in
/// failed; the web also knows warning, success and info for its own toasts).
#[derive(Debug, Clone, Copy, Serialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "NotificationLevel")]
pub enum Level {
    Error,
}

/// One event of the live channel.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
pub enum LiveEvent {
    /// The first message's token was accepted.
    AuthSuccess {
        #[serde(rename = "userId")]
        user_id: u64,
    },
    /// The token was refused (then the socket closes with 4001).
    AuthError {
        message: String,
    },
    /// The answer to the client's ping: the server's Unix seconds.
    Pong {
        time: i64,
    },
    Subscribed {
        channel: Channel,
    },
    Unsubscribed {
        channel: Channel,
    },
    NewMail(NewMail),
    MailChanged {
        reason: MailChange,
    },
    /// The folder counts, after a burst of changes.
    Stats(Counts),
    /// A mailbox's connection changed.
    SyncStatus {
        #[serde(rename = "accountId")]
        account_id: u64,
        status: SyncStatus,
    },
    SystemNotification {
        level: Level,
        message: String,
    },
    /// Another session saved preferences.
    SettingsChanged(SettingsChanged),
    /// Changes were missed (the session fell behind): read the preferences again.
    SettingsStale,
    /// This session's save lost a race.
    SettingsConflict(SettingsConflictResponse),
    AutoReply(AutoReplyDrafted),
    TaskDue(TaskDue),
    SpamDetected(SpamDetected),
    #[serde(rename = "oauth_sign_in_needed")]
    SignInNeeded(SignInNeeded),
    /// A snoozed thread is back in the inbox.
    SnoozeWoke(SnoozeWoke),
    /// A sent mail is still unanswered at its time.
    FollowUpDue(FollowUpDue),
    /// The user's own folders changed shape (the sidebar's tree reads them again).
    FoldersChanged(FoldersChanged),
    /// A scheduled mail could not be sent at its time.
    SendFailed(SendFailed),
}

impl LiveEvent {
    /// The channel a session must be subscribed to for this event (the answers to the session's
    /// own messages always go).
    pub fn channel(&self) -> Option<Channel> {
        match self {
            Self::AuthSuccess { .. }
            | Self::AuthError { .. }
            | Self::Pong { .. }
            | Self::Subscribed { .. }
            | Self::Unsubscribed { .. } => None,
            Self::NewMail(_)
            | Self::MailChanged { .. }
            | Self::Stats(_)
            | Self::FoldersChanged(_) => Some(Channel::Mail),
            Self::SettingsChanged(_) | Self::SettingsStale | Self::SettingsConflict(_) => {
                Some(Channel::Settings)
            }
            Self::SyncStatus { .. }
            | Self::SystemNotification { .. }
            | Self::AutoReply(_)
            | Self::TaskDue(_)
            | Self::SpamDetected(_)
            | Self::SignInNeeded(_)
            | Self::SnoozeWoke(_)
            | Self::FollowUpDue(_)
            | Self::SendFailed(_) => Some(Channel::System),
        }
    }

    /// The JSON text sent on the socket.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a live event serialises")
    }
}

impl From<Notice> for LiveEvent {
    fn from(n: Notice) -> Self {
        match n {
            Notice::TaskDue(t) => Self::TaskDue(t),
            Notice::AutoReply(a) => Self::AutoReply(a),
            Notice::SpamDetected(s) => Self::SpamDetected(s),
            Notice::SignInNeeded(s) => Self::SignInNeeded(s),
            Notice::SnoozeWoke(s) => Self::SnoozeWoke(s),
            Notice::FollowUpDue(f) => Self::FollowUpDue(f),
            Notice::FoldersChanged(f) => Self::FoldersChanged(f),
            Notice::SendFailed(f) => Self::SendFailed(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_tagged_with_their_snake_case_names() {
        let e = LiveEvent::MailChanged {
            reason: MailChange::Drafts,
        };
        assert_eq!(
            e.to_json(),
            r#"{"type":"mail_changed","data":{"reason":"drafts"}}"#
        );
        let e = LiveEvent::SignInNeeded(SignInNeeded {
            email: "dana@gmail.com".into(),
            provider: "google".into(),
            message: "x".into(),
        });
        assert!(
            e.to_json()
                .starts_with(r#"{"type":"oauth_sign_in_needed","data":{"email""#)
        );
        assert_eq!(
            LiveEvent::AuthSuccess { user_id: 7 }.to_json(),
            r#"{"type":"auth_success","data":{"userId":7}}"#
        );
        assert_eq!(
            LiveEvent::SettingsStale.to_json(),
            r#"{"type":"settings_stale"}"#
        );
    }
}
