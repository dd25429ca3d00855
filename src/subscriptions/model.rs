//! A sender of list or bulk mail as the subscription manager keeps it, and the result of each
//! attempt to leave one.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::headers::Methods;
use crate::kit::iso;

/// Senders kept per user, their mail remembered per sender, and attempts kept.
pub const MAX_SENDERS: usize = 2000;
pub const MAX_RECENT: usize = 300;
pub const KEEP_ATTEMPTS: usize = 500;
pub const DAY: i64 = 86_400;
/// The longest window the manager counts.
pub const WINDOW: i64 = 90 * DAY;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sender {
    pub id: u64,
    pub account: u64,
    /// The From address, lower case.
    pub address: String,
    pub name: String,
    #[serde(default)]
    pub list_id: Option<String>,
    #[serde(default)]
    pub methods: Methods,
    /// (date, stored id) of its mail in the last 90 days, oldest first.
    #[serde(default)]
    pub recent: Vec<(i64, u64)>,
    /// How many of it the ad detector found to be ads.
    #[serde(default)]
    pub ads: u32,
    /// How many it counted for `ads`.
    #[serde(default)]
    pub judged: u32,
    pub last: i64,
    /// The rule that blocks it, when the user blocked it.
    #[serde(default)]
    pub blocked_rule: Option<u64>,
    /// The last successful unsubscribe.
    #[serde(default)]
    pub unsubscribed: Option<i64>,
}

impl Sender {
    /// Remembers one of its mails (once), keeping the last 90 days.
    pub fn add(&mut self, date: i64, id: u64, ad: bool, now: i64) {
        if self.recent.iter().any(|(_, i)| *i == id) {
            return;
        }
        self.judged += 1;
        if ad {
            self.ads += 1;
        }
        let at = self.recent.partition_point(|(d, _)| *d <= date);
        self.recent.insert(at, (date, id));
        let cutoff = now - WINDOW;
        self.recent.retain(|(d, _)| *d >= cutoff);
        if self.recent.len() > MAX_RECENT {
            let extra = self.recent.len() - MAX_RECENT;
            self.recent.drain(..extra);
        }
        self.last = self.last.max(date);
    }

    /// The detector's verdict over its mail.
    pub fn verdict(&self) -> Verdict {
        if self.judged > 0 && self.ads * 2 >= self.judged {
            Verdict::Ads
        } else if self.ads > 0 {
            Verdict::Mixed
        } else {
            Verdict::List
        }
    }
}

/// What the ad detector made of a sender's mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "SubscriptionVerdict")]
pub enum Verdict {
    /// Half or more of it are ads (Promotions).
    Ads,
    /// Some of it.
    Mixed,
    /// A list or newsletter, no ads.
    List,
}

/// How an attempt to leave went about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "UnsubscribeMethod")]
pub enum Method {
    /// RFC 8058's POST, from the server.
    OneClick,
    /// A mail to the list's address, from the user's mailbox.
    Mailto,
    /// The list's page, opened for the user.
    Link,
    /// Removal links found in the body, offered to the user.
    BodyLink,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "UnsubscribeState")]
pub enum AttemptState {
    Done,
    Failed,
    /// The mail waits in the outbox.
    Waiting,
    /// The page or the links are the user's to open.
    Opened,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    pub id: u64,
    pub sender_id: u64,
    pub address: String,
    pub method: Method,
    /// The URL or address used.
    pub target: String,
    pub state: AttemptState,
    /// Why it failed (Hebrew).
    #[serde(default)]
    pub reason: Option<String>,
    pub at: i64,
    /// The queued mail of a `mailto:` attempt.
    #[serde(default)]
    pub outbox_id: Option<u64>,
}

/// An attempt as the manager shows it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "UnsubscribeAttempt")]
pub struct AttemptItem {
    pub id: String,
    pub sender_id: String,
    pub address: String,
    pub method: Method,
    pub target: String,
    pub state: AttemptState,
    pub reason: Option<String>,
    /// RFC 3339.
    pub at: String,
}

impl AttemptItem {
    pub fn of(a: &Attempt) -> Self {
        Self {
            id: a.id.to_string(),
            sender_id: a.sender_id.to_string(),
            address: a.address.clone(),
            method: a.method,
            target: a.target.clone(),
            state: a.state,
            reason: a.reason.clone(),
            at: iso(a.at),
        }
    }
}

/// A sender as the manager lists it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "Subscription")]
pub struct Item {
    pub id: String,
    pub address: String,
    pub name: String,
    pub list_id: Option<String>,
    /// Mail in the last 30 and 90 days, and how much of it the user opened.
    pub last30: usize,
    pub last90: usize,
    pub opened: usize,
    pub verdict: Verdict,
    /// RFC 3339: its newest mail.
    pub last: String,
    /// How it can be left.
    pub one_click: bool,
    pub mailto: bool,
    pub link: Option<String>,
    pub body_links: Vec<String>,
    pub blocked: bool,
    pub unsubscribed: Option<String>,
    /// The newest attempt to leave it.
    pub attempt: Option<AttemptItem>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sender_keeps_ninety_days_once_each() {
        let now = 1_000 * DAY;
        let mut s = Sender {
            id: 1,
            account: 1,
            address: "news@shop.co.il".into(),
            name: String::new(),
            list_id: None,
            methods: Methods::default(),
            recent: Vec::new(),
            ads: 0,
            judged: 0,
            last: 0,
            blocked_rule: None,
            unsubscribed: None,
        };
        s.add(now - 100 * DAY, 1, true, now);
        s.add(now - 10 * DAY, 3, true, now);
        s.add(now - 20 * DAY, 2, false, now);
        s.add(now - 10 * DAY, 3, true, now);
        assert_eq!(s.recent, vec![(now - 20 * DAY, 2), (now - 10 * DAY, 3)]);
        assert_eq!((s.ads, s.judged), (2, 3));
        assert_eq!(s.verdict(), Verdict::Ads);
        assert_eq!(s.last, now - 10 * DAY);
    }
}
