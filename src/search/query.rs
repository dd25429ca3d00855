//! The query language (docs/API.md "Query language"): words, "phrases", `OR`, `-` negation,
//! parentheses and the operators from:, to:, subject:, has:, is:, after:, before:, in:, id:,
//! label:, status:, filename:. Parsing gives a [`Node`] tree or a Hebrew message saying what is
//! wrong; `build.rs` turns the tree into a tantivy query.

use time::{Date, Month};

use crate::messages;

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    And(Vec<Node>),
    Or(Vec<Node>),
    Not(Box<Node>),
    /// Free text across subject, body and sender. `prefix`: written `word*`.
    Text {
        text: String,
        phrase: bool,
        prefix: bool,
    },
    /// from:, to:, subject:, filename:. Unquoted values match word starts (from:dan = Dana).
    Field {
        field: TextField,
        text: String,
        phrase: bool,
    },
    Flag(Flag),
    /// Unix seconds: on or after / before.
    After(i64),
    Before(i64),
    /// in: a role (inbox, sent, …), `all`, or a folder's name (lower-cased).
    In(String),
    MessageId(String),
    Label(String),
    Status(String),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TextField {
    From,
    To,
    Subject,
    Filename,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Flag {
    Unread,
    Read,
    Starred,
    Unstarred,
    Attachment,
    Answered,
    Draft,
}

/// What the user wrote wrong, in Hebrew.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryError(pub String);

type Result<T> = std::result::Result<T, QueryError>;

fn err<T>(m: impl Into<String>) -> Result<T> {
    Err(QueryError(m.into()))
}

/// Parses `q`; dates are read as calendar days in a zone `tz_secs` east of UTC. An empty or
/// word-less query gives `And([])`.
pub fn parse(q: &str, tz_secs: i64) -> Result<Node> {
    if q.chars().count() > MAX_QUERY_CHARS {
        return err(messages::search_too_long(MAX_QUERY_CHARS));
    }
    let mut p = Parser {
        s: q.chars().collect(),
        at: 0,
        tz: tz_secs,
    };
    let nodes = p.expr(0)?;
    if p.at < p.s.len() {
        // Only a stray ')' stops the top level early.
        return err(messages::SEARCH_PARENS);
    }
    Ok(Node::And(nodes))
}

/// Longer queries are refused: every term costs work, and nobody types this much.
pub const MAX_QUERY_CHARS: usize = 1_000;
/// Parentheses nest at most this deep (the parser recurses per level).
const MAX_DEPTH: usize = 16;

struct Parser {
    s: Vec<char>,
    at: usize,
    tz: i64,
}

fn is_hebrew(c: Option<&char>) -> bool {
    c.is_some_and(|c| super::analyzer::is_hebrew_letter(*c))
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.s.get(self.at).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    /// Terms up to the end or a ')' (not consumed), joined by AND.
    fn expr(&mut self, depth: usize) -> Result<Vec<Node>> {
        let mut out = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                None => break,
                Some(')') if depth > 0 => break,
                Some(')') => return err(messages::SEARCH_PARENS),
                _ => {}
            }
            if self.at_or() {
                return err(messages::SEARCH_OR);
            }
            let first = self.unary(depth)?;
            let mut alts = vec![first];
            loop {
                let save = self.at;
                self.skip_ws();
                if self.at_or() {
                    self.at += 2;
                    self.skip_ws();
                    if matches!(self.peek(), None | Some(')')) || self.at_or() {
                        return err(messages::SEARCH_OR);
                    }
                    alts.push(self.unary(depth)?);
                } else {
                    self.at = save;
                    break;
                }
            }
            let node = if alts.len() == 1 {
                alts.pop().expect("one")
            } else {
                Node::Or(alts)
            };
            if !is_empty(&node) {
                out.push(node);
            }
        }
        Ok(out)
    }

    /// `OR` as a word of its own.
    fn at_or(&self) -> bool {
        self.s.get(self.at) == Some(&'O')
            && self.s.get(self.at + 1) == Some(&'R')
            && self
                .s
                .get(self.at + 2)
                .is_none_or(|c| c.is_whitespace() || *c == '(' || *c == ')' || *c == '"')
    }

    fn unary(&mut self, depth: usize) -> Result<Node> {
        if self.peek() == Some('-')
            && self
                .s
                .get(self.at + 1)
                .is_some_and(|c| !c.is_whitespace() && *c != '-')
        {
            self.at += 1;
            let inner = self.primary(depth)?;
            return Ok(if is_empty(&inner) {
                inner
            } else {
                Node::Not(Box::new(inner))
            });
        }
        self.primary(depth)
    }

    fn primary(&mut self, depth: usize) -> Result<Node> {
        match self.peek() {
            Some('(') => {
                if depth >= MAX_DEPTH {
                    return err(messages::SEARCH_TOO_DEEP);
                }
                self.at += 1;
                let inner = self.expr(depth + 1)?;
                if self.peek() != Some(')') {
                    return err(messages::SEARCH_PARENS);
                }
                self.at += 1;
                Ok(Node::And(inner))
            }
            Some('"') => {
                let text = self.phrase()?;
                Ok(Node::Text {
                    text,
                    phrase: true,
                    prefix: false,
                })
            }
            _ => {
                let word = self.word();
                if let Some((op, value)) = word.split_once(':') {
                    let op_lower = op.to_lowercase();
                    if is_operator(&op_lower) {
                        return self.operator(&op_lower, value);
                    }
                }
                let prefix = word.len() > 1 && word.ends_with('*');
                let text = word.trim_end_matches('*').to_string();
                Ok(Node::Text {
                    text,
                    phrase: false,
                    prefix,
                })
            }
        }
    }

    /// A quoted phrase (the opening quote is at `at`).
    fn phrase(&mut self) -> Result<String> {
        self.at += 1;
        let start = self.at;
        while let Some(c) = self.peek() {
            if c == '"'
                && !(is_hebrew(self.s.get(self.at.wrapping_sub(1)))
                    && is_hebrew(self.s.get(self.at + 1))
                    && self.at > start)
            {
                let text: String = self.s[start..self.at].iter().collect();
                self.at += 1;
                return Ok(text);
            }
            self.at += 1;
        }
        err(messages::SEARCH_QUOTE)
    }

    /// A bare word: up to white space, a parenthesis, or a quote that is not a Hebrew
    /// acronym's (צה"ל).
    fn word(&mut self) -> String {
        let start = self.at;
        while let Some(c) = self.peek() {
            if c.is_whitespace() || c == '(' || c == ')' {
                break;
            }
            if c == '"'
                && !(is_hebrew(self.s.get(self.at.wrapping_sub(1)))
                    && is_hebrew(self.s.get(self.at + 1))
                    && self.at > start)
            {
                break;
            }
            self.at += 1;
        }
        if self.at == start {
            // A lone '"' handled by the caller never reaches here; anything else is one char.
            self.at += 1;
        }
        self.s[start..self.at].iter().collect()
    }

    fn operator(&mut self, op: &str, value: &str) -> Result<Node> {
        let (value, quoted) = if value.is_empty() && self.peek() == Some('"') {
            (self.phrase()?, true)
        } else {
            (value.to_string(), false)
        };
        let value = value.trim();
        if value.is_empty() {
            return err(messages::search_missing_value(op));
        }
        let lower = value.to_lowercase();
        let text_field = |field| Node::Field {
            field,
            text: value.to_string(),
            phrase: quoted,
        };
        Ok(match op {
            "from" => text_field(TextField::From),
            "to" => text_field(TextField::To),
            "subject" => text_field(TextField::Subject),
            "filename" => text_field(TextField::Filename),
            "has" => match lower.as_str() {
                "attachment" | "attachments" => Node::Flag(Flag::Attachment),
                _ => return err(messages::SEARCH_BAD_HAS),
            },
            "is" => Node::Flag(match lower.as_str() {
                "unread" => Flag::Unread,
                "read" => Flag::Read,
                "starred" | "flagged" => Flag::Starred,
                "unstarred" => Flag::Unstarred,
                "answered" | "replied" => Flag::Answered,
                "draft" => Flag::Draft,
                _ => return err(messages::SEARCH_BAD_IS),
            }),
            "after" | "since" => Node::After(day_start(op, value, self.tz)?),
            "before" | "until" => Node::Before(day_start(op, value, self.tz)?),
            "in" | "folder" => Node::In(match lower.as_str() {
                "spam" => "junk".to_string(),
                "sent mail" => "sent".to_string(),
                "draft" => "drafts".to_string(),
                other => other.to_string(),
            }),
            "id" | "msgid" | "message-id" => Node::MessageId(
                value
                    .trim_start_matches('<')
                    .trim_end_matches('>')
                    .to_string(),
            ),
            "label" => Node::Label(lower),
            "status" => Node::Status(lower),
            _ => unreachable!("is_operator"),
        })
    }
}

fn is_operator(op: &str) -> bool {
    matches!(
        op,
        "from"
            | "to"
            | "subject"
            | "filename"
            | "has"
            | "is"
            | "after"
            | "since"
            | "before"
            | "until"
            | "in"
            | "folder"
            | "id"
            | "msgid"
            | "message-id"
            | "label"
            | "status"
    )
}

fn is_empty(n: &Node) -> bool {
    match n {
        Node::And(v) => v.iter().all(is_empty),
        Node::Text { text, .. } => text.trim().is_empty(),
        _ => false,
    }
}

/// Midnight of the day `value` (dd/MM/yyyy, d/M/yyyy, yyyy-mm-dd, yyyy/mm/dd) in the zone.
pub fn day_start(op: &str, value: &str, tz_secs: i64) -> Result<i64> {
    let bad = || QueryError(messages::search_bad_date(op, value));
    let parts: Vec<&str> = value.split(['/', '-', '.']).collect();
    if parts.len() != 3
        || parts
            .iter()
            .any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(bad());
    }
    let num = |s: &str| s.parse::<i32>().map_err(|_| bad());
    let (y, m, d) = if parts[0].len() == 4 {
        (num(parts[0])?, num(parts[1])?, num(parts[2])?)
    } else if parts[2].len() == 4 {
        (num(parts[2])?, num(parts[1])?, num(parts[0])?)
    } else {
        return Err(bad());
    };
    let month = Month::try_from(u8::try_from(m).map_err(|_| bad())?).map_err(|_| bad())?;
    let date = Date::from_calendar_date(y, month, u8::try_from(d).map_err(|_| bad())?)
        .map_err(|_| bad())?;
    Ok(date.midnight().assume_utc().unix_timestamp() - tz_secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> Node {
        Node::Text {
            text: t.into(),
            phrase: false,
            prefix: false,
        }
    }

    fn p(q: &str) -> Node {
        parse(q, 0).unwrap()
    }

    fn e(q: &str) -> String {
        parse(q, 0).unwrap_err().0
    }

    #[test]
    fn words_phrases_or_and_negation() {
        assert_eq!(p("a b"), Node::And(vec![text("a"), text("b")]));
        assert_eq!(
            p("\"two words\" -spam"),
            Node::And(vec![
                Node::Text {
                    text: "two words".into(),
                    phrase: true,
                    prefix: false
                },
                Node::Not(Box::new(text("spam")))
            ])
        );
        assert_eq!(
            p("a b OR c"),
            Node::And(vec![text("a"), Node::Or(vec![text("b"), text("c")])])
        );
        assert_eq!(
            p("(a OR b) c"),
            Node::And(vec![
                Node::And(vec![Node::Or(vec![text("a"), text("b")])]),
                text("c")
            ])
        );
        // Lower-case "or" is a word; a hyphen inside a word is not a negation.
        assert_eq!(
            p("this or that"),
            Node::And(vec![text("this"), text("or"), text("that")])
        );
        assert_eq!(p("e-mail"), Node::And(vec![text("e-mail")]));
        assert_eq!(p("   "), Node::And(vec![]));
    }

    #[test]
    fn hebrew_acronyms_are_words_not_phrases() {
        assert_eq!(
            p("צה\"ל דו\"ח"),
            Node::And(vec![text("צה\"ל"), text("דו\"ח")])
        );
        assert_eq!(
            p("\"דו\"ח שנתי\""),
            Node::And(vec![Node::Text {
                text: "דו\"ח שנתי".into(),
                phrase: true,
                prefix: false
            }])
        );
    }

    #[test]
    fn operators() {
        assert_eq!(
            p(
                "from:dana subject:\"weekly report\" has:attachment is:unread is:starred in:spam id:<a@b>"
            ),
            Node::And(vec![
                Node::Field {
                    field: TextField::From,
                    text: "dana".into(),
                    phrase: false
                },
                Node::Field {
                    field: TextField::Subject,
                    text: "weekly report".into(),
                    phrase: true
                },
                Node::Flag(Flag::Attachment),
                Node::Flag(Flag::Unread),
                Node::Flag(Flag::Starred),
                Node::In("junk".into()),
                Node::MessageId("a@b".into()),
            ])
        );
        // An unknown operator is just text (a time, a URL).
        assert_eq!(p("10:30"), Node::And(vec![text("10:30")]));
        assert_eq!(
            p("-from:x"),
            Node::And(vec![Node::Not(Box::new(Node::Field {
                field: TextField::From,
                text: "x".into(),
                phrase: false
            }))])
        );
    }

    #[test]
    fn dates_in_both_formats_and_the_zone() {
        let day = 1_709_251_200; // 2024-03-01 00:00 UTC
        assert_eq!(p("after:01/03/2024"), Node::And(vec![Node::After(day)]));
        assert_eq!(p("before:2024-03-01"), Node::And(vec![Node::Before(day)]));
        assert_eq!(
            parse("after:1/3/2024", 7200).unwrap(),
            Node::And(vec![Node::After(day - 7200)])
        );
    }

    #[test]
    fn malformed_queries_say_what_is_wrong() {
        assert_eq!(e("\"open"), messages::SEARCH_QUOTE);
        assert_eq!(e("(a b"), messages::SEARCH_PARENS);
        assert_eq!(e("a)"), messages::SEARCH_PARENS);
        assert_eq!(e("OR a"), messages::SEARCH_OR);
        assert_eq!(e("a OR"), messages::SEARCH_OR);
        assert_eq!(e("has:pdf"), messages::SEARCH_BAD_HAS);
        assert_eq!(e("is:lost"), messages::SEARCH_BAD_IS);
        assert!(e("after:31/02/2024").contains("31/02/2024"));
        assert!(e("before:yesterday").contains("yesterday"));
        assert!(e("from:").contains("from:"));
        assert_eq!(
            e(&"(".repeat(60_000)),
            messages::search_too_long(MAX_QUERY_CHARS)
        );
        assert_eq!(e(&"(a ".repeat(20)), messages::SEARCH_TOO_DEEP);
        assert_eq!(e(&"-(".repeat(300)), messages::SEARCH_TOO_DEEP);
        // Ten levels are fine.
        assert!(parse(&format!("{}a{}", "(".repeat(10), ")".repeat(10)), 0).is_ok());
    }
}
