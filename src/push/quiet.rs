//! Quiet hours on the clock of the user's time zone: whether a time falls in them, and when
//! they end (the held notifications' summary is due then). Shabbat is the Israeli week's
//! preset: Friday evening to Saturday evening.

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Timelike, Weekday};
use chrono_tz::Tz;

use super::model::{Quiet, Span};

/// When the quiet that `now` falls in ends (Unix seconds), or None when `now` is not quiet.
/// Quiet spans that meet or overlap (Shabbat ending inside the night) are one.
pub fn until(q: &Quiet, tz: Tz, now: i64) -> Option<i64> {
    let mut end = None;
    let mut at = now;
    // A span's end may fall in another one: at most three in a row (night, Shabbat, night).
    for _ in 0..3 {
        match one(q, tz, at) {
            Some(e) if e > at => {
                end = Some(e);
                at = e;
            }
            _ => break,
        }
    }
    end
}

/// The end of a span `at` falls in (the later, when it falls in both).
fn one(q: &Quiet, tz: Tz, at: i64) -> Option<i64> {
    let local = DateTime::from_timestamp(at, 0)?.with_timezone(&tz);
    let (day, minute) = (
        local.date_naive(),
        (local.hour() * 60 + local.minute()) as u16,
    );
    let night = q.night.and_then(|s| night_end(s, day, minute, tz));
    let shabbat = q
        .shabbat
        .and_then(|s| shabbat_end(s, day, local.weekday(), minute, tz));
    night.into_iter().chain(shabbat).max()
}

fn night_end(s: Span, day: NaiveDate, minute: u16, tz: Tz) -> Option<i64> {
    if s.from == s.to {
        return None;
    }
    if s.from < s.to {
        return (s.from..s.to).contains(&minute).then(|| at(tz, day, s.to));
    }
    // Over midnight: the evening part ends tomorrow, the morning part today.
    if minute >= s.from {
        Some(at(tz, day + Duration::days(1), s.to))
    } else if minute < s.to {
        Some(at(tz, day, s.to))
    } else {
        None
    }
}

fn shabbat_end(s: Span, day: NaiveDate, weekday: Weekday, minute: u16, tz: Tz) -> Option<i64> {
    match weekday {
        Weekday::Fri if minute >= s.from => Some(at(tz, day + Duration::days(1), s.to)),
        Weekday::Sat if minute < s.to => Some(at(tz, day, s.to)),
        _ => None,
    }
}

/// The Unix time of `minute` on `day` in `tz` (a minute skipped by a clock change: the first
/// one after it).
fn at(tz: Tz, day: NaiveDate, minute: u16) -> i64 {
    let naive = day
        .and_hms_opt(u32::from(minute / 60), u32::from(minute % 60), 0)
        .expect("a minute of the day");
    (0..=2)
        .find_map(|h| {
            tz.from_local_datetime(&(naive + Duration::hours(h)))
                .earliest()
        })
        .map_or_else(|| naive.and_utc().timestamp(), |t| t.timestamp())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TZ: Tz = chrono_tz::Asia::Jerusalem;

    /// Unix time of a local time in Jerusalem.
    fn local(y: i32, m: u32, d: u32, h: u32, min: u32) -> i64 {
        TZ.with_ymd_and_hms(y, m, d, h, min, 0).unwrap().timestamp()
    }

    fn span(from: (u16, u16), to: (u16, u16)) -> Option<Span> {
        Some(Span {
            from: from.0 * 60 + from.1,
            to: to.0 * 60 + to.1,
        })
    }

    #[test]
    fn the_night_over_midnight_and_shabbat_hold_until_their_end() {
        // Wednesday 2026-12-02, Friday 2026-12-04, Saturday 2026-12-05.
        let q = Quiet {
            night: span((22, 0), (7, 0)),
            shabbat: span((16, 0), (20, 0)),
        };
        assert_eq!(until(&q, TZ, local(2026, 12, 2, 12, 0)), None);
        assert_eq!(
            until(&q, TZ, local(2026, 12, 2, 23, 30)),
            Some(local(2026, 12, 3, 7, 0))
        );
        assert_eq!(
            until(&q, TZ, local(2026, 12, 3, 6, 59)),
            Some(local(2026, 12, 3, 7, 0))
        );
        assert_eq!(until(&q, TZ, local(2026, 12, 3, 7, 0)), None);
        // Friday afternoon: Shabbat until Saturday 20:00, the night (22:00) not joined to it.
        assert_eq!(until(&q, TZ, local(2026, 12, 4, 15, 59)), None);
        assert_eq!(
            until(&q, TZ, local(2026, 12, 4, 16, 0)),
            Some(local(2026, 12, 5, 20, 0))
        );
        // Friday night is in both: Shabbat's end, the later.
        assert_eq!(
            until(&q, TZ, local(2026, 12, 4, 23, 0)),
            Some(local(2026, 12, 5, 20, 0))
        );
        assert_eq!(until(&q, TZ, local(2026, 12, 5, 20, 30)), None);
        // A Shabbat that ends inside the night runs on to the morning.
        let late = Quiet {
            night: span((19, 0), (7, 0)),
            shabbat: span((16, 0), (20, 0)),
        };
        assert_eq!(
            until(&late, TZ, local(2026, 12, 5, 10, 0)),
            Some(local(2026, 12, 6, 7, 0))
        );
        // A span within a day; none at all.
        let noon = Quiet {
            night: span((13, 0), (14, 0)),
            shabbat: None,
        };
        assert_eq!(
            until(&noon, TZ, local(2026, 12, 2, 13, 30)),
            Some(local(2026, 12, 2, 14, 0))
        );
        assert_eq!(
            until(&Quiet::default(), TZ, local(2026, 12, 4, 18, 0)),
            None
        );
        // Another zone's clock: Friday 17:00 in London is quiet there, 19:00 in Jerusalem.
        let london = chrono_tz::Europe::London;
        let t = london
            .with_ymd_and_hms(2026, 12, 4, 17, 0, 0)
            .unwrap()
            .timestamp();
        assert!(until(&q, london, t).is_some());
    }
}
