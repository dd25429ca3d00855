//! Invitations as Google Calendar, Outlook and Thunderbird write them (tests/fixtures/invites),
//! read into events; the records' rules (a higher SEQUENCE replaces, a cancellation marks);
//! the card; the REPLY; hostile calendars bounded in time.

use std::time::{Duration, Instant};

use chrono::TimeZone;
use chrono_tz::Asia::Jerusalem;

use super::*;
use crate::invites::card::{self, Inputs, State};
use crate::invites::{parts, reply, store, words};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/invites/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(path).unwrap()
}

fn event_of(name: &str) -> Event {
    let raw = fixture(name);
    let summary = crate::mail::parse::summary(&raw);
    assert!(
        parts::listed(&summary.attachments),
        "{name}: the stored summary lists the calendar part: {:?}",
        summary.attachments
    );
    parts::first_event(&raw, Jerusalem).expect(name).0
}

fn utc(y: i32, m: u32, d: u32, h: u32, min: u32) -> i64 {
    chrono::Utc
        .with_ymd_and_hms(y, m, d, h, min, 0)
        .unwrap()
        .timestamp()
}

/// Before every fixture's event: records keep what is still to come.
const NOW: i64 = 1_796_083_200; // 2026-12-01T00:00:00Z

const ME: &str = "user1@example.test";

#[test]
fn google_s_invitation_in_hebrew() {
    let e = event_of("google-request.eml");
    assert_eq!(e.method, Method::Request);
    assert_eq!(e.uid, "5v8q2k3m1n0p9o8i7u6y5t4r3e@google.com");
    assert_eq!(e.title, "ישיבת תכנון רבעונית");
    assert_eq!(e.location, "חדר ישיבות 3, קומה 2");
    assert!(
        e.description
            .starts_with("סיכום הרבעון ותכנון היעדים לרבעון הבא.")
    );
    let org = e.organizer.as_ref().unwrap();
    assert_eq!(
        (org.name.as_str(), org.email.as_str()),
        ("Dana Cohen", "user2@example.test")
    );
    assert_eq!(e.attendees.len(), 4);
    let me = e.attendee_of(&[ME.to_string()]).unwrap();
    assert_eq!(me.answer, Answer::NeedsAction);
    let yossi = &e.attendees[2];
    assert!(yossi.optional && yossi.answer == Answer::Tentative);
    assert!(e.attendees[3].resource, "the room is a resource");
    // 14:00 in Jerusalem in February (UTC+2).
    assert_eq!(
        e.when,
        Some(When::Timed {
            start: utc(2027, 2, 23, 12, 0),
            end: utc(2027, 2, 23, 13, 0),
            zone: Some(Jerusalem),
        })
    );
    assert_eq!(
        e.occurrences,
        vec![(utc(2027, 2, 23, 12, 0), utc(2027, 2, 23, 13, 0))]
    );
    assert!(e.busy());
}

#[test]
fn outlook_s_weekly_meeting_keeps_its_local_time_across_the_clock_change() {
    let e = event_of("outlook-recurring.eml");
    assert_eq!(e.title, "סנכרון צוות");
    // "Israel Standard Time" (Windows' name) is Asia/Jerusalem.
    let Some(When::Timed { start, zone, .. }) = e.when else {
        panic!("{:?}", e.when)
    };
    assert_eq!(start, utc(2027, 3, 11, 8, 0));
    assert_eq!(zone, Some(Jerusalem));
    // 10:00 every Thursday: 08:00 UTC before Friday 26/03/2027, 07:00 UTC after.
    let starts: Vec<i64> = e.occurrences.iter().map(|o| o.0).collect();
    assert_eq!(
        starts,
        vec![
            utc(2027, 3, 11, 8, 0),
            utc(2027, 3, 18, 8, 0),
            utc(2027, 3, 25, 8, 0),
            utc(2027, 4, 1, 7, 0),
            utc(2027, 4, 8, 7, 0),
            utc(2027, 4, 15, 7, 0),
        ]
    );
    assert!(e.occurrences.iter().all(|(s, e)| e - s == 1800));
    let r = e.rrule.as_ref().unwrap();
    assert_eq!(
        words::recurrence(r, Jerusalem),
        "כל שבוע ביום חמישי, 6 פעמים"
    );
}

#[test]
fn thunderbird_s_invitation_from_london_shows_both_clocks() {
    let e = event_of("thunderbird-london.eml");
    assert_eq!(e.title, "שיחת היכרות עם הלקוח");
    assert_eq!(e.organizer.as_ref().unwrap().name, "Noa Friedman");
    let w = e.when.clone().unwrap();
    let (here, there) = words::when(&w, Jerusalem);
    assert_eq!(here, "יום חמישי, 14/01/2027, 14:00 עד 15:00");
    assert_eq!(
        there.as_deref(),
        Some("יום חמישי, 14/01/2027, 12:00 עד 13:00 (לפי שעון Europe/London)")
    );
}

#[test]
fn an_all_day_event_is_read_as_days() {
    let e = event_of("google-allday.eml");
    let w = e.when.clone().unwrap();
    assert_eq!(
        words::when(&w, Jerusalem).0,
        "יום שני, 14/06/2027 עד יום רביעי, 16/06/2027 (כל היום)"
    );
    assert!(
        !e.busy(),
        "an all-day, transparent event takes no one's time"
    );
}

#[test]
fn replies_and_counters_are_read() {
    let r = event_of("outlook-reply.eml");
    assert_eq!(r.method, Method::Reply);
    assert_eq!(r.attendees[0].answer, Answer::Accepted);
    assert_eq!(r.comment, "אגיע בשמחה");
    let c = event_of("outlook-counter.eml");
    assert_eq!(c.method, Method::Counter);
    assert_eq!(c.comment, "אפשר שעה אחר כך?");
}

fn card_for(e: &Event, records: &[store::Record]) -> card::Invitation {
    card::build(Inputs {
        event: e,
        record: records.iter().find(|r| r.uid == e.uid),
        records,
        me: &[ME.to_string()],
        tz: Jerusalem,
        now: NOW,
    })
}

#[test]
fn a_higher_sequence_replaces_and_a_cancellation_marks_in_any_order() {
    let (_d, st, user) = crate::schema::store_with_user();
    let request = event_of("google-request.eml");
    let update = event_of("google-update.eml");
    let cancel = event_of("google-cancel.eml");
    let take = |e: &Event| {
        let txn = st.begin_write().unwrap();
        let r = store::register(&txn, user, e, NOW).unwrap();
        txn.commit().unwrap();
        r.unwrap()
    };
    // The update arrives (the sync is newest first), then the first version.
    take(&update);
    let r = take(&request);
    assert_eq!(
        r.sequence, 1,
        "the older version does not replace the newer"
    );
    assert_eq!(r.occurrences[0].0, utc(2027, 2, 23, 13, 0));
    let records = store::all(&st, user).unwrap();
    assert_eq!(card_for(&request, &records).state, State::Superseded);
    let shown = card_for(&update, &records);
    assert_eq!(shown.state, State::Active);
    assert!(shown.can_answer);
    assert_eq!(shown.when, "יום שלישי, 23/02/2027, 15:00 עד 16:00");
    // The cancellation marks every version cancelled.
    assert!(take(&cancel).cancelled);
    let records = store::all(&st, user).unwrap();
    for e in [&request, &update, &cancel] {
        let c = card_for(e, &records);
        assert_eq!(c.state, State::Cancelled);
        assert!(!c.can_answer);
    }
    // Taking the same mail again changes nothing.
    let before = store::all(&st, user).unwrap();
    take(&cancel);
    let after = store::all(&st, user).unwrap();
    assert_eq!(before, after);
}

#[test]
fn accepted_invitations_that_overlap_are_conflicts() {
    let (_d, st, user) = crate::schema::store_with_user();
    // Accepted: the weekly team sync (Thursdays 10:00 עד 10:30).
    let weekly = event_of("outlook-recurring.eml");
    store::answered(&st, user, &weekly, Answer::Accepted, "", NOW).unwrap();
    // Another invitation on Thursday 18/03/2027 10:15 עד 11:00 in Jerusalem.
    let ics = "BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:other@x\r\n\
               DTSTART;TZID=Asia/Jerusalem:20270318T101500\r\nDTEND;TZID=Asia/Jerusalem:20270318T110000\r\n\
               SUMMARY:ראיון\r\nORGANIZER:mailto:hr@example.test\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    let other = parse(ics, Jerusalem, None).unwrap();
    let records = store::all(&st, user).unwrap();
    let c = card_for(&other, &records);
    assert_eq!(c.conflicts.len(), 1);
    assert_eq!(c.conflicts[0].title, "סנכרון צוות");
    assert_eq!(c.conflicts[0].when, "יום חמישי, 18/03/2027, 10:00 עד 10:30");
    // Declined is no conflict; nor is the meeting with itself.
    store::answered(&st, user, &weekly, Answer::Declined, "", NOW).unwrap();
    let records = store::all(&st, user).unwrap();
    assert!(card_for(&other, &records).conflicts.is_empty());
    assert!(card_for(&weekly, &records).conflicts.is_empty());
    assert_eq!(card_for(&weekly, &records).answer, Some(Answer::Declined));
}

#[test]
fn the_reply_is_an_itip_reply_for_the_organiser() {
    let e = event_of("google-request.eml");
    let me = Person {
        name: "ישראל ישראלי".into(),
        email: ME.into(),
    };
    let text = reply::ics(
        &e,
        &me,
        Answer::Accepted,
        "אגיע, תודה",
        utc(2026, 12, 1, 9, 0),
    );
    assert!(text.ends_with("\r\n") && !text.replace("\r\n", "").contains('\n'));
    let cal = calcard::icalendar::ICalendar::parse(&text).unwrap();
    let back = parse(&text, Jerusalem, None).unwrap();
    assert_eq!(back.method, Method::Reply);
    assert_eq!(back.uid, e.uid);
    assert_eq!(back.sequence, e.sequence);
    assert_eq!(back.organizer, e.organizer);
    assert_eq!(back.attendees.len(), 1, "one ATTENDEE: the one answering");
    assert_eq!(back.attendees[0].email, ME);
    assert_eq!(back.attendees[0].name, "ישראל ישראלי");
    assert_eq!(back.attendees[0].answer, Answer::Accepted);
    assert_eq!(back.comment, "אגיע, תודה");
    assert_eq!(
        back.when,
        Some(When::Timed {
            start: utc(2027, 2, 23, 12, 0),
            end: utc(2027, 2, 23, 13, 0),
            zone: None,
        })
    );
    assert_eq!(back.dtstamp, utc(2026, 12, 1, 9, 0));
    assert!(text.contains("METHOD:REPLY\r\n"), "{text}");
    assert!(text.contains("DTSTAMP:20261201T090000Z\r\n"), "{text}");
    assert_eq!(cal.components.len(), 2);
    // An all-day event is answered with its dates.
    let d = event_of("google-allday.eml");
    let text = reply::ics(&d, &me, Answer::Declined, "", NOW);
    assert!(text.contains("DTSTART;VALUE=DATE:20270614\r\n"), "{text}");
    assert_eq!(parse(&text, Jerusalem, None).unwrap().when, d.when);
}

#[test]
fn the_download_drops_the_method_and_is_well_formed() {
    let raw = fixture("google-request.eml");
    let (_, text) = parts::first_event(&raw, Jerusalem).unwrap();
    let file = crate::invites::ics_file(&text).unwrap();
    assert!(!file.contains("METHOD:"));
    assert!(file.contains("SUMMARY:ישיבת תכנון רבעונית"));
    let e = parse(&file, Jerusalem, Some("PUBLISH")).unwrap();
    assert_eq!(e.occurrences.len(), 1);
}

/// A hostile calendar's parse and expansion, timed: it must never hold up the mail view.
fn quickly(ics: &str) -> Option<Event> {
    let t = Instant::now();
    let e = parse(ics, Jerusalem, None);
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "took {:?}",
        t.elapsed()
    );
    e
}

fn with_rule(rule: &str) -> String {
    format!(
        "BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:h@x\r\nDTSTART:20270101T100000Z\r\n\
         DTEND:20270101T110000Z\r\nRRULE:{rule}\r\nSUMMARY:x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
}

#[test]
fn hostile_calendars_are_bounded() {
    // A count of a billion, every second.
    let e = quickly(&with_rule("FREQ=SECONDLY;COUNT=1000000000")).unwrap();
    assert_eq!(e.occurrences.len(), 1);
    // A rule that never matches (30 February), daily and forever.
    let e = quickly(&with_rule("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30")).unwrap();
    assert!(e.occurrences.is_empty());
    // Forever, daily: expanded to the bound, no further.
    let e = quickly(&with_rule("FREQ=DAILY")).unwrap();
    assert_eq!(e.occurrences.len(), 2000);
    assert!(e.upcoming(0).len() <= MAX_OCCURRENCES);
    // Ten thousand components nested in one another.
    let mut deep = String::from("BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\n");
    for _ in 0..10_000 {
        deep.push_str(
            "BEGIN:VEVENT\r\nUID:d@x\r\nDTSTART:20270101T100000Z\r\nRRULE:FREQ=HOURLY\r\n",
        );
    }
    deep.push_str("END:VCALENDAR\r\n");
    let _ = quickly(&deep);
    // An unknown zone: read in the user's zone, not refused.
    let e = quickly(
        "BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:z@x\r\n\
         DTSTART;TZID=Mars/Olympus_Mons:20270101T100000\r\nSUMMARY:x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
    )
    .unwrap();
    assert_eq!(
        e.when,
        Some(When::Timed {
            start: utc(2027, 1, 1, 8, 0),
            end: utc(2027, 1, 1, 8, 0),
            zone: Some(Jerusalem),
        })
    );
    // Thousands of attendees: a hundred kept, all counted.
    let mut many = String::from("BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:m@x\r\n");
    for i in 0..5000 {
        many.push_str(&format!("ATTENDEE:mailto:a{i}@example.test\r\n"));
    }
    many.push_str("END:VEVENT\r\nEND:VCALENDAR\r\n");
    let e = quickly(&many).unwrap();
    assert_eq!((e.attendees.len(), e.attendee_count), (MAX_ATTENDEES, 5000));
    // Too large to read at all.
    let huge = with_rule("FREQ=DAILY").replace(
        "SUMMARY:x",
        &format!("SUMMARY:{}", "א".repeat(MAX_ICS_BYTES)),
    );
    assert!(quickly(&huge).is_none());
    // Not a calendar; a calendar without a method is published information.
    assert!(quickly("hello").is_none());
    let e = quickly(&with_rule("FREQ=DAILY").replace("METHOD:REQUEST\r\n", "")).unwrap();
    assert_eq!(e.method, Method::Publish);
}

#[test]
fn a_backed_up_answer_comes_back_without_overriding_one_given_here() {
    let (_d, st, user) = crate::schema::store_with_user();
    let e = event_of("google-request.eml");
    let answered = store::answered(&st, user, &e, Answer::Accepted, "אגיע", NOW).unwrap();
    // What the backup keeps: the answer, without the occurrences.
    let backed = store::Record {
        occurrences: Vec::new(),
        ..answered
    };
    let (_d2, fresh, other) = crate::schema::store_with_user();
    store::restore_answer(&fresh, other, backed.clone()).unwrap();
    let back = store::get(&fresh, other, &e.uid).unwrap().unwrap();
    assert_eq!(
        (back.answer, back.comment.as_str()),
        (Some(Answer::Accepted), "אגיע")
    );
    // The mail arrives again: the event comes back with the answer kept.
    let txn = fresh.begin_write().unwrap();
    let r = store::register(&txn, other, &e, NOW).unwrap().unwrap();
    txn.commit().unwrap();
    assert_eq!(r.answer, Some(Answer::Accepted));
    assert_eq!(r.occurrences.len(), 1);
    // An answer given here wins over the backup's.
    store::answered(&fresh, other, &e, Answer::Declined, "", NOW).unwrap();
    store::restore_answer(&fresh, other, backed).unwrap();
    let now = store::get(&fresh, other, &e.uid).unwrap().unwrap();
    assert_eq!(now.answer, Some(Answer::Declined));
}

#[test]
fn a_backed_up_record_brings_only_a_bounded_answer() {
    let big = "א".repeat(100_000);
    let hostile = store::Record {
        uid: "u@example.test".into(),
        title: big.clone(),
        comment: big,
        answer: Some(Answer::Accepted),
        occurrences: vec![(0, 1); 10_000],
        replies: vec![("x@example.test".into(), Answer::Declined); 10_000],
        ..store::Record::default()
    };
    let r = crate::invites::restorable(hostile.clone()).unwrap();
    assert!(r.title.chars().count() <= 300 && r.comment.chars().count() <= 2000);
    assert!(r.occurrences.is_empty() && r.replies.is_empty());
    // No answer, an answer the card never gives, or no UID: nothing comes in.
    for bad in [
        store::Record {
            answer: None,
            ..hostile.clone()
        },
        store::Record {
            answer: Some(Answer::Delegated),
            ..hostile.clone()
        },
        store::Record {
            uid: " ".into(),
            ..hostile
        },
    ] {
        assert!(crate::invites::restorable(bad).is_none());
    }
}
