//! The card above the mail's body (the wire type [`Invitation`]): the event as this mail says
//! it, what the user's records add (a newer version or a cancellation seen since, the user's
//! answer, the accepted invitations it overlaps), in the user's time zone and in Hebrew.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::event::{Answer, Attendee, Event, Method, Person, When};
use super::store::{self, Record};
use super::words;
use crate::kit::iso;

/// Conflicts shown at most.
const MAX_CONFLICTS: usize = 5;

/// What the card says of the event now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "InviteState")]
pub enum State {
    Active,
    /// Cancelled by this mail or a later one.
    Cancelled,
    /// A later version (higher SEQUENCE) arrived: this mail is out of date.
    Superseded,
}

/// An accepted invitation at the same time.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "InviteConflict")]
pub struct Conflict {
    pub title: String,
    /// The overlapping occurrence, in words in the user's zone.
    pub when: String,
}

/// `GET /api/invites/{id}`'s card (docs/API.md "Invitations").
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Invitation {
    pub method: Method,
    pub uid: String,
    pub title: String,
    pub description: String,
    pub location: String,
    pub organizer: Option<Person>,
    pub attendees: Vec<Attendee>,
    /// Attendees beyond those listed.
    pub more_attendees: usize,
    /// When, in words, in the user's time zone.
    pub when: String,
    /// When in the event's own zone, where its clock differs from the user's.
    pub when_in_event_zone: Option<String>,
    pub all_day: bool,
    /// RFC 3339 (null for an all-day event).
    pub start: Option<String>,
    pub end: Option<String>,
    /// The recurrence in words ("כל שבוע ביום שני, 10 פעמים").
    pub recurrence: Option<String>,
    pub state: State,
    /// The user's answer: theirs from here, else what the invitation lists for them.
    pub answer: Option<Answer>,
    pub answer_comment: String,
    /// RFC 3339.
    pub answered_at: Option<String>,
    /// The event changed after the user answered.
    pub answer_outdated: bool,
    /// The user can answer it from here (an invitation to them, active, from someone else).
    pub can_answer: bool,
    pub conflicts: Vec<Conflict>,
    /// For an answer or a proposal sent to the user: who, and their note.
    pub from_attendee: Option<Attendee>,
    pub comment: String,
    /// For an event the user organised: the answers that came back (address, answer).
    pub replies: Vec<Attendee>,
}

/// `GET /api/invites/{id}`: the card, or null when the mail carries no invitation.
#[derive(Debug, Clone, Serialize, TS)]
pub struct InvitationResponse {
    pub invitation: Option<Invitation>,
}

/// `POST /api/invites/{id}/reply`.
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "InviteReplyRequest")]
pub struct ReplyRequest {
    /// accepted, tentative or declined.
    pub answer: Answer,
    #[serde(default)]
    #[ts(optional)]
    pub comment: Option<String>,
}

/// What the card is built from.
pub struct Inputs<'a> {
    pub event: &'a Event,
    /// The user's record of this UID, after this mail was taken in.
    pub record: Option<&'a Record>,
    /// Every record of the user (for conflicts).
    pub records: &'a [Record],
    /// The user's own addresses.
    pub me: &'a [String],
    pub tz: chrono_tz::Tz,
    pub now: i64,
}

/// The card.
pub fn build(i: Inputs<'_>) -> Invitation {
    let e = i.event;
    let (when, when_in_event_zone) = e
        .when
        .as_ref()
        .map(|w| words::when(w, i.tz))
        .unwrap_or_default();
    let (start, end, all_day) = match &e.when {
        Some(When::Timed { start, end, .. }) => (Some(iso(*start)), Some(iso(*end)), false),
        Some(When::Days { .. }) => (None, None, true),
        None => (None, None, false),
    };
    let newer = i
        .record
        .is_some_and(|r| (r.sequence, r.dtstamp) > (e.sequence, e.dtstamp));
    let state = if e.method == Method::Cancel
        || e.cancelled
        || i.record
            .is_some_and(|r| r.cancelled && r.sequence >= e.sequence)
    {
        State::Cancelled
    } else if newer && matches!(e.method, Method::Request | Method::Publish) {
        State::Superseded
    } else {
        State::Active
    };
    let listed = e.attendee_of(i.me);
    let mine = i.record.and_then(|r| r.answer.map(|a| (a, r)));
    let answer = mine.map(|(a, _)| a).or_else(|| {
        listed
            .map(|a| a.answer)
            .filter(|a| *a != Answer::NeedsAction)
    });
    let organised_by_me = e
        .organizer
        .as_ref()
        .is_some_and(|o| i.me.iter().any(|m| m.eq_ignore_ascii_case(&o.email)));
    let conflicts = if e.busy() && state == State::Active && e.method == Method::Request {
        store::conflicts(
            i.records,
            &e.uid,
            &e.upcoming(i.now - 86_400),
            MAX_CONFLICTS,
        )
        .into_iter()
        .map(|(title, (s, end))| Conflict {
            title,
            when: words::when(
                &When::Timed {
                    start: s,
                    end,
                    zone: None,
                },
                i.tz,
            )
            .0,
        })
        .collect()
    } else {
        Vec::new()
    };
    let replies = i
        .record
        .filter(|_| organised_by_me)
        .map(|r| {
            r.replies
                .iter()
                .map(|(email, answer)| Attendee {
                    name: String::new(),
                    email: email.clone(),
                    answer: *answer,
                    optional: false,
                    resource: false,
                })
                .collect()
        })
        .unwrap_or_default();
    Invitation {
        method: e.method,
        uid: e.uid.clone(),
        title: e.title.clone(),
        description: e.description.clone(),
        location: e.location.clone(),
        organizer: e.organizer.clone(),
        attendees: e.attendees.clone(),
        more_attendees: e.attendee_count.saturating_sub(e.attendees.len()),
        when,
        when_in_event_zone,
        all_day,
        start,
        end,
        recurrence: e.rrule.as_ref().map(|r| words::recurrence(r, i.tz)),
        state,
        answer,
        answer_comment: mine.map(|(_, r)| r.comment.clone()).unwrap_or_default(),
        answered_at: mine.and_then(|(_, r)| r.answered_at).map(iso),
        answer_outdated: mine.is_some_and(|(_, r)| r.answered_sequence < r.sequence),
        can_answer: e.method == Method::Request
            && state == State::Active
            && e.organizer.is_some()
            && !organised_by_me,
        conflicts,
        from_attendee: matches!(e.method, Method::Reply | Method::Counter)
            .then(|| e.attendees.first().cloned())
            .flatten(),
        comment: e.comment.clone(),
        replies,
    }
}
