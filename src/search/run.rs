//! Running a search: the request's query and filters as one query limited to the user, the
//! total and one page of message ids, then the rows and their snippets from the store.

use std::collections::HashMap;

use serde::Serialize;
use tantivy::collector::{Count, TopDocs};
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocAddress, Order, Searcher, Term};

use super::build::Builder;
use super::index::Search;
use super::query::{self, Flag, Node, TextField};
use crate::emails::view::{self, EmailRow};
use crate::error::{AppError, Result};
use crate::mailstore::MailRead;
use crate::store::Store;

mod snippets;
pub use snippets::{SNIPPET_CHARS, SnippetPart, TextCache};
use snippets::{Snippets, parse_and_snip};

/// The most results one page holds.
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

/// A mail list row plus where it lives and the preview around the match.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct SearchResult {
    #[serde(flatten)]
    #[ts(flatten)]
    pub email: EmailRow,
    /// `inbox`, `sent`, `drafts`, `junk`, `trash`, `archive`, … or `""` for another folder.
    pub folder_role: String,
    /// The folder's plain name (no server prefix or delimiter, Hebrew decoded).
    pub folder_name: String,
    pub snippet: Vec<SnippetPart>,
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
        let searcher = self.reader.searcher();
        // The user's mail, never hidden mail: a clause every document passes (one user's
        // index) or none fails (nothing hidden) is left out, so the search does not walk it.
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Must, q)];
        let user_term = Term::from_field_u64(f.user, user);
        let max_doc: u64 = searcher
            .segment_readers()
            .iter()
            .map(|s| u64::from(s.max_doc()))
            .sum();
        if searcher.doc_freq(&user_term).map_err(AppError::internal)? != max_doc {
            clauses.push((
                Occur::Must,
                Box::new(TermQuery::new(user_term, IndexRecordOption::Basic)),
            ));
        }
        let hidden = Term::from_field_text(f.flags, "hidden");
        if searcher.doc_freq(&hidden).map_err(AppError::internal)? > 0 {
            clauses.push((
                Occur::MustNot,
                Box::new(TermQuery::new(hidden, IndexRecordOption::Basic)),
            ));
        }
        let scoped: Box<dyn Query> = if clauses.len() == 1 {
            clauses.pop().expect("the query").1
        } else {
            Box::new(BooleanQuery::new(clauses))
        };
        let per_page = req.per_page.clamp(1, MAX_PER_PAGE);
        let offset = req.page.saturating_sub(1).saturating_mul(per_page);
        let top = TopDocs::with_limit(per_page).and_offset(offset);
        let (total, addrs): (usize, Vec<DocAddress>) = if req.by_relevance {
            let (n, hits) = searcher
                .search(&*scoped, &(Count, top.order_by_score()))
                .map_err(AppError::internal)?;
            (n, hits.into_iter().map(|(_, a)| a).collect())
        } else {
            let (n, hits) = searcher
                .search(
                    &*scoped,
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

    /// The result rows of `ids` (the store's mail rows, with folder role and snippet). A
    /// snippet that needs its message parsed (the hit is past the stored preview and the text
    /// is not cached) is left empty and listed in the page: [`Search::parse_rest`] fills it.
    pub fn rows(&self, store: &Store, user_accounts: &[u64], outcome: &Outcome) -> Result<Page> {
        let mail = MailRead::new(store)?;
        let mut roles: HashMap<u64, HashMap<String, (String, String)>> = HashMap::new();
        let mut snippets = Snippets::new(&outcome.highlight);
        let mut out = Vec::with_capacity(outcome.ids.len());
        let mut unparsed = Vec::new();
        for id in &outcome.ids {
            // The index may trail the store by a moment: what is gone or hidden is left out.
            let Ok(Some(meta)) = mail.meta(*id) else {
                continue;
            };
            if meta.hidden || !user_accounts.contains(&meta.account_id) {
                continue;
            }
            let account_roles = match roles.entry(meta.account_id) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(v) => v.insert(
                    mail.folders(meta.account_id)?
                        .into_iter()
                        .map(|f| (f.name, (f.role, f.display_name)))
                        .collect(),
                ),
            };
            let (role, folder_name) = account_roles
                .get(&meta.folder)
                .cloned()
                .unwrap_or_else(|| (String::new(), meta.folder.clone()));
            let preview = &meta.summary.preview;
            // Empty until `parse_rest`, for a hit past the preview.
            let mut snippet = Vec::new();
            if let Some(s) = snippets.in_preview(preview) {
                snippet = s;
            } else if let Some(body) = self.texts.get(*id) {
                snippet = snippets.in_body(&body, preview);
            } else {
                unparsed.push((out.len(), *id));
            }
            out.push(SearchResult {
                email: view::row(&meta),
                folder_role: role,
                folder_name,
                snippet,
            });
        }
        Ok(Page {
            rows: out,
            unparsed,
            highlight: outcome.highlight.clone(),
        })
    }

    /// The snippets of `page` that need their message: read, parsed and cut on every core
    /// (parsing is most of a page's cost when it is needed); the texts are cached for the
    /// next page or keystroke.
    pub fn parse_rest(&self, store: &Store, page: &mut Page) {
        let items: Vec<(usize, u64, String)> = std::mem::take(&mut page.unparsed)
            .into_iter()
            .map(|(at, id)| (at, id, page.rows[at].email.preview.clone()))
            .collect();
        for (at, id, body, snippet) in parse_and_snip(store, items, &page.highlight) {
            page.rows[at].snippet = snippet;
            self.texts.put(id, body);
        }
    }
}

/// One page of results; see [`Search::rows`].
pub struct Page {
    pub rows: Vec<SearchResult>,
    /// (row, message id) of the snippets still to cut from the parsed message.
    unparsed: Vec<(usize, u64)>,
    highlight: Vec<String>,
}

impl Page {
    /// Whether some snippet needs its message parsed ([`Search::parse_rest`]).
    pub fn needs_parsing(&self) -> bool {
        !self.unparsed.is_empty()
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
