//! Tasks (spec 001 §2 Tasks page, §3 Task, §4 toggle, §5): per user on the server, newest
//! first; a task may link to the mail it came from; due times are in the user's time zone, and
//! the scheduler's `task-reminders` job tells the user's sessions when one falls due.
//!
//! - `model`: the fields, their checks, due times.
//! - `routes`: `/api/tasks/*`.
//! - `reminders`: the job.
//!
//! A date alone is 09:00 that day in the user's zone. The job marks a task reminded before it sends
//! `task_due`, once per due time (a new due time reminds again).

pub mod model;
pub mod reminders;
pub mod routes;

use redb::WriteTransaction;

pub use model::{Task, TaskInput};
pub use routes::{add, router};

/// Tasks: routes, forget step, backup section, and the reminders' job.
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    forget: &[Step {
        name: "tasks",
        account: forget::nothing,
        user: forget_user,
    }],
    backup: &[BackupSection::of::<Backup>("tasks")],
    jobs: |_| vec![Spec::due(reminders::JOB, reminders::run)],
    needs: &[need::<crate::notices::Notices>],
    ..Feature::named("tasks")
};

use crate::error::Result;
use crate::feature::{BackupSection, Feature, Notes, Section, need, unless_empty};
use crate::forget::{self, Step};
use crate::jobs::Spec;
use crate::messages;
use crate::state::AppState;
use crate::store::per_user::{Made, UserRecords};

pub(crate) static TASKS: UserRecords = UserRecords::new("tasks", "tasks");

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    TASKS.create(txn)
}

pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    TASKS.forget(txn, user_id)
}

/// Every task of the user, as stored (oldest first).
pub fn all(store: &crate::store::Store, user_id: u64) -> Result<Vec<model::Stored>> {
    TASKS.list(store, user_id)
}

/// The settings backup's section: every task, as stored. The mail a task came from is another
/// install's mail, so only its subject travels.
struct Backup;

impl Section for Backup {
    type Data = Vec<model::Stored>;

    fn export(state: &AppState, user_id: u64) -> anyhow::Result<Option<Self::Data>> {
        let list: Vec<model::Stored> = TASKS.list(&state.store, user_id)?;
        Ok(unless_empty(list))
    }

    /// Restores the backup's tasks beside the user's own (each under a new id); a task already
    /// here with the same title and creation time is not added twice.
    fn import(state: &AppState, user_id: u64, list: Vec<model::Stored>) -> anyhow::Result<Notes> {
        let have: Vec<model::Stored> = TASKS.list(&state.store, user_id)?;
        // Each task passes the route's checks of its texts (a backup file may be anyone's).
        let mut checked = Vec::new();
        for mut t in list.into_iter().take(model::MAX_TASKS) {
            (t.title, t.description) = model::checked_text(&t.title, &t.description)?;
            t.email_subject = t
                .email_subject
                .and_then(|s| model::checked_text(&s, "").ok())
                .map(|(s, _)| s);
            checked.push(t);
        }
        let items = checked
            .into_iter()
            .filter(|t| {
                !have
                    .iter()
                    .any(|h| h.title == t.title && h.created == t.created)
            })
            .map(|t| -> Made<model::Stored> {
                (
                    None,
                    Box::new(move |id| model::Stored {
                        id,
                        email_id: None,
                        ..t
                    }),
                )
            });
        TASKS.put_many(
            &state.store,
            user_id,
            model::MAX_TASKS,
            messages::TASKS_FULL,
            items,
        )?;
        reminders::rethink(state);
        Ok(Vec::new())
    }
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    model::Priority,
    model::Status,
    TaskInput,
    Task,
    routes::TasksResponse,
    routes::TaskDeleted,
);
