//! `/api/smart/{summary, replies, compose, insights}`.

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::insights::Insights;
use crate::ai::training::Training;
use crate::ai::{self, Ask, Extras, answer, prompts, source};
use crate::auth::CurrentUser;
use crate::error::{ApiJson, AppError, Result};
use crate::messages;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/smart/summary", post(summary))
        .route("/api/smart/replies", post(replies))
        .route("/api/smart/compose", post(compose))
        .route("/api/smart/insights", get(insights))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct MailRequest {
    email_id: String,
    #[serde(flatten)]
    extras: Extras,
}

fn mail_id(key: &str) -> Result<u64> {
    key.trim()
        .parse()
        .map_err(|_| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))
}

/// The stored mail as text (no thread context: these features look at one mail).
async fn mail_text(state: &AppState, user_id: u64, key: &str) -> Result<source::MailText> {
    let id = mail_id(key)?;
    let (mail, _) = state
        .store_blocking(move |store| source::stored(store, user_id, id, false))
        .await?;
    Ok(mail)
}

/// Asks one question about one stored mail of the user and reads the answer with `read`.
async fn about_mail<T>(
    state: &AppState,
    user_id: u64,
    headers: &HeaderMap,
    req: &MailRequest,
    question: fn(&Training, &source::MailText) -> Ask,
    failed: &str,
    read: fn(&str) -> Result<T, ai::Failure>,
) -> Result<T> {
    let mail = mail_text(state, user_id, &req.email_id).await?;
    let prepared = ai::prepare(state, user_id, &req.extras, headers).await?;
    let ask = question(&prepared.training, &mail);
    ai::run(state, user_id, &prepared, &ask, failed, read).await
}

/// `POST /api/smart/summary`.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "SmartSummaryResponse")]
pub struct SummaryResponse {
    pub success: bool,
    #[serde(flatten)]
    #[ts(flatten)]
    pub summary: answer::Summary,
}

async fn summary(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: HeaderMap,
    ApiJson(req): ApiJson<MailRequest>,
) -> Result<Json<SummaryResponse>> {
    let summary = about_mail(
        &state,
        user.id,
        &headers,
        &req,
        prompts::summary,
        messages::AI_SUMMARY_FAILED,
        answer::Summary::parse,
    )
    .await?;
    Ok(Json(SummaryResponse {
        success: true,
        summary,
    }))
}

/// `POST /api/smart/replies`: three of them.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "SuggestedRepliesResponse")]
pub struct RepliesResponse {
    pub success: bool,
    pub replies: Vec<answer::Suggestion>,
}

async fn replies(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: HeaderMap,
    ApiJson(req): ApiJson<MailRequest>,
) -> Result<Json<RepliesResponse>> {
    let replies = about_mail(
        &state,
        user.id,
        &headers,
        &req,
        prompts::replies,
        messages::AI_REPLIES_FAILED,
        answer::replies,
    )
    .await?;
    Ok(Json(RepliesResponse {
        success: true,
        replies,
    }))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct ComposeRequest {
    prompt: String,
    email_id: Option<String>,
    #[serde(flatten)]
    extras: Extras,
}

/// The longest description smart compose takes.
const MAX_PROMPT_CHARS: usize = 4_000;

/// `POST /api/smart/compose`.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "SmartComposeResponse")]
pub struct ComposeResponse {
    pub success: bool,
    pub content: String,
}

async fn compose(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: HeaderMap,
    ApiJson(req): ApiJson<ComposeRequest>,
) -> Result<Json<ComposeResponse>> {
    ai::required(&req.prompt, messages::AI_PROMPT_REQUIRED)?;
    let prompt = source::clip_chars(req.prompt.trim(), MAX_PROMPT_CHARS);
    let about = match req.email_id.as_deref().filter(|k| !k.trim().is_empty()) {
        Some(key) => Some(mail_text(&state, user.id, key).await?),
        None => None,
    };
    let prepared = ai::prepare(&state, user.id, &req.extras, &headers).await?;
    let ask = prompts::compose(&prepared.training, &prompt, about.as_ref());
    let content = ai::run(
        &state,
        user.id,
        &prepared,
        &ask,
        messages::AI_COMPOSE_FAILED,
        answer::plain,
    )
    .await?;
    Ok(Json(ComposeResponse {
        success: true,
        content,
    }))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct InsightsQuery {
    /// The browser's offset from UTC in minutes east (Israel: 120 or 180); days and weekdays
    /// are counted in it.
    tz: Option<i64>,
}

async fn insights(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Query(q): Query<InsightsQuery>,
) -> Result<Json<Insights>> {
    let offset = q.tz.unwrap_or(120).clamp(-14 * 60, 14 * 60) * 60;
    let now = crate::outgoing::now();
    let i = state
        .store_blocking(move |store| super::insights::compute(store, user.id, now, offset))
        .await?;
    Ok(Json(i))
}
