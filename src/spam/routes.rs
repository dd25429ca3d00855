//! `GET/POST /api/settings/spam-detection` (spec 001 §7), and the Spam and Promotions folders'
//! tools: `GET /api/spam/debug/{id}` (a mail's breakdown), `GET/POST /api/spam/classify`
//! ('load and classify' and its progress), `GET/DELETE /api/spam/activity` (the decisions).

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use serde_json::{Map, Value};
use ts_rs::TS;

use super::Spam;
use super::classify::{self, Progress};
use super::engine::{self, Verdict};
use super::journal::{self, Decision};
use super::settings::{self, Settings};
use crate::ai::key;
use crate::auth::{CurrentUser, UserStore};
use crate::error::{ApiJson, AppError, Result, Success};
use crate::messages;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/settings/spam-detection",
            get(get_settings).post(post_settings),
        )
        .route("/api/spam/debug/{id}", get(debug))
        .route(
            "/api/spam/classify",
            get(classify_progress).post(classify_start),
        )
        .route("/api/spam/activity", get(activity).delete(clear_activity))
}

/// The activity list's length on the page.
pub const ACTIVITY: usize = 100;

async fn get_settings(me: UserStore) -> Result<Json<Settings>> {
    Ok(Json(me.run(settings::load).await?))
}

/// `POST /api/settings/spam-detection`.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "SaveSpamSettingsResponse")]
pub struct Saved {
    pub success: bool,
    pub settings: Settings,
}

async fn post_settings(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: HeaderMap,
    ApiJson(fields): ApiJson<Map<String, Value>>,
) -> Result<Json<Saved>> {
    let typed = headers
        .get("x-api-key")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(str::to_string);
    let (server_key, config) = (state.key.clone(), state.config.ai.clone());
    let saved = state
        .store_blocking(move |store| {
            let current = settings::load(store, user.id)?;
            let next = current.with(&fields)?;
            if next.use_ai && !current.use_ai {
                if let Some(k) = &typed {
                    key::store_key(store, &server_key, &config, user.id, k)?;
                }
                match key::endpoint(store, &server_key, &config, user.id, None) {
                    Err(AppError::AiKeyMissing) => {
                        return Err(AppError::bad_request(messages::SPAM_AI_KEY_MISSING));
                    }
                    other => {
                        other?;
                    }
                }
            }
            settings::save(store, user.id, &next)?;
            Ok(next)
        })
        .await?;
    state.service::<Spam>().changed(user.id);
    Ok(Json(Saved {
        success: true,
        settings: saved,
    }))
}

/// One rule of the breakdown.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SpamBreakdownHit")]
pub struct BreakdownHit {
    pub rule: String,
    pub label: String,
    pub points: f32,
    pub detail: String,
}

/// `GET /api/spam/debug/{id}`: the mail judged now, rule by rule.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SpamBreakdown")]
pub struct Breakdown {
    pub id: u64,
    pub score: f32,
    /// The score stored when the mail was judged (null: never judged).
    pub stored_score: Option<f32>,
    pub verdict: Verdict,
    pub status: Option<String>,
    pub spam_threshold: u8,
    pub suspicious_threshold: u8,
    /// The learning classifier's opinion, 0 (ham) to 1 (spam).
    pub spamminess: Option<f64>,
    pub advertisement: bool,
    pub hits: Vec<BreakdownHit>,
}

async fn debug(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<u64>,
) -> Result<Json<Breakdown>> {
    let spam = state.service::<Spam>();
    let b = state
        .store_blocking(move |store| {
            let (meta, raw) = crate::emails::get(store, user.id, id)?;
            let profile = spam.profile(store, user.id)?;
            let r = engine::judge_raw(&raw, &profile);
            Ok(Breakdown {
                id,
                score: r.score,
                stored_score: meta.spam_score,
                verdict: r.verdict,
                status: meta.status,
                spam_threshold: profile.settings.spam_threshold,
                suspicious_threshold: profile.settings.suspicious_threshold,
                spamminess: r.spamminess.map(|s| (s * 1000.0).round() / 1000.0),
                advertisement: r.advertisement,
                hits: r
                    .hits
                    .into_iter()
                    .map(|h| BreakdownHit {
                        rule: h.rule.into(),
                        label: h.label.into(),
                        points: h.points,
                        detail: h.detail,
                    })
                    .collect(),
            })
        })
        .await?;
    Ok(Json(b))
}

async fn classify_start(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Progress>> {
    let enabled = state
        .store_blocking(move |store| Ok(settings::load(store, user.id)?.enabled))
        .await?;
    if !enabled {
        return Err(AppError::bad_request(messages::SPAM_DETECTION_OFF));
    }
    Ok(Json(classify::start(&state, user.id)?))
}

async fn classify_progress(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Progress>> {
    Ok(Json(classify::progress(&state.service::<Spam>(), user.id)))
}

/// `GET /api/spam/activity`.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SpamActivity")]
pub struct Activity {
    /// `logActivity` is on.
    pub logging: bool,
    pub decisions: Vec<Decision>,
    /// Mails the user trained as spam and as not spam (markings and examples).
    pub trained_spam: u32,
    pub trained_ham: u32,
}

async fn activity(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Activity>> {
    let a = state
        .store_blocking(move |store| {
            let s = settings::load(store, user.id)?;
            let (trained_spam, trained_ham) = super::model::totals(store, user.id)?;
            Ok(Activity {
                logging: s.log_activity,
                decisions: journal::activity(store, user.id, ACTIVITY)?,
                trained_spam,
                trained_ham,
            })
        })
        .await?;
    Ok(Json(a))
}

async fn clear_activity(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Success>> {
    state
        .store_blocking(move |store| Ok(journal::clear(store, user.id)?))
        .await?;
    Ok(Json(Success::YES))
}
