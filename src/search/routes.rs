//! `GET /api/search` (docs/API.md "Search").

use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, header, header::HeaderName};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::Search;
use super::run::{Request, SearchResult};
use crate::auth::CurrentUser;
use crate::error::{AppError, Result};
use crate::messages;
use crate::state::AppState;

pub const DEFAULT_PER_PAGE: usize = 20;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/search", get(search))
}

/// Every parameter as text: a number that does not parse is a clear 400, not axum's own.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Params {
    q: String,
    from: String,
    to: String,
    subject: String,
    after: String,
    before: String,
    unread: String,
    starred: String,
    attachment: String,
    folder: String,
    page: String,
    #[serde(rename = "perPage", alias = "per_page")]
    per_page: String,
    sort: String,
    tz: String,
}

fn number(name: &str, v: &str, default: i64, min: i64, max: i64) -> Result<i64> {
    if v.trim().is_empty() {
        return Ok(default);
    }
    match v.trim().parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(AppError::bad_request(messages::search_bad_number(
            name, min, max,
        ))),
    }
}

fn on(v: &str) -> bool {
    matches!(v.trim(), "1" | "true" | "on" | "yes")
}

/// Results a search pages through at most.
pub const MAX_RESULT_WINDOW: usize = 10_000;

impl Params {
    fn request(&self) -> Result<Request> {
        let sort = self.sort.trim();
        if !matches!(sort, "" | "date" | "relevance") {
            return Err(AppError::bad_request(messages::SEARCH_BAD_SORT));
        }
        let request = Request {
            q: self.q.clone(),
            from: self.from.clone(),
            to: self.to.clone(),
            subject: self.subject.clone(),
            after: self.after.clone(),
            before: self.before.clone(),
            unread: on(&self.unread),
            starred: on(&self.starred),
            attachment: on(&self.attachment),
            folder: self.folder.clone(),
            page: number("page", &self.page, 1, 1, 100_000)? as usize,
            per_page: number(
                "perPage",
                &self.per_page,
                DEFAULT_PER_PAGE as i64,
                1,
                super::run::MAX_PER_PAGE as i64,
            )? as usize,
            by_relevance: sort == "relevance",
            tz_secs: number("tz", &self.tz, 120, -14 * 60, 14 * 60)? * 60,
        };
        // The index collects every result before the page: a page far out would make it hold
        // millions. Nobody reads past the first thousands; a narrower query finds the rest.
        if (request.page - 1).saturating_mul(request.per_page) >= MAX_RESULT_WINDOW {
            return Err(AppError::bad_request(messages::SEARCH_PAGE_TOO_FAR));
        }
        Ok(request)
    }
}

/// `GET /api/search`: one page of results.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SearchResponse {
    /// Every match, not only this page's.
    pub total: usize,
    pub page: usize,
    pub per_page: usize,
    pub took_ms: f64,
    /// Mail still waits to be indexed: results may be missing some.
    pub indexing: bool,
    pub results: Vec<SearchResult>,
}

async fn search(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Query(params): Query<Params>,
) -> Result<Response> {
    let req = params.request()?;
    let (page, per_page) = (req.page, req.per_page);
    let started = std::time::Instant::now();
    let search = state.service::<Search>();
    // The search and the rows run here: reads of the index and of the store (a read
    // transaction never waits for a writer), under a millisecond at 60,000 messages; the hop
    // to the blocking pool and back added a sixth of that, and most of the p99. Reading and
    // parsing messages, needed only for hits past the stored previews of mail not shown
    // lately, goes there.
    let accounts: Vec<u64> = crate::emails::user_accounts(&state.store, user.id)?
        .into_iter()
        .collect();
    let outcome = search.find(user.id, &req)?;
    let total = outcome.total;
    let mut rows = search.rows(&state.store, &accounts, &outcome)?;
    if rows.needs_parsing() {
        let store = state.store.clone();
        let search = search.clone();
        rows = tokio::task::spawn_blocking(move || {
            search.parse_rest(&store, &mut rows);
            rows
        })
        .await
        .map_err(AppError::internal)?;
    }
    let took = started.elapsed().as_secs_f64() * 1000.0;
    let body = SearchResponse {
        total,
        page,
        per_page,
        took_ms: (took * 1000.0).round() / 1000.0,
        indexing: search.is_busy(),
        results: rows.rows,
    };
    // Serialized at once into a buffer of about the page's size.
    let mut json = Vec::with_capacity(512 + 1536 * body.results.len());
    serde_json::to_writer(&mut json, &body).map_err(AppError::internal)?;
    let mut resp = (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        json,
    )
        .into_response();
    if let Ok(v) = HeaderValue::from_str(&format!("search;dur={took:.3}")) {
        resp.headers_mut()
            .insert(HeaderName::from_static("server-timing"), v);
    }
    Ok(resp)
}
