//! `/api/followups`: the "awaiting reply" list (and the recently answered), marking a sent mail
//! by hand with its own wait, a new wait, stopping, and the one-click nudge draft.

use axum::extract::{Path, State as AxState};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::detect::Source;
use super::model::{DAY, FollowUp, Item, MAX_AHEAD_SECS, MAX_OPEN, State};
use super::{FOLLOWUPS, nudge, track};
use crate::auth::CurrentUser;
use crate::error::{ApiJson, AppError, Result};
use crate::kit::now;
use crate::messages;
use crate::settings::prefs::FOLLOW_UP_DAYS;
use crate::state::AppState;
use crate::store::Store;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/followups", get(list).post(mark))
        .route("/api/followups/{id}", put(change).delete(stop))
        .route("/api/followups/{id}/nudge", post(nudge_draft))
}

fn not_found() -> AppError {
    AppError::NotFound(messages::FOLLOW_UP_NOT_FOUND.into())
}

fn id_of(raw: &str) -> Result<u64> {
    raw.parse().map_err(|_| not_found())
}

/// `GET /api/followups`.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "FollowUpsResponse")]
pub struct ListResponse {
    /// Waiting for an answer, the soonest due first.
    pub awaiting: Vec<Item>,
    /// How many of them are past their time (the Inbox Zero panel's line).
    pub overdue: usize,
    /// Answered or stopped lately, newest first.
    pub ended: Vec<Item>,
}

async fn list(
    AxState(state): AxState<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<ListResponse>> {
    let now = now();
    let all: Vec<FollowUp> = state
        .store_blocking(move |store| {
            let mut all: Vec<FollowUp> = FOLLOWUPS.list(store, user.id)?;
            let read = crate::mailstore::MailRead::new(store)?;
            for f in all.iter_mut().filter(|f| f.state == State::Waiting) {
                f.email_id = super::mail_id(&read, f)?;
            }
            Ok(all)
        })
        .await?;
    let mut awaiting: Vec<&FollowUp> = all.iter().filter(|f| f.state == State::Waiting).collect();
    awaiting.sort_by_key(|f| (f.due, f.id));
    let mut ended: Vec<&FollowUp> = all.iter().filter(|f| !f.open()).collect();
    ended.sort_by_key(|f| std::cmp::Reverse(f.ended_at.unwrap_or(0)));
    Ok(Json(ListResponse {
        overdue: awaiting.iter().filter(|f| f.due <= now).count(),
        awaiting: awaiting.into_iter().map(|f| Item::of(f, now)).collect(),
        ended: ended
            .into_iter()
            .take(20)
            .map(|f| Item::of(f, now))
            .collect(),
    }))
}

/// `POST /api/followups` and `PUT /api/followups/{id}`: the wait in days, or a time.
#[derive(Debug, Default, Deserialize, TS)]
#[serde(default, rename_all = "camelCase")]
#[ts(rename = "FollowUpRequest", optional_fields)]
pub struct FollowUpRequest {
    /// The sent mail to await an answer to (POST only).
    pub email_id: Option<String>,
    /// Days from the mail's sending (1–60); the preference `followUpDays` when absent.
    pub days: Option<u32>,
    /// RFC 3339: remind at this time instead.
    pub remind_at: Option<String>,
}

/// What marking and changing answer.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "FollowUpResponse")]
pub struct FollowUpResponse {
    pub follow_up: Item,
    pub message: String,
}

/// The due time a request asks for, given when the mail was sent.
fn due_of(req: &FollowUpRequest, sent_at: i64, default_days: u32, now: i64) -> Result<(i64, u32)> {
    if let Some(text) = req.remind_at.as_deref().filter(|t| !t.trim().is_empty()) {
        let at = chrono::DateTime::parse_from_rfc3339(text.trim())
            .map_err(|_| AppError::bad_request(messages::FOLLOW_UP_TIME_INVALID))?
            .timestamp();
        if at <= now || at > now + MAX_AHEAD_SECS {
            return Err(AppError::bad_request(messages::FOLLOW_UP_TIME_INVALID));
        }
        return Ok((at, 0));
    }
    let days = req.days.unwrap_or(default_days);
    if !FOLLOW_UP_DAYS.contains(&u64::from(days)) {
        return Err(AppError::bad_request(messages::SETTINGS_FOLLOW_UP_DAYS));
    }
    Ok((sent_at + i64::from(days) * DAY, days))
}

/// Marks one of the user's sent mails as awaiting an answer (or changes its wait).
pub fn mark_mail(
    store: &Store,
    user_id: u64,
    email_id: u64,
    req: &FollowUpRequest,
    now: i64,
) -> Result<FollowUp> {
    let (meta, _) = crate::emails::get(store, user_id, email_id)?;
    let role = crate::emails::folder_role(store, meta.account_id, &meta.folder)?;
    if role != "sent" {
        return Err(AppError::bad_request(messages::FOLLOW_UP_NOT_SENT));
    }
    let default_days = crate::settings::load(store, user_id)?.follow_up_days;
    let (due, days) = due_of(req, meta.date, default_days, now)?;
    let txn = store.begin_write()?;
    let all: Vec<FollowUp> = FOLLOWUPS.list_in(&txn, user_id)?;
    let found = all.into_iter().find(|f| {
        f.account == meta.account_id
            && (f.email_id == meta.id
                || (f.message_id.is_some() && f.message_id == meta.summary.message_id))
    });
    let mut f = match found {
        Some(f) => f,
        None => FollowUp {
            id: FOLLOWUPS.new_id_in(&txn, user_id, MAX_OPEN, messages::FOLLOWUPS_FULL)?,
            account: meta.account_id,
            email_id: meta.id,
            message_id: meta.summary.message_id.clone(),
            thread_id: meta.thread_id.clone(),
            subject: meta.summary.subject.clone(),
            to: meta
                .summary
                .to
                .iter()
                .chain(&meta.summary.cc)
                .take(20)
                .cloned()
                .collect(),
            sent_at: meta.date,
            due,
            days,
            source: Source::Mark,
            state: State::Waiting,
            reminded: false,
            ended_at: None,
        },
    };
    f.source = Source::Mark;
    f.state = State::Waiting;
    f.due = due;
    f.days = days;
    f.reminded = false;
    f.ended_at = None;
    FOLLOWUPS.put_in(&txn, user_id, f.id, &f)?;
    txn.commit()?;
    Ok(f)
}

async fn mark(
    AxState(state): AxState<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<FollowUpRequest>,
) -> Result<Json<FollowUpResponse>> {
    let email_id: u64 = req
        .email_id
        .as_deref()
        .and_then(|s| s.trim().parse().ok())
        .ok_or_else(|| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))?;
    let now = now();
    let f = state
        .store_blocking(move |store| mark_mail(store, user.id, email_id, &req, now))
        .await?;
    state.jobs().trigger(&state, track::JOB);
    Ok(Json(FollowUpResponse {
        follow_up: Item::of(&f, now),
        message: messages::FOLLOW_UP_MARKED.into(),
    }))
}

async fn change(
    AxState(state): AxState<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<FollowUpRequest>,
) -> Result<Json<FollowUpResponse>> {
    let id = id_of(&id)?;
    let now = now();
    let f = state
        .store_blocking(move |store| {
            let f: FollowUp = FOLLOWUPS.get(store, user.id, id)?.ok_or_else(not_found)?;
            let default_days = crate::settings::load(store, user.id)?.follow_up_days;
            let (due, days) = due_of(&req, f.sent_at, default_days, now)?;
            FOLLOWUPS
                .update(store, user.id, id, |x: &mut FollowUp| {
                    x.due = due;
                    x.days = days;
                    x.reminded = false;
                    if !x.open() {
                        x.state = State::Waiting;
                        x.ended_at = None;
                    }
                    Ok(())
                })?
                .ok_or_else(not_found)
        })
        .await?;
    state.jobs().trigger(&state, track::JOB);
    Ok(Json(FollowUpResponse {
        follow_up: Item::of(&f, now),
        message: messages::FOLLOW_UP_MARKED.into(),
    }))
}

async fn stop(
    AxState(state): AxState<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<FollowUpResponse>> {
    let id = id_of(&id)?;
    let now = now();
    let f = state
        .store_blocking(move |store| {
            FOLLOWUPS
                .update(store, user.id, id, |x: &mut FollowUp| {
                    x.state = State::Dismissed;
                    x.ended_at = Some(now);
                    Ok(())
                })?
                .ok_or_else(not_found)
        })
        .await?;
    Ok(Json(FollowUpResponse {
        follow_up: Item::of(&f, now),
        message: messages::FOLLOW_UP_STOPPED.into(),
    }))
}

/// `POST /api/followups/{id}/nudge`.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "NudgeResponse")]
pub struct NudgeResponse {
    pub success: bool,
    /// False: the draft waits in the outbox until the mailbox answers.
    pub saved_in_gmail: bool,
    pub draft_id: Option<String>,
    /// Written by the AI (else the template).
    pub by_ai: bool,
    /// hebrew, english, arabic or russian: the sent mail's.
    pub language: String,
    pub message: String,
}

async fn nudge_draft(
    AxState(state): AxState<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<NudgeResponse>> {
    let id = id_of(&id)?;
    let f: FollowUp = state
        .store_blocking(move |store| {
            let mut f: FollowUp = FOLLOWUPS.get(store, user.id, id)?.ok_or_else(not_found)?;
            f.email_id = super::mail_id(&crate::mailstore::MailRead::new(store)?, &f)?;
            Ok(f)
        })
        .await?;
    let n = nudge::write(&state, user.id, &f).await?;
    let reply = n.saved.reply(messages::NUDGE_SAVED);
    Ok(Json(NudgeResponse {
        success: true,
        saved_in_gmail: reply.saved_in_gmail,
        draft_id: reply.draft_id,
        by_ai: n.by_ai,
        language: n.language.to_string(),
        message: reply.message,
    }))
}
