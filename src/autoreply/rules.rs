//! Whether a mail gets an auto-reply: the facts about it (`Facts`, read from its headers by
//! `facts.rs`), what the user's day looks like so far (`Day`), and the settings, in; a reason
//! to skip it, or none, out. Pure: the tests drive it with any clock.

use std::collections::HashSet;

use chrono::{Datelike, TimeZone, Timelike};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::settings::{Settings, entries, minutes_of};

/// Why a mail got no auto-reply (or `Answered`), as the activity list shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "AutoReplyReason")]
pub enum Reason {
    Answered,
    OwnAddress,
    NoSender,
    Blacklisted,
    NotWhitelisted,
    Automated,
    ListMail,
    Spam,
    NotPersonal,
    OutsideWorkHours,
    SenderAnsweredToday,
    ThreadAnswered,
    DailyMax,
    /// Deleted or moved out of INBOX before the check.
    Gone,
    /// The AI provider or the mailbox failed on every try.
    Failed,
}

impl Reason {
    /// Hebrew, for the card's activity list and the notification.
    pub fn text(self) -> &'static str {
        match self {
            Reason::Answered => "נכתבה טיוטת תשובה",
            Reason::OwnAddress => "דולג: נשלח מכתובת שלך",
            Reason::NoSender => "דולג: אין כתובת שולח",
            Reason::Blacklisted => "דולג: השולח ברשימה השחורה",
            Reason::NotWhitelisted => "דולג: השולח אינו ברשימה הלבנה",
            Reason::Automated => "דולג: דואר אוטומטי",
            Reason::ListMail => "דולג: דואר מרשימת תפוצה",
            Reason::Spam => "דולג: דואר זבל",
            Reason::NotPersonal => "דולג: לא נשלח אליך ישירות",
            Reason::OutsideWorkHours => "דולג: מחוץ לשעות העבודה",
            Reason::SenderAnsweredToday => "דולג: לשולח כבר נכתבה תשובה היום",
            Reason::ThreadAnswered => "דולג: לשיחה כבר יש תשובה אוטומטית",
            Reason::DailyMax => "דולג: הגעת למכסה היומית",
            Reason::Gone => "דולג: המייל כבר לא בדואר הנכנס",
            Reason::Failed => "נכשל: לא ניתן היה לכתוב טיוטה",
        }
    }
}

/// What the headers say about a mail.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    /// Lower-cased.
    pub from: String,
    pub to: Vec<String>,
    /// List-Id, List-Unsubscribe, List-Post, or Precedence: list.
    pub list: bool,
    /// Auto-Submitted other than no, Precedence bulk/junk, an empty Return-Path, a delivery
    /// report, autoresponder headers, or a robot's address (noreply, mailer-daemon, …).
    pub automated: bool,
    /// Status spam or suspicious, in Junk, or marked by the receiving server.
    pub spam: bool,
    pub thread: String,
    /// When it reached the mailbox as the monitor saw it (Unix seconds).
    pub arrived: i64,
}

/// The user's day so far (in their time zone).
#[derive(Debug, Default)]
pub struct Day {
    pub answered: u32,
    /// Lower-cased senders answered today.
    pub senders: HashSet<String>,
    /// Threads that already have an auto-reply.
    pub threads: HashSet<String>,
}

/// Whether `who` matches a list entry: the address, or `@domain` (and its subdomains).
fn listed(list: &[String], who: &str) -> bool {
    let domain = who.rsplit_once('@').map_or("", |(_, d)| d);
    list.iter().any(|e| match e.strip_prefix('@') {
        Some(d) => domain == d || domain.ends_with(&format!(".{d}")),
        None => e == who,
    })
}

/// Whether `at` falls in the work hours: a work day in the user's zone, and between start
/// and end (an end before the start runs past midnight).
pub fn in_work_hours(s: &Settings, tz: chrono_tz::Tz, at: i64) -> bool {
    let Some(local) = tz.timestamp_opt(at, 0).single() else {
        return true;
    };
    let day = local.weekday().num_days_from_sunday() as u8;
    let minute = local.hour() * 60 + local.minute();
    let (start, end) = (
        minutes_of(&s.auto_reply_work_start).unwrap_or(9 * 60),
        minutes_of(&s.auto_reply_work_end).unwrap_or(17 * 60),
    );
    let works = |d: u8| s.auto_reply_work_days.contains(&d);
    if start <= end {
        works(day) && (start..end).contains(&minute)
    } else if minute >= start {
        works(day)
    } else {
        // After midnight: the shift began the day before.
        minute < end && works((day + 6) % 7)
    }
}

/// The reason to skip the mail, or `None` to answer it. `own` holds the user's addresses,
/// lower-cased.
pub fn skip(
    s: &Settings,
    tz: chrono_tz::Tz,
    own: &[String],
    day: &Day,
    mail: &Facts,
) -> Option<Reason> {
    if mail.from.is_empty() || !mail.from.contains('@') {
        return Some(Reason::NoSender);
    }
    if own.contains(&mail.from) {
        return Some(Reason::OwnAddress);
    }
    if listed(&entries(&s.auto_reply_blacklist), &mail.from) {
        return Some(Reason::Blacklisted);
    }
    let white = entries(&s.auto_reply_whitelist);
    if !white.is_empty() && !listed(&white, &mail.from) {
        return Some(Reason::NotWhitelisted);
    }
    if s.auto_reply_exclude_automated && mail.automated {
        return Some(Reason::Automated);
    }
    if (s.auto_reply_exclude_automated || s.auto_reply_only_personal) && mail.list {
        return Some(Reason::ListMail);
    }
    if s.auto_reply_exclude_spam && mail.spam {
        return Some(Reason::Spam);
    }
    if s.auto_reply_only_personal && !mail.to.iter().any(|t| own.contains(t)) {
        return Some(Reason::NotPersonal);
    }
    if s.auto_reply_only_work_hours && !in_work_hours(s, tz, mail.arrived) {
        return Some(Reason::OutsideWorkHours);
    }
    if s.auto_reply_no_repeat {
        if day.senders.contains(&mail.from) {
            return Some(Reason::SenderAnsweredToday);
        }
        if !mail.thread.is_empty() && day.threads.contains(&mail.thread) {
            return Some(Reason::ThreadAnswered);
        }
    }
    if day.answered >= s.auto_reply_max_per_day {
        return Some(Reason::DailyMax);
    }
    None
}

#[cfg(test)]
mod tests {
    use chrono_tz::Asia::Jerusalem;

    use super::*;

    fn mail() -> Facts {
        Facts {
            from: "dana@example.com".into(),
            to: vec!["me@home.test".into()],
            thread: "t1".into(),
            // Tuesday 2026-11-24 10:00 in Jerusalem (08:00 UTC).
            arrived: 1_795_507_200,
            ..Default::default()
        }
    }

    fn own() -> Vec<String> {
        vec!["me@home.test".into()]
    }

    fn decide(s: &Settings, day: &Day, m: &Facts) -> Option<Reason> {
        skip(s, Jerusalem, &own(), day, m)
    }

    #[test]
    fn a_personal_mail_is_answered() {
        assert_eq!(decide(&Settings::default(), &Day::default(), &mail()), None);
    }

    #[test]
    fn each_exclusion_has_its_reason() {
        let s = Settings::default();
        let day = Day::default();
        let with = |f: &dyn Fn(&mut Facts)| {
            let mut m = mail();
            f(&mut m);
            decide(&s, &day, &m)
        };
        assert_eq!(
            with(&|m| m.from = "me@home.test".into()),
            Some(Reason::OwnAddress)
        );
        assert_eq!(with(&|m| m.from = String::new()), Some(Reason::NoSender));
        assert_eq!(with(&|m| m.automated = true), Some(Reason::Automated));
        assert_eq!(with(&|m| m.list = true), Some(Reason::ListMail));
        assert_eq!(with(&|m| m.spam = true), Some(Reason::Spam));
        assert_eq!(
            with(&|m| m.to = vec!["team@home.test".into()]),
            Some(Reason::NotPersonal)
        );
    }

    #[test]
    fn exclusions_turned_off_let_the_mail_through() {
        let s = Settings {
            auto_reply_only_personal: false,
            auto_reply_exclude_automated: false,
            auto_reply_exclude_spam: false,
            ..Settings::default()
        };
        let mut m = mail();
        m.list = true;
        m.automated = true;
        m.spam = true;
        m.to.clear();
        assert_eq!(decide(&s, &Day::default(), &m), None);
    }

    #[test]
    fn black_and_white_lists_take_addresses_and_domains() {
        let mut s = Settings {
            auto_reply_blacklist: "@example.com".into(),
            ..Settings::default()
        };
        assert_eq!(
            decide(&s, &Day::default(), &mail()),
            Some(Reason::Blacklisted)
        );
        s.auto_reply_blacklist = "other@example.com".into();
        assert_eq!(decide(&s, &Day::default(), &mail()), None);
        s.auto_reply_whitelist = "boss@work.test\n@corp.test".into();
        assert_eq!(
            decide(&s, &Day::default(), &mail()),
            Some(Reason::NotWhitelisted)
        );
        let mut m = mail();
        m.from = "a@mail.corp.test".into();
        assert_eq!(decide(&s, &Day::default(), &m), None);
    }

    #[test]
    fn no_repeat_and_the_daily_maximum() {
        let s = Settings {
            auto_reply_max_per_day: 2,
            ..Settings::default()
        };
        let mut day = Day::default();
        day.senders.insert("dana@example.com".into());
        assert_eq!(decide(&s, &day, &mail()), Some(Reason::SenderAnsweredToday));
        day.senders.clear();
        day.threads.insert("t1".into());
        assert_eq!(decide(&s, &day, &mail()), Some(Reason::ThreadAnswered));
        day.threads.clear();
        day.answered = 2;
        assert_eq!(decide(&s, &day, &mail()), Some(Reason::DailyMax));
        let off = Settings {
            auto_reply_no_repeat: false,
            ..Settings::default()
        };
        day.answered = 0;
        day.senders.insert("dana@example.com".into());
        assert_eq!(decide(&off, &day, &mail()), None);
    }

    #[test]
    fn work_hours_are_in_the_user_s_zone_with_sunday_as_zero() {
        let mut s = Settings {
            auto_reply_only_work_hours: true,
            ..Settings::default()
        };
        let tuesday_10 = mail().arrived;
        assert!(in_work_hours(&s, Jerusalem, tuesday_10));
        // 17:00 is the end: outside; 16:59 inside.
        assert!(!in_work_hours(&s, Jerusalem, tuesday_10 + 7 * 3600));
        assert!(in_work_hours(&s, Jerusalem, tuesday_10 + 7 * 3600 - 60));
        // 08:59 is before it.
        assert!(!in_work_hours(&s, Jerusalem, tuesday_10 - 3600 - 60));
        // 09:30 in Jerusalem is 07:30 UTC: a check in UTC would call it early.
        assert!(in_work_hours(&s, Jerusalem, tuesday_10 - 30 * 60));
        assert!(!in_work_hours(&s, chrono_tz::UTC, tuesday_10 - 30 * 60));
        // Friday (5) is a work day by default; Sunday (0) is not. The Israeli week is.
        let sunday_10 = tuesday_10 - 2 * 86_400;
        assert!(!in_work_hours(&s, Jerusalem, sunday_10));
        s.auto_reply_work_days = vec![0, 1, 2, 3, 4];
        assert!(in_work_hours(&s, Jerusalem, sunday_10));
        let mut m = mail();
        m.arrived = tuesday_10 + 10 * 3600;
        assert_eq!(
            decide(&s, &Day::default(), &m),
            Some(Reason::OutsideWorkHours)
        );
        // A night shift: 22:00 to 06:00, starting on work days.
        s.auto_reply_work_start = "22:00".into();
        s.auto_reply_work_end = "06:00".into();
        assert!(in_work_hours(&s, Jerusalem, tuesday_10 + 13 * 3600)); // Tue 23:00
        assert!(in_work_hours(&s, Jerusalem, tuesday_10 + 15 * 3600)); // Wed 01:00
        assert!(!in_work_hours(&s, Jerusalem, tuesday_10)); // Tue 10:00
    }
}
