//! Whether a sent mail asks something, without AI: the writer's own words (the quoted mail it
//! answers cut off) hold a question mark, or a request phrase in Hebrew or English. With an AI
//! key the provider decides instead (`track.rs`); the user can always mark a mail by hand.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::search::analyzer::fold_text;

/// Why a sent mail is awaited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "FollowUpSource")]
pub enum Source {
    /// The AI read it as asking for an answer.
    Ai,
    /// It holds a question.
    Question,
    /// It holds a request phrase.
    Request,
    /// The user marked it.
    Mark,
}

/// Phrases that ask the reader to act or answer.
const REQUESTS: &[&str] = &[
    "please",
    "could you",
    "can you",
    "would you",
    "will you",
    "let me know",
    "get back to me",
    "looking forward to your",
    "waiting for your",
    "i would appreciate",
    "i'd appreciate",
    "kindly",
    "אשמח אם",
    "אשמח לתשובה",
    "אשמח לשמוע",
    "אשמח לקבל",
    "בבקשה",
    "אנא",
    "נא לשלוח",
    "נא לאשר",
    "נא לעדכן",
    "תוכל",
    "תוכלי",
    "תוכלו",
    "מחכה לתשובה",
    "מחכה לתשובתך",
    "ממתין לתשובה",
    "ממתינה לתשובה",
    "ממתין לתשובתך",
    "ממתינה לתשובתך",
    "תעדכן",
    "תעדכני",
    "תעדכנו",
    "עדכנו אותי",
    "אודה לך",
    "אודה לכם",
    "אודה על",
    "תחזור אליי",
    "תחזרי אליי",
    "תחזרו אליי",
    "תשלח לי",
    "תשלחי לי",
    "שלחו לי",
];

/// Polite openings that ask nothing ("please find attached").
const NOT_REQUESTS: &[&str] = &[
    "please find",
    "please see attached",
    "please note",
    "מצורף בזאת",
];

static REQUESTS_FOLDED: std::sync::LazyLock<Vec<String>> =
    std::sync::LazyLock::new(|| REQUESTS.iter().map(|w| fold_text(w)).collect());

/// A question mark outside links (`?q=`), in any of the scripts' forms.
fn has_question(text: &str) -> bool {
    text.split_whitespace()
        .filter(|w| !w.contains("://") && !w.starts_with("www."))
        .any(|w| w.contains('?') || w.contains('؟'))
}

/// Why the text (a sent mail's own words) awaits an answer, if it does.
pub fn asks(text: &str) -> Option<Source> {
    if has_question(text) {
        return Some(Source::Question);
    }
    // Words apart by spaces only, so a phrase matches at the start of a word anywhere.
    let words: String = fold_text(text)
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '\'' {
                c
            } else {
                ' '
            }
        })
        .collect();
    let folded = format!(" {words} ");
    let polite = NOT_REQUESTS
        .iter()
        .filter(|p| folded.contains(&fold_text(p)))
        .count();
    let requests = REQUESTS_FOLDED
        .iter()
        .filter(|p| folded.contains(&format!(" {p}")))
        .count();
    (requests > polite).then_some(Source::Request)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::quote::own_text;

    #[test]
    fn questions_and_requests_in_hebrew_and_english() {
        for (text, want) in [
            ("היי דני, מתי נוכל להיפגש השבוע?", Some(Source::Question)),
            ("Hi, are you free on Tuesday?", Some(Source::Question)),
            ("مرحبا، هل يمكننا اللقاء غدا؟", Some(Source::Question)),
            (
                "אשמח אם תשלח לי את הדוח עד יום חמישי.",
                Some(Source::Request),
            ),
            ("נא לאשר את ההזמנה המצורפת", Some(Source::Request)),
            (
                "Please send me the invoice by Friday.",
                Some(Source::Request),
            ),
            ("Let me know what you think.", Some(Source::Request)),
            ("תודה רבה, קיבלתי!", None),
            ("Please find the report attached.", None),
            ("See https://example.com/page?id=7 for the minutes.", None),
        ] {
            assert_eq!(asks(text), want, "{text}");
        }
    }

    #[test]
    fn the_quoted_mail_is_not_the_writers() {
        let reply = "מעולה, תודה.\n\nבתאריך יום ב׳, 10 במרץ 2025, דנה כתבה:\n> מתי נפגשים?\n";
        assert_eq!(own_text(reply).trim(), "מעולה, תודה.");
        assert_eq!(asks(&own_text(reply)), None);
        let outlook = "Thanks!\n-----Original Message-----\nFrom: x\nCan you call me?";
        assert_eq!(asks(&own_text(outlook)), None);
        let top = "Could we move it to 3pm?\n\nOn Mon, Mar 10, 2025 Dana wrote:\n> Sure.";
        assert_eq!(asks(&own_text(top)), Some(Source::Question));
    }
}
