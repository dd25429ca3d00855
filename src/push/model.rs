//! A device that receives notifications: its subscription (the push service's URL and the
//! browser's keys), its name, its on/off and quiet hours, what quiet hours held back and how its
//! last delivery went. One record per device, per user (`push_devices`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The most devices a user may have.
pub const MAX_DEVICES: usize = 20;
/// The longest push service URL accepted (the browsers' are under 500).
pub const MAX_ENDPOINT: usize = 1000;
/// The longest device name.
pub const MAX_LABEL: usize = 80;

/// A time span in the user's time zone, minutes after midnight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "PushSpan")]
pub struct Span {
    pub from: u16,
    pub to: u16,
}

/// When nothing is shown on the device: every night (`from` to `to`, over midnight when `to`
/// is earlier), and Shabbat (Friday at `from` to Saturday at `to`). What comes meanwhile is
/// held and summed up in one notification when the quiet ends.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "PushQuiet")]
pub struct Quiet {
    pub night: Option<Span>,
    pub shabbat: Option<Span>,
}

impl Quiet {
    /// Whether every time is a minute of the day.
    pub fn valid(&self) -> bool {
        [self.night, self.shabbat]
            .into_iter()
            .flatten()
            .all(|s| s.from < 24 * 60 && s.to < 24 * 60)
    }
}

/// What a notification says (the payload, as the service worker shows it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    pub title: String,
    pub body: String,
    /// The page that opens when it is clicked (a path of this server: `/#/Inbox?mail=…`).
    pub url: String,
    /// Notifications with one tag replace each other on the device (new mail is one).
    pub tag: String,
}

impl Note {
    /// A note with its texts cut to what a notification shows (120 and 240 bytes: the payload
    /// stays far under the 4 KB a push service takes, whatever the script).
    pub fn new(title: &str, body: &str, url: String, tag: &str) -> Self {
        Self {
            title: crate::kit::cut(title, 120).to_string(),
            body: crate::kit::cut(body, 240).to_string(),
            url,
            tag: tag.to_string(),
        }
    }
}

/// A device, as kept.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Device {
    pub id: u64,
    pub endpoint: String,
    /// The browser's P-256 key and auth secret, base64url.
    pub p256dh: String,
    pub auth: String,
    pub label: String,
    pub enabled: bool,
    #[serde(default)]
    pub quiet: Quiet,
    pub created: i64,
    #[serde(default)]
    pub last_sent: Option<i64>,
    #[serde(default)]
    pub last_error: Option<String>,
    /// How many notifications quiet hours held, and the newest of them.
    #[serde(default)]
    pub held: u32,
    #[serde(default)]
    pub held_last: Option<Note>,
}

/// A device in the settings card (the keys stay on the server).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "PushDevice")]
pub struct DeviceView {
    pub id: u64,
    /// The push service's URL: the page compares it with its own subscription to find "this
    /// device".
    pub endpoint: String,
    pub label: String,
    pub enabled: bool,
    pub quiet: Quiet,
    /// Unix seconds.
    pub created: i64,
    pub last_sent: Option<i64>,
    /// Why the last delivery failed (Hebrew), when it did.
    pub last_error: Option<String>,
    /// Notifications held by quiet hours, to be summed up when they end.
    pub held: u32,
}

impl From<&Device> for DeviceView {
    fn from(d: &Device) -> Self {
        Self {
            id: d.id,
            endpoint: d.endpoint.clone(),
            label: d.label.clone(),
            enabled: d.enabled,
            quiet: d.quiet.clone(),
            created: d.created,
            last_sent: d.last_sent,
            last_error: d.last_error.clone(),
            held: d.held,
        }
    }
}
