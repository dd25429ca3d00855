//! `/api/emails/*` and `/api/folders`.

use axum::Json;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::triage::{self, BulkAction};
use super::view::{EmailRow, ThreadView};
use super::wire::*;
use super::{ListOptions, Selector, remote, view, zero};
use crate::auth::{CurrentUser, UserStore};
use crate::error::{ApiJson, AppError, Result};
use crate::mail::parse;
use crate::messages;
use crate::state::AppState;

pub const DEFAULT_PER_PAGE: usize = 50;
const MAX_PER_PAGE: usize = 500;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/emails/counts", get(counts))
        .route("/api/emails/inbox-zero", get(inbox_zero))
        .route("/api/emails/auto-archive", post(auto_archive))
        .route("/api/emails/bulk", post(bulk))
        .route(
            "/api/emails/remote-senders",
            get(remote_senders).post(allow_sender),
        )
        .route(
            "/api/emails/remote-senders/{address}",
            axum::routing::delete(forbid_sender),
        )
        .route("/api/emails/session/{folder}", get(list_virtual))
        .route("/api/threads/{folder}", get(list_threads))
        .route("/api/threads/{folder}/{thread}", get(get_thread))
        .route(
            "/api/emails/{key}",
            get(list_or_get).put(update).delete(delete),
        )
        .route("/api/emails/{id}/status", put(set_status))
        .route("/api/emails/{id}/trash", post(trash))
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
    /// unread, starred, attachment (comma-separated).
    filter: Option<String>,
    status: Option<String>,
    sort: Option<String>,
    order: Option<String>,
}

impl ListQuery {
    fn options(&self) -> Result<ListOptions> {
        ListOptions::parse(
            self.filter.as_deref(),
            self.status.as_deref(),
            self.sort.as_deref(),
            self.order.as_deref(),
        )
    }
}

/// After a change made here: push it to the mailbox. The user's other sessions hear of it
/// from the change log (the live channel follows it).
pub(crate) fn changed(state: &AppState, accounts: impl IntoIterator<Item = u64>) {
    for account_id in accounts {
        state.mailboxes.wake(account_id);
    }
}

fn with_total<T: Serialize>(rows: Vec<T>, total: usize, page: usize, per_page: usize) -> Response {
    let mut response = Json(rows).into_response();
    let h = response.headers_mut();
    h.insert("x-total-count", HeaderValue::from(total));
    h.insert("x-page", HeaderValue::from(page));
    h.insert("x-per-page", HeaderValue::from(per_page));
    response
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
async fn list_response(
    state: &AppState,
    user_id: u64,
    sel: Selector,
    q: &ListQuery,
) -> Result<Response> {
    let (page, per_page) = paging(q);
    let opts = q.options()?;
    let p = state
        .store_blocking(move |store| {
            super::listing::list(store, user_id, &sel, &opts, page, per_page)
        })
        .await?;
    let rows: Vec<EmailRow> = p.emails.iter().map(view::row).collect();
    Ok(with_total(rows, p.total, page, per_page))
}

/// `GET /api/threads/{folder}`: the listing grouped into threads.
async fn list_threads(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(folder): Path<String>,
    Query(q): Query<ListQuery>,
) -> Result<Response> {
    let (page, per_page) = paging(&q);
    let opts = q.options()?;
    let sel = Selector::for_any(&folder);
    let p = state
        .store_blocking(move |store| {
            super::listing::threads(store, user.id, &sel, &opts, page, per_page)
        })
        .await?;
    let rows: Vec<ThreadView> = p.threads.iter().map(view::list_thread).collect();
    Ok(with_total(rows, p.total, page, per_page))
}

/// `GET /api/threads/{folder}/{thread}`: one thread of a listing with all of its mail that the
/// listing keeps (a page of threads carries only the newest of each).
async fn get_thread(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((folder, thread)): Path<(String, String)>,
    Query(q): Query<ListQuery>,
) -> Result<Json<ThreadView>> {
    let opts = q.options()?;
    let sel = Selector::for_any(&folder);
    let t = state
        .store_blocking(move |store| {
            super::listing::thread_by_id(store, user.id, &sel, &opts, &thread)
        })
        .await?
        .ok_or_else(|| AppError::NotFound(messages::THREAD_NOT_FOUND.into()))?;
    Ok(Json(view::thread(&t)))
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
        let asked = matches!(q.remote.as_deref(), Some("1" | "true"));
        let v = state
            .store_blocking(move |store| {
                let (meta, raw) = super::get(store, user.id, id)?;
                let for_sender = remote::allowed(store, user.id, &meta.summary.from)?;
                let mut v = view::whole(&meta, &raw, for_sender || asked);
                v.remote_allowed_for_sender = Some(for_sender);
                Ok(v)
            })
            .await?;
        return Ok(Json(v).into_response());
    }
    list_response(&state, user.id, Selector::for_folder(&key), &q).await
}

async fn list_virtual(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(folder): Path<String>,
    Query(q): Query<ListQuery>,
) -> Result<Response> {
    let sel = Selector::for_virtual(&folder)
        .ok_or_else(|| AppError::NotFound(messages::FOLDER_UNKNOWN.into()))?;
    list_response(&state, user.id, sel, &q).await
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
) -> Result<Json<EmailResponse>> {
    let id =
        message_id(&key).ok_or_else(|| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))?;
    let meta = state
        .store_blocking(move |store| {
            super::set_flags(store, user.id, id, req.is_read, req.is_starred)
        })
        .await?;
    changed(&state, [meta.account_id]);
    Ok(Json(EmailResponse {
        success: true,
        email: view::row(&meta),
    }))
}

fn parse_id(key: &str) -> Result<u64> {
    message_id(key).ok_or_else(|| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))
}

#[derive(Debug, Deserialize)]
struct StatusRequest {
    status: String,
    #[serde(default)]
    priority: Option<String>,
}

/// `?folder=` (and the listing options) of a status change: the listing whose thread the answer
/// carries.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct StatusQuery {
    folder: Option<String>,
    filter: Option<String>,
    status: Option<String>,
    sort: Option<String>,
    order: Option<String>,
}

/// `PUT /api/emails/{id}/status` → `{movedTo, email, thread}` (spec 000 §4).
async fn set_status(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(key): Path<String>,
    Query(q): Query<StatusQuery>,
    ApiJson(req): ApiJson<StatusRequest>,
) -> Result<Json<SetStatusResponse>> {
    let id = parse_id(&key)?;
    let opts = ListQuery {
        filter: q.filter,
        status: q.status,
        sort: q.sort,
        order: q.order,
        ..ListQuery::default()
    }
    .options()?;
    let hooks = state.hooks.clone();
    let (moved, thread) = state
        .store_blocking(move |store| {
            let moved = triage::set_status(
                store,
                &hooks,
                user.id,
                id,
                &req.status,
                req.priority.as_deref(),
            )?;
            // The listing the user is looking at, else the mail's own folder.
            let folder = q.folder.unwrap_or_else(|| moved.meta.folder.clone());
            let sel = Selector::for_any(&folder);
            let thread = super::listing::thread_in(store, user.id, &sel, &opts, &moved.meta)?;
            Ok((moved, thread))
        })
        .await?;
    changed(&state, [moved.meta.account_id]);
    Ok(Json(SetStatusResponse {
        success: true,
        moved_to: moved.moved_to,
        email: view::row(&moved.meta),
        thread: view::thread(&thread),
    }))
}

/// `DELETE /api/emails/{id}`: hidden from this site only (spec 000 §5).
async fn delete(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(key): Path<String>,
) -> Result<Json<DeleteEmailResponse>> {
    let id = parse_id(&key)?;
    let meta = state
        .store_blocking(move |store| triage::delete(store, user.id, id))
        .await?;
    changed(&state, [meta.account_id]);
    Ok(Json(DeleteEmailResponse {
        success: true,
        deleted: 1,
    }))
}

/// `POST /api/emails/{id}/trash`: moved to the mailbox's Trash.
async fn trash(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(key): Path<String>,
) -> Result<Json<TrashEmailResponse>> {
    let id = parse_id(&key)?;
    let meta = state
        .store_blocking(move |store| triage::trash(store, user.id, id))
        .await?;
    changed(&state, [meta.account_id]);
    Ok(Json(TrashEmailResponse {
        success: true,
        moved_to: "trash".into(),
    }))
}

/// Ids arrive as strings (the Email JSON's `id`) or numbers.
fn ids_of(values: &[Value]) -> Vec<u64> {
    values
        .iter()
        .filter_map(|v| match v {
            Value::String(s) => s.parse().ok(),
            Value::Number(n) => n.as_u64(),
            _ => None,
        })
        .collect()
}

#[derive(Debug, Deserialize)]
struct BulkRequest {
    #[serde(default)]
    ids: Vec<Value>,
    action: String,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    priority: Option<String>,
}

async fn bulk(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<BulkRequest>,
) -> Result<Json<BulkResponse>> {
    let action = BulkAction::parse(&req.action, req.status.as_deref(), req.priority.as_deref())?;
    let ids = ids_of(&req.ids);
    if ids.is_empty() {
        return Err(AppError::BadRequest(messages::BULK_IDS_REQUIRED.into()));
    }
    let hooks = state.hooks.clone();
    let out = state
        .store_blocking(move |store| triage::bulk(store, &hooks, user.id, &ids, &action))
        .await?;
    changed(&state, out.accounts.iter().copied());
    Ok(Json(BulkResponse {
        success: true,
        updated: out.updated,
        moved_to: out.moved_to,
        emails: out.emails.iter().map(view::row).collect(),
    }))
}

async fn inbox_zero(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<zero::InboxZero>> {
    let now = crate::kit::now();
    Ok(Json(
        state
            .store_blocking(move |store| zero::inbox_zero(store, user.id, now))
            .await?,
    ))
}

#[derive(Debug, Deserialize)]
struct AutoArchiveRequest {
    #[serde(default, alias = "email_ids", alias = "ids")]
    #[serde(rename = "emailIds")]
    email_ids: Vec<Value>,
}

async fn auto_archive(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<AutoArchiveRequest>,
) -> Result<Json<AutoArchiveResponse>> {
    let ids = ids_of(&req.email_ids);
    let (archived, accounts) = state
        .store_blocking(move |store| triage::auto_archive(store, user.id, &ids))
        .await?;
    changed(&state, accounts);
    Ok(Json(AutoArchiveResponse {
        success: true,
        archived_count: archived,
    }))
}

async fn remote_senders(me: UserStore) -> Result<Json<RemoteSendersResponse>> {
    let senders = me.run(remote::list).await?;
    Ok(Json(RemoteSendersResponse { senders }))
}

#[derive(Debug, Deserialize)]
struct SenderRequest {
    address: String,
}

async fn allow_sender(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<SenderRequest>,
) -> Result<Json<SenderAdded>> {
    let address = state
        .store_blocking(move |store| remote::add(store, user.id, &req.address))
        .await?;
    Ok(Json(SenderAdded {
        success: true,
        address,
    }))
}

async fn forbid_sender(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(address): Path<String>,
) -> Result<Json<SenderRemoved>> {
    let removed = state
        .store_blocking(move |store| remote::remove(store, user.id, &address))
        .await?;
    Ok(Json(SenderRemoved {
        success: true,
        removed,
    }))
}

async fn counts(me: UserStore) -> Result<Json<super::Counts>> {
    Ok(Json(me.run(super::listing::counts).await?))
}

async fn folders(me: UserStore) -> Result<Json<FoldersResponse>> {
    let folders = me.run(super::listing::folders).await?;
    Ok(Json(FoldersResponse { folders }))
}

/// `GET /api/emails/{id}/attachments/{index}`: the file, with its decoded name.
async fn attachment(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((id, index)): Path<(u64, usize)>,
) -> Result<Response> {
    let (info, bytes) = state
        .store_blocking(move |store| {
            let (_, raw) = super::get(store, user.id, id)?;
            parse::attachment(&raw, index)
                .ok_or_else(|| AppError::NotFound(messages::ATTACHMENT_NOT_FOUND.into()))
        })
        .await?;
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
    let (_, raw) = state
        .store_blocking(move |store| super::get(store, user.id, id))
        .await?;
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
