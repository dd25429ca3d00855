//! The `task-reminders` job: a pending task whose due time has come is announced once to the
//! user's live sessions (`task_due`; the web shows it, and a desktop notification when that
//! preference is on). A task whose due time changes is announced again at the new time. The job
//! sleeps until the next due time among the tasks not announced yet; whatever writes a task
//! wakes it ([`rethink`]) to look again.

use super::TASKS;
use super::model::Stored;
use crate::kit::iso;
use crate::notices::{Notice, Notices, TaskDue};
use crate::state::AppState;

pub const JOB: &str = "task-reminders";

/// A task was written (its due time or status may have changed): the job looks again at when
/// it is next due.
pub fn rethink(state: &AppState) {
    state.jobs().trigger(state, JOB);
}

/// When the next reminder is due (Unix ms): the second after the soonest due time of a pending
/// task not announced yet and not due by `now` (those are announced by this run).
pub fn next_due(tasks: &[(u64, Stored)], now: i64) -> Option<i64> {
    tasks
        .iter()
        .filter(|(_, t)| !t.reminded && t.status == super::model::Status::Pending)
        .filter_map(|(_, t)| t.due)
        .filter(|&d| d >= now)
        .min()
        .map(|d| (d + 1) * 1000)
}

/// The tasks to announce at `now`: pending, past their due time (from the second after it, so
/// a list read when the reminder arrives already shows the task as overdue), not yet announced.
pub fn due(tasks: &[(u64, Stored)], now: i64) -> Vec<(u64, u64)> {
    tasks
        .iter()
        .filter(|(_, t)| !t.reminded && t.overdue(now))
        .map(|(user, t)| (*user, t.id))
        .collect()
}

/// One run: announces the tasks due now, and returns when the next one is due.
pub async fn run(state: AppState) -> anyhow::Result<Option<i64>> {
    let now = crate::kit::now();
    let (announced, next) = state
        .store_blocking(move |store| {
            let all: Vec<(u64, Stored)> = TASKS.everyone(store)?;
            let next = next_due(&all, now);
            let mut out = Vec::new();
            for (user, id) in due(&all, now) {
                // Marked first: a crash after this loses one reminder rather than repeating it.
                if let Some(t) = TASKS.update(store, user, id, |t: &mut Stored| {
                    t.reminded = true;
                    Ok(())
                })? {
                    out.push((user, t));
                }
            }
            Ok((out, next))
        })
        .await?;
    let notices = state.service::<Notices>();
    for (user, t) in announced {
        let notice = TaskDue {
            id: t.id.to_string(),
            title: t.title,
            due_date: t.due.map(iso),
        };
        notices.send(user, Notice::TaskDue(notice));
    }
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::model::{Priority, Status};

    fn task(id: u64, due: Option<i64>, status: Status, reminded: bool) -> Stored {
        Stored {
            id,
            title: format!("t{id}"),
            description: String::new(),
            priority: Priority::Medium,
            due,
            status,
            created: 0,
            completed: None,
            email_id: None,
            email_subject: None,
            reminded,
        }
    }

    #[test]
    fn only_pending_unannounced_tasks_whose_time_came() {
        let all = vec![
            (1, task(1, Some(100), Status::Pending, false)),
            (1, task(2, Some(101), Status::Pending, false)),
            (2, task(3, Some(50), Status::Completed, false)),
            (2, task(4, Some(50), Status::Pending, true)),
            (2, task(5, None, Status::Pending, false)),
        ];
        assert_eq!(due(&all, 101), vec![(1, 1)]);
        assert_eq!(due(&all, 102), vec![(1, 1), (1, 2)]);
        assert!(due(&all, 100).is_empty());
    }

    #[test]
    fn the_job_sleeps_until_the_second_after_the_soonest_unannounced_due_time() {
        let all = vec![
            (1, task(1, Some(100), Status::Pending, false)),
            (1, task(2, Some(300), Status::Pending, false)),
            (2, task(3, Some(150), Status::Completed, false)),
            (2, task(4, Some(120), Status::Pending, true)),
            (2, task(5, None, Status::Pending, false)),
        ];
        // At 100 task 1 is not due yet (it is from 101 on).
        assert_eq!(next_due(&all, 100), Some(101_000));
        // At 101 this run announces task 1: the next is task 2's.
        assert_eq!(next_due(&all, 101), Some(301_000));
        assert_eq!(next_due(&all, 301), None);
    }
}
