use std::sync::atomic::{AtomicUsize, Ordering};

use super::*;

#[derive(Clone, Default)]
struct Counters {
    runs: Arc<AtomicUsize>,
    now: Arc<AtomicUsize>,
    most: Arc<AtomicUsize>,
}

impl Counters {
    fn enter(&self) {
        self.runs.fetch_add(1, Ordering::SeqCst);
        let n = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(n, Ordering::SeqCst);
    }
    fn leave(&self) {
        self.now.fetch_sub(1, Ordering::SeqCst);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_job_runs_again_at_its_next_tick_and_the_others_go_on() {
    let c = Counters::default();
    let ok = Arc::new(AtomicUsize::new(0));
    let ok2 = ok.clone();
    let jobs = Jobs::new(vec![
        Spec::new("panics", Duration::from_secs(1), |c: Counters| async move {
            c.runs.fetch_add(1, Ordering::SeqCst);
            panic!("a bug in a job");
        }),
        Spec::new("fails", Duration::from_secs(1), move |_: Counters| {
            let ok = ok2.clone();
            async move {
                ok.fetch_add(1, Ordering::SeqCst);
                anyhow::bail!("the mail server is away")
            }
        }),
    ]);
    jobs.start(&c).await.unwrap();
    tokio::time::sleep(Duration::from_millis(3600)).await;
    jobs.shutdown().await;
    assert!(
        c.runs.load(Ordering::SeqCst) >= 2,
        "ran again after a panic"
    );
    assert!(ok.load(Ordering::SeqCst) >= 2, "ran again after a failure");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_still_running_at_its_next_tick_is_not_started_twice() {
    let c = Counters::default();
    let jobs = Jobs::new(vec![Spec::new(
        "slow",
        Duration::from_secs(1),
        |c: Counters| async move {
            c.enter();
            tokio::time::sleep(Duration::from_millis(2500)).await;
            c.leave();
            Ok(())
        },
    )]);
    jobs.start(&c).await.unwrap();
    for _ in 0..3 {
        jobs.trigger(&c, "slow");
    }
    tokio::time::sleep(Duration::from_millis(4000)).await;
    jobs.shutdown().await;
    assert_eq!(c.most.load(Ordering::SeqCst), 1, "never two at once");
    assert!(c.runs.load(Ordering::SeqCst) >= 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trigger_during_a_run_runs_it_once_more_right_after() {
    let c = Counters::default();
    // A period far beyond the test: only triggers run it.
    let jobs = Jobs::new(vec![Spec::new(
        "triggered",
        Duration::from_secs(3600),
        |c: Counters| async move {
            c.enter();
            tokio::time::sleep(Duration::from_millis(300)).await;
            c.leave();
            Ok(())
        },
    )]);
    jobs.trigger(&c, "triggered");
    tokio::time::sleep(Duration::from_millis(100)).await;
    jobs.trigger(&c, "triggered");
    jobs.trigger(&c, "triggered");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(
        c.runs.load(Ordering::SeqCst),
        2,
        "the first run and one more"
    );
    assert_eq!(c.most.load(Ordering::SeqCst), 1);
    jobs.trigger(&c, "unknown");
    assert_eq!(
        jobs.periods(),
        vec![("triggered", Duration::from_secs(3600))]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_due_job_sleeps_until_its_due_time_or_a_trigger() {
    let c = Counters::default();
    // Due 400 ms after each run, three times; then nothing is due.
    let jobs = Arc::new(Jobs::new(vec![Spec::due(
        "due",
        |c: Counters| async move {
            c.enter();
            c.leave();
            let n = c.runs.load(Ordering::SeqCst);
            Ok((n <= 3).then(|| crate::kit::now_ms() + 400))
        },
    )]));
    jobs.start(&c).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(c.runs.load(Ordering::SeqCst), 1, "ran once at start");
    assert!(jobs.next_due("due").is_some());
    tokio::time::sleep(Duration::from_millis(1300)).await;
    assert_eq!(c.runs.load(Ordering::SeqCst), 4, "ran at each due time");
    assert_eq!(jobs.next_due("due"), None, "nothing due");
    // Nothing due: it sleeps (no run in a second) until a trigger.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(
        c.runs.load(Ordering::SeqCst),
        4,
        "asleep while nothing is due"
    );
    jobs.trigger(&c, "due");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(c.runs.load(Ordering::SeqCst), 5, "a trigger wakes it");
    assert_eq!(c.most.load(Ordering::SeqCst), 1);
    jobs.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_due_job_waits_before_it_tries_again() {
    let c = Counters::default();
    let jobs = Jobs::new(vec![Spec::due("fails", |c: Counters| async move {
        c.runs.fetch_add(1, Ordering::SeqCst);
        anyhow::bail!("the mail server is away")
    })]);
    jobs.start(&c).await.unwrap();
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(c.runs.load(Ordering::SeqCst), 1, "no busy loop on failure");
    let next = jobs.next_due("fails").unwrap();
    assert!(
        next > crate::kit::now_ms() + 50_000,
        "retried a minute later"
    );
    jobs.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_runs_the_jobs_declared_on_it_and_no_other() {
    let (mail, training) = (Counters::default(), Counters::default());
    let (m, t) = (mail.clone(), training.clone());
    let jobs = Jobs::new(vec![
        Spec::due("on-mail", move |_: ()| {
            let m = m.clone();
            async move {
                m.runs.fetch_add(1, Ordering::SeqCst);
                Ok(None)
            }
        })
        .on(Event::NewMail),
        Spec::due("on-training", move |_: ()| {
            let t = t.clone();
            async move {
                t.runs.fetch_add(1, Ordering::SeqCst);
                Ok(None)
            }
        })
        .on(Event::TrainingSaved),
    ]);
    assert_eq!(jobs.on(Event::NewMail), vec!["on-mail"]);
    jobs.start(&()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Each ran once at start, to learn its due time (none: it sleeps).
    assert_eq!(mail.runs.load(Ordering::SeqCst), 1);
    assert_eq!(training.runs.load(Ordering::SeqCst), 1);
    jobs.happened(&(), Event::NewMail);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        mail.runs.load(Ordering::SeqCst),
        2,
        "new mail ran the mail job"
    );
    assert_eq!(training.runs.load(Ordering::SeqCst), 1, "and not the other");
    jobs.shutdown().await;
}
