//! `/api/emails/*` and `/api/folders`.

use axum::Json;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Selector, view};
use crate::app::AppState;
use crate::error::{ApiJson, AppError, Result};
use crate::http::auth::CurrentUser;
use crate::mail::parse;
use crate::messages;

pub const DEFAULT_PER_PAGE: usize = 50;
const MAX_PER_PAGE: usize = 500;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/emails/counts", get(counts))
        .route("/api/emails/session/{folder}", get(list_virtual))
        .route("/api/emails/{key}", get(list_or_get).put(update))
        .route("/api/emails/{id}/attachments/{index}", get(attachment))
        .route("/api/emails/{id}/raw", get(raw))
        .route("/api/folders", get(folders))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ListQuery {
    page: Option<usize>,
    #[serde(alias = "emailsPerPage", alias = "per_page")]
    #[serde(rename = "perPage")]
    per_page: Option<usize>,
    /// `1` shows remote images of this message.
    remote: Option<String>,
}

fn paging(q: &ListQuery) -> (usize, usize) {
    (
        q.page.unwrap_or(1).max(1),
        q.per_page
            .unwrap_or(DEFAULT_PER_PAGE)
            .clamp(1, MAX_PER_PAGE),
    )
}

/// A list is a JSON array (as the spec's client expects); the total goes in `X-Total-Count`.
fn list_response(state: &AppState, user_id: u64, sel: Selector, q: &ListQuery) -> Result<Response> {
    let (page, per_page) = paging(q);
    let p = super::list(&state.store, user_id, &sel, page, per_page)?;
    let rows: Vec<Value> = p.emails.iter().map(view::row).collect();
    let mut response = Json(rows).into_response();
    let h = response.headers_mut();
    h.insert("x-total-count", HeaderValue::from(p.total));
    h.insert("x-page", HeaderValue::from(page));
    h.insert("x-per-page", HeaderValue::from(per_page));
    Ok(response)
}

fn message_id(key: &str) -> Option<u64> {
    key.parse().ok()
}

/// `GET /api/emails/{folder}` lists a folder; `GET /api/emails/{id}` (a number) is one mail.
async fn list_or_get(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(key): Path<String>,
    Query(q): Query<ListQuery>,
) -> Result<Response> {
    if let Some(id) = message_id(&key) {
        let (meta, raw) = super::get(&state.store, user.id, id)?;
        let remote = matches!(q.remote.as_deref(), Some("1" | "true"));
        let v = tokio::task::spawn_blocking(move || view::whole(&meta, &raw, remote))
            .await
            .map_err(AppError::internal)?;
        return Ok(Json(v).into_response());
    }
    list_response(&state, user.id, Selector::for_folder(&key), &q)
}

async fn list_virtual(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(folder): Path<String>,
    Query(q): Query<ListQuery>,
) -> Result<Response> {
    let sel = Selector::for_virtual(&folder)
        .ok_or_else(|| AppError::NotFound(messages::FOLDER_UNKNOWN.into()))?;
    list_response(&state, user.id, sel, &q)
}

#[derive(Debug, Deserialize)]
struct UpdateRequest {
    #[serde(default, alias = "isRead", alias = "read")]
    is_read: Option<bool>,
    #[serde(default, alias = "isStarred", alias = "starred")]
    is_starred: Option<bool>,
}

/// `PUT /api/emails/{id}`: is_read and is_starred, written back to the server as \Seen and
/// \Flagged.
async fn update(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(key): Path<String>,
    ApiJson(req): ApiJson<UpdateRequest>,
) -> Result<Json<Value>> {
    let id =
        message_id(&key).ok_or_else(|| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))?;
    let meta = super::set_flags(&state.store, user.id, id, req.is_read, req.is_starred)?;
    state.sync.wake(meta.account_id);
    Ok(Json(json!({ "success": true, "email": view::row(&meta) })))
}

async fn counts(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<super::Counts>> {
    Ok(Json(super::counts(&state.store, user.id)?))
}

async fn folders(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Value>> {
    Ok(Json(
        json!({ "folders": super::folders(&state.store, user.id)? }),
    ))
}

/// `GET /api/emails/{id}/attachments/{index}`: the file, with its decoded name.
async fn attachment(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((id, index)): Path<(u64, usize)>,
) -> Result<Response> {
    let (_, raw) = super::get(&state.store, user.id, id)?;
    let (info, bytes) = tokio::task::spawn_blocking(move || parse::attachment(&raw, index))
        .await
        .map_err(AppError::internal)?
        .ok_or_else(|| AppError::NotFound(messages::ATTACHMENT_NOT_FOUND.into()))?;
    let mut headers = HeaderMap::new();
    // Served as a download, never rendered in our origin: a hostile HTML attachment must not
    // run as this app.
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/octet-stream"),
    );
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&content_disposition(&info.filename))
            .unwrap_or(HeaderValue::from_static("attachment")),
    );
    headers.insert(
        "x-content-type",
        HeaderValue::from_str(&info.content_type)
            .unwrap_or(HeaderValue::from_static("application/octet-stream")),
    );
    Ok((headers, bytes).into_response())
}

/// `GET /api/emails/{id}/raw`: the message as it arrived (message/rfc822), for saving or for
/// a mail that could not be parsed.
async fn raw(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<u64>,
) -> Result<Response> {
    let (_, raw) = super::get(&state.store, user.id, id)?;
    let mut headers = HeaderMap::new();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("message/rfc822"),
    );
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&content_disposition(&format!("{id}.eml"))).expect("ascii"),
    );
    Ok((headers, raw).into_response())
}

/// RFC 6266: an ASCII fallback plus the UTF-8 name in `filename*` (RFC 5987).
pub fn content_disposition(name: &str) -> String {
    let ascii: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut encoded = String::new();
    for b in name.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(b) {
            encoded.push(*b as char);
        } else {
            encoded.push_str(&format!("%{b:02X}"));
        }
    }
    format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}
