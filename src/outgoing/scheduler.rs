//! The in-process scheduler: sends what is due (undo delay over, scheduled time reached, retry
//! backoff passed), sleeping until the next due item (at most 30 s, so a clock change or a
//! store edited by `migrate` is noticed) or until a request wakes it. Started by `serve`.

use std::time::Duration;

use tokio::task::JoinHandle;

use super::{deliver, outbox, uploads};
use crate::state::AppState;

const MAX_SLEEP: Duration = Duration::from_secs(30);
const SWEEP_EVERY_SECS: i64 = 3600;

pub fn spawn(state: AppState) -> JoinHandle<()> {
    tokio::spawn(async move {
        let outbox = state.service::<super::Outbox>();
        let store = state.store.clone();
        match tokio::task::spawn_blocking(move || outbox::release_stale_claims(&store)).await {
            Ok(Ok(n)) if n > 0 => {
                tracing::warn!(items = n, "outbox: resuming sends cut by a restart")
            }
            Ok(Err(e)) => tracing::error!(error = %e, "outbox: cannot release stale claims"),
            _ => {}
        }
        let mut last_sweep = 0;
        loop {
            let next = pass(&state).await;
            let now_ms = now_ms();
            if now_ms / 1000 - last_sweep > SWEEP_EVERY_SECS {
                last_sweep = now_ms / 1000;
                let store = state.store.clone();
                let _ = tokio::task::spawn_blocking(move || uploads::sweep(&store, now_ms / 1000))
                    .await;
            }
            let wait = next
                .map(|at| Duration::from_millis((at * 1000 - now_ms).max(0) as u64))
                .unwrap_or(MAX_SLEEP)
                .min(MAX_SLEEP);
            tokio::select! {
                _ = outbox.wake.notified() => {}
                _ = tokio::time::sleep(wait) => {}
            }
        }
    })
}

fn now_ms() -> i64 {
    (time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
}

/// Sends every due item; returns when the next one is due.
async fn pass(state: &AppState) -> Option<i64> {
    let store = state.store.clone();
    let items = match tokio::task::spawn_blocking(move || outbox::all(&store)).await {
        Ok(Ok(items)) => items,
        Ok(Err(e)) => {
            tracing::error!(error = %e, "outbox: cannot read");
            return None;
        }
        Err(_) => return None,
    };
    let mut next: Option<i64> = None;
    let mut worked = false;
    for item in items {
        let Some(due) = item.due_at() else { continue };
        let now = now_ms() / 1000;
        if due > now {
            next = Some(next.map_or(due, |n: i64| n.min(due)));
            continue;
        }
        let store = state.store.clone();
        let claimed =
            tokio::task::spawn_blocking(move || outbox::claim(&store, item.id, now)).await;
        if let Ok(Ok(Some(item))) = claimed {
            deliver::run(state, item).await;
            worked = true;
        }
    }
    // After work, read again at once: failures rescheduled themselves, new items may be due.
    if worked { Some(0) } else { next }
}
