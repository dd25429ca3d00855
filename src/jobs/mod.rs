//! The daemon's periodic work on one in-process scheduler (tokio-cron-scheduler): `serve`
//! starts it with every job (each feature's `Feature::jobs`) and shuts it down before it exits.
//! Each job:
//! - runs in a task of its own, so a panic is caught there, logged, and the job runs again at
//!   its next tick; a failure (`Err`) is logged the same way. The server never goes down for it.
//! - is never started twice: a tick that comes while it still runs is skipped.
//! - can be asked to run now ([`Jobs::trigger`]: a send request, new mail); asked while it runs,
//!   it runs once more right after, so the request is never lost.
//!
//! The long-lived work stays out of it: each mailbox's sync and IDLE task, the change feed and
//! the search indexer follow their streams; the jobs here only wake them.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::Mutex;
use tokio_cron_scheduler::{Job, JobScheduler};

type Run<C> =
    Arc<dyn Fn(C) -> Pin<Box<dyn Future<Output = anyhow::Result<()>> + Send>> + Send + Sync>;

/// What a job is handed each run (the server's is `AppState`).
pub trait Context: Clone + Send + Sync + 'static {}
impl<T: Clone + Send + Sync + 'static> Context for T {}

/// One periodic job: a name for the log, its period, and its work.
pub struct Spec<C> {
    pub name: &'static str,
    pub every: Duration,
    run: Run<C>,
}

impl<C: Context> Spec<C> {
    pub fn new<F, Fut>(name: &'static str, every: Duration, run: F) -> Self
    where
        F: Fn(C) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = anyhow::Result<()>> + Send + 'static,
    {
        Self {
            name,
            every,
            run: Arc::new(move |s| Box::pin(run(s))),
        }
    }
}

/// A job with its guards.
struct Entry<C> {
    spec: Spec<C>,
    running: AtomicBool,
    again: AtomicBool,
}

/// The scheduler and its jobs (a service of the state, so features can trigger a job).
pub struct Jobs<C> {
    entries: HashMap<&'static str, Arc<Entry<C>>>,
    scheduler: Mutex<Option<JobScheduler>>,
}

impl<C: Context> Jobs<C> {
    pub fn new(specs: Vec<Spec<C>>) -> Self {
        let entries = specs
            .into_iter()
            .map(|spec| {
                (
                    spec.name,
                    Arc::new(Entry {
                        spec,
                        running: AtomicBool::new(false),
                        again: AtomicBool::new(false),
                    }),
                )
            })
            .collect();
        Self {
            entries,
            scheduler: Mutex::new(None),
        }
    }

    /// The jobs and their periods, by name (for the log and the tests).
    pub fn periods(&self) -> Vec<(&'static str, Duration)> {
        let mut all: Vec<_> = self
            .entries
            .values()
            .map(|e| (e.spec.name, e.spec.every))
            .collect();
        all.sort();
        all
    }

    /// Starts the scheduler with every job.
    pub async fn start(&self, state: &C) -> anyhow::Result<()> {
        let scheduler = JobScheduler::new().await?;
        for entry in self.entries.values() {
            let (entry, state) = (entry.clone(), state.clone());
            let job = Job::new_repeated_async(entry.spec.every, move |_, _| {
                let (entry, state) = (entry.clone(), state.clone());
                Box::pin(async move { tick(entry, state, false).await })
            })?;
            scheduler.add(job).await?;
        }
        scheduler.start().await?;
        *self.scheduler.lock().await = Some(scheduler);
        tracing::debug!(jobs = ?self.periods(), "scheduler started");
        Ok(())
    }

    /// Runs `name` now (or once more right after the run in progress).
    pub fn trigger(&self, state: &C, name: &str) {
        if let Some(entry) = self.entries.get(name) {
            tokio::spawn(tick(entry.clone(), state.clone(), true));
        }
    }

    /// Stops the ticks; a job in progress finishes on its own task.
    pub async fn shutdown(&self) {
        if let Some(mut s) = self.scheduler.lock().await.take()
            && let Err(e) = s.shutdown().await
        {
            tracing::warn!(error = %e, "scheduler shutdown");
        }
    }
}

/// Clears `running` however the run ends.
struct Running<'a>(&'a AtomicBool);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// One tick of a job: skipped while a run is in progress (a trigger asks that run to go once
/// more); otherwise runs the job on its own task until no trigger came in meanwhile.
async fn tick<C: Context>(entry: Arc<Entry<C>>, state: C, triggered: bool) {
    if triggered {
        entry.again.store(true, Ordering::Release);
    }
    loop {
        if entry.running.swap(true, Ordering::AcqRel) {
            tracing::trace!(job = entry.spec.name, "still running: tick skipped");
            return;
        }
        {
            let _running = Running(&entry.running);
            loop {
                entry.again.store(false, Ordering::Release);
                tracing::trace!(job = entry.spec.name, "run");
                let run = (entry.spec.run)(state.clone());
                match tokio::spawn(run).await {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => {
                        tracing::error!(job = entry.spec.name, error = %format!("{e:#}"), "job failed")
                    }
                    Err(e) if e.is_panic() => {
                        tracing::error!(job = entry.spec.name, "job panicked")
                    }
                    Err(_) => return,
                }
                if !entry.again.load(Ordering::Acquire) {
                    break;
                }
            }
        }
        // A trigger that came between the last check and `running` cleared.
        if !entry.again.load(Ordering::Acquire) {
            return;
        }
    }
}

#[cfg(test)]
mod tests;
