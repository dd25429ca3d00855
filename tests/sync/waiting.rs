//! Between syncs: the task reconnects after the server goes away; a server without IDLE has its
//! INBOX polled by the scheduler, and one late to report new mail in IDLE is asked at that poll.

use super::*;
use crate::common::imap_relay;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_reconnects_after_the_server_goes_away() {
    let ms = MailServer::start();
    ms.deliver(
        "user1@example.test",
        "From: a@sender.test\nTo: user1@example.test\nSubject: before the outage\n\nx\n",
    );
    let (app, token) = app_with(&ms).await;
    assert_eq!(connect(&app, &token, ms.account("user1")).await.0, 200);
    wait_synced(&app, &token).await;

    ms.stop();
    eventually(
        Duration::from_secs(20),
        "the outage to be reported",
        || async {
            let (_, v) = app
                .json("GET", "/api/auth/accounts", Some(&token), None)
                .await;
            let sync = &v["accounts"][0]["sync"];
            (sync["state"] == "error" || sync["state"] == "connecting").then_some(())
        },
    )
    .await;
    // Mail stays readable while the server is away.
    assert_eq!(inbox_total(&app, &token).await, 1);

    ms.restart();
    ms.deliver(
        "user1@example.test",
        "From: a@sender.test\nTo: user1@example.test\nSubject: after the outage\n\ny\n",
    );
    eventually(Duration::from_secs(30), "reconnect and sync", || async {
        let page = list(&app, &token, "inbox").await;
        page.iter()
            .any(|e| e["subject"] == "after the outage")
            .then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_idle_has_its_inbox_polled_by_the_scheduler() {
    // Dovecot announcing everything but IDLE.
    let ms = MailServer::start_with(&[(
        "MAILTEST_IMAP_CAPABILITY",
        "IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE LITERAL+ NAMESPACE UIDPLUS MOVE \
         SPECIAL-USE CONDSTORE ESEARCH",
    )]);
    let (app, token) = app_polling_inbox(&ms).await;
    assert_eq!(connect(&app, &token, ms.account("user1")).await.0, 200);
    let sync = wait_synced(&app, &token).await;
    assert_eq!(sync["idle"], false, "{sync}");
    ms.deliver("user1@example.test", &small_mail("polled in"));
    listed(
        &app,
        &token,
        "polled in",
        Duration::from_secs(30),
        "the INBOX poll",
    )
    .await;
    // The mail is listed as soon as it is stored; the pass that stored it ends a moment later.
    eventually(
        Duration::from_secs(10),
        "the account idle again",
        || async {
            let (_, v) = app
                .json("GET", "/api/auth/accounts", Some(&token), None)
                .await;
            (v["accounts"][0]["sync"]["state"] == "idle").then_some(())
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_late_to_report_in_idle_is_asked_at_the_inbox_poll() {
    // Dovecot behind a relay that keeps back what it says about new mail while an IDLE runs,
    // until the client's next command, as Courier (Debian's) is up to a minute late to look:
    // only the poll's NOOP can bring the mail in time (the IDLE lasts 25 minutes).
    let ms = MailServer::start();
    let relay = late_idle::Relay::start(ms.imap_port()).await;
    let (app, token) = app_polling_inbox(&ms).await;
    let account = imap_relay::account_through(&ms, "user1", relay.port);
    assert_eq!(connect(&app, &token, account).await.0, 200);
    let sync = wait_synced(&app, &token).await;
    assert_eq!(sync["idle"], true, "{sync}");
    eventually(Duration::from_secs(10), "an IDLE", || async {
        relay.idling().then_some(())
    })
    .await;
    ms.deliver("user1@example.test", &small_mail("late in idle"));
    listed(
        &app,
        &token,
        "late in idle",
        Duration::from_secs(20),
        "the poll's NOOP",
    )
    .await;
    assert!(relay.held_back() > 0, "the relay kept back IDLE's report");
}

/// An app whose full pass is an hour away and whose INBOX poll runs every 5 s: only the poll
/// (or IDLE) can bring new mail in time.
async fn app_polling_inbox(ms: &MailServer) -> (TestApp, String) {
    app_with_mail(ms, "poll_interval_secs = 3600\ninbox_poll_secs = 5").await
}

/// Waits up to `limit` until the inbox lists a mail with `subject` (`what` names the wait).
async fn listed(app: &TestApp, token: &str, subject: &str, limit: Duration, what: &str) {
    eventually(limit, what, || async {
        list(app, token, "inbox")
            .await
            .iter()
            .any(|e| e["subject"] == subject)
            .then_some(())
    })
    .await;
}

/// Dovecot late to report in IDLE, as Courier (Debian's) is: the server's `* n EXISTS` and
/// `* n RECENT` lines are kept back while an IDLE runs and handed over when the client ends it.
mod late_idle {
    use std::sync::Arc;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use crate::common::imap_relay::{self, Act, ClientLine, Rewrite};

    #[derive(Default)]
    pub struct LateIdle {
        idle: AtomicBool,
        held_back: AtomicUsize,
        /// The news kept back from the running IDLE.
        held: Mutex<Vec<Vec<u8>>>,
    }

    impl Rewrite for LateIdle {
        fn client_line(&self, line: &ClientLine<'_>) -> Act {
            if line.command == "IDLE" {
                self.idle.store(true, Ordering::SeqCst);
            } else if line.tag.eq_ignore_ascii_case("DONE") {
                // The late news, before the server's answer to DONE.
                let news = self.held.lock().unwrap().drain(..).flatten().collect();
                self.idle.store(false, Ordering::SeqCst);
                return Act::PrefixAndForward(news);
            }
            Act::Forward
        }

        fn server_line(&self, _conn: usize, line: Vec<u8>) -> Vec<Vec<u8>> {
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end();
            let news =
                text.starts_with("* ") && (text.ends_with(" EXISTS") || text.ends_with(" RECENT"));
            if news && self.idle.load(Ordering::SeqCst) {
                self.held_back.fetch_add(1, Ordering::SeqCst);
                self.held.lock().unwrap().push(line);
                return Vec::new();
            }
            vec![line]
        }
    }

    pub struct Relay {
        pub port: u16,
        late: Arc<LateIdle>,
        _relay: imap_relay::Relay,
    }

    impl Relay {
        pub async fn start(server_port: u16) -> Self {
            let late = Arc::new(LateIdle::default());
            let relay = imap_relay::Relay::start(server_port, late.clone()).await;
            Self {
                port: relay.port,
                late,
                _relay: relay,
            }
        }

        pub fn idling(&self) -> bool {
            self.late.idle.load(Ordering::SeqCst)
        }

        pub fn held_back(&self) -> usize {
            self.late.held_back.load(Ordering::SeqCst)
        }
    }
}
