//! Whether a rule matches a mail: what the mail says (`Mail`, read once from its stored record
//! and bytes) against each condition, all or any. Text is compared folded, as search does
//! (case, niqqud, final letters), so "הזמנה" finds "הַזְמָנָה".

use super::model::{Condition, Field, StoredRule};
use crate::mail::parse;
use crate::mailstore::MessageMeta;
use crate::search::analyzer::fold_text as fold;

/// The body text looked at, at most (a rule never reads a whole 50 MB mail).
const MAX_BODY: usize = 200_000;

/// A mail as the conditions see it (folded text).
#[derive(Debug, Default)]
pub struct Mail {
    pub from: String,
    pub from_address: String,
    pub to: String,
    pub subject: String,
    pub body: String,
    pub has_attachment: bool,
    pub list: bool,
    pub size: u64,
    /// (lower-case name, folded value).
    pub headers: Vec<(String, String)>,
}

impl Mail {
    pub fn read(meta: &MessageMeta, raw: &[u8]) -> Self {
        let s = &meta.summary;
        let mut body = parse::body_text(raw);
        body.truncate(crate::kit::cut(&body, MAX_BODY).len());
        let parsed = parse::parse_guarded(raw);
        let headers = parsed
            .as_ref()
            .map(|m| {
                m.headers()
                    .iter()
                    .take(500)
                    .map(|h| {
                        let name = h.name().to_ascii_lowercase();
                        let value = m.header_raw(h.name()).unwrap_or_default();
                        (name, fold(value.trim()))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Self {
            from: fold(&format!("{} {}", s.from_name, s.from)),
            from_address: s.from.trim().to_lowercase(),
            to: fold(
                &s.to
                    .iter()
                    .chain(&s.cc)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            subject: fold(&s.subject),
            body: fold(&body),
            has_attachment: meta.has_attachments(),
            list: parsed.as_ref().is_some_and(parse::is_list_mail),
            size: raw.len() as u64,
            headers,
        }
    }

    fn domain(&self) -> &str {
        self.from_address.rsplit_once('@').map_or("", |(_, d)| d)
    }
}

fn test(c: &Condition, m: &Mail) -> bool {
    let v = fold(&c.value);
    let hit = match c.field {
        Field::From => m.from.contains(&v),
        Field::To => m.to.contains(&v),
        Field::Subject => m.subject.contains(&v),
        Field::Body => m.body.contains(&v),
        Field::SenderDomain => {
            let want = v.trim_start_matches('@');
            let d = m.domain();
            d == want || d.ends_with(&format!(".{want}"))
        }
        Field::HasAttachment => m.has_attachment,
        Field::ListMail => m.list,
        Field::SizeAbove => m.size > c.value.parse::<u64>().unwrap_or(u64::MAX / 1024) * 1024,
        Field::Header => {
            let name = c.header.to_ascii_lowercase();
            m.headers
                .iter()
                .any(|(n, value)| *n == name && (v.is_empty() || value.contains(&v)))
        }
    };
    hit != c.negate
}

pub fn matches(rule: &StoredRule, m: &Mail) -> bool {
    if rule.conditions.is_empty() {
        return false;
    }
    if rule.match_all {
        rule.conditions.iter().all(|c| test(c, m))
    } else {
        rule.conditions.iter().any(|c| test(c, m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::model::{Action, ActionKind};

    fn mail(extra: &str, body: &str) -> Mail {
        let raw = format!(
            "From: =?utf-8?B?15TXlNeW157XoNeV16o=?= <orders@shop.example.co.il>\r\nTo: me@home.test\r\n\
             Cc: Team <team@home.test>\r\nSubject: =?utf-8?B?15TXltee16DXlCDXnteh16TXqCA0Mg==?=\r\n\
             {extra}Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
        );
        let meta = MessageMeta {
            summary: parse::summary(raw.as_bytes()),
            ..MessageMeta::default()
        };
        Mail::read(&meta, raw.as_bytes())
    }

    fn rule(match_all: bool, conditions: Vec<Condition>) -> StoredRule {
        StoredRule {
            name: "r".into(),
            is_active: true,
            match_all,
            conditions,
            actions: vec![Action {
                kind: ActionKind::MarkAsRead,
                value: String::new(),
            }],
            stop: false,
            forward_confirmed: None,
        }
    }

    fn cond(field: Field, value: &str) -> Condition {
        Condition {
            field,
            negate: false,
            value: value.into(),
            header: String::new(),
        }
    }

    #[test]
    fn text_conditions_fold_hebrew_and_case() {
        let m = mail("", "המשלוח שלך יצא לדרך, תודה שקנית!");
        // The subject is "הזמנה מספר 42": niqqud and a final letter in the value still match.
        assert!(matches(
            &rule(true, vec![cond(Field::Subject, "הַזְמָנָה")]),
            &m
        ));
        assert!(matches(&rule(true, vec![cond(Field::Body, "משלוח")]), &m));
        assert!(matches(&rule(true, vec![cond(Field::From, "ORDERS@")]), &m));
        assert!(matches(&rule(true, vec![cond(Field::To, "team@home")]), &m));
        assert!(!matches(
            &rule(true, vec![cond(Field::Subject, "חשבונית")]),
            &m
        ));
        let mut not = cond(Field::Subject, "חשבונית");
        not.negate = true;
        assert!(matches(&rule(true, vec![not]), &m));
    }

    #[test]
    fn domain_size_list_attachment_and_headers() {
        let m = mail(
            "List-Id: <deals.shop.example.co.il>\r\nX-Mailer: ShopBot 2\r\n",
            "x",
        );
        assert!(matches(
            &rule(true, vec![cond(Field::SenderDomain, "example.co.il")]),
            &m
        ));
        assert!(matches(
            &rule(true, vec![cond(Field::SenderDomain, "@shop.example.co.il")]),
            &m
        ));
        assert!(!matches(
            &rule(true, vec![cond(Field::SenderDomain, "ample.co.il")]),
            &m
        ));
        assert!(matches(&rule(true, vec![cond(Field::ListMail, "")]), &m));
        assert!(!matches(
            &rule(true, vec![cond(Field::HasAttachment, "")]),
            &m
        ));
        assert!(!matches(&rule(true, vec![cond(Field::SizeAbove, "1")]), &m));
        assert!(matches(&rule(true, vec![cond(Field::SizeAbove, "0")]), &m));
        let header = |name: &str, value: &str| Condition {
            field: Field::Header,
            negate: false,
            value: value.into(),
            header: name.into(),
        };
        assert!(matches(&rule(true, vec![header("x-mailer", "")]), &m));
        assert!(matches(
            &rule(true, vec![header("X-Mailer", "shopbot")]),
            &m
        ));
        assert!(!matches(&rule(true, vec![header("X-Spam", "")]), &m));
    }

    #[test]
    fn all_or_any() {
        let m = mail("", "x");
        let hit = cond(Field::Subject, "הזמנה");
        let miss = cond(Field::Subject, "nothing");
        assert!(!matches(&rule(true, vec![hit.clone(), miss.clone()]), &m));
        assert!(matches(&rule(false, vec![hit, miss.clone()]), &m));
        assert!(!matches(&rule(false, vec![miss]), &m));
        assert!(!matches(&rule(false, vec![]), &m));
    }
}
