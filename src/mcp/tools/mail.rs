//! The mail tools: search (the search box's language and Hebrew analysis, `crate::search`),
//! folder listings (`emails::listing`), one mail or a thread as sanitised text, and triage
//! (`emails::triage`, flags), each through the feature that owns it, for the token's user.

use serde_json::{Value, json};

use super::args;
use super::{NOTICE, done};
use crate::emails::listing::{self, ListOptions, Selector};
use crate::emails::view::{EmailRow, row};
use crate::error::{AppError, Result};
use crate::kit::iso;
use crate::mail::parse;
use crate::mailstore::MessageMeta;
use crate::messages;
use crate::search::Search;
use crate::search::run::Request;
use crate::state::AppState;

const MAX_LIST: i64 = 50;
const MAX_SEARCH: i64 = 25;
const MAX_BODY_CHARS: usize = 20_000;
const MAX_THREAD: usize = 20;
const MAX_THREAD_BODY_CHARS: usize = 5_000;
const MAX_QUERY: usize = 500;

pub fn search_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What to look for: words and operators (from:, to:, subject:, has:attachment, is:unread, is:starred, after:, before:, in:)."},
            "folder": {"type": "string", "description": "inbox, sent, drafts, junk, trash, archive or all (default)."},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_SEARCH, "default": 10},
            "page": {"type": "integer", "minimum": 1, "default": 1}
        },
        "required": ["query"],
        "additionalProperties": false
    })
}

pub fn list_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "folder": {"type": "string", "description": "inbox, sent, drafts, trash, junk, archive, starred, all, spam, promotions, updates, snoozed, or a folder's name.", "default": "inbox"},
            "unread_only": {"type": "boolean", "default": false},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIST, "default": 20},
            "page": {"type": "integer", "minimum": 1, "default": 1}
        },
        "additionalProperties": false
    })
}

pub fn read_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"email_id": {"type": "string", "description": "The mail's id from a listing or a search."}},
        "required": ["email_id"],
        "additionalProperties": false
    })
}

pub fn thread_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"thread_id": {"type": "string", "description": "The conversation's id (threadId of a mail)."}},
        "required": ["thread_id"],
        "additionalProperties": false
    })
}

pub fn status_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "email_id": {"type": "string"},
            "status": {"type": "string", "enum": ["needs_reply", "urgent", "processed", "info", "advertisement", "spam", "none"]}
        },
        "required": ["email_id", "status"],
        "additionalProperties": false
    })
}

pub fn mark_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "email_id": {"type": "string"},
            "read": {"type": "boolean"},
            "starred": {"type": "boolean"}
        },
        "required": ["email_id"],
        "additionalProperties": false
    })
}

/// A mail of a listing, as an agent reads it.
fn listed(r: &EmailRow) -> Value {
    json!({
        "id": r.id,
        "threadId": r.thread_id,
        "folder": r.folder,
        "from": r.from,
        "fromName": r.from_name,
        "to": r.to,
        "subject": r.subject,
        "date": r.date,
        "preview": clean_text(&r.preview, 300),
        "isRead": r.is_read,
        "isStarred": r.is_starred,
        "status": r.status,
        "hasAttachments": r.has_attachments,
    })
}

/// Text for an agent: no control characters but line breaks and tabs, none of the invisible
/// characters that hide or reorder text for a person reading along (bidi overrides and
/// isolates, zero-width spaces), at most `max` characters.
pub fn clean_text(text: &str, max: usize) -> String {
    text.chars()
        .filter(|c| {
            !matches!(
                c,
                '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200B}' | '\u{2060}' | '\u{FEFF}'
            ) && (!c.is_control() || *c == '\n' || *c == '\t')
        })
        .take(max)
        .collect()
}

fn user_tz(state: &AppState, user: u64) -> Result<chrono_tz::Tz> {
    Ok(crate::settings::load(&state.store, user)?.tz())
}

/// `search_mail`.
pub async fn search(state: &AppState, user: u64, a: Value) -> Result<Value> {
    let query = args::required(&a, "query", MAX_QUERY)?.to_string();
    let folder = args::text(&a, "folder", 100)?.unwrap_or("all").to_string();
    let limit = args::int(&a, "limit", 1, MAX_SEARCH, 10)? as usize;
    let page = args::int(&a, "page", 1, 100, 1)? as usize;
    state
        .blocking(move |state| {
            let tz = user_tz(state, user)?;
            let offset = crate::invites::event::offset_at(tz, crate::kit::now());
            let req = Request {
                q: query,
                folder,
                page,
                per_page: limit,
                tz_secs: i64::from(offset),
                ..Request::default()
            };
            let search = state.service::<Search>();
            let accounts: Vec<u64> = crate::accounts::list_for_user(&state.store, user)?
                .into_iter()
                .map(|a| a.id)
                .collect();
            let outcome = search.find(user, &req)?;
            let mut rows = search.rows(&state.store, &accounts, &outcome)?;
            if rows.needs_parsing() {
                search.parse_rest(&state.store, &mut rows);
            }
            let results: Vec<Value> = rows
                .rows
                .iter()
                .map(|r| {
                    let mut v = listed(&r.email);
                    let snippet: String = r.snippet.iter().map(|p| p.text.as_str()).collect();
                    v["snippet"] = json!(clean_text(&snippet, 300));
                    v
                })
                .collect();
            Ok(done(json!({
                "notice": NOTICE,
                "total": outcome.total,
                "page": page,
                "indexing": search.is_busy(),
                "emails": results,
            })))
        })
        .await
}

/// `list_folder`.
pub async fn list(state: &AppState, user: u64, a: Value) -> Result<Value> {
    let folder = args::text(&a, "folder", 200)?
        .unwrap_or("inbox")
        .to_string();
    let unread = args::boolean(&a, "unread_only")?.unwrap_or(false);
    let limit = args::int(&a, "limit", 1, MAX_LIST, 20)? as usize;
    let page = args::int(&a, "page", 1, 10_000, 1)? as usize;
    state
        .store_blocking(move |store| {
            let opts = ListOptions::parse(unread.then_some("unread"), None, None, None)?;
            let sel = Selector::for_any(&folder);
            let p = listing::list(store, user, &sel, &opts, page, limit)?;
            let emails: Vec<Value> = p.emails.iter().map(|m| listed(&row(m))).collect();
            Ok(done(json!({
                "notice": NOTICE,
                "folder": folder,
                "total": p.total,
                "page": page,
                "emails": emails,
            })))
        })
        .await
}

/// One mail whole, as text: its own words under `body`, cut at `max` characters.
fn whole(m: &MessageMeta, raw: &[u8], max: usize) -> Value {
    let full = parse::full(raw);
    let text = if full.text.trim().is_empty() && !full.html.is_empty() {
        crate::outgoing::mime::html_to_text(&full.html)
    } else {
        full.text
    };
    let body = clean_text(&text, max);
    let truncated = text.chars().count() > max;
    let r = row(m);
    let attachments: Vec<Value> = r
        .attachments
        .iter()
        .filter(|a| !a.inline)
        .map(|a| {
            json!({
                "filename": clean_text(&a.filename, 200),
                "contentType": a.content_type,
                "size": a.size,
            })
        })
        .collect();
    json!({
        "id": r.id,
        "threadId": r.thread_id,
        "folder": r.folder,
        "messageId": r.message_id,
        "from": r.from,
        "fromName": r.from_name,
        "to": r.to,
        "cc": r.cc,
        "subject": r.subject,
        "date": r.date,
        "isRead": r.is_read,
        "isStarred": r.is_starred,
        "status": r.status,
        "attachments": attachments,
        "body": body,
        "bodyTruncated": truncated,
    })
}

/// `read_email`.
pub async fn read(state: &AppState, user: u64, a: Value) -> Result<Value> {
    let id = args::id(&a, "email_id")?;
    state
        .store_blocking(move |store| {
            let (meta, raw) = crate::emails::get(store, user, id)?;
            Ok(done(json!({
                "notice": NOTICE,
                "email": whole(&meta, &raw, MAX_BODY_CHARS),
            })))
        })
        .await
}

/// `read_thread`.
pub async fn thread(state: &AppState, user: u64, a: Value) -> Result<Value> {
    let thread_id = args::required(&a, "thread_id", 1000)?.to_string();
    state
        .store_blocking(move |store| {
            let t = listing::thread_by_id(
                store,
                user,
                &Selector::All,
                &ListOptions::default(),
                &thread_id,
            )?
            .ok_or_else(|| AppError::NotFound(messages::THREAD_NOT_FOUND.into()))?;
            let total = t.emails.len();
            // The listing is newest first: the newest MAX_THREAD, told oldest first.
            let mut emails = Vec::new();
            for m in t.emails.iter().take(MAX_THREAD).rev() {
                let (meta, raw) = crate::emails::get(store, user, m.id)?;
                emails.push(whole(&meta, &raw, MAX_THREAD_BODY_CHARS));
            }
            Ok(done(json!({
                "notice": NOTICE,
                "threadId": thread_id,
                "total": total,
                "emails": emails,
            })))
        })
        .await
}

/// `set_status`.
pub async fn status(state: &AppState, user: u64, a: Value) -> Result<Value> {
    let id = args::id(&a, "email_id")?;
    let status = args::required(&a, "status", 20)?.to_string();
    if !matches!(
        status.as_str(),
        "needs_reply" | "urgent" | "processed" | "info" | "advertisement" | "spam" | "none"
    ) {
        return Err(AppError::bad_request(messages::STATUS_INVALID));
    }
    let hooks = state.hooks.clone();
    let moved = state
        .store_blocking(move |store| {
            crate::emails::triage::set_status(store, &hooks, user, id, &status, None)
        })
        .await?;
    state.mailboxes.wake(moved.meta.account_id);
    Ok(done(json!({
        "id": id.to_string(),
        "status": moved.meta.status,
        "movedTo": moved.moved_to,
    })))
}

/// `mark_email`.
pub async fn mark(state: &AppState, user: u64, a: Value) -> Result<Value> {
    let id = args::id(&a, "email_id")?;
    let read = args::boolean(&a, "read")?;
    let starred = args::boolean(&a, "starred")?;
    if read.is_none() && starred.is_none() {
        return Err(AppError::BadRequest(
            "argument `read` or `starred` is required".into(),
        ));
    }
    let meta = state
        .store_blocking(move |store| crate::emails::set_flags(store, user, id, read, starred))
        .await?;
    state.mailboxes.wake(meta.account_id);
    Ok(done(json!({
        "id": id.to_string(),
        "isRead": meta.seen,
        "isStarred": meta.flagged,
        "date": iso(meta.date),
    })))
}
