//! A parsed [`Node`] tree as a tantivy query, plus the words a snippet should highlight.

use std::ops::Bound;

use tantivy::Term;
use tantivy::query::{
    AllQuery, BooleanQuery, EmptyQuery, Occur, PhrasePrefixQuery, PhraseQuery, Query, RangeQuery,
    TermQuery,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::tokenizer::TextAnalyzer;

use super::analyzer;
use super::materialize::Materialized;
use super::query::{Flag, Node, TextField};
use super::schema::{self, Fields};

/// Known folder roles for `in:`.
const ROLES: &[&str] = &["inbox", "sent", "drafts", "junk", "trash", "archive"];

pub struct Builder {
    pub fields: Fields,
    pub query_analyzer: TextAnalyzer,
    pub plain_analyzer: TextAnalyzer,
    /// Body words of the query (not negated), for the snippet.
    pub highlight: Vec<String>,
}

impl Builder {
    pub fn new(fields: Fields) -> Self {
        Self {
            fields,
            query_analyzer: analyzer::get(analyzer::QUERY),
            plain_analyzer: analyzer::get(analyzer::PLAIN),
            highlight: Vec::new(),
        }
    }

    /// The query of `node`; `None` when it asks for nothing (only punctuation).
    pub fn build(&mut self, node: &Node) -> Option<Box<dyn Query>> {
        self.node(node, false)
    }

    fn node(&mut self, node: &Node, negated: bool) -> Option<Box<dyn Query>> {
        let f = self.fields;
        match node {
            Node::And(parts) => {
                let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
                // The after: and before: of one level as one range: one walk of the dates.
                let (mut from, mut to) = (None::<i64>, None::<i64>);
                for p in parts {
                    match p {
                        Node::After(t) => from = Some(from.map_or(*t, |f| f.max(*t))),
                        Node::Before(t) => to = Some(to.map_or(*t, |b| b.min(*t))),
                        _ => {}
                    }
                }
                if from.is_some() || to.is_some() {
                    clauses.push((Occur::Must, date_range(f.date, from, to)));
                }
                for p in parts {
                    match p {
                        Node::After(_) | Node::Before(_) => {}
                        Node::Not(inner) => {
                            if let Some(q) = self.node(inner, !negated) {
                                clauses.push((Occur::MustNot, Box::new(Materialized(q))));
                            }
                        }
                        other => {
                            if let Some(q) = self.node(other, negated) {
                                clauses.push((Occur::Must, q));
                            }
                        }
                    }
                }
                if clauses.is_empty() {
                    return None;
                }
                if clauses.iter().all(|(o, _)| *o == Occur::MustNot) {
                    clauses.push((Occur::Must, Box::new(AllQuery)));
                }
                if clauses.len() == 1 && clauses[0].0 == Occur::Must {
                    return clauses.pop().map(|(_, q)| q);
                }
                Some(Box::new(BooleanQuery::new(clauses)))
            }
            Node::Or(parts) => {
                let clauses: Vec<(Occur, Box<dyn Query>)> = parts
                    .iter()
                    .filter_map(|p| self.node(p, negated))
                    .map(|q| (Occur::Should, q))
                    .collect();
                if clauses.is_empty() {
                    return None;
                }
                Some(Box::new(BooleanQuery::new(clauses)))
            }
            Node::Not(inner) => {
                let q = self.node(inner, !negated)?;
                Some(Box::new(BooleanQuery::new(vec![
                    (Occur::Must, Box::new(AllQuery) as Box<dyn Query>),
                    (Occur::MustNot, Box::new(Materialized(q))),
                ])))
            }
            Node::Text {
                text,
                phrase,
                prefix,
            } => {
                let mut alts: Vec<Box<dyn Query>> = Vec::new();
                if *prefix {
                    let words = analyzer::words(&mut self.plain_analyzer, text);
                    for field in [f.subject, f.body, f.from] {
                        alts.extend(prefix_query(field, &words));
                    }
                    if !negated {
                        self.highlight.extend(words);
                    }
                } else {
                    let words = analyzer::words(&mut self.query_analyzer, text);
                    let plain = analyzer::words(&mut self.plain_analyzer, text);
                    alts.extend(words_query(f.subject, &words));
                    alts.extend(words_query(f.body, &words));
                    alts.extend(words_query(f.from, &plain));
                    if !negated {
                        self.highlight.extend(words);
                    }
                }
                let _ = phrase; // a phrase is the same as a word that analyzes to several
                any_of(alts)
            }
            Node::Field {
                field,
                text,
                phrase,
            } => match field {
                TextField::Subject => {
                    let words = analyzer::words(&mut self.query_analyzer, text);
                    words_query(f.subject, &words)
                }
                TextField::From | TextField::To | TextField::Filename => {
                    // The field of the words, and the one of whole addresses where there is one.
                    let (target, addresses) = match field {
                        TextField::From => (f.from, Some(f.from_address)),
                        TextField::To => (f.to, Some(f.to_address)),
                        _ => (f.attachments, None),
                    };
                    if let Some(addresses) = addresses
                        && let Some(address) = address_start(text)
                    {
                        return Some(if *phrase {
                            term(addresses, &address)
                        } else {
                            addresses_from(addresses, &address)
                        });
                    }
                    let words = analyzer::words(&mut self.plain_analyzer, text);
                    if *phrase {
                        words_query(target, &words)
                    } else {
                        prefix_query(target, &words)
                    }
                }
            },
            Node::Flag(flag) => Some(match flag {
                Flag::Unread => term(f.flags, "unread"),
                Flag::Read => term(f.flags, "read"),
                Flag::Starred => term(f.flags, "starred"),
                Flag::Unstarred => Box::new(BooleanQuery::new(vec![
                    (Occur::Must, Box::new(AllQuery) as Box<dyn Query>),
                    (Occur::MustNot, term(f.flags, "starred")),
                ])),
                Flag::Attachment => term(f.flags, "attachment"),
                Flag::Answered => term(f.flags, "answered"),
                Flag::Draft => term(f.flags, "draft"),
            }),
            Node::After(t) => Some(date_range(f.date, Some(*t), None)),
            Node::Before(t) => Some(date_range(f.date, None, Some(*t))),
            Node::In(name) => {
                if name == "all" {
                    Some(Box::new(AllQuery))
                } else if ROLES.contains(&name.as_str()) {
                    any_of(vec![term(f.role, name), term(f.folder, name)])
                } else {
                    Some(term(f.folder, name))
                }
            }
            Node::MessageId(id) => Some(term(f.msgid, id)),
            // The keyword as typed, or the one a label of that name maps to (`label:עבודה`
            // finds `$label_…`; a label renamed since keeps its first name's keyword).
            Node::Label(l) => {
                let mapped = crate::labels::keyword::keyword_for(l, 0).to_lowercase();
                if mapped == *l {
                    Some(term(f.labels, l))
                } else {
                    any_of(vec![term(f.labels, l), term(f.labels, &mapped)])
                }
            }
            Node::Status(s) => Some(term(f.status, s)),
        }
    }
}

/// Dates from `from` (included) to `to` (excluded).
fn date_range(field: Field, from: Option<i64>, to: Option<i64>) -> Box<dyn Query> {
    if let (Some(a), Some(b)) = (from, to)
        && a >= b
    {
        return nothing();
    }
    let bound = |t: Option<i64>, included: bool| match t {
        None => Bound::Unbounded,
        Some(t) if included => Bound::Included(Term::from_field_i64(field, t)),
        Some(t) => Bound::Excluded(Term::from_field_i64(field, t)),
    };
    Box::new(RangeQuery::new(bound(from, true), bound(to, false)))
}

fn term(field: Field, value: &str) -> Box<dyn Query> {
    Box::new(TermQuery::new(
        Term::from_field_text(field, value),
        IndexRecordOption::Basic,
    ))
}

fn any_of(mut alts: Vec<Box<dyn Query>>) -> Option<Box<dyn Query>> {
    match alts.len() {
        0 => None,
        1 => alts.pop(),
        _ => Some(Box::new(BooleanQuery::new(
            alts.into_iter().map(|q| (Occur::Should, q)).collect(),
        ))),
    }
}

/// One word: a term; several (a phrase, or a word the analyzer splits like e-mail): adjacent.
fn words_query(field: Field, words: &[String]) -> Option<Box<dyn Query>> {
    match words {
        [] => None,
        [one] => Some(Box::new(TermQuery::new(
            Term::from_field_text(field, one),
            IndexRecordOption::WithFreqs,
        ))),
        many => Some(Box::new(Materialized(Box::new(PhraseQuery::new(
            many.iter()
                .map(|w| Term::from_field_text(field, w))
                .collect(),
        ))))),
    }
}

/// The words in order, the last one a word start (from:dan finds Dana).
fn prefix_query(field: Field, words: &[String]) -> Option<Box<dyn Query>> {
    if words.is_empty() {
        return None;
    }
    let mut q = PhrasePrefixQuery::new(
        words
            .iter()
            .map(|w| Term::from_field_text(field, w))
            .collect(),
    );
    q.set_max_expansions(200);
    Some(Box::new(Materialized(Box::new(q))))
}

/// `dana@exa…` as typed: the start of an address (a local part, then `@`), folded as the index
/// keeps addresses, without the `<>` around it or a `*`, `,` or `;` after it; `None` for anything
/// else (a name, a domain such as `@example.com`), which goes by its words.
fn address_start(text: &str) -> Option<String> {
    let t = text
        .trim()
        .trim_end_matches(['*', ',', ';'])
        .trim_start_matches('<')
        .trim_end_matches('>');
    let at = t.find('@')?;
    (at > 0 && !t.contains(char::is_whitespace)).then(|| schema::fold_address(t))
}

/// The addresses that start with `start`: a range of the term dictionary, so a whole address
/// also finds the addresses that continue it (a quoted value is one [`term`]).
fn addresses_from(field: Field, start: &str) -> Box<dyn Query> {
    Box::new(RangeQuery::new(
        Bound::Included(Term::from_field_text(field, start)),
        Bound::Excluded(Term::from_field_text(field, &format!("{start}\u{10FFFF}"))),
    ))
}

/// A query matching nothing (a filter that can match nothing still needs a query).
pub fn nothing() -> Box<dyn Query> {
    Box::new(EmptyQuery)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn built(node: &Node) -> String {
        let (_, fields) = super::super::schema::build();
        format!("{:?}", Builder::new(fields).build(node).expect("a query"))
    }

    #[test]
    fn the_dates_of_one_level_are_one_range() {
        let q = built(&Node::And(vec![
            Node::After(100),
            Node::Text {
                text: "word".into(),
                phrase: false,
                prefix: false,
            },
            Node::Before(200),
            Node::After(150),
        ]));
        assert_eq!(q.matches("RangeQuery").count(), 1, "{q}");
        assert!(
            q.contains("150") && q.contains("200") && !q.contains("100"),
            "{q}"
        );
        // A range that ends before it starts finds nothing.
        let q = built(&Node::And(vec![Node::After(200), Node::Before(100)]));
        assert!(q.contains("EmptyQuery") && !q.contains("RangeQuery"), "{q}");
    }

    #[test]
    fn an_address_is_looked_up_whole() {
        let field = |field, text: &str, phrase| Node::Field {
            field,
            text: text.into(),
            phrase,
        };
        // Typed so far: the addresses starting with it, no phrase of its words.
        let q = built(&field(TextField::From, "Tim.One@comcast.net", false));
        assert!(
            q.contains("RangeQuery") && q.contains("tim.one@comcast.net"),
            "{q}"
        );
        assert!(!q.contains("Phrase"), "{q}");
        let q = built(&field(TextField::To, "<ilug@linux", false));
        assert!(q.contains("RangeQuery") && q.contains("ilug@linux"), "{q}");
        // A star, or the comma of a pasted list, after it is not part of the address.
        for (text, address) in [
            ("dana@exa*", "dana@exa"),
            ("Dana@Example.com,", "dana@example.com"),
            ("<dana@example.com>;", "dana@example.com"),
        ] {
            let q = built(&field(TextField::From, text, false));
            let term = format!("{address:?}");
            assert!(q.contains("RangeQuery") && q.contains(&term), "{text}: {q}");
        }
        // Quoted: that address only.
        let q = built(&field(TextField::To, "ilug@linux.ie", true));
        assert!(q.contains("TermQuery") && !q.contains("RangeQuery"), "{q}");
        // A name, a domain alone or words with spaces go by their words as before.
        for text in ["tim", "@comcast.net", "tim one@x"] {
            let q = built(&field(TextField::From, text, false));
            assert!(
                q.contains("PhrasePrefix") && !q.contains("RangeQuery"),
                "{text}: {q}"
            );
        }
    }

    #[test]
    fn a_hebrew_label_name_finds_its_keyword() {
        let q = built(&Node::Label("עבודה".into()));
        let mapped = crate::labels::keyword::keyword_for("עבודה", 0).to_lowercase();
        assert!(q.contains(&mapped), "{q}");
        let q = built(&Node::Label("invoices".into()));
        assert!(q.contains("invoices") && !q.contains("$label_"), "{q}");
    }
}
