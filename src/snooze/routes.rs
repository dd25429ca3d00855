//! `/api/snooze`: the snoozed threads and the recently woken ones, the menu's preset times,
//! snoozing a thread, a new time, and waking one now.

use axum::extract::{Path, State};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::model::{Item, MAX_ACTIVE, Snooze, WokeBy};
use super::times::{self, Presets};
use super::{SNOOZES, mailbox, wake};
use crate::auth::CurrentUser;
use crate::error::{ApiJson, AppError, Result};
use crate::kit::now;
use crate::mailstore::{MailRead, MailWrite, Reason, thread_hash};
use crate::messages;
use crate::state::AppState;
use crate::store::Store;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/snooze", get(list).post(create))
        .route("/api/snooze/options", get(options))
        .route("/api/snooze/{id}", put(retime))
        .route("/api/snooze/{id}/wake", post(wake_now))
}

fn not_found() -> AppError {
    AppError::NotFound(messages::SNOOZE_NOT_FOUND.into())
}

fn tz(store: &Store, user_id: u64) -> Result<chrono_tz::Tz> {
    Ok(crate::settings::load(store, user_id)?.tz())
}

/// `GET /api/snooze`: sleeping threads by wake-up time, then the recently woken, newest first.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "SnoozeListResponse")]
pub struct ListResponse {
    pub snoozed: Vec<Item>,
    pub woken: Vec<Item>,
}

/// The thread's newest stored mail that is not hidden (to open it from the list).
fn newest_shown(read: &MailRead, s: &Snooze) -> Result<Option<u64>> {
    let mut newest = None;
    for (_, id, _) in read.members(s.account, thread_hash(&s.thread_id))? {
        if read.meta(id)?.is_some_and(|m| !m.hidden && !m.draft) {
            newest = Some(id);
        }
    }
    Ok(newest)
}

async fn list(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<ListResponse>> {
    let out = state
        .store_blocking(move |store| listing(store, user.id))
        .await?;
    Ok(Json(out))
}

/// The user's sleeping threads by wake-up time, then the 20 most recently woken (the list, and
/// the agent API's `list_snoozed`).
pub fn listing(store: &Store, user_id: u64) -> Result<ListResponse> {
    let mut all: Vec<Snooze> = SNOOZES.list(store, user_id)?;
    let read = MailRead::new(store)?;
    all.sort_by_key(|s| s.until);
    let (mut snoozed, mut woken) = (Vec::new(), Vec::new());
    for s in &all {
        let item = Item::of(s, newest_shown(&read, s)?);
        if s.active() {
            snoozed.push(item);
        } else {
            woken.push((s.woke.map_or(0, |w| w.at), item));
        }
    }
    woken.sort_by_key(|(at, _)| std::cmp::Reverse(*at));
    Ok(ListResponse {
        snoozed,
        woken: woken.into_iter().take(20).map(|(_, i)| i).collect(),
    })
}

async fn options(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Presets>> {
    let tz = state
        .store_blocking(move |store| tz(store, user.id))
        .await?;
    Ok(Json(times::presets(tz, now())))
}

/// `POST /api/snooze` and `PUT /api/snooze/{id}`: a preset's name, or a time.
#[derive(Debug, Default, Deserialize, TS)]
#[serde(default, rename_all = "camelCase")]
#[ts(rename = "SnoozeRequest", optional_fields)]
pub struct SnoozeRequest {
    /// The mail whose thread is snoozed (POST only).
    pub email_id: Option<String>,
    /// laterToday, tomorrow, weekend or nextWeek.
    pub preset: Option<String>,
    /// RFC 3339, or `YYYY-MM-DDTHH:MM` in the user's time zone.
    pub until: Option<String>,
}

/// What snoozing, a new time and waking answer.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "SnoozeResponse")]
pub struct SnoozeResponse {
    pub snooze: Item,
    pub message: String,
}

fn when(store: &Store, user_id: u64, req: &SnoozeRequest, now: i64) -> Result<i64> {
    let tz = tz(store, user_id)?;
    match (req.preset.as_deref(), req.until.as_deref()) {
        (Some(p), _) if !p.trim().is_empty() => times::checked(now, times::preset(tz, now, p)?),
        (_, Some(u)) if !u.trim().is_empty() => times::chosen(tz, now, u),
        _ => Err(AppError::bad_request(messages::SNOOZE_TIME_INVALID)),
    }
}

/// Snoozes the thread of one of the user's mails (a thread already sleeping gets the new time).
pub fn snooze_mail(
    store: &Store,
    user_id: u64,
    email_id: u64,
    until: i64,
    now: i64,
) -> Result<Snooze> {
    let accounts = crate::emails::user_accounts(store, user_id)?;
    let txn = store.begin_write()?;
    let w = MailWrite::new(&txn, Reason::Status);
    let meta = crate::emails::owned_meta(w, &accounts, email_id)?;
    let hash = thread_hash(&meta.thread_id);
    let mine: Vec<Snooze> = SNOOZES.list_in(&txn, user_id)?;
    let asleep = mine
        .into_iter()
        .find(|s| s.active() && s.account == meta.account_id && thread_hash(&s.thread_id) == hash);
    let s = match asleep {
        Some(mut s) => {
            mailbox::retime(w, &s, until)?;
            s.until = until;
            s
        }
        None => {
            let mut s = mailbox::snooze(w, &meta, until, now)?;
            s.id = SNOOZES.new_id_in(&txn, user_id, MAX_ACTIVE, messages::SNOOZES_FULL)?;
            s
        }
    };
    SNOOZES.put_in(&txn, user_id, s.id, &s)?;
    txn.commit()?;
    Ok(s)
}

async fn create(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<SnoozeRequest>,
) -> Result<Json<SnoozeResponse>> {
    let s = snooze_for(&state, user.id, req).await?;
    Ok(Json(SnoozeResponse {
        snooze: Item::of(&s, None),
        message: messages::SNOOZED.into(),
    }))
}

/// Snoozes the thread of the request's mail until its preset or time (in the user's zone), and
/// tells the mailbox and the scheduler (the snooze menu, and the agent API's `snooze_thread`).
pub async fn snooze_for(state: &AppState, user_id: u64, req: SnoozeRequest) -> Result<Snooze> {
    let email_id: u64 = req
        .email_id
        .as_deref()
        .and_then(|s| s.trim().parse().ok())
        .ok_or_else(|| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))?;
    let now = now();
    let s = state
        .store_blocking(move |store| {
            let until = when(store, user_id, &req, now)?;
            snooze_mail(store, user_id, email_id, until, now)
        })
        .await?;
    after_change(state, s.account);
    Ok(s)
}

fn id_of(raw: &str) -> Result<u64> {
    raw.parse().map_err(|_| not_found())
}

async fn retime(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<SnoozeRequest>,
) -> Result<Json<SnoozeResponse>> {
    let id = id_of(&id)?;
    let now = now();
    let s = state
        .store_blocking(move |store| {
            let until = when(store, user.id, &req, now)?;
            let txn = store.begin_write()?;
            let mut s: Snooze = SNOOZES
                .get_in(&txn, user.id, id)?
                .filter(Snooze::active)
                .ok_or_else(not_found)?;
            mailbox::retime(MailWrite::new(&txn, Reason::Status), &s, until)?;
            s.until = until;
            SNOOZES.put_in(&txn, user.id, id, &s)?;
            txn.commit()?;
            Ok(s)
        })
        .await?;
    after_change(&state, s.account);
    Ok(Json(SnoozeResponse {
        snooze: Item::of(&s, None),
        message: messages::SNOOZED.into(),
    }))
}

async fn wake_now(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<SnoozeResponse>> {
    let item = wake_by_user(&state, user.id, id_of(&id)?).await?;
    Ok(Json(SnoozeResponse {
        snooze: item,
        message: messages::SNOOZE_WOKE.into(),
    }))
}

/// Brings one of the user's sleeping threads back now (the list's "wake now", and the agent
/// API's `wake_thread`); another user's id, or one already awake, is not found.
pub async fn wake_by_user(state: &AppState, user_id: u64, id: u64) -> Result<Item> {
    let now = now();
    let woken = state
        .store_blocking(move |store| {
            wake::wake_one(store, user_id, id, WokeBy::User, now)?.ok_or_else(not_found)
        })
        .await?;
    state.mailboxes.wake(woken.snooze.account);
    state.jobs().trigger(state, wake::JOB);
    Ok(Item::of(&woken.snooze, woken.email_id))
}

/// The mailbox hears of it now; the job learns the (maybe earlier) next wake-up time.
fn after_change(state: &AppState, account: u64) {
    state.mailboxes.wake(account);
    state.jobs().trigger(state, wake::JOB);
}
