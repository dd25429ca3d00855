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
