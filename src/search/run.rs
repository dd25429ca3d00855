//! Running a search: the request's query and filters as one query limited to the user, the
//! total and one page of message ids, then the rows and their snippets from the store.

use std::collections::{BTreeMap, HashMap};

use redb::ReadableDatabase;
use serde_json::{Value, json};
use tantivy::collector::{Count, TopDocs};
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::snippet::SnippetGenerator;
use tantivy::{DocAddress, Order, Searcher, Term};

use super::build::Builder;
use super::index::Search;
use super::query::{self, Flag, Node, TextField};
use super::{analyzer, schema};
use crate::emails::view;
use crate::error::{AppError, Result};
use crate::mail::parse;
use crate::store::Store;
use crate::sync::store as mstore;

/// Spec 001: a search result's body preview is 150 characters.
pub const SNIPPET_CHARS: usize = 150;
pub const MAX_PER_PAGE: usize = 100;

#[derive(Debug, Clone, Default)]
pub struct Request {
    pub q: String,
    pub from: String,
    pub to: String,
    pub subject: String,
    pub after: String,
    pub before: String,
    pub unread: bool,
    pub starred: bool,
    pub attachment: bool,
    /// `all` or empty: every folder.
    pub folder: String,
    pub page: usize,
    pub per_page: usize,
    pub by_relevance: bool,
    pub tz_secs: i64,
}

impl Request {
    /// The query and the panel's filters as one tree.
    pub fn tree(&self) -> Result<Node> {
        let bad = |e: query::QueryError| AppError::BadQuery(e.0);
        let mut nodes = match query::parse(&self.q, self.tz_secs).map_err(bad)? {
            Node::And(v) => v,
            other => vec![other],
        };
        for (value, field) in [
            (&self.from, TextField::From),
            (&self.to, TextField::To),
            (&self.subject, TextField::Subject),
        ] {
            if !value.trim().is_empty() {
                nodes.push(Node::Field {
                    field,
                    text: value.trim().to_string(),
                    phrase: false,
                });
            }
        }
        if !self.after.trim().is_empty() {
            nodes.push(Node::After(
                query::day_start("after", self.after.trim(), self.tz_secs).map_err(bad)?,
            ));
        }
        if !self.before.trim().is_empty() {
            nodes.push(Node::Before(
                query::day_start("before", self.before.trim(), self.tz_secs).map_err(bad)?,
            ));
        }
        for (on, flag) in [
            (self.unread, Flag::Unread),
            (self.starred, Flag::Starred),
            (self.attachment, Flag::Attachment),
        ] {
            if on {
                nodes.push(Node::Flag(flag));
            }
        }
        let folder = self.folder.trim().to_lowercase();
        if !folder.is_empty() && folder != "all" {
            nodes.push(Node::In(if folder == "spam" {
                "junk".into()
            } else {
                folder
            }));
        }
        Ok(Node::And(nodes))
    }
}

pub struct Outcome {
    pub total: usize,
    pub ids: Vec<u64>,
    /// Body words to highlight.
    pub highlight: Vec<String>,
}

impl Search {
    /// The matching message ids of `user`, one page, and the total.
    pub fn find(&self, user: u64, req: &Request) -> Result<Outcome> {
        let tree = req.tree()?;
        let mut builder = Builder::new(self.fields);
        let Some(q) = builder.build(&tree) else {
            return Err(AppError::EmptyQuery);
        };
        let f = &self.fields;
        let scoped = BooleanQuery::new(vec![
            (
                Occur::Must,
                Box::new(TermQuery::new(
                    Term::from_field_u64(f.user, user),
                    IndexRecordOption::Basic,
                )) as Box<dyn Query>,
            ),
            (
                Occur::MustNot,
                Box::new(TermQuery::new(
                    Term::from_field_text(f.flags, "hidden"),
                    IndexRecordOption::Basic,
                )),
            ),
            (Occur::Must, q),
        ]);
        let searcher = self.reader.searcher();
        let per_page = req.per_page.clamp(1, MAX_PER_PAGE);
        let offset = req.page.saturating_sub(1).saturating_mul(per_page);
        let top = TopDocs::with_limit(per_page).and_offset(offset);
        let (total, addrs): (usize, Vec<DocAddress>) = if req.by_relevance {
            let (n, hits) = searcher
                .search(&scoped, &(Count, top.order_by_score()))
                .map_err(AppError::internal)?;
            (n, hits.into_iter().map(|(_, a)| a).collect())
        } else {
            let (n, hits) = searcher
                .search(
                    &scoped,
                    &(Count, top.order_by_fast_field::<i64>("date", Order::Desc)),
                )
                .map_err(AppError::internal)?;
            (n, hits.into_iter().map(|(_, a)| a).collect())
        };
        let ids = message_ids(&searcher, &addrs)?;
        Ok(Outcome {
            total,
            ids,
            highlight: builder.highlight,
        })
    }

    /// The result rows of `ids` (the store's mail rows, with folder role and snippet).
    pub fn rows(
        &self,
        store: &Store,
        user_accounts: &[u64],
        outcome: &Outcome,
    ) -> Result<Vec<Value>> {
        let txn = store.db().begin_read()?;
        let messages = txn.open_table(mstore::MESSAGES)?;
        let raws = txn.open_table(mstore::RAW_Z)?;
        let folders = txn.open_table(mstore::FOLDERS)?;
        let mut roles: HashMap<u64, HashMap<String, String>> = HashMap::new();
        let mut snippets = Snippets::new(self, &outcome.highlight);
        let mut out = Vec::with_capacity(outcome.ids.len());
        for id in &outcome.ids {
            // The index may trail the store by a moment: what is gone or hidden is left out.
            let Ok(Some(meta)) = mstore::read_meta(&messages, *id) else {
                continue;
            };
            if meta.hidden || !user_accounts.contains(&meta.account_id) {
                continue;
            }
            let account_roles = match roles.entry(meta.account_id) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(v) => v.insert(
                    mstore::account_folders(&folders, meta.account_id)?
                        .into_iter()
                        .map(|f| (f.name, f.role))
                        .collect(),
                ),
            };
            let role = account_roles.get(&meta.folder).cloned().unwrap_or_default();
            let raw = mstore::get_raw(&raws, *id)?.unwrap_or_default();
            let mut row = view::row(&meta);
            row["folderRole"] = json!(role);
            row["snippet"] = snippets.of(&raw);
            out.push(row);
        }
        Ok(out)
    }
}

fn message_ids(searcher: &Searcher, addrs: &[DocAddress]) -> Result<Vec<u64>> {
    let mut columns = HashMap::new();
    let mut out = Vec::with_capacity(addrs.len());
    for a in addrs {
        let col = match columns.entry(a.segment_ord) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => v.insert(
                searcher
                    .segment_reader(a.segment_ord)
                    .fast_fields()
                    .u64("id")
                    .map_err(AppError::internal)?,
            ),
        };
        if let Some(id) = col.first(a.doc_id) {
            out.push(id);
        }
    }
    Ok(out)
}

/// Snippets: 150 characters of the body around the query's words, as plain parts.
struct Snippets {
    generator: Option<SnippetGenerator>,
}

impl Snippets {
    fn new(search: &Search, words: &[String]) -> Self {
        let terms: BTreeMap<String, f32> = words.iter().map(|w| (w.clone(), 1.0)).collect();
        let generator = (!terms.is_empty()).then(|| {
            let analyzer = analyzer::analyzers()
                .into_iter()
                .find(|(n, _)| *n == analyzer::INDEX)
                .map(|(_, a)| a)
                .expect("index analyzer");
            // Offsets are bytes: room for 150 Hebrew letters, cut to 150 characters below.
            SnippetGenerator::new(terms, analyzer, search.fields.body, SNIPPET_CHARS * 3)
        });
        Self { generator }
    }

    fn of(&mut self, raw: &[u8]) -> Value {
        let body = parse::body_text(raw);
        let body = &body[..body.len().min(schema::MAX_BODY_BYTES)];
        if let Some(g) = &self.generator {
            let s = g.snippet(body);
            if !s.highlighted().is_empty() {
                let fragment = s.fragment();
                let mut parts = Vec::new();
                let mut at = 0;
                for r in s.highlighted() {
                    if r.start > at {
                        parts.push((fragment[at..r.start].to_string(), false));
                    }
                    parts.push((fragment[r.clone()].to_string(), true));
                    at = r.end;
                }
                if at < fragment.len() {
                    parts.push((fragment[at..].to_string(), false));
                }
                return parts_json(clip_parts(lead_in(parts), SNIPPET_CHARS));
            }
        }
        parts_json(clip_parts(vec![(body.to_string(), false)], SNIPPET_CHARS))
    }
}

/// Characters kept before the first hit, so the hit is inside the 150.
const LEAD_CHARS: usize = 40;

/// Shortens the text before the first hit to its last words (from a word start).
fn lead_in(mut parts: Vec<(String, bool)>) -> Vec<(String, bool)> {
    let Some(first) = parts.first_mut().filter(|(_, hit)| !*hit) else {
        return parts;
    };
    let text = &first.0;
    let n = text.chars().count();
    if n > LEAD_CHARS {
        let start = text
            .char_indices()
            .nth(n - LEAD_CHARS)
            .map_or(0, |(i, _)| i);
        let cut = text[start..]
            .find(char::is_whitespace)
            .map_or(start, |w| start + w);
        first.0 = format!("…{}", text[cut..].trim_start());
    }
    parts
}

/// White space collapsed, at most `max` characters in all.
fn clip_parts(parts: Vec<(String, bool)>, max: usize) -> Vec<(String, bool)> {
    let mut left = max;
    let mut out = Vec::new();
    let mut last_space = true;
    for (text, hit) in parts {
        if left == 0 {
            break;
        }
        let mut t = String::new();
        for c in text.chars() {
            if left == 0 {
                break;
            }
            if c.is_whitespace() {
                if last_space {
                    continue;
                }
                t.push(' ');
                last_space = true;
            } else {
                t.push(c);
                last_space = false;
            }
            left -= 1;
        }
        if !t.is_empty() {
            out.push((t, hit));
        }
    }
    if let Some((t, _)) = out.last_mut() {
        let trimmed = t.trim_end().len();
        t.truncate(trimmed);
    }
    out.retain(|(t, _)| !t.is_empty());
    out
}

fn parts_json(parts: Vec<(String, bool)>) -> Value {
    Value::Array(
        parts
            .into_iter()
            .map(|(text, hit)| json!({ "text": text, "hit": hit }))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_highlight_the_query_words_in_the_body() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open_and_migrate(dir.path()).unwrap();
        let search = Search::open(dir.path(), store, Default::default()).unwrap();
        let mut s = Snippets::new(&search, &["softwar".to_string(), "פגישה".to_string()]);
        let raw = format!(
            "Subject: x\r\n\r\n{}Our Software is free. והפגישה מחר.\r\n",
            "filler words here. ".repeat(40)
        );
        let parts = s.of(raw.as_bytes());
        let hits: Vec<&str> = parts
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["hit"] == true)
            .map(|p| p["text"].as_str().unwrap())
            .collect();
        assert_eq!(hits, ["Software", "והפגישה"], "{parts}");
    }

    #[test]
    fn parts_are_clipped_and_white_space_collapsed() {
        let parts = clip_parts(
            vec![
                ("  a\n\n b ".into(), false),
                ("פגישה".into(), true),
                (" c".repeat(200), false),
            ],
            20,
        );
        let text: String = parts.iter().map(|(t, _)| t.as_str()).collect();
        assert!(text.chars().count() <= 20, "{text}");
        assert!(text.starts_with("a b פגישה c"));
        assert_eq!(parts[1], ("פגישה".into(), true));
    }
}
