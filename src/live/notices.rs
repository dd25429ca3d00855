//! Notices a feature sends to every live session of a user (the auto-reply monitor's "a draft
//! was written", later task reminders): an event name and its JSON, forwarded on the `system`
//! channel.

use serde_json::Value;
use tokio::sync::broadcast;

#[derive(Debug, Clone)]
pub struct Notice {
    pub user_id: u64,
    pub event: &'static str,
    pub data: Value,
}

/// The broadcast of notices (a service of the state).
pub struct Notices(broadcast::Sender<Notice>);

impl Default for Notices {
    fn default() -> Self {
        Self(broadcast::channel(256).0)
    }
}

impl Notices {
    pub fn subscribe(&self) -> broadcast::Receiver<Notice> {
        self.0.subscribe()
    }

    /// No session listening is fine: the pages read the state when they open.
    pub fn send(&self, user_id: u64, event: &'static str, data: Value) {
        let _ = self.0.send(Notice {
            user_id,
            event,
            data,
        });
    }
}
