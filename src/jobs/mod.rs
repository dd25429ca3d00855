//! The daemon's periodic work on one in-process scheduler: `serve` starts it with every job
//! (each feature's `Feature::jobs`) and shuts it down before it exits. Each job sleeps on a
//! timer of its own; nothing wakes between two of a job's runs (tokio-cron-scheduler, which the
//! design named, was replaced: its loop woke twice a second whatever the jobs were, issue 42).
//! Each job:
//! - runs in a task of its own, so a panic is caught there, logged, and the job runs again at
//!   its next tick; a failure (`Err`) is logged the same way. The server never goes down for it.
//! - is never started twice: a tick that comes while it still runs is skipped.
//! - can be asked to run now ([`Jobs::trigger`]: a send request, new mail); asked while it runs,
//!   it runs once more right after, so the request is never lost.
//! - either runs every period ([`Spec::new`]), or sleeps until the due time its last run
//!   returned ([`Spec::due`]: a snooze's wake-up, a follow-up's reminder) or a trigger, so a
//!   job with nothing to do costs no wake-ups (at most one per [`LONGEST_SLEEP`], which guards
//!   against a clock that jumped).
//!
//! The long-lived work stays out of it: each mailbox's sync and IDLE task, the change feed and
//! the search indexer follow their streams; the jobs here only wake them.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Duration;

use tokio::sync::{Mutex, Notify};
use tokio::task::JoinHandle;
use tokio::time::{Instant, MissedTickBehavior};

/// A run: done, or (a due-time job) the Unix time in milliseconds it is next due at.
type Run<C> = Arc<
    dyn Fn(C) -> Pin<Box<dyn Future<Output = anyhow::Result<Option<i64>>> + Send>> + Send + Sync,
>;

/// The longest a due-time job sleeps without being due or triggered.
pub const LONGEST_SLEEP: Duration = Duration::from_secs(15 * 60);

/// No due time: the job sleeps until it is triggered (or [`LONGEST_SLEEP`] passed).
const NOT_DUE: i64 = i64::MAX;

/// What a job is handed each run (the server's is `AppState`).
pub trait Context: Clone + Send + Sync + 'static {}
impl<T: Clone + Send + Sync + 'static> Context for T {}

/// One job: a name for the log, its period (zero for a due-time job), and its work.
pub struct Spec<C> {
    pub name: &'static str,
    pub every: Duration,
    /// What else runs it ([`Spec::on`]).
    pub on: Vec<Event>,
    run: Run<C>,
}

/// Something that happened, which a job may declare it runs on ([`Spec::on`]): whoever makes it
/// happen says so to the scheduler ([`Jobs::happened`]) and names no job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The mail store logged new mail (the application wires the change feed to it).
    NewMail,
    /// A user's AI training examples were saved.
    TrainingSaved,
}

impl<C: Context> Spec<C> {
    /// A job that runs every `every`.
    pub fn new<F, Fut>(name: &'static str, every: Duration, run: F) -> Self
    where
        F: Fn(C) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = anyhow::Result<()>> + Send + 'static,
    {
        let run = Arc::new(run);
        Self {
            name,
            every,
            on: Vec::new(),
            run: Arc::new(move |s| {
                let fut = run(s);
                Box::pin(async move { fut.await.map(|()| None) })
            }),
        }
    }

    /// A job that runs when it is due: each run returns the Unix time in milliseconds of its
    /// next due time (None: nothing is due, it sleeps until triggered). It also runs once at
    /// start, to learn its first due time.
    pub fn due<F, Fut>(name: &'static str, run: F) -> Self
    where
        F: Fn(C) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = anyhow::Result<Option<i64>>> + Send + 'static,
    {
        Self {
            name,
            every: Duration::ZERO,
            on: Vec::new(),
            run: Arc::new(move |s| Box::pin(run(s))),
        }
    }

    /// The job also runs whenever `event` happens: a follower of the change log runs on
    /// [`Event::NewMail`] and sleeps while nothing arrives.
    pub fn on(mut self, event: Event) -> Self {
        self.on.push(event);
        self
    }

    fn is_due_job(&self) -> bool {
        self.every.is_zero()
    }
}

/// A job with its guards.
struct Entry<C> {
    spec: Spec<C>,
    running: AtomicBool,
    again: AtomicBool,
    /// A due-time job's next due time (Unix ms), [`NOT_DUE`] when none.
    next: AtomicI64,
    /// Wakes a due-time job's sleeper (a trigger).
    wake: Notify,
    /// A due-time job's sleeper is running (before that, a trigger runs the job directly).
    sleeping: AtomicBool,
}

/// The scheduler and its jobs (a service of the state, so features can trigger a job).
pub struct Jobs<C> {
    entries: HashMap<&'static str, Arc<Entry<C>>>,
    /// Each job's sleeper: a period's timer, or a due-time job's.
    sleepers: Mutex<Vec<JoinHandle<()>>>,
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
                        next: AtomicI64::new(NOT_DUE),
                        wake: Notify::new(),
                        sleeping: AtomicBool::new(false),
                    }),
                )
            })
            .collect();
        Self {
            entries,
            sleepers: Mutex::new(Vec::new()),
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

    /// Starts every job's sleeper.
    pub async fn start(&self, state: &C) -> anyhow::Result<()> {
        let mut sleepers = self.sleepers.lock().await;
        for entry in self.entries.values() {
            let (entry, state) = (entry.clone(), state.clone());
            sleepers.push(if entry.spec.is_due_job() {
                tokio::spawn(sleeper(entry, state))
            } else {
                tokio::spawn(every(entry, state))
            });
        }
        tracing::debug!(jobs = ?self.periods(), "scheduler started");
        Ok(())
    }

    /// Runs `name` now (or once more right after the run in progress).
    pub fn trigger(&self, state: &C, name: &str) {
        let Some(entry) = self.entries.get(name) else {
            return;
        };
        if entry.spec.is_due_job() && entry.sleeping.load(Ordering::Acquire) {
            // Its sleeper runs it (a permit is kept if it is running now).
            entry.wake.notify_one();
        } else if let Ok(rt) = tokio::runtime::Handle::try_current() {
            // (Outside a runtime nothing runs jobs: there is nothing to wake.)
            rt.spawn(tick(entry.clone(), state.clone(), true));
        }
    }

    /// The jobs that run on `event`.
    pub fn on(&self, event: Event) -> Vec<&'static str> {
        let mut names: Vec<_> = self
            .entries
            .values()
            .filter(|e| e.spec.on.contains(&event))
            .map(|e| e.spec.name)
            .collect();
        names.sort();
        names
    }

    /// `event` happened: every job that runs on it runs now.
    pub fn happened(&self, state: &C, event: Event) {
        for name in self.on(event) {
            self.trigger(state, name);
        }
    }

    /// A due-time job's next due time (Unix ms), if it has one (for the tests).
    pub fn next_due(&self, name: &str) -> Option<i64> {
        let at = self.entries.get(name)?.next.load(Ordering::Acquire);
        (at != NOT_DUE).then_some(at)
    }

    /// Stops the ticks; a job in progress finishes on its own task.
    pub async fn shutdown(&self) {
        for sleeper in self.sleepers.lock().await.drain(..) {
            sleeper.abort();
        }
    }
}

/// A due-time run's answer when it left work waiting (a batch cut at its limit): due again
/// at once.
pub fn again_if(more: bool) -> Option<i64> {
    more.then(crate::kit::now_ms)
}

/// The sooner of a due time found so far (none yet) and `at`: a due-time job's next run is the
/// earliest of its items' times.
pub fn sooner(next: Option<i64>, at: i64) -> Option<i64> {
    Some(next.map_or(at, |n| n.min(at)))
}

/// A due-time job whose run failed tries again this much later.
const RETRY_AFTER_MS: i64 = 60_000;

/// Runs a periodic job every period, the first one period after start. A tick that comes while
/// the job still runs waits for the run (no overlap, no burst of missed ticks after it).
async fn every<C: Context>(entry: Arc<Entry<C>>, state: C) {
    let period = entry.spec.every;
    let mut timer = tokio::time::interval_at(Instant::now() + period, period);
    timer.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        timer.tick().await;
        tick(entry.clone(), state.clone(), false).await;
    }
}

/// Runs a due-time job at start, then whenever it is due or triggered.
async fn sleeper<C: Context>(entry: Arc<Entry<C>>, state: C) {
    entry.sleeping.store(true, Ordering::Release);
    loop {
        tick(entry.clone(), state.clone(), false).await;
        let at = entry.next.load(Ordering::Acquire);
        let wait = if at == NOT_DUE {
            LONGEST_SLEEP
        } else {
            let ms = at.saturating_sub(crate::kit::now_ms()).max(0) as u64;
            Duration::from_millis(ms).min(LONGEST_SLEEP)
        };
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = entry.wake.notified() => {}
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

/// A failed due-time job is due again a minute later (not at its past due time: no busy loop).
fn retry_later<C: Context>(entry: &Entry<C>) {
    if entry.spec.is_due_job() {
        let at = crate::kit::now_ms() + RETRY_AFTER_MS;
        entry.next.store(at, Ordering::Release);
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
                    Ok(Ok(next)) => {
                        if entry.spec.is_due_job() {
                            entry.next.store(next.unwrap_or(NOT_DUE), Ordering::Release);
                        }
                    }
                    Ok(Err(e)) => {
                        retry_later(&entry);
                        tracing::error!(job = entry.spec.name, error = %format!("{e:#}"), "job failed")
                    }
                    Err(e) if e.is_panic() => {
                        retry_later(&entry);
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
