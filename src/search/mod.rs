//! Full-text search over the stored mail (spec 001 "Advanced search page", §5 Search): one
//! tantivy index for every user's mail, kept in step with the store by following its change
//! log, a Hebrew-aware analysis, the query language, and `GET /api/search`.
//!
//! - `analyzer.rs`: the tokenizer (niqqud, final letters, acronyms, prefix letters, stemming)
//! - `schema.rs`: fields and the document of one message
//! - `index.rs`: the index on disk, its writer, rebuilds and the indexer thread
//! - `query.rs`: parsing the query language; `build.rs`: the parsed query as a tantivy query
//! - `run.rs`: running a search; `routes.rs`: the HTTP side

pub mod analyzer;
pub mod build;
pub mod index;
mod materialize;
pub mod merge;
pub mod query;
pub mod routes;
pub mod run;
pub mod schema;
pub mod stem;

pub use index::{Search, WriterOptions};
pub use routes::router;

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(run::SnippetPart, run::SearchResult, routes::SearchResponse,);
