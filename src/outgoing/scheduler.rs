//! The outbox's jobs on the scheduler (`crate::jobs`): `pass` sends what is due (undo delay
//! over, scheduled time reached, retry backoff passed) every second, and at once when a
//! request wakes the outbox; `sweep_uploads` drops attachments no mail took. `prepare` runs
//! once at start.

use super::{Outbox, deliver, outbox, uploads};
use crate::state::AppState;

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
/// themselves; new items may have come).
pub async fn pass(state: AppState) -> anyhow::Result<()> {
    loop {
        let store = state.store.clone();
        let items = tokio::task::spawn_blocking(move || outbox::all(&store)).await??;
        let mut worked = false;
        for item in items {
            let Some(due) = item.due_at() else { continue };
            let now = crate::kit::now();
            if due > now {
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
            return Ok(());
        }
    }
}

/// Drops uploads older than their time that no mail took.
pub async fn sweep_uploads(state: AppState) -> anyhow::Result<()> {
    let store = state.store.clone();
    tokio::task::spawn_blocking(move || uploads::sweep(&store, crate::kit::now())).await??;
    Ok(())
}
