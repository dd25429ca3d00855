//! The outbox's jobs on the scheduler (`crate::jobs`): `pass` sends what is due (undo delay
//! over, scheduled time reached, retry backoff passed) when the next item falls due, and at
//! once when a request wakes the outbox, else every 5 s at most (writers that do not wake it);
//! between those it sleeps (a due-time job, issue 42: it ran every second). `sweep_uploads` drops attachments no mail took. `prepare` runs once at
//! start.

use super::{Outbox, deliver, outbox, uploads};
use crate::state::AppState;

/// The longest the outbox sleeps with nothing due.
const IDLE_LOOK_SECS: i64 = 5;

/// The jobs' names.
pub const SEND: &str = "outbox";
pub const SWEEP: &str = "upload-sweep";

/// At start, before the scheduler: sends cut by a restart are released, and a request (send,
/// undo, edit) wakes the outbox from then on, so its job runs now rather than at the next
/// tick.
pub fn prepare(state: &AppState) -> anyhow::Result<()> {
    match outbox::release_stale_claims(&state.store) {
        Ok(n) if n > 0 => tracing::warn!(items = n, "outbox: resuming sends cut by a restart"),
        Ok(_) => {}
        Err(e) => tracing::error!(error = %e, "outbox: cannot release stale claims"),
    }
    let state = state.clone();
    tokio::spawn(async move {
        let outbox = state.service::<Outbox>();
        loop {
            outbox.wake.notified().await;
            state.jobs().trigger(&state, SEND);
        }
    });
    Ok(())
}

/// Sends every due item, and again while sending made more due (failures reschedule
/// themselves; new items may have come). Returns when the next item falls due (Unix ms).
pub async fn pass(state: AppState) -> anyhow::Result<Option<i64>> {
    loop {
        let store = state.store.clone();
        let items = tokio::task::spawn_blocking(move || outbox::all(&store)).await??;
        let mut worked = false;
        let mut next: Option<i64> = None;
        for item in items {
            let Some(due) = item.due_at() else { continue };
            let now = crate::kit::now();
            if due > now {
                next = crate::jobs::sooner(next, due);
                continue;
            }
            let store = state.store.clone();
            let claimed =
                tokio::task::spawn_blocking(move || outbox::claim(&store, item.id, now)).await?;
            if let Some(item) = claimed? {
                deliver::run(&state, item).await;
                worked = true;
            }
        }
        if !worked {
            // Not every writer of the outbox wakes it (a rule's forward, an invitation's
            // answer, an unsubscribe mail): it looks again this soon at the latest.
            let soon = crate::kit::now() + IDLE_LOOK_SECS;
            return Ok(crate::jobs::sooner(next, soon).map(|at| at * 1000));
        }
    }
}

/// Drops uploads older than their time that no mail took.
pub async fn sweep_uploads(state: AppState) -> anyhow::Result<()> {
    let store = state.store.clone();
    tokio::task::spawn_blocking(move || uploads::sweep(&store, crate::kit::now())).await??;
    Ok(())
}
