//! The address book and the task list: read with the `read` scope, a task added with `triage`
//! (through `tasks::add`, checked as the tasks page checks it).

use serde_json::{Value, json};

use super::args;
use super::done;
use super::mail::clean_text;
use crate::error::{AppError, Result};
use crate::kit::now;
use crate::state::AppState;
use crate::tasks::{Task, TaskInput};

const MAX_CONTACTS: i64 = 100;
const MAX_TASKS: i64 = 100;

pub fn contacts_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "Part of a name, address, company or group."},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_CONTACTS, "default": 50}
        },
        "additionalProperties": false
    })
}

pub fn tasks_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "filter": {"type": "string", "enum": ["all", "open", "done", "overdue"], "default": "open"},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_TASKS, "default": 50}
        },
        "additionalProperties": false
    })
}

pub fn add_task_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "title": {"type": "string", "maxLength": 300},
            "description": {"type": "string", "maxLength": 10000},
            "due": {"type": "string", "description": "YYYY-MM-DD, YYYY-MM-DDTHH:MM (the person's time zone) or RFC 3339."},
            "priority": {"type": "string", "enum": ["low", "medium", "high", "urgent"], "default": "medium"},
            "email_id": {"type": "string", "description": "The mail the task comes from."}
        },
        "required": ["title"],
        "additionalProperties": false
    })
}

/// `list_contacts`.
pub async fn contacts(state: &AppState, user: u64, a: Value) -> Result<Value> {
    let query = args::text(&a, "query", 200)?
        .unwrap_or_default()
        .to_string();
    let limit = args::int(&a, "limit", 1, MAX_CONTACTS, 50)? as usize;
    state
        .store_blocking(move |store| {
            let found = crate::contacts::search(store, user, &query, None)?;
            let total = found.len();
            let list: Vec<Value> = found
                .into_iter()
                .take(limit)
                .map(|c| {
                    let f = c.fields;
                    json!({
                        "id": c.id.to_string(),
                        "name": clean_text(&f.name, 200),
                        "email": f.email,
                        "phone": f.phone,
                        "company": clean_text(&f.company, 200),
                        "position": clean_text(&f.position, 200),
                        "groups": f.groups,
                    })
                })
                .collect();
            Ok(done(json!({"total": total, "contacts": list})))
        })
        .await
}

/// `list_tasks`.
pub async fn tasks(state: &AppState, user: u64, a: Value) -> Result<Value> {
    let filter = args::text(&a, "filter", 20)?.unwrap_or("open").to_string();
    let limit = args::int(&a, "limit", 1, MAX_TASKS, 50)? as usize;
    if !matches!(filter.as_str(), "all" | "open" | "done" | "overdue") {
        return Err(AppError::bad_request(crate::messages::TASK_FILTER_INVALID));
    }
    state
        .store_blocking(move |store| {
            let now = now();
            let mut all = crate::tasks::all(store, user)?;
            all.sort_by(|a, b| b.created.cmp(&a.created).then(b.id.cmp(&a.id)));
            let kept: Vec<Task> = all
                .into_iter()
                .filter(|t| match filter.as_str() {
                    "open" => t.status == crate::tasks::model::Status::Pending,
                    "done" => t.status == crate::tasks::model::Status::Completed,
                    "overdue" => t.overdue(now),
                    _ => true,
                })
                .take(limit)
                .map(|t| Task::of(t, now))
                .collect();
            Ok(done(json!({"tasks": kept})))
        })
        .await
}

/// `add_task`.
pub async fn add_task(state: &AppState, user: u64, a: Value) -> Result<Value> {
    let priority = match args::text(&a, "priority", 10)?.unwrap_or("medium") {
        "low" => crate::tasks::model::Priority::Low,
        "medium" => crate::tasks::model::Priority::Medium,
        "high" => crate::tasks::model::Priority::High,
        "urgent" => crate::tasks::model::Priority::Urgent,
        _ => {
            return Err(AppError::BadRequest(
                "argument `priority` is not one of low, medium, high, urgent".into(),
            ));
        }
    };
    let email_id = match a.get("email_id") {
        None | Some(Value::Null) => None,
        Some(_) => Some(args::id(&a, "email_id")?.to_string()),
    };
    let input = TaskInput {
        title: args::required(&a, "title", 300)?.to_string(),
        description: args::text(&a, "description", 10_000)?
            .unwrap_or_default()
            .to_string(),
        due_date: args::text(&a, "due", 40)?.unwrap_or_default().to_string(),
        priority,
        email_id,
        ..TaskInput::default()
    };
    let task = state
        .store_blocking(move |store| crate::tasks::add(store, user, input))
        .await?;
    crate::tasks::reminders::rethink(state);
    Ok(done(json!({"task": Task::of(task, now())})))
}
