//! `/api/settings/claude-api-key`, `/api/settings/ai`, `/api/settings/ai-training` and the
//! calls `/api/claude/{smart-reply, generate-subject, improve-email}` (docs/API.md "AI help").

use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use super::key::{self, Choice};
use super::provider::ProviderKind;
use super::source::{self, GivenContent};
use super::training::{self, Training};
use super::{Extras, answer, prepare, prompts, required, run};
use crate::auth::users::UserRecord;
use crate::auth::{CurrentUser, UserStore};
use crate::error::{ApiJson, AppError, Result};
use crate::messages;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/settings/claude-api-key",
            post(store_key).delete(delete_key),
        )
        .route("/api/settings/claude-api-key/exists", get(key_exists))
        .route("/api/settings/ai", get(get_choice).put(put_choice))
        .route(
            "/api/settings/ai-training",
            get(get_training).post(post_training),
        )
        .route("/api/claude/smart-reply", post(smart_reply))
        .route("/api/claude/generate-subject", post(generate_subject))
        .route("/api/claude/improve-email", post(improve_email))
}

// ---- the key and the provider ----

/// No `Debug`: it holds the key.
#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct KeyRequest {
    api_key: String,
}

/// `POST` and `DELETE /api/settings/claude-api-key`: whether a key is stored now.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "AiKeyResponse")]
pub struct KeyResponse {
    pub success: bool,
    pub exists: bool,
}

/// `GET /api/settings/claude-api-key/exists`.
#[derive(Debug, Serialize, TS)]
pub struct KeyExists {
    /// The user has a key of their own for their endpoint in effect.
    pub exists: bool,
    /// They have none, and the household's key (the admin's, in the global settings) serves
    /// them: their AI calls use it.
    pub household: bool,
}

async fn store_key(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<KeyRequest>,
) -> Result<Json<KeyResponse>> {
    let (server_key, config) = (state.key.clone(), state.config.ai.clone());
    state
        .store_blocking(move |store| {
            key::store_key(store, &server_key, &config, user.id, &req.api_key)
        })
        .await?;
    tracing::info!(user_id = user.id, "AI key stored");
    Ok(Json(KeyResponse {
        success: true,
        exists: true,
    }))
}

async fn delete_key(me: UserStore) -> Result<Json<KeyResponse>> {
    me.run(key::delete_key).await?;
    Ok(Json(KeyResponse {
        success: true,
        exists: false,
    }))
}

async fn key_exists(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<KeyExists>> {
    let (server_key, config) = (state.key.clone(), state.config.ai.clone());
    let (exists, household) = state
        .store_blocking(move |store| key::key_status(store, &server_key, &config, user.id))
        .await?;
    Ok(Json(KeyExists { exists, household }))
}

/// A provider with its model and base URL.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "AiProviderChoice")]
pub struct ProviderChoice {
    pub provider: ProviderKind,
    pub model: String,
    pub base_url: String,
}

impl ProviderChoice {
    fn new((provider, model, base_url): (ProviderKind, String, String)) -> Self {
        Self {
            provider,
            model,
            base_url,
        }
    }
}

/// `GET/PUT /api/settings/ai`: the user's overrides ('' = the server's) and what is in effect.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AiSettings {
    /// The provider in effect (always a name, the user's else the server's) with the user's own
    /// model and base URL.
    #[serde(flatten)]
    #[ts(flatten)]
    pub choice: ProviderChoice,
    pub effective: ProviderChoice,
    pub defaults: ProviderChoice,
    pub key_stored: bool,
    /// False for an OpenAI-compatible server (a local model needs no key).
    pub key_required: bool,
    /// Whether this user may set the base URL (admins, or all when the server allows it); when
    /// false, a PUT that changes `baseUrl` answers 403.
    pub base_url_editable: bool,
}

fn ai_settings(
    state: &AppState,
    choice: &Choice,
    key_stored: bool,
    user: &UserRecord,
) -> AiSettings {
    let config = &state.config.ai;
    // In effect: the user's own base URL only while they may set one.
    let mut usable = choice.clone();
    if !key::may_set_base_url(config, user) {
        usable.base_url.clear();
    }
    let effective = ProviderChoice::new(key::effective(config, &usable));
    AiSettings {
        choice: ProviderChoice {
            provider: effective.provider,
            model: choice.model.clone(),
            base_url: choice.base_url.clone(),
        },
        key_required: effective.provider.key_required(),
        effective,
        defaults: ProviderChoice::new(key::effective(config, &Choice::default())),
        key_stored,
        base_url_editable: key::may_set_base_url(config, user),
    }
}

async fn get_choice(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<AiSettings>> {
    let (server_key, config, id) = (state.key.clone(), state.config.ai.clone(), user.id);
    let (choice, stored) = state
        .store_blocking(move |store| {
            Ok((
                key::choice(store, id)?,
                key::key_exists(store, &server_key, &config, id)?,
            ))
        })
        .await?;
    Ok(Json(ai_settings(&state, &choice, stored, &user)))
}

async fn put_choice(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<Choice>,
) -> Result<Json<AiSettings>> {
    let (server_key, config, id) = (state.key.clone(), state.config.ai.clone(), user.id);
    let who = user.clone();
    let (choice, stored) = state
        .store_blocking(move |store| {
            Ok((
                key::set_choice(store, &config, &who, req)?,
                key::key_exists(store, &server_key, &config, id)?,
            ))
        })
        .await?;
    Ok(Json(ai_settings(&state, &choice, stored, &user)))
}

// ---- AI training settings ----

/// `POST /api/settings/ai-training`: the settings as stored.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "SaveTrainingResponse")]
pub struct TrainingSaved {
    pub success: bool,
    pub settings: Training,
}

async fn get_training(me: UserStore) -> Result<Json<Training>> {
    let t = me.run(training::load).await?;
    Ok(Json(t))
}

async fn post_training(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    // A partial object: the fields given change, the rest stay (a non-object is refused with
    // the JSON error's Hebrew message).
    ApiJson(fields): ApiJson<serde_json::Map<String, Value>>,
) -> Result<Json<TrainingSaved>> {
    let body = Value::Object(fields);
    let now = crate::emails::view::iso(crate::outgoing::now());
    let t = state
        .store_blocking(move |store| training::save(store, user.id, &body, &now))
        .await?;
    state
        .jobs()
        .happened(&state, crate::jobs::Event::TrainingSaved);
    Ok(Json(TrainingSaved {
        success: true,
        settings: t,
    }))
}

// ---- the calls ----

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct SmartReplyRequest {
    /// A stored mail, by its local id.
    email_id: Option<String>,
    email_content: Option<GivenContent>,
    /// An AI template of the training settings to follow.
    template_id: Option<String>,
    #[serde(flatten)]
    extras: Extras,
}

/// `POST /api/claude/smart-reply`.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SmartReplyResponse {
    pub success: bool,
    pub reply: String,
    /// The language the reply was asked in (hebrew, english, arabic, russian): the mail's own
    /// unless the training names one.
    pub language: String,
    /// Its direction, rtl or ltr, for the editor.
    pub dir: String,
}

async fn smart_reply(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: HeaderMap,
    ApiJson(req): ApiJson<SmartReplyRequest>,
) -> Result<Json<SmartReplyResponse>> {
    let prepared = prepare(&state, user.id, &req.extras, &headers).await?;
    let with_context = prepared.training.include_context;
    let (mail, context) = match (req.email_id, req.email_content) {
        (Some(id), _) => {
            let id: u64 = id
                .trim()
                .parse()
                .map_err(|_| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))?;
            state
                .store_blocking(move |store| source::stored(store, user.id, id, with_context))
                .await?
        }
        (None, Some(content)) => (content.into_text(), Vec::new()),
        (None, None) => return Err(AppError::bad_request(messages::AI_BODY_REQUIRED)),
    };
    required(
        &format!("{}{}", mail.subject, mail.body),
        messages::AI_BODY_REQUIRED,
    )?;
    let template = req
        .template_id
        .as_deref()
        .and_then(|id| prepared.training.template(id))
        .map(|t| t.prompt.clone());
    let ask = prompts::smart_reply(
        &prepared.training,
        req.extras.custom_system_prompt.as_deref(),
        &mail,
        &context,
        template.as_deref(),
        prepared.address(mail.account_id),
    );
    let reply = run(
        &state,
        user.id,
        &prepared,
        &ask,
        messages::AI_SMART_REPLY_FAILED,
        answer::plain,
    )
    .await?;
    let language = prompts::answer_language(
        &prepared.training,
        &format!("{} {}", mail.subject, mail.body),
    );
    Ok(Json(SmartReplyResponse {
        success: true,
        reply,
        language: language.into(),
        dir: prompts::direction(language).into(),
    }))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct SubjectRequest {
    email_body: String,
    #[serde(flatten)]
    extras: Extras,
}

/// `POST /api/claude/generate-subject`.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "GenerateSubjectResponse")]
pub struct SubjectResponse {
    pub success: bool,
    pub subject: String,
}

async fn generate_subject(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: HeaderMap,
    ApiJson(req): ApiJson<SubjectRequest>,
) -> Result<Json<SubjectResponse>> {
    let body = source::body_text(&req.email_body);
    required(&body, messages::AI_BODY_REQUIRED)?;
    let prepared = prepare(&state, user.id, &req.extras, &headers).await?;
    let ask = prompts::subject(
        &prepared.training,
        req.extras.custom_system_prompt.as_deref(),
        &body,
    );
    let subject = run(
        &state,
        user.id,
        &prepared,
        &ask,
        messages::AI_SUBJECT_FAILED,
        answer::subject,
    )
    .await?;
    Ok(Json(SubjectResponse {
        success: true,
        subject,
    }))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct ImproveRequest {
    email_content: String,
    style: String,
    #[serde(flatten)]
    extras: Extras,
}

/// `POST /api/claude/improve-email`.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "ImproveEmailResponse")]
pub struct ImproveResponse {
    pub success: bool,
    /// The text as the editor's escaped HTML paragraphs.
    pub improved: String,
    pub improved_text: String,
}

async fn improve_email(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: HeaderMap,
    ApiJson(req): ApiJson<ImproveRequest>,
) -> Result<Json<ImproveResponse>> {
    let style = match req.style.trim() {
        "" => "professional",
        s @ ("professional" | "friendly" | "concise") => s,
        _ => return Err(AppError::bad_request(messages::AI_STYLE_UNKNOWN)),
    };
    let body = source::body_text(&req.email_content);
    required(&body, messages::AI_BODY_REQUIRED)?;
    let prepared = prepare(&state, user.id, &req.extras, &headers).await?;
    let ask = prompts::improve(
        &prepared.training,
        req.extras.custom_system_prompt.as_deref(),
        &body,
        style,
    );
    let text = run(
        &state,
        user.id,
        &prepared,
        &ask,
        messages::AI_IMPROVE_FAILED,
        answer::plain,
    )
    .await?;
    Ok(Json(ImproveResponse {
        success: true,
        improved: editor_html(&text),
        improved_text: text,
    }))
}

/// Plain text as the editor's paragraphs (escaped; the editor and the sent mail set `dir`).
pub fn editor_html(text: &str) -> String {
    crate::mail::sanitize::text_to_html(text).replace("<p dir=\"auto\">", "<p>")
}

/// Plain text in `language` as the editor's paragraphs, each in the language's direction (an
/// English answer in a Hebrew mailbox reads left to right).
pub fn editor_html_in(text: &str, language: &str) -> String {
    let dir = prompts::direction(language);
    crate::mail::sanitize::text_to_html(text)
        .replace("<p dir=\"auto\">", &format!("<p dir=\"{dir}\">"))
}
