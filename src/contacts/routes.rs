//! `/api/contacts` (list with search and group, create, change, delete), `/api/contacts/
//! suggestions`, `/api/contacts/import` and `/export` (vCard), `/api/contacts/{id}/mail`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{Contact, ContactInput, Imported, vcard};
use crate::auth::CurrentUser;
use crate::error::{ApiJson, AppError, Result};
use crate::kit::now_rfc3339;
use crate::messages;
use crate::search::Search;
use crate::search::run::{Request as SearchRequest, SearchResult};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/contacts", get(list).post(create))
        .route("/api/contacts/{id}", put(update).delete(delete))
        .route("/api/contacts/{id}/mail", get(mail))
        .route("/api/contacts/suggestions", get(suggestions))
        .route("/api/contacts/import", post(import))
        .route("/api/contacts/export", get(export))
        // Compose's address book lists contacts first, so this feature answers it.
        .route("/api/compose/address-book", get(address_book))
}

fn id_of(raw: &str) -> Result<u64> {
    raw.parse()
        .map_err(|_| AppError::NotFound(messages::CONTACT_NOT_FOUND.into()))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ListQuery {
    search: String,
    group: String,
}

/// `GET /api/contacts`: the matching contacts by name, and every group the user has.
#[derive(Debug, Serialize, TS)]
pub struct ContactsResponse {
    pub contacts: Vec<Contact>,
    pub groups: Vec<String>,
}

async fn list(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Query(q): Query<ListQuery>,
) -> Result<Json<ContactsResponse>> {
    let r = state
        .store_blocking(move |store| {
            // One read of the user's contacts serves the groups and the search.
            let all = super::all(store, user.id)?;
            let groups: Vec<String> = all
                .iter()
                .flat_map(|c| c.fields.groups.iter().cloned())
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let group = Some(q.group.as_str()).filter(|g| !g.is_empty());
            let contacts = super::filter(all, &q.search, group)
                .into_iter()
                .map(Contact::from)
                .collect();
            Ok(ContactsResponse { contacts, groups })
        })
        .await?;
    Ok(Json(r))
}

async fn create(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(input): ApiJson<ContactInput>,
) -> Result<Json<Contact>> {
    let c = state
        .store_blocking(move |store| super::create(store, user.id, input, &now_rfc3339()))
        .await?;
    Ok(Json(c.into()))
}

async fn update(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
    ApiJson(input): ApiJson<ContactInput>,
) -> Result<Json<Contact>> {
    let id = id_of(&id)?;
    let c = state
        .store_blocking(move |store| super::update(store, user.id, id, input, &now_rfc3339()))
        .await?
        .ok_or_else(|| AppError::NotFound(messages::CONTACT_NOT_FOUND.into()))?;
    Ok(Json(c.into()))
}

#[derive(Debug, Serialize, TS)]
#[ts(rename = "ContactDeleted")]
pub struct Deleted {
    pub success: bool,
}

async fn delete(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<Deleted>> {
    let id = id_of(&id)?;
    if !state
        .store_blocking(move |store| super::delete(store, user.id, id))
        .await?
    {
        return Err(AppError::NotFound(messages::CONTACT_NOT_FOUND.into()));
    }
    Ok(Json(Deleted { success: true }))
}

/// Someone the user mails with who is not a contact yet.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "ContactSuggestion")]
pub struct Suggestion {
    pub name: String,
    pub email: String,
    /// Mails to or from them among those read.
    pub count: usize,
}

#[derive(Debug, Serialize, TS)]
#[ts(rename = "ContactSuggestionsResponse")]
pub struct SuggestionsResponse {
    pub suggestions: Vec<Suggestion>,
}

/// `GET /api/contacts/suggestions`: the people of the address book that are not contacts,
/// most mailed first.
async fn suggestions(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<SuggestionsResponse>> {
    let suggestions = state
        .store_blocking(move |store| {
            let saved: Vec<String> = super::all(store, user.id)?
                .into_iter()
                .map(|c| c.fields.email.to_lowercase())
                .collect();
            Ok(crate::outgoing::contacts::people(store, user.id)?
                .into_iter()
                .filter(|p| !saved.contains(&p.email.to_lowercase()))
                .take(30)
                .map(|p| Suggestion {
                    name: p.name,
                    email: p.email,
                    count: p.count,
                })
                .collect())
        })
        .await?;
    Ok(Json(SuggestionsResponse { suggestions }))
}

/// A flag raised when it is dropped: work on the blocking pool looks at it to stop when the
/// request that asked for it is gone.
#[derive(Default)]
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// `POST /api/contacts/import`: the body is the vCard file (`text/vcard`, any content type).
async fn import(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Body,
) -> Result<Json<Imported>> {
    // Read here, bounded, so a file too large gets the Hebrew message (the default body
    // limit would answer in English first).
    let body = axum::body::to_bytes(body, vcard::MAX_BYTES)
        .await
        .map_err(|_| AppError::TooLarge(messages::VCARD_TOO_LARGE.into()))?;
    let text = String::from_utf8_lossy(&body).into_owned();
    // Raised when this handler is dropped (the request timed out or the client left): the
    // reading on the blocking pool stops with it instead of running on unseen.
    let stop = StopOnDrop::default();
    let flag = stop.0.clone();
    let read = state
        .store_blocking(move |_| {
            vcard::read_until(&text, &flag)
                .ok_or_else(|| AppError::internal(anyhow::anyhow!("vCard import cancelled")))
        })
        .await?;
    drop(stop);
    if read.too_long > 0 {
        tracing::info!(
            user_id = user.id,
            lines = read.too_long,
            "vCard import: properties too long were dropped"
        );
    }
    if read.cards.is_empty() {
        return Err(AppError::bad_request(messages::VCARD_EMPTY));
    }
    let r = state
        .store_blocking(move |store| {
            super::import(store, user.id, read.cards, read.skipped, &now_rfc3339())
        })
        .await?;
    Ok(Json(r))
}

/// `GET /api/contacts/export`: every contact as a vCard 4.0 file.
async fn export(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<Response> {
    let text = state
        .store_blocking(move |store| {
            let all: Vec<ContactInput> = super::all(store, user.id)?
                .into_iter()
                .map(|c| c.fields)
                .collect();
            Ok(vcard::write(&all))
        })
        .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/vcard; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"contacts.vcf\"",
            ),
        ],
        text,
    )
        .into_response())
}

/// `GET /api/contacts/{id}/mail`: the 20 newest mails from or to the contact.
#[derive(Debug, Serialize, TS)]
pub struct ContactMailResponse {
    pub emails: Vec<SearchResult>,
}

async fn mail(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<ContactMailResponse>> {
    let id = id_of(&id)?;
    let contact = state
        .store_blocking(move |store| super::get(store, user.id, id))
        .await?
        .ok_or_else(|| AppError::NotFound(messages::CONTACT_NOT_FOUND.into()))?;
    let email = contact.fields.email.replace('"', "");
    let search = state.service::<Search>();
    let req = SearchRequest {
        q: format!("from:\"{email}\" OR to:\"{email}\""),
        page: 1,
        per_page: 20,
        ..SearchRequest::default()
    };
    let rows = state
        .store_blocking(move |store| {
            let accounts: Vec<u64> = crate::emails::user_accounts(store, user.id)?
                .into_iter()
                .collect();
            let outcome = match search.find(user.id, &req) {
                Ok(o) => o,
                // An address the query language cannot take finds nothing.
                Err(AppError::BadQuery(_) | AppError::EmptyQuery) => return Ok(Vec::new()),
                Err(e) => return Err(e),
            };
            let mut page = search.rows(store, &accounts, &outcome)?;
            search.parse_rest(store, &mut page);
            Ok(page.rows)
        })
        .await?;
    Ok(Json(ContactMailResponse { emails: rows }))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct BookQuery {
    q: String,
}

/// `GET /api/compose/address-book?q=`: contacts first, then the people the user mails with.
async fn address_book(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Query(q): Query<BookQuery>,
) -> Result<Json<crate::outgoing::routes::ContactsResponse>> {
    let contacts = state
        .store_blocking(move |store| super::address_book(store, user.id, &q.q))
        .await?;
    Ok(Json(crate::outgoing::routes::ContactsResponse { contacts }))
}
