//! Between syncs: the task reconnects after the server goes away; a server without IDLE has its
//! INBOX polled by the scheduler, and one late to report new mail in IDLE is asked at that poll.

use super::*;

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
    let (_, v) = app
        .json("GET", "/api/auth/accounts", Some(&token), None)
        .await;
    assert_eq!(v["accounts"][0]["sync"]["state"], "idle");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_late_to_report_in_idle_is_asked_at_the_inbox_poll() {
    // Dovecot behind a relay that keeps back what it says about new mail while an IDLE runs,
    // until the client's next command, as Courier (Debian's) is up to a minute late to look:
    // only the poll's NOOP can bring the mail in time (the IDLE lasts 25 minutes).
    let ms = MailServer::start();
    let relay = late_idle::Relay::start(ms.imap_port()).await;
    let (app, token) = app_polling_inbox(&ms).await;
    let mut account = ms.account("user1");
    account["imap_port"] = json!(relay.port);
    account["imap_ssl"] = json!(false);
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
    let config = ms.config_toml().replace(
        "poll_interval_secs = 10",
        "poll_interval_secs = 3600\ninbox_poll_secs = 5",
    );
    let app = TestApp::with_config(&config);
    let token = app.admin_token("dana", ADMIN_PASSWORD).await;
    (app, token)
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

/// A plain-text IMAP relay that refuses STARTTLS (so the client, on this machine, goes on in
/// plain text) and keeps back the server's `* n EXISTS` and `* n RECENT` lines while an IDLE
/// runs, handing them over when the client ends it.
mod late_idle {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    use tokio::net::tcp::OwnedWriteHalf;
    use tokio::net::{TcpListener, TcpStream};
    use tokio::sync::Mutex;

    #[derive(Default)]
    struct Shared {
        idle: AtomicBool,
        held_back: AtomicUsize,
        /// The news kept back from the running IDLE.
        held: Mutex<Vec<Vec<u8>>>,
    }

    pub struct Relay {
        pub port: u16,
        shared: Arc<Shared>,
    }

    impl Relay {
        pub async fn start(server_port: u16) -> Self {
            let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
            let port = listener.local_addr().unwrap().port();
            let shared = Arc::new(Shared::default());
            let s = shared.clone();
            tokio::spawn(async move {
                while let Ok((client, _)) = listener.accept().await {
                    let server = TcpStream::connect(("127.0.0.1", server_port))
                        .await
                        .unwrap();
                    tokio::spawn(pipe(client, server, s.clone()));
                }
            });
            Self { port, shared }
        }

        pub fn idling(&self) -> bool {
            self.shared.idle.load(Ordering::SeqCst)
        }

        pub fn held_back(&self) -> usize {
            self.shared.held_back.load(Ordering::SeqCst)
        }
    }

    async fn pipe(client: TcpStream, server: TcpStream, shared: Arc<Shared>) {
        let (client_r, client_w) = client.into_split();
        let (server_r, mut server_w) = server.into_split();
        let client_w = Arc::new(Mutex::new(client_w));
        let down = tokio::spawn(server_to_client(server_r, client_w.clone(), shared.clone()));
        let mut lines = BufReader::new(client_r);
        let mut line = Vec::new();
        while lines.read_until(b'\n', &mut line).await.unwrap_or(0) > 0 {
            let text = String::from_utf8_lossy(&line).to_ascii_uppercase();
            let mut words = text.split_whitespace();
            let (tag, command) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
            if command == "STARTTLS" {
                let refusal = format!("{tag} BAD no TLS here\r\n");
                let _ = client_w.lock().await.write_all(refusal.as_bytes()).await;
                line.clear();
                continue;
            }
            if command == "IDLE" {
                shared.idle.store(true, Ordering::SeqCst);
            } else if tag == "DONE" {
                // The late news, before the server's answer to DONE.
                let mut to_client = client_w.lock().await;
                for news in shared.held.lock().await.drain(..) {
                    let _ = to_client.write_all(&news).await;
                }
                shared.idle.store(false, Ordering::SeqCst);
            }
            if server_w.write_all(&line).await.is_err() {
                break;
            }
            line.clear();
        }
        down.abort();
    }

    async fn server_to_client(
        server_r: tokio::net::tcp::OwnedReadHalf,
        client_w: Arc<Mutex<OwnedWriteHalf>>,
        shared: Arc<Shared>,
    ) {
        let mut lines = BufReader::new(server_r);
        let mut line = Vec::new();
        while lines.read_until(b'\n', &mut line).await.unwrap_or(0) > 0 {
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end();
            let news =
                text.starts_with("* ") && (text.ends_with(" EXISTS") || text.ends_with(" RECENT"));
            if news && shared.idle.load(Ordering::SeqCst) {
                shared.held_back.fetch_add(1, Ordering::SeqCst);
                shared.held.lock().await.push(std::mem::take(&mut line));
                continue;
            }
            if client_w.lock().await.write_all(&line).await.is_err() {
                return;
            }
            line.clear();
        }
    }
}
