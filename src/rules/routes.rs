//! `/api/rules` (list in order, create), `/api/rules/{id}` (change, delete),
//! `/api/rules/{id}/active` (the switch), `/api/rules/order`, `/api/rules/{id}/preview` and
//! `/run` (run now on the inbox: how many match, then apply), `/api/rules/{id}/activity`.

use axum::extract::Path;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::actions::Outcome;
use super::model::{ActionKind, MAX_RULES, Rule, RuleInput, Stored, StoredRule};
use super::{ACTIVITY, Activity, RULES, runner};
use crate::auth::UserStore;
use crate::emails::view::iso;
use crate::error::{ApiJson, AppError, Result};
use crate::kit::now;
use crate::messages;
use crate::outgoing::{Outbox, uploads};
use crate::state::AppState;
use crate::store::Store;
use crate::store::per_user::Made;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/rules", get(list).post(create))
        .route("/api/rules/order", put(order))
        .route("/api/rules/{id}", put(update).delete(delete))
        .route("/api/rules/{id}/active", put(set_active))
        .route("/api/rules/{id}/preview", post(preview))
        .route("/api/rules/{id}/run", post(run_now))
        .route("/api/rules/{id}/activity", get(activity))
}

fn not_found() -> AppError {
    AppError::NotFound(messages::RULE_NOT_FOUND.into())
}

fn id_of(raw: &str) -> Result<u64> {
    raw.parse().map_err(|_| not_found())
}

fn own(store: &Store, user_id: u64) -> Result<Vec<String>> {
    Ok(crate::accounts::list_for_user(store, user_id)?
        .into_iter()
        .map(|a| a.email.to_lowercase())
        .collect())
}

fn ordered(store: &Store, user_id: u64) -> Result<Vec<Stored>> {
    let mut rules: Vec<Stored> = RULES.list(store, user_id)?;
    rules.sort_by_key(|r| (r.position, r.id));
    Ok(rules)
}

/// Whether a rule's new forward address must come confirmed (the form), or may wait for the
/// user to confirm it later (a restored backup: the file cannot confirm anything).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Forward {
    MustBeConfirmed,
    MayWait,
}

/// `input` through the route's checks. Its forward address is confirmed when the user confirmed
/// it now (`confirm_forward`, the form's confirm step showed it) or had confirmed the same
/// address for this rule `before`; otherwise the forward waits, or (`MustBeConfirmed`) the rule
/// is refused with the address named.
fn stored_rule(
    store: &Store,
    user_id: u64,
    input: RuleInput,
    before: Option<&StoredRule>,
    forward: Forward,
) -> Result<StoredRule> {
    let confirmed_now = input
        .confirm_forward
        .as_deref()
        .map(|c| c.trim().to_lowercase());
    let mut rule: StoredRule = input.checked(&own(store, user_id)?)?.into();
    if let Some(to) = rule.forward_to() {
        let before = before.and_then(|b| b.forward_confirmed.as_deref());
        if confirmed_now.as_deref() == Some(to.as_str()) || before == Some(to.as_str()) {
            rule.forward_confirmed = Some(to);
        } else if forward == Forward::MustBeConfirmed {
            return Err(AppError::bad_request(messages::rule_forward_confirm(&to)));
        }
    }
    // Labels by name become their keywords (the mail carries those), new names new labels.
    for a in &mut rule.actions {
        if a.kind == ActionKind::AddLabel {
            a.value = crate::labels::model::keyword_of(store, user_id, &a.value)?;
        }
    }
    Ok(rule)
}

/// A new rule, last in order.
pub fn create_rule(
    store: &Store,
    user_id: u64,
    input: RuleInput,
    forward: Forward,
) -> Result<Stored> {
    let rule = stored_rule(store, user_id, input, None, forward)?;
    let position = ordered(store, user_id)?
        .last()
        .map_or(0, |r| r.position + 1);
    let created = now();
    RULES.insert(store, user_id, MAX_RULES, messages::RULES_FULL, move |id| {
        Stored {
            id,
            rule,
            created,
            position,
        }
    })
}

/// `GET /api/rules`: in the order they run.
#[derive(Debug, Serialize, TS)]
pub struct RulesResponse {
    pub rules: Vec<Rule>,
}

async fn list(me: UserStore) -> Result<Json<RulesResponse>> {
    let rules = me
        .run(|store, user_id| super::folders::shown(store, user_id, ordered(store, user_id)?))
        .await?;
    Ok(Json(RulesResponse { rules }))
}

async fn create(
    UserStore { state, user }: UserStore,
    ApiJson(input): ApiJson<RuleInput>,
) -> Result<Json<Rule>> {
    let r = state
        .store_blocking(move |store| create_rule(store, user.id, input, Forward::MustBeConfirmed))
        .await?;
    Ok(Json(r.into()))
}

async fn update(
    UserStore { state, user }: UserStore,
    Path(id): Path<String>,
    ApiJson(input): ApiJson<RuleInput>,
) -> Result<Json<Rule>> {
    let id = id_of(&id)?;
    let r = state
        .store_blocking(move |store| {
            let before = rule_of(store, user.id, id)?;
            let rule = stored_rule(
                store,
                user.id,
                input,
                Some(&before.rule),
                Forward::MustBeConfirmed,
            )?;
            RULES.update(store, user.id, id, |r: &mut Stored| {
                r.rule = rule;
                Ok(())
            })
        })
        .await?
        .ok_or_else(not_found)?;
    Ok(Json(r.into()))
}

/// `PUT /api/rules/{id}/active`.
#[derive(Debug, Deserialize, TS)]
#[ts(rename = "RuleActiveRequest")]
pub struct ActiveRequest {
    pub is_active: bool,
}

async fn set_active(
    UserStore { state, user }: UserStore,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<ActiveRequest>,
) -> Result<Json<Rule>> {
    let id = id_of(&id)?;
    let r = state
        .store_blocking(move |store| {
            RULES.update(store, user.id, id, |r: &mut Stored| {
                r.rule.is_active = req.is_active;
                Ok(())
            })
        })
        .await?
        .ok_or_else(not_found)?;
    Ok(Json(r.into()))
}

/// `PUT /api/rules/order`: every rule's id, in the order they should run.
#[derive(Debug, Deserialize, TS)]
#[ts(rename = "RulesOrderRequest")]
pub struct OrderRequest {
    pub ids: Vec<String>,
}

async fn order(
    UserStore { state, user }: UserStore,
    ApiJson(req): ApiJson<OrderRequest>,
) -> Result<Json<RulesResponse>> {
    let rules = state
        .store_blocking(move |store| {
            let current = ordered(store, user.id)?;
            let ids: Vec<u64> = req.ids.iter().filter_map(|i| i.parse().ok()).collect();
            let mut sorted = ids.clone();
            sorted.sort_unstable();
            let mut have: Vec<u64> = current.iter().map(|r| r.id).collect();
            have.sort_unstable();
            if sorted != have || ids.len() != req.ids.len() {
                return Err(AppError::bad_request(messages::RULES_ORDER_INVALID));
            }
            let items: Vec<Made<Stored>> = current
                .into_iter()
                .map(|mut r| {
                    r.position = ids.iter().position(|i| *i == r.id).unwrap_or(0) as i64;
                    (
                        Some(r.id),
                        Box::new(move |_| r) as Box<dyn FnOnce(u64) -> Stored>,
                    )
                })
                .collect();
            RULES.put_many(store, user.id, MAX_RULES, messages::RULES_FULL, items)?;
            super::folders::shown(store, user.id, ordered(store, user.id)?)
        })
        .await?;
    Ok(Json(RulesResponse { rules }))
}

#[derive(Debug, Serialize, TS)]
#[ts(rename = "RuleDeleted")]
pub struct RuleDeleted {
    pub success: bool,
}

async fn delete(
    UserStore { state, user }: UserStore,
    Path(id): Path<String>,
) -> Result<Json<RuleDeleted>> {
    let id = id_of(&id)?;
    if !state
        .store_blocking(move |store| RULES.remove(store, user.id, id))
        .await?
    {
        return Err(not_found());
    }
    Ok(Json(RuleDeleted { success: true }))
}

fn rule_of(store: &Store, user_id: u64, id: u64) -> Result<Stored> {
    RULES.get(store, user_id, id)?.ok_or_else(not_found)
}

/// A mail "run now" would change.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "RulePreviewMail")]
pub struct PreviewMail {
    pub id: String,
    pub subject: String,
    pub from: String,
    pub date: String,
}

/// `POST /api/rules/{id}/preview`: how many inbox mails the rule matches now.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "RulePreview")]
pub struct Preview {
    pub count: usize,
    /// Inbox mails looked at (the newest, at most 5,000).
    pub scanned: usize,
    /// The first 20.
    pub sample: Vec<PreviewMail>,
}

async fn preview(
    UserStore { state, user }: UserStore,
    Path(id): Path<String>,
) -> Result<Json<Preview>> {
    let id = id_of(&id)?;
    let p = state
        .store_blocking(move |store| {
            let rule = rule_of(store, user.id, id)?;
            let (scanned, hits) = runner::existing(store, user.id, &rule.rule)?;
            Ok(Preview {
                count: hits.len(),
                scanned,
                sample: hits
                    .iter()
                    .take(20)
                    .map(|m| PreviewMail {
                        id: m.id.to_string(),
                        subject: m.summary.subject.clone(),
                        from: m.summary.from.clone(),
                        date: iso(m.date),
                    })
                    .collect(),
            })
        })
        .await?;
    Ok(Json(p))
}

/// `POST /api/rules/{id}/run`.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "RuleRunResult")]
pub struct RunResult {
    pub matched: usize,
    /// Mails on which every action went through.
    pub applied: usize,
}

async fn run_now(
    UserStore { state, user }: UserStore,
    Path(id): Path<String>,
) -> Result<Json<RunResult>> {
    let id = id_of(&id)?;
    let limits = uploads::Limits::from(&state.config.compose);
    let per_day = state.config.limits.forwards_per_day;
    let hooks = state.hooks.clone();
    let (result, forwarded) = state
        .store_blocking(move |store| {
            let rule = rule_of(store, user.id, id)?;
            let (_, hits) = runner::existing(store, user.id, &rule.rule)?;
            // The same forwarding policy as new mail: the day's cap holds for "run now" too.
            let ctx = super::actions::Ctx {
                limits,
                policy: super::forwarding::Policy::of(store, user.id, per_day)?,
                hooks,
            };
            let mut applied = 0;
            let mut forwarded = false;
            for meta in &hits {
                let mut once = false;
                let outcomes =
                    super::actions::apply(store, user.id, meta.id, &rule.rule, &mut once, &ctx);
                forwarded |= once;
                if outcomes.iter().all(|o| o.ok) {
                    applied += 1;
                }
                runner::record(store, user.id, id, meta, outcomes)?;
            }
            Ok((
                RunResult {
                    matched: hits.len(),
                    applied,
                },
                forwarded,
            ))
        })
        .await?;
    if forwarded {
        state.service::<Outbox>().wake.notify_one();
    }
    Ok(Json(result))
}

/// One entry of a rule's activity.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "RuleActivityItem")]
pub struct ActivityItem {
    pub at: String,
    pub email_id: String,
    pub subject: String,
    pub from: String,
    pub outcomes: Vec<Outcome>,
}

/// `GET /api/rules/{id}/activity`: newest first, at most 100.
#[derive(Debug, Serialize, TS)]
#[ts(rename = "RuleActivityResponse")]
pub struct ActivityResponse {
    pub items: Vec<ActivityItem>,
}

async fn activity(
    UserStore { state, user }: UserStore,
    Path(id): Path<String>,
) -> Result<Json<ActivityResponse>> {
    let id = id_of(&id)?;
    let items = state
        .store_blocking(move |store| {
            rule_of(store, user.id, id)?;
            let all: Vec<Activity> = ACTIVITY.list(store, user.id)?;
            Ok(all
                .into_iter()
                .rev()
                .filter(|a| a.rule_id == id)
                .take(100)
                .map(|a| ActivityItem {
                    at: iso(a.at),
                    email_id: a.message.to_string(),
                    subject: a.subject,
                    from: a.from,
                    outcomes: a.outcomes,
                })
                .collect())
        })
        .await?;
    Ok(Json(ActivityResponse { items }))
}
