//! Full-text search over the stored mail (spec 001 "Advanced search page", §5 Search): one
//! tantivy index for every user's mail, kept in step with the store by following its change
//! log, a Hebrew-aware analysis, the query language, and `GET /api/search`.
//!
//! - `analyzer.rs`: the tokenizer (niqqud, final letters, acronyms, prefix letters, stemming)
//! - `schema.rs`: fields and the document of one message
//! - `index.rs`: the index on disk, its writer, rebuilds and the indexer thread
//! - `query.rs`: parsing the query language; `build.rs`: the parsed query as a tantivy query
//! - `run.rs`: running a search; `routes.rs`: the HTTP side
//!
//! Priorities on a two-core home server: the indexer thread and the writer's threads run at a
//! lower CPU priority (`background.rs`), and during a bulk load of the store (`Store::bulk_load`)
//! the indexer waits (up to two minutes at a time) while searches say `indexing`. Each document
//! goes to the writer as soon as it is made, a commit per 1,000 log entries, carrying the last
//! sequence number as its payload before the cursor is acked; merges are bounded (`merge.rs`). A
//! query is answered in the request handler (index reads only); snippets past the stored preview
//! are read on the blocking pool (`run/`). To change the analysis or the fields: bump
//! `schema::VERSION` (every index is rebuilt once).

pub mod analyzer;
mod background;
pub mod build;
pub mod index;
mod materialize;
pub mod merge;
pub mod query;
pub mod routes;
pub mod run;
pub mod schema;
pub mod stem;

use std::sync::Arc;
use std::time::Duration;

pub use index::{Search, WriterOptions};
pub use routes::router;

use crate::feature::{Feature, Setup, need};
use crate::state::AppState;

/// How often the indexer looks while a bulk load makes it wait.
const INDEX_POLL: Duration = Duration::from_millis(250);
/// How long the indexer sleeps with nothing to do and no poke (a safety net: the feed pokes it).
const INDEX_IDLE_POLL: Duration = Duration::from_secs(10);

/// Search: its route, the index (opened at background priority) and the indexer.
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    init,
    start,
    needs: &[need::<Search>],
    ..Feature::named("search")
};

/// Opens the index; the writer's threads are started here, at background priority.
fn init(setup: &mut Setup<'_>) -> anyhow::Result<()> {
    let (dir, store) = (&setup.config.storage.data_dir, setup.store.clone());
    let opts = setup.config.search.serve_writer();
    let search = Arc::new(background::in_background(|| {
        Search::open(dir, store, opts)
    })?);
    setup.on_forget(search.clone());
    setup.provide(search)
}

/// After a removal the forgotten mail's bytes leave the index, then the store's free pages are
/// overwritten (on the indexer's thread).
impl crate::forget::Hooks for Search {
    fn forgotten(&self, _: &[u64]) {
        if let Err(e) = self.request_purge() {
            tracing::warn!(error = %format!("{e:#}"), "cannot ask for the forgotten bytes to be purged");
        }
    }
}

/// The indexer thread, at background priority, poked by every batch of the change feed.
fn start(state: &AppState) -> anyhow::Result<()> {
    let search = state.service::<Search>();
    background::in_background(|| search.spawn_indexer(INDEX_POLL, INDEX_IDLE_POLL));
    state.changes.on_batch(move |_| search.poke());
    Ok(())
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(run::SnippetPart, run::SearchResult, routes::SearchResponse,);
