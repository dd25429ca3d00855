//! The spam-detection settings (spec 001 §3 "Spam-detection settings", §5, §9): on the wire
//! each name drops its `spamDetection` prefix (`enabled`, `useAI`, `spamThreshold`, …). Kept
//! per user.

use redb::WriteTransaction;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

use crate::error::{AppError, Result};
use crate::messages;
use crate::store::Store;
use crate::store::user_record::UserRecord;

/// user id → [`Settings`] (JSON).
static SETTINGS: UserRecord = UserRecord::new("spam_settings");

/// The longest list (characters) and its most entries.
pub const MAX_LIST_CHARS: usize = 20_000;
pub const MAX_LIST_ENTRIES: usize = 1_000;

/// `GET/POST /api/settings/spam-detection`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(rename = "SpamSettings")]
pub struct Settings {
    pub enabled: bool,
    /// Mail between the two thresholds goes to the user's AI provider for a verdict.
    #[serde(rename = "useAI")]
    pub use_ai: bool,
    /// Spam is moved to the mailbox's Junk folder.
    pub auto_move_spam: bool,
    /// Advertisements are listed under Promotions (otherwise they stay in the inbox, marked).
    pub auto_move_ads: bool,
    /// Points from which a mail is spam; 1 to 10.
    pub spam_threshold: u8,
    /// Points from which a mail is suspicious; 1 to 10, not above the spam threshold.
    pub suspicious_threshold: u8,
    /// Words and phrases, one per line or comma-separated.
    pub custom_keywords: String,
    /// Sender or link domains that are spam.
    pub custom_domains: String,
    /// Domains and senders that always pass.
    pub whitelist_domains: String,
    pub whitelist_senders: String,
    /// Keep the list of decisions (the activity list).
    pub log_activity: bool,
    /// Tell the user's open sessions when a mail is found to be spam.
    pub notify_on_spam: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            enabled: true,
            use_ai: false,
            auto_move_spam: true,
            auto_move_ads: true,
            spam_threshold: 4,
            suspicious_threshold: 2,
            custom_keywords: String::new(),
            custom_domains: String::new(),
            whitelist_domains: String::new(),
            whitelist_senders: String::new(),
            log_activity: true,
            notify_on_spam: false,
        }
    }
}

pub use crate::kit::entries;

fn bad(field: &str) -> AppError {
    AppError::bad_request(messages::spam_invalid(field))
}

impl Settings {
    /// The settings as they may be stored, or a 400 naming what is wrong.
    pub fn checked(self) -> Result<Self> {
        for t in [self.spam_threshold, self.suspicious_threshold] {
            if !(1..=10).contains(&t) {
                return Err(AppError::bad_request(messages::SPAM_THRESHOLDS));
            }
        }
        if self.suspicious_threshold > self.spam_threshold {
            return Err(AppError::bad_request(messages::SPAM_THRESHOLD_ORDER));
        }
        for (field, list) in [
            ("customKeywords", &self.custom_keywords),
            ("customDomains", &self.custom_domains),
            ("whitelistDomains", &self.whitelist_domains),
            ("whitelistSenders", &self.whitelist_senders),
        ] {
            if list.chars().count() > MAX_LIST_CHARS || entries(list).len() > MAX_LIST_ENTRIES {
                return Err(bad(field));
            }
        }
        Ok(self)
    }

    /// The settings with `fields` over them (the fields given change, the rest stay).
    pub fn with(&self, fields: &Map<String, Value>) -> Result<Self> {
        crate::error::merged(
            self,
            fields,
            |k| AppError::bad_request(messages::spam_unknown(k)),
            |field| {
                if field.ends_with("Threshold") {
                    AppError::bad_request(messages::SPAM_THRESHOLDS)
                } else {
                    bad(field)
                }
            },
        )?
        .checked()
    }
}

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    SETTINGS.create(txn)
}

pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    SETTINGS.forget(txn, user_id)
}

/// The user's settings (the defaults until they save their own).
pub fn load(store: &Store, user_id: u64) -> Result<Settings> {
    Ok(own(store, user_id)?.unwrap_or_default())
}

/// Whether the user saved settings of their own (the backup's section).
pub fn own(store: &Store, user_id: u64) -> Result<Option<Settings>> {
    SETTINGS.get(store, user_id)
}

pub fn save(store: &Store, user_id: u64, s: &Settings) -> Result<()> {
    SETTINGS.put(store, user_id, s)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn map(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn defaults_and_wire_names_are_the_spec_s() {
        let v = serde_json::to_value(Settings::default()).unwrap();
        assert_eq!(v["enabled"], true);
        assert_eq!(v["useAI"], false);
        assert_eq!(v["autoMoveSpam"], true);
        assert_eq!(v["autoMoveAds"], true);
        assert_eq!(v["spamThreshold"], 4);
        assert_eq!(v["suspiciousThreshold"], 2);
        assert_eq!(v["logActivity"], true);
        assert_eq!(v["notifyOnSpam"], false);
    }

    #[test]
    fn thresholds_are_whole_numbers_from_1_to_10() {
        let d = Settings::default();
        for bad in [json!(0), json!(11), json!(4.5), json!("4")] {
            let e = d.with(&map(json!({ "spamThreshold": bad }))).unwrap_err();
            assert_eq!(e.user_message(), messages::SPAM_THRESHOLDS);
        }
        let e = d
            .with(&map(json!({"spamThreshold": 3, "suspiciousThreshold": 5})))
            .unwrap_err();
        assert_eq!(e.user_message(), messages::SPAM_THRESHOLD_ORDER);
        let s = d
            .with(&map(json!({"spamThreshold": 10, "suspiciousThreshold": 1})))
            .unwrap();
        assert_eq!((s.spam_threshold, s.suspicious_threshold), (10, 1));
        assert!(d.with(&map(json!({"bogus": 1}))).is_err());
        let long = "x.test,".repeat(1001);
        assert!(d.with(&map(json!({"whitelistDomains": long}))).is_err());
    }
}
