//! One calendar object of a mail, read with calcard into what the card shows and the store
//! keeps: the method, the event (title, organiser, attendees and their answers, where, when
//! with its zone, the recurrence), and its occurrences. Everything here is bounded: the text's
//! size, the components looked at, the attendees kept, each text's length, the occurrences
//! expanded (calcard's iterator also stops an RRULE that never matches after 100,000 steps).

use calcard::common::PartialDateTime;
use calcard::common::timezone::Tz;
use calcard::icalendar::dates::TimeOrDelta;
use calcard::icalendar::{
    ICalendar, ICalendarComponent, ICalendarComponentType, ICalendarEntry, ICalendarFrequency,
    ICalendarMethod, ICalendarParameterName, ICalendarParameterValue, ICalendarParticipationRole,
    ICalendarParticipationStatus, ICalendarProperty, ICalendarRecurrenceRule, ICalendarStatus,
    ICalendarTransparency, ICalendarUserTypes, ICalendarValue,
};
use chrono::{NaiveDate, TimeZone};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::kit::cut;

/// A calendar text larger than this is not read (a real invitation is a few KB; Outlook's with
/// its time zones, 10–20 KB).
pub const MAX_ICS_BYTES: usize = 512 * 1024;
/// Components looked at: the events of the invitation's UID and the time zones.
const MAX_EVENTS: usize = 20;
const MAX_ZONES: usize = 20;
/// Attendees kept (the rest are counted).
pub const MAX_ATTENDEES: usize = 100;
/// Occurrences expanded from the start, and kept from now on.
const EXPAND_LIMIT: usize = 2000;
/// Upcoming occurrences kept for conflicts.
pub const MAX_OCCURRENCES: usize = 200;
/// A title, a place, a name or a comment at most (characters).
pub const MAX_TEXT: usize = 300;
const MAX_DESCRIPTION: usize = 4000;

/// What the calendar object asks (RFC 5546 §1.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "InviteMethod")]
pub enum Method {
    /// An invitation, or an update of one.
    Request,
    Cancel,
    /// An attendee's answer (the user organised the event).
    Reply,
    /// An attendee proposes another time.
    Counter,
    /// A published event: nobody to answer.
    Publish,
}

/// An attendee's answer (PARTSTAT).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
#[ts(rename = "InviteAnswer")]
pub enum Answer {
    NeedsAction,
    Accepted,
    Tentative,
    Declined,
    Delegated,
}

impl Answer {
    /// The PARTSTAT value of an answer.
    pub fn partstat(self) -> ICalendarParticipationStatus {
        match self {
            Self::NeedsAction => ICalendarParticipationStatus::NeedsAction,
            Self::Accepted => ICalendarParticipationStatus::Accepted,
            Self::Tentative => ICalendarParticipationStatus::Tentative,
            Self::Declined => ICalendarParticipationStatus::Declined,
            Self::Delegated => ICalendarParticipationStatus::Delegated,
        }
    }

    fn of(p: Option<&ICalendarParameterValue>) -> Self {
        match p {
            Some(ICalendarParameterValue::Partstat(s)) => match s {
                ICalendarParticipationStatus::Accepted => Self::Accepted,
                ICalendarParticipationStatus::Tentative => Self::Tentative,
                ICalendarParticipationStatus::Declined => Self::Declined,
                ICalendarParticipationStatus::Delegated => Self::Delegated,
                _ => Self::NeedsAction,
            },
            _ => Self::NeedsAction,
        }
    }
}

/// Someone named in the event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "InvitePerson")]
pub struct Person {
    pub name: String,
    pub email: String,
}

/// An attendee and their answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "InviteAttendee")]
pub struct Attendee {
    pub name: String,
    pub email: String,
    pub answer: Answer,
    /// Optional participation (ROLE=OPT-PARTICIPANT).
    pub optional: bool,
    /// A room or a resource, not a person.
    pub resource: bool,
}

/// The event's time.
#[derive(Debug, Clone, PartialEq)]
pub enum When {
    /// All-day: the first day and the day after the last (DTEND is exclusive).
    Days { first: NaiveDate, end: NaiveDate },
    /// Instants in Unix seconds, and the zone the organiser wrote it in (None: UTC or
    /// floating).
    Timed {
        start: i64,
        end: i64,
        zone: Option<chrono_tz::Tz>,
    },
}

/// One calendar object of a mail, as read.
#[derive(Debug, Clone)]
pub struct Event {
    pub method: Method,
    pub uid: String,
    pub sequence: i64,
    /// Unix seconds (0 when missing).
    pub dtstamp: i64,
    /// The one occurrence this object is about (RECURRENCE-ID), in Unix seconds.
    pub recurrence_id: Option<i64>,
    pub title: String,
    pub description: String,
    pub location: String,
    pub organizer: Option<Person>,
    pub attendees: Vec<Attendee>,
    /// Every attendee, with those beyond [`MAX_ATTENDEES`].
    pub attendee_count: usize,
    pub when: Option<When>,
    pub rrule: Option<ICalendarRecurrenceRule>,
    /// STATUS:CANCELLED.
    pub cancelled: bool,
    /// TRANSP:TRANSPARENT: does not take the attendee's time.
    pub transparent: bool,
    /// COMMENT (a reply's or a counter's note).
    pub comment: String,
    /// Occurrences (start, end) in Unix seconds, from the first one, at most [`EXPAND_LIMIT`].
    pub occurrences: Vec<(i64, i64)>,
}

/// Reads the first event of a calendar text; None when it holds none (or is too large, or
/// is no calendar). `default_tz` reads floating times and all-day dates; `method_hint` is the
/// MIME part's `method=` parameter, used when the calendar names none (else PUBLISH).
pub fn parse(text: &str, default_tz: chrono_tz::Tz, method_hint: Option<&str>) -> Option<Event> {
    if text.len() > MAX_ICS_BYTES {
        return None;
    }
    let cal = ICalendar::parse(text).ok()?;
    // A calendar file without a method (a ticket's event, an exported meeting) is published
    // information: shown, with nobody to answer.
    let method = method_of(&cal)
        .or_else(|| method_hint.and_then(method_named))
        .unwrap_or(Method::Publish);
    let events: Vec<&ICalendarComponent> = cal
        .components
        .iter()
        .filter(|c| c.component_type == ICalendarComponentType::VEvent)
        .collect();
    // The series (no RECURRENCE-ID) when there is one, else the first instance.
    let main = *events
        .iter()
        .find(|c| !c.has_property(&ICalendarProperty::RecurrenceId))
        .or_else(|| events.first())?;
    let uid = cut(main.uid().unwrap_or_default().trim(), 255).to_string();
    let mut e = Event {
        method,
        uid,
        sequence: integer(main, ICalendarProperty::Sequence)
            .unwrap_or(0)
            .clamp(0, 1_000_000),
        dtstamp: main
            .property(&ICalendarProperty::Dtstamp)
            .and_then(|p| instant(p, Tz::UTC))
            .unwrap_or(0),
        recurrence_id: None,
        title: text_of(main, ICalendarProperty::Summary, MAX_TEXT),
        description: text_of(main, ICalendarProperty::Description, MAX_DESCRIPTION),
        location: text_of(main, ICalendarProperty::Location, MAX_TEXT),
        organizer: main
            .property(&ICalendarProperty::Organizer)
            .and_then(person),
        attendees: Vec::new(),
        attendee_count: 0,
        when: None,
        rrule: main
            .property(&ICalendarProperty::Rrule)
            .and_then(|p| match p.values.first() {
                Some(ICalendarValue::RecurrenceRule(r)) => Some((**r).clone()),
                _ => None,
            }),
        cancelled: matches!(main.status(), Some(ICalendarStatus::Cancelled)),
        transparent: matches!(
            main.transparency(),
            Some(ICalendarTransparency::Transparent)
        ),
        comment: text_of(main, ICalendarProperty::Comment, MAX_TEXT),
        occurrences: Vec::new(),
    };
    for a in main.properties(&ICalendarProperty::Attendee) {
        e.attendee_count += 1;
        if e.attendees.len() < MAX_ATTENDEES
            && let Some(p) = person(a)
        {
            e.attendees.push(Attendee {
                name: p.name,
                email: p.email,
                answer: Answer::of(a.parameter(&ICalendarParameterName::Partstat)),
                optional: matches!(
                    a.parameter(&ICalendarParameterName::Role),
                    Some(ICalendarParameterValue::Role(
                        ICalendarParticipationRole::OptParticipant
                    ))
                ),
                resource: matches!(
                    a.parameter(&ICalendarParameterName::Cutype),
                    Some(ICalendarParameterValue::Cutype(
                        ICalendarUserTypes::Room | ICalendarUserTypes::Resource
                    ))
                ),
            });
        }
    }
    let zones = cal.build_tz_resolver().with_default(default_tz);
    e.recurrence_id = main
        .property(&ICalendarProperty::RecurrenceId)
        .and_then(|p| instant(p, zones.resolve_or_default(p.tz_id())));
    e.when = when(main, &zones);
    e.occurrences = occurrences(&cal, &e, default_tz);
    Some(e)
}

fn method_named(name: &str) -> Option<Method> {
    Some(match name.trim().to_ascii_uppercase().as_str() {
        "REQUEST" | "ADD" => Method::Request,
        "CANCEL" => Method::Cancel,
        "REPLY" => Method::Reply,
        "COUNTER" => Method::Counter,
        "PUBLISH" => Method::Publish,
        _ => return None,
    })
}

fn method_of(cal: &ICalendar) -> Option<Method> {
    let top = cal.components.first()?;
    match top.property(&ICalendarProperty::Method)?.values.first()? {
        ICalendarValue::Method(m) => match m {
            ICalendarMethod::Request | ICalendarMethod::Add => Some(Method::Request),
            ICalendarMethod::Cancel => Some(Method::Cancel),
            ICalendarMethod::Reply => Some(Method::Reply),
            ICalendarMethod::Counter => Some(Method::Counter),
            ICalendarMethod::Publish => Some(Method::Publish),
            _ => None,
        },
        ICalendarValue::Text(t) => method_named(t),
        _ => None,
    }
}

/// A property's text, without control characters, cut at `max` bytes.
fn text_of(c: &ICalendarComponent, prop: ICalendarProperty, max: usize) -> String {
    let text = c
        .property(&prop)
        .and_then(|p| p.values.first())
        .and_then(|v| v.as_text())
        .unwrap_or_default();
    clean(text, max)
}

/// Text as the card shows it: no control characters but line breaks, trimmed, bounded.
pub fn clean(text: &str, max: usize) -> String {
    let kept: String = cut(text, max)
        .chars()
        .filter(|c| *c == '\n' || !c.is_control())
        .collect();
    kept.trim().to_string()
}

fn integer(c: &ICalendarComponent, prop: ICalendarProperty) -> Option<i64> {
    c.property(&prop)?.values.first()?.as_integer()
}

/// An ORGANIZER or ATTENDEE: its address (without `mailto:`) and CN.
fn person(p: &ICalendarEntry) -> Option<Person> {
    let email = clean(p.calendar_address()?, MAX_TEXT);
    if !email.contains('@') {
        return None;
    }
    let name = p
        .parameter(&ICalendarParameterName::Cn)
        .and_then(|v| v.as_text())
        .map(|n| clean(n.trim_matches('"'), MAX_TEXT))
        .unwrap_or_default();
    Some(Person { name, email })
}

fn date_time(p: &ICalendarEntry) -> Option<&PartialDateTime> {
    match p.values.first()? {
        ICalendarValue::PartialDateTime(dt) => Some(dt),
        _ => None,
    }
}

/// A date-time property as Unix seconds, read in `tz` when it names no offset.
fn instant(p: &ICalendarEntry, tz: Tz) -> Option<i64> {
    let dt = date_time(p)?.to_date_time()?;
    let at = dt.to_date_time_with_tz(tz).or_else(|| {
        // A local time skipped by a clock change: the hour after it.
        let later = calcard::common::DateTimeResult {
            date_time: dt.date_time + chrono::Duration::hours(1),
            offset: dt.offset,
        };
        later.to_date_time_with_tz(tz)
    })?;
    Some(at.timestamp())
}

fn when(
    main: &ICalendarComponent,
    zones: &calcard::icalendar::timezone::TzResolver<&str>,
) -> Option<When> {
    let start_p = main.property(&ICalendarProperty::Dtstart)?;
    let start_dt = date_time(start_p)?;
    let duration =
        main.property(&ICalendarProperty::Duration)
            .and_then(|p| match p.values.first() {
                Some(ICalendarValue::Duration(d)) => Some(d.as_seconds()),
                _ => None,
            });
    if !start_dt.has_time() {
        let first = start_dt.to_date_time()?.date_time.date();
        let end = main
            .property(&ICalendarProperty::Dtend)
            .and_then(date_time)
            .and_then(|d| d.to_date_time())
            .map(|d| d.date_time.date())
            .or_else(|| duration.map(|s| first + chrono::Duration::days((s / 86_400).max(1))))
            .filter(|end| *end > first)
            .unwrap_or(first + chrono::Duration::days(1));
        return Some(When::Days { first, end });
    }
    let tz = zones.resolve_or_default(start_p.tz_id());
    let start = instant(start_p, tz)?;
    let end = main
        .property(&ICalendarProperty::Dtend)
        .and_then(|p| instant(p, zones.resolve_or_default(p.tz_id().or(start_p.tz_id()))))
        .or_else(|| duration.map(|d| start + d))
        .filter(|end| *end >= start)
        .unwrap_or(start);
    let zone = match tz {
        // A zone the organiser named (UTC and fixed offsets are no one's zone).
        Tz::Tz(z) if start_p.tz_id().is_some() && z != chrono_tz::UTC => Some(z),
        _ => None,
    };
    Some(When::Timed { start, end, zone })
}

/// The event's occurrences from its first: the series and its changed instances, from a
/// calendar holding only them and the time zones (so a calendar of thousands of events costs
/// no more than one). Minutely and secondly rules keep their first occurrence only.
fn occurrences(cal: &ICalendar, e: &Event, default_tz: chrono_tz::Tz) -> Vec<(i64, i64)> {
    let mut events = 0;
    let mut zones = 0;
    let components: Vec<ICalendarComponent> = cal
        .components
        .iter()
        .filter(|c| match c.component_type {
            ICalendarComponentType::VTimezone => {
                zones += 1;
                zones <= MAX_ZONES
            }
            ICalendarComponentType::VEvent if c.uid().unwrap_or_default().trim() == e.uid => {
                events += 1;
                events <= MAX_EVENTS
            }
            _ => false,
        })
        .cloned()
        .collect();
    let fast = e.rrule.as_ref().is_some_and(|r| {
        matches!(
            r.freq,
            ICalendarFrequency::Secondly | ICalendarFrequency::Minutely
        )
    });
    let limit = if fast { 1 } else { EXPAND_LIMIT };
    let small = ICalendar { components };
    let mut out: Vec<(i64, i64)> = small
        .expand_dates(Tz::Tz(default_tz), limit)
        .events
        .into_iter()
        .map(|ev| {
            let start = ev.start.timestamp();
            let end = match ev.end {
                TimeOrDelta::Time(t) => t.timestamp(),
                TimeOrDelta::Delta(d) => start + d.num_seconds(),
            };
            (start, end.max(start))
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out.truncate(EXPAND_LIMIT);
    out
}

impl Event {
    /// The occurrences that end after `from`, at most [`MAX_OCCURRENCES`].
    pub fn upcoming(&self, from: i64) -> Vec<(i64, i64)> {
        self.occurrences
            .iter()
            .filter(|(_, end)| *end > from)
            .take(MAX_OCCURRENCES)
            .copied()
            .collect()
    }

    /// Whether the event takes the attendee's time (timed, not transparent).
    pub fn busy(&self) -> bool {
        !self.transparent && matches!(self.when, Some(When::Timed { .. }))
    }

    /// The attendee among `addresses` (the user's own), if listed.
    pub fn attendee_of(&self, addresses: &[String]) -> Option<&Attendee> {
        self.attendees
            .iter()
            .find(|a| addresses.iter().any(|m| m.eq_ignore_ascii_case(&a.email)))
    }
}

/// A time zone's UTC offset at an instant, in seconds.
pub fn offset_at(tz: chrono_tz::Tz, at: i64) -> i32 {
    use chrono::Offset;
    tz.timestamp_opt(at, 0)
        .single()
        .map(|d| d.offset().fix().local_minus_utc())
        .unwrap_or(0)
}

#[cfg(test)]
#[path = "event_tests.rs"]
mod tests;
