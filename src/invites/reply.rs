//! The user's answer as an iTIP REPLY (RFC 5546 §3.2.3), written with calcard, and the iMIP
//! mail that carries it to the organiser (RFC 6047): METHOD:REPLY, the event's UID, SEQUENCE
//! and RECURRENCE-ID, the ORGANIZER, one ATTENDEE (the user) with the PARTSTAT, a DTSTAMP,
//! and for the organiser's reading the SUMMARY and times; the comment as COMMENT. Calendar
//! clients (Google Calendar, Outlook, Thunderbird) match it to their event by UID and update
//! the attendee's answer.

use calcard::common::PartialDateTime;
use calcard::icalendar::{
    ICalendar, ICalendarComponent, ICalendarComponentType, ICalendarEntry, ICalendarMethod,
    ICalendarParameter, ICalendarParameterName, ICalendarProperty, ICalendarValue,
    ICalendarValueType, Uri,
};
use chrono::{Datelike, NaiveDate};

use super::event::{Answer, Event, Person, When};
use crate::outgoing::{CalendarPart, Composed, Mailbox, mime};

/// Our PRODID.
const PRODID: &str = "-//mailclient//iTIP reply//HE";

fn address(p: &Person) -> ICalendarValue {
    ICalendarValue::Uri(Uri::Location(format!("mailto:{}", p.email)))
}

fn named(p: &Person) -> Vec<ICalendarParameter> {
    if p.name.is_empty() {
        Vec::new()
    } else {
        vec![ICalendarParameter::cn(p.name.clone())]
    }
}

fn utc(at: i64) -> ICalendarValue {
    let mut dt = PartialDateTime::from_utc_timestamp(at);
    dt.tz_hour = Some(0);
    dt.tz_minute = Some(0);
    ICalendarValue::PartialDateTime(Box::new(dt))
}

fn day(d: NaiveDate) -> PartialDateTime {
    PartialDateTime {
        year: Some(d.year() as u16),
        month: Some(d.month() as u8),
        day: Some(d.day() as u8),
        ..PartialDateTime::default()
    }
}

fn entry(
    name: ICalendarProperty,
    params: Vec<ICalendarParameter>,
    value: ICalendarValue,
) -> ICalendarEntry {
    ICalendarEntry {
        name,
        params,
        values: vec![value],
    }
}

/// The REPLY of `me` to `e` with `answer` (and a comment), stamped `now`.
pub fn ics(e: &Event, me: &Person, answer: Answer, comment: &str, now: i64) -> String {
    let mut cal = ICalendarComponent::new(ICalendarComponentType::VCalendar);
    cal.add_property(
        ICalendarProperty::Prodid,
        ICalendarValue::Text(PRODID.into()),
    );
    cal.add_property(
        ICalendarProperty::Version,
        ICalendarValue::Text("2.0".into()),
    );
    cal.add_property(
        ICalendarProperty::Method,
        ICalendarValue::Method(ICalendarMethod::Reply),
    );
    cal.component_ids = vec![1];
    let mut ev = ICalendarComponent::new(ICalendarComponentType::VEvent);
    ev.add_uid(&e.uid);
    ev.add_sequence(e.sequence);
    ev.entries
        .push(entry(ICalendarProperty::Dtstamp, vec![], utc(now)));
    if let Some(org) = &e.organizer {
        ev.entries.push(entry(
            ICalendarProperty::Organizer,
            named(org),
            address(org),
        ));
    }
    let mut params = named(me);
    params.push(ICalendarParameter::partstat(answer.partstat()));
    ev.entries
        .push(entry(ICalendarProperty::Attendee, params, address(me)));
    if let Some(rid) = e.recurrence_id {
        ev.entries
            .push(entry(ICalendarProperty::RecurrenceId, vec![], utc(rid)));
    }
    match &e.when {
        Some(When::Timed { start, end, .. }) => {
            ev.entries
                .push(entry(ICalendarProperty::Dtstart, vec![], utc(*start)));
            ev.entries
                .push(entry(ICalendarProperty::Dtend, vec![], utc(*end)));
        }
        Some(When::Days { first, end }) => {
            let date = || {
                vec![ICalendarParameter::new(
                    ICalendarParameterName::Value,
                    ICalendarValueType::Date,
                )]
            };
            ev.entries.push(entry(
                ICalendarProperty::Dtstart,
                date(),
                ICalendarValue::PartialDateTime(Box::new(day(*first))),
            ));
            ev.entries.push(entry(
                ICalendarProperty::Dtend,
                date(),
                ICalendarValue::PartialDateTime(Box::new(day(*end))),
            ));
        }
        None => {}
    }
    if !e.title.is_empty() {
        ev.add_property(
            ICalendarProperty::Summary,
            ICalendarValue::Text(e.title.clone()),
        );
    }
    if !comment.is_empty() {
        ev.add_property(
            ICalendarProperty::Comment,
            ICalendarValue::Text(comment.into()),
        );
    }
    let ical = ICalendar {
        components: vec![cal, ev],
    };
    // calcard ends lines with LF alone; iCalendar and mail want CRLF.
    ical.to_string()
        .lines()
        .map(|l| format!("{l}\r\n"))
        .collect()
}

/// The subject's word for an answer.
pub fn verb(answer: Answer) -> &'static str {
    match answer {
        Answer::Accepted => "התקבל",
        Answer::Tentative => "אולי",
        Answer::Declined => "נדחה",
        Answer::NeedsAction | Answer::Delegated => "תשובה",
    }
}

/// The sentence of the mail's body.
fn sentence(answer: Answer, who: &str) -> String {
    match answer {
        Answer::Accepted => format!("{who} אישר/ה השתתפות."),
        Answer::Tentative => format!("{who} אולי ישתתף/תשתתף."),
        Answer::Declined => format!("{who} לא ישתתף/תשתתף."),
        Answer::NeedsAction | Answer::Delegated => format!("{who} ענה/תה להזמנה."),
    }
}

/// The iMIP mail of the answer: to the organiser, in answer to the invitation's mail.
pub struct ReplyMail<'a> {
    pub event: &'a Event,
    pub organizer: &'a Person,
    pub from: Mailbox,
    /// The ATTENDEE the user is in the invitation.
    pub me: Person,
    pub answer: Answer,
    pub comment: &'a str,
    pub invitation_message_id: Option<&'a str>,
    pub original_id: u64,
    pub now: i64,
}

impl ReplyMail<'_> {
    /// The mail, ready for the outbox.
    pub fn composed(self) -> Composed {
        let who = if self.me.name.is_empty() {
            self.me.email.clone()
        } else {
            self.me.name.clone()
        };
        let escape = crate::mail::sanitize::escape;
        let mut html = format!("<p>{}</p>", escape(&sentence(self.answer, &who)));
        if !self.comment.is_empty() {
            html.push_str(&format!("<p>{}</p>", escape(self.comment)));
        }
        let ics = ics(self.event, &self.me, self.answer, self.comment, self.now);
        let parent = self.invitation_message_id.and_then(mime::msg_id);
        Composed {
            message_id: mime::new_message_id(&self.from.email),
            to: vec![Mailbox {
                name: self.organizer.name.clone(),
                email: self.organizer.email.clone(),
            }],
            subject: format!("{}: {}", verb(self.answer), self.event.title),
            html,
            in_reply_to: parent.clone(),
            references: parent.into_iter().collect(),
            original_id: Some(self.original_id),
            from: self.from,
            calendar: Some(CalendarPart {
                method: "REPLY".into(),
                ics,
            }),
            ..Composed::default()
        }
    }
}
