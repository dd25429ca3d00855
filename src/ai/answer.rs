//! Reading what the model answered: plain text cleaned of Markdown fences and preambles, one
//! subject line, and the structured (JSON) answers of the smart features, validated field by
//! field. Anything else is [`Failure::Malformed`]: a clear message, never a crash.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::provider::Failure;

/// The text without a surrounding code fence, trimmed; empty is malformed.
pub fn plain(text: &str) -> Result<String, Failure> {
    let t = unfenced(text).trim();
    if t.is_empty() {
        Err(Failure::Malformed)
    } else {
        Ok(t.replace("\r\n", "\n"))
    }
}

fn unfenced(text: &str) -> &str {
    let t = text.trim();
    if let Some(rest) = t.strip_prefix("```") {
        // ```json\n…\n```
        let body = rest.split_once('\n').map_or("", |(_, b)| b);
        return body.trim_end().strip_suffix("```").unwrap_or(body);
    }
    t
}

/// One subject line: the first non-blank line without a "Subject:" label or quotes.
pub fn subject(text: &str) -> Result<String, Failure> {
    let text = plain(text)?;
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .ok_or(Failure::Malformed)?;
    let mut s = line;
    for label in ["Subject:", "subject:", "נושא:", "כותרת:"] {
        if let Some(rest) = s.strip_prefix(label) {
            s = rest.trim();
        }
    }
    let s = s
        .trim_matches(|c: char| matches!(c, '"' | '\'' | '“' | '”' | '״' | '*'))
        .trim();
    if s.is_empty() {
        return Err(Failure::Malformed);
    }
    Ok(super::source::clip_chars(s, 200))
}

/// The first JSON object in the answer (models sometimes wrap it in prose or a fence).
pub fn json<T: DeserializeOwned>(text: &str) -> Result<T, Failure> {
    let t = unfenced(text);
    let start = t.find('{').ok_or(Failure::Malformed)?;
    let end = t.rfind('}').ok_or(Failure::Malformed)?;
    if end < start {
        return Err(Failure::Malformed);
    }
    serde_json::from_str(&t[start..=end]).map_err(|_| Failure::Malformed)
}

pub const SENTIMENTS: [&str; 3] = ["positive", "negative", "neutral"];
pub const PRIORITIES: [&str; 4] = ["low", "medium", "high", "urgent"];

/// A mail's summary (`/api/smart/summary`, web `SmartSummary`).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, TS)]
#[ts(rename = "SmartSummary")]
pub struct Summary {
    pub summary: String,
    #[ts(as = "Sentiment")]
    pub sentiment: String,
    #[ts(as = "SummaryPriority")]
    pub priority: String,
}

/// [`SENTIMENTS`] for the TypeScript only: the answer is read as text and checked in
/// [`Summary::parse`] (after lower-casing), so a model's odd casing is not a parse error.
#[derive(TS)]
#[ts(rename_all = "lowercase")]
pub enum Sentiment {
    Positive,
    Negative,
    Neutral,
}

/// [`PRIORITIES`] for the TypeScript only (as [`Sentiment`]).
#[derive(TS)]
#[ts(rename_all = "lowercase")]
pub enum SummaryPriority {
    Low,
    Medium,
    High,
    Urgent,
}

impl Summary {
    pub fn parse(text: &str) -> Result<Self, Failure> {
        let mut s: Summary = json(text)?;
        s.summary = s.summary.trim().to_string();
        s.sentiment = s.sentiment.trim().to_ascii_lowercase();
        s.priority = s.priority.trim().to_ascii_lowercase();
        let ok = !s.summary.is_empty()
            && SENTIMENTS.contains(&s.sentiment.as_str())
            && PRIORITIES.contains(&s.priority.as_str());
        if ok { Ok(s) } else { Err(Failure::Malformed) }
    }
}

/// One suggested reply (`/api/smart/replies`).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, TS)]
#[ts(rename = "SuggestedReply")]
pub struct Suggestion {
    pub label: String,
    pub text: String,
}

#[derive(Deserialize)]
struct Suggestions {
    replies: Vec<Suggestion>,
}

/// Exactly three replies with a label and a text (extra ones are dropped).
pub fn replies(text: &str) -> Result<Vec<Suggestion>, Failure> {
    let all: Suggestions = json(text)?;
    let replies: Vec<Suggestion> = all
        .replies
        .into_iter()
        .map(|s| Suggestion {
            label: s.label.trim().to_string(),
            text: s.text.trim().to_string(),
        })
        .filter(|s| !s.label.is_empty() && !s.text.is_empty())
        .take(3)
        .collect();
    if replies.len() == 3 {
        Ok(replies)
    } else {
        Err(Failure::Malformed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_subjects_are_cleaned() {
        assert_eq!(plain("```\nשלום\n```").unwrap(), "שלום");
        assert!(plain("  ").is_err());
        assert_eq!(
            subject("נושא: \"פגישת צוות ביום ראשון\"\n").unwrap(),
            "פגישת צוות ביום ראשון"
        );
        assert_eq!(subject("**Budget review**").unwrap(), "Budget review");
    }

    #[test]
    fn the_typescript_unions_are_the_checked_lists() {
        let union = crate::wire::union;
        let cfg = crate::wire::config();
        assert_eq!(Sentiment::inline(&cfg), union(&SENTIMENTS));
        assert_eq!(SummaryPriority::inline(&cfg), union(&PRIORITIES));
    }

    #[test]
    fn structured_answers_are_validated() {
        let s = Summary::parse("Here you go:\n```json\n{\"summary\": \"בקשה לפגישה\", \"sentiment\": \"Positive\", \"priority\": \"high\"}\n```").unwrap();
        assert_eq!(
            (s.sentiment.as_str(), s.priority.as_str()),
            ("positive", "high")
        );
        assert!(
            Summary::parse(r#"{"summary": "x", "sentiment": "happy", "priority": "high"}"#)
                .is_err()
        );
        assert!(Summary::parse("no json here").is_err());
        assert!(Summary::parse("{\"summary\": ").is_err());
        let three = r#"{"replies": [{"label": "א", "text": "1"}, {"label": "ב", "text": "2"}, {"label": "ג", "text": "3"}, {"label": "ד", "text": "4"}]}"#;
        assert_eq!(replies(three).unwrap().len(), 3);
        assert!(replies(r#"{"replies": [{"label": "א", "text": "1"}]}"#).is_err());
        assert!(replies(r#"{"replies": "none"}"#).is_err());
    }
}
