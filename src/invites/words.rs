//! The card's times and recurrences in Hebrew: "יום שלישי, 24/11/2026, 14:00 עד 15:00" in the
//! user's zone (dd/MM/yyyy and HH:mm, as everywhere in the app), the event's own zone beside
//! it when its clock differs, and an RRULE read out ("כל שבוע ביום שני, 10 פעמים").

use calcard::icalendar::{
    ICalendarDay, ICalendarFrequency, ICalendarRecurrenceRule, ICalendarWeekday,
};
use chrono::{Datelike, NaiveDate, TimeZone};

use super::event::{When, offset_at};

const DAYS: [&str; 7] = ["ראשון", "שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת"];
const MONTHS: [&str; 12] = [
    "ינואר",
    "פברואר",
    "מרץ",
    "אפריל",
    "מאי",
    "יוני",
    "יולי",
    "אוגוסט",
    "ספטמבר",
    "אוקטובר",
    "נובמבר",
    "דצמבר",
];

fn day_name(d: NaiveDate) -> &'static str {
    DAYS[d.weekday().num_days_from_sunday() as usize]
}

fn date(d: NaiveDate) -> String {
    format!("{:02}/{:02}/{}", d.day(), d.month(), d.year())
}

/// "יום שלישי, 24/11/2026".
fn day(d: NaiveDate) -> String {
    format!("יום {}, {}", day_name(d), date(d))
}

/// The event's time in words: in `tz` (the user's zone), and in the event's own zone when its
/// clock there differs from the user's (else None).
pub fn when(w: &When, tz: chrono_tz::Tz) -> (String, Option<String>) {
    match w {
        When::Days { first, end } => {
            let last = end.pred_opt().unwrap_or(*first);
            let text = if last <= *first {
                format!("{} (כל היום)", day(*first))
            } else {
                format!("{} עד {} (כל היום)", day(*first), day(last))
            };
            (text, None)
        }
        When::Timed { start, end, zone } => {
            let here = span(*start, *end, tz);
            let there = zone
                .filter(|z| offset_at(*z, *start) != offset_at(tz, *start))
                .map(|z| format!("{} (לפי שעון {})", span(*start, *end, z), z.name()));
            (here, there)
        }
    }
}

/// "יום שלישי, 24/11/2026, 14:00 עד 15:00", or across days "… 23:00 עד יום רביעי, … 01:00".
/// In words, not with a dash: between two times a dash is laid out right to left in a Hebrew
/// line, and the range would read backwards.
fn span(start: i64, end: i64, tz: chrono_tz::Tz) -> String {
    let local = |t: i64| tz.timestamp_opt(t, 0).single();
    let (Some(s), Some(e)) = (local(start), local(end)) else {
        return String::new();
    };
    let hm = |d: &chrono::DateTime<chrono_tz::Tz>| d.format("%H:%M").to_string();
    if end <= start {
        format!("{}, {}", day(s.date_naive()), hm(&s))
    } else if s.date_naive() == e.date_naive() {
        format!("{}, {} עד {}", day(s.date_naive()), hm(&s), hm(&e))
    } else {
        format!(
            "{}, {} עד {}, {}",
            day(s.date_naive()),
            hm(&s),
            day(e.date_naive()),
            hm(&e)
        )
    }
}

fn weekday_index(w: ICalendarWeekday) -> usize {
    match w {
        ICalendarWeekday::Sunday => 0,
        ICalendarWeekday::Monday => 1,
        ICalendarWeekday::Tuesday => 2,
        ICalendarWeekday::Wednesday => 3,
        ICalendarWeekday::Thursday => 4,
        ICalendarWeekday::Friday => 5,
        ICalendarWeekday::Saturday => 6,
    }
}

/// "הראשון", "השני", …, "האחרון": an ordinal of BYDAY or BYSETPOS.
fn ordinal(n: i16) -> String {
    match n {
        1 => "הראשון".into(),
        2 => "השני".into(),
        3 => "השלישי".into(),
        4 => "הרביעי".into(),
        5 => "החמישי".into(),
        -1 => "האחרון".into(),
        -2 => "הלפני אחרון".into(),
        n if n > 0 => format!("ה-{n}"),
        n => format!("ה-{} מהסוף", -n),
    }
}

/// Hebrew words joined: "שני ורביעי", "ראשון, שלישי וחמישי".
fn joined(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} ו{}", rest.join(", "), last),
    }
}

/// "כל שבוע", "כל שבועיים", "כל 3 שבועות" for FREQ and INTERVAL.
fn every(freq: ICalendarFrequency, n: u16) -> String {
    let (one, two, many) = match freq {
        ICalendarFrequency::Yearly => ("שנה", "שנתיים", "שנים"),
        ICalendarFrequency::Monthly => ("חודש", "חודשיים", "חודשים"),
        ICalendarFrequency::Weekly => ("שבוע", "שבועיים", "שבועות"),
        ICalendarFrequency::Daily => ("יום", "יומיים", "ימים"),
        ICalendarFrequency::Hourly => ("שעה", "שעתיים", "שעות"),
        ICalendarFrequency::Minutely => ("דקה", "2 דקות", "דקות"),
        ICalendarFrequency::Secondly => ("שנייה", "2 שניות", "שניות"),
    };
    match n {
        0 | 1 => format!("כל {one}"),
        2 => format!("כל {two}"),
        n => format!("כל {n} {many}"),
    }
}

fn days_of(byday: &[ICalendarDay]) -> Option<String> {
    if byday.is_empty() {
        return None;
    }
    let mut plain: Vec<usize> = byday
        .iter()
        .filter(|d| d.ordwk.is_none())
        .map(|d| weekday_index(d.weekday))
        .collect();
    plain.sort_unstable();
    plain.dedup();
    let mut parts = Vec::new();
    if plain == [0, 1, 2, 3, 4] {
        parts.push("בימים ראשון עד חמישי".to_string());
    } else if plain == [1, 2, 3, 4, 5] {
        parts.push("בימים שני עד שישי".to_string());
    } else if plain.len() == 1 {
        parts.push(format!("ביום {}", DAYS[plain[0]]));
    } else if !plain.is_empty() {
        let names: Vec<String> = plain.iter().map(|i| DAYS[*i].to_string()).collect();
        parts.push(format!("בימים {}", joined(&names)));
    }
    for d in byday.iter().filter(|d| d.ordwk.is_some()).take(7) {
        parts.push(format!(
            "ביום {} {} בחודש",
            DAYS[weekday_index(d.weekday)],
            ordinal(d.ordwk.unwrap_or(1))
        ));
    }
    Some(joined(&parts))
}

/// An RRULE in Hebrew, with its end (COUNT or UNTIL, the date read in `tz`).
pub fn recurrence(r: &ICalendarRecurrenceRule, tz: chrono_tz::Tz) -> String {
    let mut text = every(r.freq, r.interval.unwrap_or(1));
    if let Some(days) = days_of(&r.byday) {
        text = format!("{text} {days}");
    }
    if !r.bymonthday.is_empty() {
        let days: Vec<String> = r
            .bymonthday
            .iter()
            .take(10)
            .map(|d| match *d {
                -1 => "ביום האחרון בחודש".to_string(),
                d if d < 0 => format!("{} ימים לפני סוף החודש", -d),
                d => format!("ב-{d} בחודש"),
            })
            .collect();
        text = format!("{text} {}", joined(&days));
    }
    if !r.bymonth.is_empty() {
        let months: Vec<String> = r
            .bymonth
            .iter()
            .take(12)
            .filter_map(|m| MONTHS.get(usize::from(m.month()).wrapping_sub(1)))
            .map(|m| m.to_string())
            .collect();
        if !months.is_empty() {
            text = format!("{text} ב{}", joined(&months));
        }
    }
    if let Some(pos) = r.bysetpos.first()
        && r.bysetpos.len() == 1
    {
        text = format!("{text} (המופע {})", ordinal(*pos as i16));
    }
    if let Some(count) = r.count {
        text = match count {
            1 => format!("{text}, פעם אחת"),
            n => format!("{text}, {n} פעמים"),
        };
    } else if let Some(until) = r.until.as_ref().and_then(|u| u.to_date_time()) {
        let day = match until.offset {
            Some(_) => tz.from_utc_datetime(&until.date_time).date_naive(),
            None => until.date_time.date(),
        };
        text = format!("{text}, עד {}", date(day));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono_tz::Asia::Jerusalem;

    fn rule(text: &str) -> ICalendarRecurrenceRule {
        let ics = format!(
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20260101T100000Z\r\nRRULE:{text}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        );
        let cal = calcard::icalendar::ICalendar::parse(&ics).unwrap();
        let ev = cal
            .components
            .iter()
            .find(|c| c.component_type == calcard::icalendar::ICalendarComponentType::VEvent)
            .unwrap();
        match ev
            .property(&calcard::icalendar::ICalendarProperty::Rrule)
            .unwrap()
            .values
            .first()
        {
            Some(calcard::icalendar::ICalendarValue::RecurrenceRule(r)) => (**r).clone(),
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn rules_read_out_in_hebrew() {
        let cases = [
            ("FREQ=DAILY", "כל יום"),
            ("FREQ=DAILY;INTERVAL=2;COUNT=5", "כל יומיים, 5 פעמים"),
            ("FREQ=WEEKLY;BYDAY=MO", "כל שבוע ביום שני"),
            (
                "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10",
                "כל שבוע בימים שני ורביעי, 10 פעמים",
            ),
            (
                "FREQ=WEEKLY;BYDAY=SU,MO,TU,WE,TH",
                "כל שבוע בימים ראשון עד חמישי",
            ),
            (
                "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH,FR",
                "כל שבועיים בימים שלישי, חמישי ושישי",
            ),
            ("FREQ=MONTHLY;BYDAY=2TU", "כל חודש ביום שלישי השני בחודש"),
            ("FREQ=MONTHLY;BYDAY=-1FR", "כל חודש ביום שישי האחרון בחודש"),
            ("FREQ=MONTHLY;BYMONTHDAY=15", "כל חודש ב-15 בחודש"),
            ("FREQ=MONTHLY;BYMONTHDAY=-1", "כל חודש ביום האחרון בחודש"),
            ("FREQ=YEARLY;BYMONTH=4;COUNT=1", "כל שנה באפריל, פעם אחת"),
            ("FREQ=MONTHLY;INTERVAL=3", "כל 3 חודשים"),
            // UNTIL in UTC, read as a date in Jerusalem (21:30 UTC is already the next day).
            (
                "FREQ=WEEKLY;UNTIL=20261230T213000Z",
                "כל שבוע, עד 30/12/2026",
            ),
            (
                "FREQ=WEEKLY;UNTIL=20261231T223000Z",
                "כל שבוע, עד 01/01/2027",
            ),
        ];
        for (r, want) in cases {
            assert_eq!(recurrence(&rule(r), Jerusalem), want, "{r}");
        }
    }

    #[test]
    fn times_in_the_user_s_zone_with_the_event_s_when_it_differs() {
        let start = chrono::Utc
            .with_ymd_and_hms(2026, 11, 24, 12, 0, 0)
            .unwrap()
            .timestamp();
        let w = When::Timed {
            start,
            end: start + 3600,
            zone: Some(chrono_tz::Europe::London),
        };
        let (here, there) = when(&w, Jerusalem);
        assert_eq!(here, "יום שלישי, 24/11/2026, 14:00 עד 15:00");
        assert_eq!(
            there.as_deref(),
            Some("יום שלישי, 24/11/2026, 12:00 עד 13:00 (לפי שעון Europe/London)")
        );
        // The same clock: no second line.
        let w = When::Timed {
            start,
            end: start + 3600,
            zone: Some(chrono_tz::Asia::Jerusalem),
        };
        assert_eq!(when(&w, Jerusalem).1, None);
        let days = When::Days {
            first: NaiveDate::from_ymd_opt(2026, 12, 14).unwrap(),
            end: NaiveDate::from_ymd_opt(2026, 12, 17).unwrap(),
        };
        assert_eq!(
            when(&days, Jerusalem).0,
            "יום שני, 14/12/2026 עד יום רביעי, 16/12/2026 (כל היום)"
        );
    }
}
