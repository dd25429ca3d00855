//! `/api/settings/claude-api-key`, `/api/settings/ai`, `/api/settings/ai-training` and the
//! calls `/api/claude/{smart-reply, generate-subject, improve-email}` (docs/API.md "AI help").

use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::key::{self, Choice};
use super::source::{self, GivenContent};
use super::{Extras, answer, prepare, prompts, required, run, training};
use crate::auth::CurrentUser;
use crate::auth::users::{Role, UserRecord};
use crate::emails::routes::blocking;
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

async fn store_key(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<KeyRequest>,
) -> Result<Json<Value>> {
    let (server_key, config) = (state.key.clone(), state.config.ai.clone());
    blocking(&state, move |store| {
        key::store_key(store, &server_key, &config, user.id, &req.api_key)
    })
    .await?;
    tracing::info!(user_id = user.id, "AI key stored");
    Ok(Json(json!({ "success": true, "exists": true })))
}

async fn delete_key(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Value>> {
    blocking(&state, move |store| key::delete_key(store, user.id)).await?;
    Ok(Json(json!({ "success": true, "exists": false })))
}

async fn key_exists(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Value>> {
    let (server_key, config) = (state.key.clone(), state.config.ai.clone());
    let exists = blocking(&state, move |store| {
        key::key_exists(store, &server_key, &config, user.id)
    })
    .await?;
    Ok(Json(json!({ "exists": exists })))
}

/// Whether this user may point their AI calls at an address of their own: the server would
/// POST wherever it says, so by default only admins may (`[ai] allow_user_base_url`).
fn may_set_base_url(state: &AppState, user: &UserRecord) -> bool {
    user.role == Role::Admin || state.config.ai.allow_user_base_url
}

fn choice_json(state: &AppState, choice: &Choice, key_stored: bool, user: &UserRecord) -> Value {
    let config = &state.config.ai;
    let (kind, model, base_url) = key::effective(config, choice);
    let (dkind, dmodel, dbase) = key::effective(config, &Choice::default());
    json!({
        // Always a provider name: the user's, else the server's.
        "provider": kind.name(),
        "model": choice.model,
        "baseUrl": choice.base_url,
        "effective": { "provider": kind.name(), "model": model, "baseUrl": base_url },
        "defaults": { "provider": dkind.name(), "model": dmodel, "baseUrl": dbase },
        "keyStored": key_stored,
        "keyRequired": kind.key_required(),
        "baseUrlEditable": may_set_base_url(state, user),
    })
}

async fn get_choice(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Value>> {
    let (server_key, config, id) = (state.key.clone(), state.config.ai.clone(), user.id);
    let (choice, stored) = blocking(&state, move |store| {
        Ok((
            key::choice(store, id)?,
            key::key_exists(store, &server_key, &config, id)?,
        ))
    })
    .await?;
    Ok(Json(choice_json(&state, &choice, stored, &user)))
}

async fn put_choice(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<Choice>,
) -> Result<Json<Value>> {
    let may_set_url = may_set_base_url(&state, &user);
    let (server_key, config, id) = (state.key.clone(), state.config.ai.clone(), user.id);
    let (choice, stored) = blocking(&state, move |store| {
        let mine = key::choice(store, id)?;
        if !may_set_url && req.base_url.trim() != mine.base_url {
            return Err(AppError::Forbidden(messages::AI_BASE_URL_ADMIN_ONLY.into()));
        }
        Ok((
            key::save_choice(store, id, req)?,
            key::key_exists(store, &server_key, &config, id)?,
        ))
    })
    .await?;
    Ok(Json(choice_json(&state, &choice, stored, &user)))
}

// ---- AI training settings ----

async fn get_training(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Value>> {
    let t = blocking(&state, move |store| training::load(store, user.id)).await?;
    Ok(Json(json!(t)))
}

async fn post_training(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(body): ApiJson<Value>,
) -> Result<Json<Value>> {
    if !body.is_object() {
        return Err(AppError::bad_request(messages::MALFORMED_JSON));
    }
    let now = crate::emails::view::iso(crate::outgoing::now());
    let t = blocking(&state, move |store| {
        training::save(store, user.id, &body, &now)
    })
    .await?;
    Ok(Json(json!({ "success": true, "settings": t })))
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

async fn smart_reply(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: HeaderMap,
    ApiJson(req): ApiJson<SmartReplyRequest>,
) -> Result<Json<Value>> {
    let prepared = prepare(&state, user.id, &req.extras, &headers).await?;
    let with_context = prepared.training.include_context;
    let (mail, context) = match (req.email_id, req.email_content) {
        (Some(id), _) => {
            let id: u64 = id
                .trim()
                .parse()
                .map_err(|_| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))?;
            blocking(&state, move |store| {
                source::stored(store, user.id, id, with_context)
            })
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
        &prepared,
        &ask,
        messages::AI_SMART_REPLY_FAILED,
        answer::plain,
    )
    .await?;
    Ok(Json(json!({ "success": true, "reply": reply })))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct SubjectRequest {
    email_body: String,
    #[serde(flatten)]
    extras: Extras,
}

async fn generate_subject(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: HeaderMap,
    ApiJson(req): ApiJson<SubjectRequest>,
) -> Result<Json<Value>> {
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
        &prepared,
        &ask,
        messages::AI_SUBJECT_FAILED,
        answer::subject,
    )
    .await?;
    Ok(Json(json!({ "success": true, "subject": subject })))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct ImproveRequest {
    email_content: String,
    style: String,
    #[serde(flatten)]
    extras: Extras,
}

async fn improve_email(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: HeaderMap,
    ApiJson(req): ApiJson<ImproveRequest>,
) -> Result<Json<Value>> {
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
        &prepared,
        &ask,
        messages::AI_IMPROVE_FAILED,
        answer::plain,
    )
    .await?;
    Ok(Json(json!({
        "success": true,
        "improved": editor_html(&text),
        "improvedText": text,
    })))
}

/// Plain text as the editor's paragraphs (escaped; the editor and the sent mail set `dir`).
pub fn editor_html(text: &str) -> String {
    crate::mail::sanitize::text_to_html(text).replace("<p dir=\"auto\">", "<p>")
}
