//! The user's preferences (spec 001 §3 "Settings object"): what each key holds, its default,
//! its group (`settingsType`) and how a value sent for it is checked. The object follows the
//! user to any device: it lives on the server, and the web applies it on every screen.

use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

use crate::error::{AppError, Result};
use crate::messages;

/// The preferences, with the spec's defaults (the scales as the web's "normal" preset).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct Preferences {
    /// The in-app bell and toasts for new mail.
    pub email_notifications: bool,
    /// The browser's notifications for new mail.
    pub desktop_notifications: bool,
    /// A short sound on new mail.
    pub sound_notifications: bool,
    /// Opening a mail marks it read.
    pub auto_read: bool,
    /// The smart-reply buttons of the reading pane.
    pub smart_reply: bool,
    pub dark_mode: bool,
    /// Hebrew is the only UI language: `he`.
    pub language: String,
    /// An IANA time zone: the day of "today", the times on screen, work hours.
    pub timezone: String,
    pub app_scale: f64,
    pub font_scale: f64,
    pub icon_scale: f64,
    /// A denser list and reading pane.
    pub compact_mode: bool,
    /// The mail list shows a line of each mail's text under its subject (spec 000 §3).
    pub show_preview: bool,
    /// Days a sent mail that asks something waits for an answer before it shows as awaiting
    /// one (each mail may have its own).
    pub follow_up_days: u32,
    /// What swiping a row of the list does on a touch screen: `archive` or `processed`.
    pub swipe_action: String,
    /// How many of the newest mails the browser keeps for reading without the server (issue 39;
    /// 0 keeps none).
    pub offline_messages: u32,
}

impl Default for Preferences {
    fn default() -> Self {
        Self {
            email_notifications: true,
            desktop_notifications: true,
            sound_notifications: false,
            auto_read: false,
            smart_reply: true,
            dark_mode: false,
            language: "he".into(),
            timezone: DEFAULT_TIMEZONE.into(),
            app_scale: 0.85,
            font_scale: 0.9,
            icon_scale: 0.9,
            compact_mode: false,
            show_preview: true,
            follow_up_days: DEFAULT_FOLLOW_UP_DAYS,
            swipe_action: SWIPE_ACTIONS[0].into(),
            offline_messages: DEFAULT_OFFLINE_MESSAGES,
        }
    }
}

pub const DEFAULT_TIMEZONE: &str = "Asia/Jerusalem";

/// Days a follow-up waits by default, and the range a user may choose.
pub const DEFAULT_FOLLOW_UP_DAYS: u32 = 3;
pub const FOLLOW_UP_DAYS: std::ops::RangeInclusive<u64> = 1..=60;

/// Mails kept for offline reading by default, and the range a user may choose (the web's
/// `features/offline/limits.ts` holds the same).
pub const DEFAULT_OFFLINE_MESSAGES: u32 = 300;
pub const OFFLINE_MESSAGES: std::ops::RangeInclusive<u64> = 0..=2000;

/// What a swipe on a list row may do (the first is the default).
pub const SWIPE_ACTIONS: [&str; 2] = ["archive", "processed"];

/// The groups of spec 001 §3's settings-change message.
pub const SETTINGS_TYPES: [&str; 3] = ["general", "notifications", "ui"];

/// [`SETTINGS_TYPES`] as the web's `SettingsType` (TypeScript only: the field stays a string,
/// so an unknown group gets the Hebrew message rather than a parse error).
#[derive(TS)]
#[ts(rename_all = "lowercase")]
pub enum SettingsType {
    General,
    Notifications,
    Ui,
}

/// The range the UI scales accept (the web treats values outside it as corrupt).
pub const SCALE_RANGE: std::ops::RangeInclusive<f64> = 0.5..=2.0;

enum Kind {
    Bool,
    Language,
    Timezone,
    Scale,
    Days,
    Swipe,
    OfflineCount,
}

/// Every key, its kind and its group.
const KEYS: [(&str, Kind, &str); 16] = [
    ("emailNotifications", Kind::Bool, "notifications"),
    ("desktopNotifications", Kind::Bool, "notifications"),
    ("soundNotifications", Kind::Bool, "notifications"),
    ("autoRead", Kind::Bool, "general"),
    ("smartReply", Kind::Bool, "general"),
    ("darkMode", Kind::Bool, "ui"),
    ("language", Kind::Language, "general"),
    ("timezone", Kind::Timezone, "general"),
    ("appScale", Kind::Scale, "ui"),
    ("fontScale", Kind::Scale, "ui"),
    ("iconScale", Kind::Scale, "ui"),
    ("compactMode", Kind::Bool, "ui"),
    ("showPreview", Kind::Bool, "ui"),
    ("followUpDays", Kind::Days, "general"),
    ("swipeAction", Kind::Swipe, "ui"),
    ("offlineMessages", Kind::OfflineCount, "general"),
];

/// At most this many keys in one update (one per key).
pub const MAX_UPDATE_KEYS: usize = KEYS.len();

/// The group a key belongs to.
pub fn group_of(key: &str) -> Option<&'static str> {
    KEYS.iter().find(|(k, ..)| *k == key).map(|(.., g)| *g)
}

/// Checks one value sent for `key`; returns it as stored (a scale rounded to two decimals).
fn checked_value(key: &str, value: &Value) -> Result<Value> {
    let Some((_, kind, _)) = KEYS.iter().find(|(k, ..)| *k == key) else {
        return Err(AppError::bad_request(messages::settings_key_unknown(key)));
    };
    let wrong = || AppError::bad_request(messages::settings_value_invalid(key));
    match kind {
        Kind::Bool => value.as_bool().map(Value::Bool).ok_or_else(wrong),
        Kind::Language => match value.as_str() {
            Some("he") => Ok(value.clone()),
            Some(_) => Err(AppError::bad_request(
                messages::SETTINGS_LANGUAGE_ONLY_HEBREW,
            )),
            None => Err(wrong()),
        },
        Kind::Timezone => {
            let name = value.as_str().ok_or_else(wrong)?;
            timezone(name)
                .map(|_| value.clone())
                .ok_or_else(|| AppError::bad_request(messages::SETTINGS_TIMEZONE_UNKNOWN))
        }
        Kind::Days => match value.as_u64() {
            Some(n) if FOLLOW_UP_DAYS.contains(&n) => Ok(Value::from(n)),
            _ => Err(AppError::bad_request(messages::SETTINGS_FOLLOW_UP_DAYS)),
        },
        Kind::OfflineCount => match value.as_u64() {
            Some(n) if OFFLINE_MESSAGES.contains(&n) => Ok(Value::from(n)),
            _ => Err(AppError::bad_request(messages::SETTINGS_OFFLINE_MESSAGES)),
        },
        Kind::Swipe => match value.as_str() {
            Some(v) if SWIPE_ACTIONS.contains(&v) => Ok(value.clone()),
            _ => Err(wrong()),
        },
        Kind::Scale => {
            let n = value.as_f64().ok_or_else(wrong)?;
            if !SCALE_RANGE.contains(&n) {
                return Err(AppError::bad_request(messages::SETTINGS_SCALE_RANGE));
            }
            Ok(Value::from((n * 100.0).round() / 100.0))
        }
    }
}

/// An update as sent: a JSON object of known keys with values of the right kind. Returns the
/// values as they will be stored. Nothing is applied when any key is wrong.
pub fn checked_update(update: &Value) -> Result<Map<String, Value>> {
    let Value::Object(fields) = update else {
        return Err(AppError::bad_request(messages::SETTINGS_UPDATE_NOT_OBJECT));
    };
    if fields.is_empty() {
        return Err(AppError::bad_request(messages::SETTINGS_UPDATE_EMPTY));
    }
    if fields.len() > MAX_UPDATE_KEYS {
        return Err(AppError::bad_request(messages::SETTINGS_UPDATE_TOO_LARGE));
    }
    fields
        .iter()
        .map(|(k, v)| Ok((k.clone(), checked_value(k, v)?)))
        .collect()
}

/// A group name as sent.
pub fn checked_type(name: &str) -> Result<&'static str> {
    SETTINGS_TYPES
        .iter()
        .find(|t| **t == name)
        .copied()
        .ok_or_else(|| AppError::bad_request(messages::SETTINGS_TYPE_INVALID))
}

impl Preferences {
    pub fn to_map(&self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(m)) => m,
            _ => Map::new(),
        }
    }

    /// These preferences with checked values put over them.
    pub fn with(&self, values: &Map<String, Value>) -> Result<Self> {
        let mut map = self.to_map();
        for (k, v) in values {
            map.insert(k.clone(), v.clone());
        }
        serde_json::from_value(Value::Object(map)).map_err(AppError::internal)
    }

    /// The user's time zone (the default when the stored name is no longer known).
    pub fn tz(&self) -> chrono_tz::Tz {
        timezone(&self.timezone).unwrap_or(chrono_tz::Asia::Jerusalem)
    }
}

/// An IANA zone by its exact name.
pub fn timezone(name: &str) -> Option<chrono_tz::Tz> {
    if name.is_empty() || name.len() > 64 {
        return None;
    }
    chrono_tz::Tz::from_str(name).ok()
}

/// The Unix time at which the day of `now` began in `tz`.
pub fn day_start(tz: chrono_tz::Tz, now: i64) -> i64 {
    use chrono::{DateTime, TimeZone};
    let Some(utc) = DateTime::from_timestamp(now, 0) else {
        return now - now.rem_euclid(86_400);
    };
    let local = utc.with_timezone(&tz).date_naive();
    // A day that starts in a DST gap (midnight skipped) begins at its first valid instant.
    (0..=3)
        .filter_map(|h| local.and_hms_opt(h, 0, 0))
        .find_map(|t| tz.from_local_datetime(&t).earliest())
        .map_or(now - now.rem_euclid(86_400), |t| t.timestamp())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn defaults_follow_the_spec() {
        let p = Preferences::default();
        assert!(p.email_notifications && p.desktop_notifications && p.smart_reply);
        assert!(!p.sound_notifications && !p.auto_read && !p.dark_mode && !p.compact_mode);
        // Spec 000 §3: the list shows previews until the user turns them off.
        assert!(p.show_preview);
        assert_eq!(group_of("showPreview"), Some("ui"));
        assert_eq!(
            (p.language.as_str(), p.timezone.as_str()),
            ("he", "Asia/Jerusalem")
        );
        assert_eq!((p.app_scale, p.font_scale, p.icon_scale), (0.85, 0.9, 0.9));
        // Every field has a key, a kind and a group.
        let map = p.to_map();
        assert_eq!(map.len(), KEYS.len());
        for k in map.keys() {
            assert!(group_of(k).is_some(), "{k} has no group");
        }
    }

    #[test]
    fn the_typescript_union_is_the_checked_list() {
        let cfg = crate::wire::config();
        assert_eq!(
            SettingsType::inline(&cfg),
            crate::wire::union(&SETTINGS_TYPES)
        );
    }

    #[test]
    fn updates_are_checked_key_by_key() {
        let ok = checked_update(
            &json!({"darkMode": true, "appScale": 0.951, "timezone": "Europe/London"}),
        )
        .unwrap();
        assert_eq!(ok["appScale"], json!(0.95));
        let err = |v: Value| checked_update(&v).unwrap_err().user_message();
        assert_eq!(
            err(json!({"nope": 1})),
            messages::settings_key_unknown("nope")
        );
        assert_eq!(
            err(json!({"darkMode": "yes"})),
            messages::settings_value_invalid("darkMode")
        );
        assert_eq!(
            err(json!({"language": "en"})),
            messages::SETTINGS_LANGUAGE_ONLY_HEBREW
        );
        assert_eq!(
            err(json!({"timezone": "Mars/Base"})),
            messages::SETTINGS_TIMEZONE_UNKNOWN
        );
        assert_eq!(err(json!({"fontScale": 7})), messages::SETTINGS_SCALE_RANGE);
        assert_eq!(
            checked_update(&json!({"swipeAction": "processed"})).unwrap()["swipeAction"],
            "processed"
        );
        assert_eq!(
            err(json!({"swipeAction": "delete"})),
            messages::settings_value_invalid("swipeAction")
        );
        assert_eq!(
            checked_update(&json!({"offlineMessages": 0})).unwrap()["offlineMessages"],
            0
        );
        for wrong in [json!(2001), json!(-1), json!(2.5), json!("300")] {
            assert_eq!(
                err(json!({ "offlineMessages": wrong })),
                messages::SETTINGS_OFFLINE_MESSAGES
            );
        }
        assert_eq!(err(json!({})), messages::SETTINGS_UPDATE_EMPTY);
        assert_eq!(err(json!([1])), messages::SETTINGS_UPDATE_NOT_OBJECT);
    }

    #[test]
    fn a_day_starts_at_local_midnight() {
        // 2026-03-27 10:00 UTC is 13:00 in Jerusalem (summer time, +3, since 02:00 that day):
        // the day began at midnight winter time (+2), 2026-03-26 22:00 UTC.
        let now = 1_774_605_600;
        assert_eq!(day_start(chrono_tz::Asia::Jerusalem, now), 1_774_562_400);
        assert_eq!(day_start(chrono_tz::UTC, now), 1_774_569_600);
    }
}
