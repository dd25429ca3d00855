//! `/api/tasks` (list with a filter, create), `/api/tasks/{id}` (change, delete) and
//! `/api/tasks/{id}/toggle` (spec §4: the circle).

use axum::extract::{Path, Query};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::TASKS;
use super::model::{MAX_TASKS, Status, Stored, Task, TaskInput, checked_text, parse_due};
use crate::auth::UserStore;
use crate::error::{ApiJson, AppError, Result};
use crate::kit::now;
use crate::messages;
use crate::state::AppState;
use crate::store::Store;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/tasks", get(list).post(create))
        .route("/api/tasks/{id}", put(update).delete(delete))
        .route("/api/tasks/{id}/toggle", post(toggle))
}

fn not_found() -> AppError {
    AppError::NotFound(messages::TASK_NOT_FOUND.into())
}

fn id_of(raw: &str) -> Result<u64> {
    raw.parse().map_err(|_| not_found())
}

fn tz(store: &Store, user_id: u64) -> Result<chrono_tz::Tz> {
    Ok(crate::settings::load(store, user_id)?.tz())
}

/// The mail a task comes from: the user's own, by its stored id; its subject is kept.
fn linked_mail(store: &Store, user_id: u64, raw: Option<&str>) -> Result<Option<(u64, String)>> {
    let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    let id: u64 = raw
        .parse()
        .map_err(|_| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))?;
    let (meta, _) = crate::emails::get(store, user_id, id)?;
    Ok(Some((id, meta.summary.subject)))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ListQuery {
    filter: String,
}

/// `GET /api/tasks?filter=all|open|done|overdue`: newest first (spec).
#[derive(Debug, Serialize, TS)]
pub struct TasksResponse {
    pub tasks: Vec<Task>,
    /// How many are open, and of them overdue (all tasks, whatever the filter).
    pub open: usize,
    pub overdue: usize,
}

async fn list(
    UserStore { state, user }: UserStore,
    Query(q): Query<ListQuery>,
) -> Result<Json<TasksResponse>> {
    let now = now();
    let keep: fn(&Stored, i64) -> bool = match q.filter.as_str() {
        "" | "all" => |_, _| true,
        "open" => |t, _| t.status == Status::Pending,
        "done" => |t, _| t.status == Status::Completed,
        "overdue" => |t, now| t.overdue(now),
        _ => return Err(AppError::bad_request(messages::TASK_FILTER_INVALID)),
    };
    let all: Vec<Stored> = state
        .store_blocking(move |store| TASKS.list(store, user.id))
        .await?;
    let open = all.iter().filter(|t| t.status == Status::Pending).count();
    let overdue = all.iter().filter(|t| t.overdue(now)).count();
    let mut tasks: Vec<Stored> = all.into_iter().filter(|t| keep(t, now)).collect();
    tasks.sort_by(|a, b| b.created.cmp(&a.created).then(b.id.cmp(&a.id)));
    Ok(Json(TasksResponse {
        tasks: tasks.into_iter().map(|t| Task::of(t, now)).collect(),
        open,
        overdue,
    }))
}

async fn create(
    UserStore { state, user }: UserStore,
    ApiJson(input): ApiJson<TaskInput>,
) -> Result<Json<Task>> {
    let t = state
        .store_blocking(move |store| add(store, user.id, input))
        .await?;
    super::reminders::rethink(&state);
    Ok(Json(Task::of(t, now())))
}

/// Adds a task for the user, checked as the page's form is (the invitation card and the agent
/// API add theirs here too).
pub fn add(store: &Store, user_id: u64, input: TaskInput) -> Result<Stored> {
    let (title, description) = checked_text(&input.title, &input.description)?;
    let due = parse_due(&input.due_date, tz(store, user_id)?)?;
    let mail = linked_mail(store, user_id, input.email_id.as_deref())?;
    let status = input.status.unwrap_or_default();
    let now = now();
    TASKS.insert(store, user_id, MAX_TASKS, messages::TASKS_FULL, move |id| {
        Stored {
            id,
            title,
            description,
            priority: input.priority,
            due,
            status,
            created: now,
            completed: (status == Status::Completed).then_some(now),
            email_id: mail.as_ref().map(|m| m.0),
            email_subject: mail.map(|m| m.1),
            reminded: false,
        }
    })
}

async fn update(
    UserStore { state, user }: UserStore,
    Path(id): Path<String>,
    ApiJson(input): ApiJson<TaskInput>,
) -> Result<Json<Task>> {
    let id = id_of(&id)?;
    let t = state
        .store_blocking(move |store| {
            let (title, description) = checked_text(&input.title, &input.description)?;
            let due = parse_due(&input.due_date, tz(store, user.id)?)?;
            let mail = linked_mail(store, user.id, input.email_id.as_deref())?;
            TASKS.update(store, user.id, id, |t: &mut Stored| {
                if t.due != due {
                    // A new due time gets its own reminder.
                    t.reminded = false;
                }
                t.title = title;
                t.description = description;
                t.priority = input.priority;
                t.due = due;
                if let Some(s) = input.status {
                    set_status(t, s);
                }
                if let Some((id, subject)) = mail {
                    t.email_id = Some(id);
                    t.email_subject = Some(subject);
                }
                Ok(())
            })
        })
        .await?
        .ok_or_else(not_found)?;
    super::reminders::rethink(&state);
    Ok(Json(Task::of(t, now())))
}

fn set_status(t: &mut Stored, s: Status) {
    if t.status != s {
        t.status = s;
        t.completed = (s == Status::Completed).then(now);
    }
}

async fn toggle(
    UserStore { state, user }: UserStore,
    Path(id): Path<String>,
) -> Result<Json<Task>> {
    let id = id_of(&id)?;
    let t = state
        .store_blocking(move |store| {
            TASKS.update(store, user.id, id, |t: &mut Stored| {
                let next = match t.status {
                    Status::Pending => Status::Completed,
                    Status::Completed => Status::Pending,
                };
                set_status(t, next);
                Ok(())
            })
        })
        .await?
        .ok_or_else(not_found)?;
    super::reminders::rethink(&state);
    Ok(Json(Task::of(t, now())))
}

#[derive(Debug, Serialize, TS)]
pub struct TaskDeleted {
    pub success: bool,
}

async fn delete(
    UserStore { state, user }: UserStore,
    Path(id): Path<String>,
) -> Result<Json<TaskDeleted>> {
    let id = id_of(&id)?;
    if !state
        .store_blocking(move |store| TASKS.remove(store, user.id, id))
        .await?
    {
        return Err(not_found());
    }
    Ok(Json(TaskDeleted { success: true }))
}
