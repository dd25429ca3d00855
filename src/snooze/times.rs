//! When a snooze ends, in the user's time zone and the Israeli week (Sunday its first day,
//! Friday and Saturday its weekend): the presets the menu offers, and a time the user chose
//! (an RFC 3339 instant, or a date and hour read in their zone).

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, TimeZone, Weekday};
use chrono_tz::Tz;
use serde::Serialize;
use ts_rs::TS;

use crate::error::{AppError, Result};
use crate::kit::iso;
use crate::messages;

/// The hour a "morning" preset wakes at.
pub const MORNING_HOUR: u32 = 8;
/// "Later today" is this many hours on, offered until the evening.
const LATER_HOURS: i64 = 3;
const LATER_UNTIL_HOUR: u32 = 21;
/// The farthest a snooze may reach.
pub const MAX_AHEAD_SECS: i64 = 366 * 86_400;

/// The menu's presets, as instants (RFC 3339); `laterToday` is null in the evening.
#[derive(Debug, Clone, Serialize, TS, PartialEq)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SnoozeOptions")]
pub struct Presets {
    pub later_today: Option<String>,
    pub tomorrow: String,
    /// Friday morning (Saturday morning on a Friday after eight).
    pub weekend: String,
    /// Sunday morning, the first day of the next week.
    pub next_week: String,
    /// The zone the times were read in.
    pub timezone: String,
}

/// The first valid instant of a local date and time (a time skipped by summer time moves on
/// to the first that exists).
fn at_local(tz: Tz, date: NaiveDate, hour: u32, minute: u32) -> i64 {
    let mut t = date.and_hms_opt(hour, minute, 0).unwrap_or_default();
    for _ in 0..4 {
        if let Some(dt) = tz.from_local_datetime(&t).earliest() {
            return dt.timestamp();
        }
        t += Duration::hours(1);
    }
    t.and_utc().timestamp()
}

fn local(tz: Tz, now: i64) -> DateTime<Tz> {
    DateTime::from_timestamp(now, 0)
        .unwrap_or_default()
        .with_timezone(&tz)
}

/// The next morning after `now` whose weekday `fits`.
fn next_morning(tz: Tz, now: i64, fits: impl Fn(Weekday) -> bool) -> i64 {
    let today = local(tz, now).date_naive();
    (0..=8)
        .filter_map(|d| today.checked_add_signed(Duration::days(d)))
        .filter(|d| fits(d.weekday()))
        .map(|d| at_local(tz, d, MORNING_HOUR, 0))
        .find(|t| *t > now)
        .unwrap_or(now + 86_400)
}

/// "Later today": three hours on, at the top of the hour, while that is before nine in the
/// evening.
pub fn later_today(tz: Tz, now: i64) -> Option<i64> {
    let later = local(tz, now) + Duration::hours(LATER_HOURS);
    let hour_up = if later.timestamp() % 3600 == 0 {
        later.timestamp()
    } else {
        later.timestamp() - later.timestamp().rem_euclid(3600) + 3600
    };
    let t = local(tz, hour_up);
    (t.date_naive() == local(tz, now).date_naive() && chrono::Timelike::hour(&t) < LATER_UNTIL_HOUR)
        .then_some(hour_up)
}

/// Tomorrow at eight.
pub fn tomorrow(tz: Tz, now: i64) -> i64 {
    let date = local(tz, now).date_naive() + Duration::days(1);
    at_local(tz, date, MORNING_HOUR, 0)
}

/// The weekend's next morning: Friday at eight, or Saturday's once Friday's has passed.
pub fn weekend(tz: Tz, now: i64) -> i64 {
    next_morning(tz, now, |d| matches!(d, Weekday::Fri | Weekday::Sat))
}

/// The next week's first morning: Sunday at eight, after today.
pub fn next_week(tz: Tz, now: i64) -> i64 {
    let today = local(tz, now).date_naive();
    let days = 7 - today.weekday().num_days_from_sunday() as i64;
    at_local(tz, today + Duration::days(days), MORNING_HOUR, 0)
}

pub fn presets(tz: Tz, now: i64) -> Presets {
    Presets {
        later_today: later_today(tz, now).map(iso),
        tomorrow: iso(tomorrow(tz, now)),
        weekend: iso(weekend(tz, now)),
        next_week: iso(next_week(tz, now)),
        timezone: tz.name().to_string(),
    }
}

/// A preset by its name.
pub fn preset(tz: Tz, now: i64, name: &str) -> Result<i64> {
    match name {
        "laterToday" | "later_today" => {
            later_today(tz, now).ok_or_else(|| AppError::bad_request(messages::SNOOZE_LATE))
        }
        "tomorrow" => Ok(tomorrow(tz, now)),
        "weekend" => Ok(weekend(tz, now)),
        "nextWeek" | "next_week" => Ok(next_week(tz, now)),
        _ => Err(AppError::bad_request(messages::SNOOZE_TIME_INVALID)),
    }
}

/// A time the user chose: RFC 3339, or `YYYY-MM-DDTHH:MM` read in their zone. It must be at
/// least a minute ahead and at most a year.
pub fn chosen(tz: Tz, now: i64, text: &str) -> Result<i64> {
    let text = text.trim();
    let bad = || AppError::bad_request(messages::SNOOZE_TIME_INVALID);
    if text.len() > 40 {
        return Err(bad());
    }
    let at = match DateTime::parse_from_rfc3339(text) {
        Ok(t) => t.timestamp(),
        Err(_) => {
            let naive = NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M")
                .or_else(|_| NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S"))
                .map_err(|_| bad())?;
            at_local(
                tz,
                naive.date(),
                chrono::Timelike::hour(&naive),
                chrono::Timelike::minute(&naive),
            )
        }
    };
    checked(now, at)
}

/// A wake-up time in range: ahead of now (by a few seconds at least: a test snoozes briefly),
/// and within a year.
pub fn checked(now: i64, at: i64) -> Result<i64> {
    if at <= now + 2 {
        return Err(AppError::bad_request(messages::SNOOZE_IN_PAST));
    }
    if at > now + MAX_AHEAD_SECS {
        return Err(AppError::bad_request(messages::SNOOZE_TOO_FAR));
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TZ: Tz = chrono_tz::Asia::Jerusalem;

    /// A local time in Jerusalem as Unix seconds.
    fn il(y: i32, m: u32, d: u32, h: u32, min: u32) -> i64 {
        at_local(TZ, NaiveDate::from_ymd_opt(y, m, d).unwrap(), h, min)
    }

    fn show(t: i64) -> String {
        local(TZ, t).format("%a %Y-%m-%d %H:%M").to_string()
    }

    #[test]
    fn the_israeli_week_decides_the_weekend_and_the_next_week() {
        // Wednesday 2025-03-12, 10:30.
        let wed = il(2025, 3, 12, 10, 30);
        assert_eq!(show(tomorrow(TZ, wed)), "Thu 2025-03-13 08:00");
        assert_eq!(show(weekend(TZ, wed)), "Fri 2025-03-14 08:00");
        assert_eq!(show(next_week(TZ, wed)), "Sun 2025-03-16 08:00");
        assert_eq!(show(later_today(TZ, wed).unwrap()), "Wed 2025-03-12 14:00");
        // Friday before eight: this morning; after: Saturday's.
        assert_eq!(
            show(weekend(TZ, il(2025, 3, 14, 7, 0))),
            "Fri 2025-03-14 08:00"
        );
        assert_eq!(
            show(weekend(TZ, il(2025, 3, 14, 9, 0))),
            "Sat 2025-03-15 08:00"
        );
        // Saturday after eight: next Friday.
        assert_eq!(
            show(weekend(TZ, il(2025, 3, 15, 12, 0))),
            "Fri 2025-03-21 08:00"
        );
        // Sunday: the next week is the following Sunday; Saturday night: tomorrow is Sunday.
        assert_eq!(
            show(next_week(TZ, il(2025, 3, 16, 7, 0))),
            "Sun 2025-03-23 08:00"
        );
        assert_eq!(
            show(next_week(TZ, il(2025, 3, 15, 22, 0))),
            "Sun 2025-03-16 08:00"
        );
    }

    #[test]
    fn later_today_is_not_offered_in_the_evening() {
        assert_eq!(later_today(TZ, il(2025, 3, 12, 18, 0)), None);
        // 17:59 + 3 h is 20:59, up to the hour: 21:00, no longer before nine.
        assert_eq!(later_today(TZ, il(2025, 3, 12, 17, 59)), None);
        assert_eq!(
            show(later_today(TZ, il(2025, 3, 12, 17, 0)).unwrap()),
            "Wed 2025-03-12 20:00"
        );
        assert!(preset(TZ, il(2025, 3, 12, 20, 0), "laterToday").is_err());
    }

    #[test]
    fn summer_time_and_the_users_zone_are_respected() {
        // Israel moved to summer time on Friday 2025-03-28 at 02:00: eight is still eight.
        let thu = il(2025, 3, 27, 12, 0);
        assert_eq!(show(weekend(TZ, thu)), "Fri 2025-03-28 08:00");
        assert_eq!(weekend(TZ, thu) - tomorrow(TZ, thu), 0);
        // The same instant in New York: Thursday morning there, tomorrow is Friday.
        let ny: Tz = chrono_tz::America::New_York;
        let t = tomorrow(ny, thu);
        assert_eq!(
            local(ny, t).format("%a %H:%M").to_string(),
            "Fri 08:00".to_string()
        );
    }

    #[test]
    fn a_chosen_time_is_read_in_the_users_zone_and_bounded() {
        let now = il(2025, 3, 12, 10, 30);
        let t = chosen(TZ, now, "2025-03-20T09:15").unwrap();
        assert_eq!(show(t), "Thu 2025-03-20 09:15");
        let t = chosen(TZ, now, "2025-03-20T07:15:00Z").unwrap();
        assert_eq!(show(t), "Thu 2025-03-20 09:15");
        for bad in [
            "2025-03-12T10:00",
            "2027-01-01T10:00",
            "tomorrow",
            "",
            &"9".repeat(100),
        ] {
            assert!(chosen(TZ, now, bad).is_err(), "{bad}");
        }
        assert_eq!(
            chosen(TZ, now, "2025-03-12T10:00").unwrap_err().to_string(),
            AppError::bad_request(messages::SNOOZE_IN_PAST).to_string()
        );
    }
}
