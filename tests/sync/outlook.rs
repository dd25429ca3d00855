//! Outlook.com / Microsoft 365's ways, on a real Dovecot behind a relay that speaks as Outlook
//! does: a folder whose PERMANENTFLAGS has no `\*` (keywords refused there), `NO [THROTTLED]`
//! answers for a while, and `* BYE` in the middle of a session (or of an IDLE). What the user
//! sees is asserted through the API (the sync status, the folder tree) and the live events.

use std::sync::Arc;

use mailclient::sync::{SyncEvent, SyncManager};
use tokio::sync::broadcast;

use super::*;
use crate::common::imap_relay::{self, Act, ClientLine, Relay};
use speaks_outlook::Outlook;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_folder_without_keywords_keeps_statuses_here_and_says_so() {
    let ms = MailServer::start();
    ms.deliver("user1@example.test", &small_mail("kept here"));
    let outlook = Arc::new(Outlook::without_keywords_in("INBOX"));
    let (app, token, _relay) = connected(&ms, outlook.clone(), "").await;
    let sync = wait_synced(&app, &token).await;
    // The account's line says which folder keeps its statuses here only; the folder tree marks
    // it, and only it.
    assert_eq!(sync["localStatusFolders"], json!(["INBOX"]), "{sync}");
    let tree = get(&app, &token, "/api/folders/tree").await;
    let folders = tree["mailboxes"][0]["folders"].as_array().unwrap().clone();
    assert!(folders.len() > 1, "{tree}");
    for f in &folders {
        assert_eq!(f["statusesLocal"], f["path"] == "INBOX", "{f}");
    }

    // A status set there: the server refuses its keyword, the status stays, and the change is
    // not tried again on every pass.
    let id = needs_reply(&app, &token).await;
    let account_id = sync_account(&app, &token).await;
    eventually(Duration::from_secs(20), "the change pushed", || async {
        (outlook.keyword_refusals() > 0 && pending(&app, account_id).is_empty()).then_some(())
    })
    .await;
    let refusals = outlook.keyword_refusals();
    full_pass(&app, &token).await;
    full_pass(&app, &token).await;
    assert_eq!(outlook.keyword_refusals(), refusals, "retried");
    let mail = get(&app, &token, &format!("/api/emails/{id}")).await;
    assert_eq!(mail["status"], "needs_reply", "{mail}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_throttled_mailbox_waits_says_so_and_resumes_by_itself() {
    let ms = MailServer::start();
    let outlook = Arc::new(Outlook::default());
    let (app, token, _relay) = connected(&ms, outlook.clone(), QUICK_THROTTLE).await;
    let mut events = app.state.service::<SyncManager>().subscribe();

    outlook.throttle(&[]);
    ms.deliver("user1@example.test", &small_mail("while throttled"));
    let status = eventually(Duration::from_secs(20), "the throttled status", || async {
        let s = sync_status(&app, &token).await;
        (s["state"] == "throttled").then_some(s)
    })
    .await;
    assert_eq!(status["errorKind"], "throttled", "{status}");
    assert!(
        status["error"]
            .as_str()
            .is_some_and(|e| e.contains("ספק הדואר מאט")),
        "{status}"
    );
    assert!(status["nextRetryAt"].is_i64(), "{status}");
    // It tries again by itself, waiting longer each time.
    eventually(Duration::from_secs(20), "tries again", || async {
        (outlook.throttled() >= 3).then_some(())
    })
    .await;

    outlook.throttle_off();
    eventually(
        Duration::from_secs(40),
        "the mail after throttling",
        || async {
            let listed = list(&app, &token, "inbox")
                .await
                .iter()
                .any(|e| e["subject"] == "while throttled");
            let s = sync_status(&app, &token).await;
            (listed && s["state"] == "idle" && s["error"].is_null()).then_some(())
        },
    )
    .await;
    assert_no_failure(&mut events);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_status_set_while_throttled_reaches_the_server_afterwards() {
    let ms = MailServer::start();
    ms.deliver("user1@example.test", &small_mail("starred later"));
    let outlook = Arc::new(Outlook::default());
    let (app, token, _relay) = connected(&ms, outlook.clone(), QUICK_THROTTLE).await;

    // Only the STORE is throttled: the change must wait, not be dropped as refused.
    outlook.throttle(&["UID STORE"]);
    needs_reply(&app, &token).await;
    eventually(Duration::from_secs(20), "the STORE throttled", || async {
        (outlook.throttled() > 0).then_some(())
    })
    .await;
    outlook.throttle_off();
    eventually(
        Duration::from_secs(40),
        "the keyword on the server",
        || async { inbox_flags(&ms, &[]).contains("$NeedsReply").then_some(()) },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_mail_whose_fetch_is_throttled_is_fetched_afterwards() {
    let ms = MailServer::start();
    let outlook = Arc::new(Outlook::default());
    let (app, token, _relay) = connected(&ms, outlook.clone(), QUICK_THROTTLE).await;

    // Only FETCH is throttled: a FETCH answered NO is no answer, not a range without mail
    // (async-imap reads it as an empty one).
    outlook.throttle(&["UID FETCH"]);
    ms.deliver("user1@example.test", &small_mail("fetched later"));
    eventually(Duration::from_secs(20), "the FETCH throttled", || async {
        (outlook.throttled() > 0).then_some(())
    })
    .await;
    outlook.throttle_off();
    eventually(Duration::from_secs(40), "the mail fetched", || async {
        list(&app, &token, "inbox")
            .await
            .iter()
            .any(|e| e["subject"] == "fetched later")
            .then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bye_in_the_middle_of_an_idle_is_a_plain_reconnect() {
    let ms = MailServer::start();
    let (app, token, relay) = connected(&ms, Arc::new(Outlook::default()), "").await;
    let mut events = app.state.service::<SyncManager>().subscribe();
    let before = relay.connections();

    // Outlook under load (or at the end of its ~30 minutes of IDLE).
    assert!(relay.bye("Server Unavailable. 15").await > 0);
    ms.deliver("user1@example.test", &small_mail("after the bye"));
    eventually(
        Duration::from_secs(20),
        "the mail after the BYE",
        || async {
            list(&app, &token, "inbox")
                .await
                .iter()
                .any(|e| e["subject"] == "after the bye")
                .then_some(())
        },
    )
    .await;
    assert!(relay.connections() > before, "it reconnected");
    let s = sync_status(&app, &token).await;
    assert!(s["error"].is_null(), "{s}");
    assert_no_failure(&mut events);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_throttled_sign_in_is_not_a_refused_password() {
    let ms = MailServer::start();
    let outlook = Arc::new(Outlook::default());
    let (app, token, relay) = connected(&ms, outlook.clone(), QUICK_THROTTLE).await;

    // The provider ends the session and throttles the sign-ins that follow.
    outlook.throttle(&["LOGIN", "AUTHENTICATE"]);
    assert!(relay.bye("Server Unavailable. 15").await > 0);
    let status = eventually(Duration::from_secs(20), "the throttled status", || async {
        let s = sync_status(&app, &token).await;
        (s["state"] == "throttled" || s["state"] == "error").then_some(s)
    })
    .await;
    assert_eq!(
        status["errorKind"], "throttled",
        "not a refused password: {status}"
    );
    assert!(outlook.throttled() > 0);

    outlook.throttle_off();
    ms.deliver("user1@example.test", &small_mail("after the sign-in"));
    eventually(
        Duration::from_secs(40),
        "the mail after the sign-in",
        || async {
            let listed = list(&app, &token, "inbox")
                .await
                .iter()
                .any(|e| e["subject"] == "after the sign-in");
            (listed && sync_status(&app, &token).await["error"].is_null()).then_some(())
        },
    )
    .await;
}

/// No failure was announced to the user (a throttled wait and a cut connection are not ones).
fn assert_no_failure(events: &mut broadcast::Receiver<SyncEvent>) {
    loop {
        match events.try_recv() {
            Ok(SyncEvent::Failed { kind, message, .. }) => {
                panic!("a failure was announced: {kind:?} {message}")
            }
            Ok(_) | Err(broadcast::error::TryRecvError::Lagged(_)) => {}
            Err(_) => return,
        }
    }
}

/// The `[mail]` of an app whose throttled mailbox waits 1 s first (then 2, 4, …).
const QUICK_THROTTLE: &str = "poll_interval_secs = 10\nthrottle_backoff_secs = 1";

/// An app (its `[mail]` poll line `poll` when not empty) with user1's mailbox connected through
/// a relay that speaks as `outlook` says, synced once.
async fn connected(ms: &MailServer, outlook: Arc<Outlook>, poll: &str) -> (TestApp, String, Relay) {
    let relay = Relay::start(ms.imap_port(), outlook).await;
    let (app, token) = if poll.is_empty() {
        app_with(ms).await
    } else {
        app_with_mail(ms, poll).await
    };
    let account = imap_relay::account_through(ms, "user1", relay.port);
    assert_eq!(connect(&app, &token, account).await.0, 200);
    wait_synced(&app, &token).await;
    (app, token, relay)
}

/// Marks the first inbox mail as needing a reply (a keyword on the server); its id.
async fn needs_reply(app: &TestApp, token: &str) -> String {
    let id = list(app, token, "inbox").await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (s, v) = app
        .json(
            "PUT",
            &format!("/api/emails/{id}/status"),
            Some(token),
            Some(json!({"status": "needs_reply"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    id
}

async fn get(app: &TestApp, token: &str, path: &str) -> Value {
    let (s, v) = app.json("GET", path, Some(token), None).await;
    assert_eq!(s, 200, "{path}: {v}");
    v
}

pub(super) async fn sync_status(app: &TestApp, token: &str) -> Value {
    get(app, token, "/api/auth/accounts").await["accounts"][0]["sync"].clone()
}

pub(super) async fn sync_account(app: &TestApp, token: &str) -> u64 {
    get(app, token, "/api/auth/accounts").await["accounts"][0]["id"]
        .as_u64()
        .unwrap()
}

/// The changes waiting to be written to the server.
fn pending(app: &TestApp, account: u64) -> Vec<(u64, mailclient::mailstore::PendingFlags)> {
    mailclient::mailstore::MailRead::new(&app.state.store)
        .unwrap()
        .pending(account)
        .unwrap()
}

/// Asks for a full pass and waits until one has finished after the ask.
pub(super) async fn full_pass(app: &TestApp, token: &str) {
    let before = sync_status(app, token).await["lastSync"]
        .as_i64()
        .unwrap_or(0);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (s, v) = app
        .json("POST", "/api/sync/refresh", Some(token), Some(json!({})))
        .await;
    assert_eq!(s, 200, "{v}");
    eventually(Duration::from_secs(20), "a full pass", || async {
        let s = sync_status(app, token).await;
        (s["state"] == "idle" && s["lastSync"].as_i64().unwrap_or(0) > before).then_some(())
    })
    .await;
}

/// Outlook.com as the relay plays it.
mod speaks_outlook {
    use std::collections::HashMap;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::{Act, ClientLine};
    use crate::common::imap_relay::Rewrite;

    /// The commands a server may throttle (not the sign-in: Outlook throttles the session's work).
    const WORK: &[&str] = &[
        "SELECT", "EXAMINE", "LIST", "LSUB", "STATUS", "UID", "FETCH", "STORE", "SEARCH", "NOOP",
        "EXPUNGE", "COPY", "MOVE", "CREATE", "APPEND",
    ];

    #[derive(Default)]
    pub struct Outlook {
        /// While throttling: the commands answered `NO [THROTTLED]` (prefixes of "COMMAND
        /// ARGS", the sign-in too; empty: all the session's work).
        throttle: Mutex<Option<Vec<String>>>,
        throttled: AtomicUsize,
        /// The folder whose PERMANENTFLAGS has no `\*` and where keywords are refused.
        no_keywords: Option<String>,
        keyword_refusals: AtomicUsize,
        /// Each connection's selected folder.
        selected: Mutex<HashMap<usize, String>>,
    }

    impl Outlook {
        pub fn without_keywords_in(folder: &str) -> Self {
            Self {
                no_keywords: Some(folder.to_string()),
                ..Self::default()
            }
        }

        /// Throttles the commands starting so (all of the session's work when empty) until
        /// `throttle_off`.
        pub fn throttle(&self, commands: &[&str]) {
            *self.throttle.lock().unwrap() = Some(commands.iter().map(|c| c.to_string()).collect());
        }

        pub fn throttle_off(&self) {
            *self.throttle.lock().unwrap() = None;
        }

        /// The commands answered `NO [THROTTLED]` so far.
        pub fn throttled(&self) -> usize {
            self.throttled.load(Ordering::SeqCst)
        }

        /// The keyword STOREs refused so far.
        pub fn keyword_refusals(&self) -> usize {
            self.keyword_refusals.load(Ordering::SeqCst)
        }

        fn in_no_keywords_folder(&self, conn: usize) -> bool {
            let selected = self.selected.lock().unwrap();
            self.no_keywords.is_some() && selected.get(&conn) == self.no_keywords.as_ref()
        }
    }

    /// The mailbox a SELECT or EXAMINE names (`"INBOX" (CONDSTORE)` gives INBOX).
    fn mailbox_of(args: &str) -> String {
        match args.strip_prefix('"') {
            Some(rest) => rest.split('"').next().unwrap_or("").to_string(),
            None => args.split(' ').next().unwrap_or("").to_string(),
        }
    }

    /// Whether a STORE sets or removes a keyword (a flag not starting with `\`).
    fn stores_keywords(args: &str) -> bool {
        let Some((_, list)) = args.split_once('(') else {
            return false;
        };
        list.trim_end_matches(')')
            .split_ascii_whitespace()
            .any(|f| !f.starts_with('\\'))
    }

    impl Rewrite for Outlook {
        fn client_line(&self, line: &ClientLine<'_>) -> Act {
            let command = line.command.as_str();
            if command == "SELECT" || command == "EXAMINE" {
                self.selected
                    .lock()
                    .unwrap()
                    .insert(line.conn, mailbox_of(&line.args));
            }
            let text = format!("{command} {}", line.args.to_ascii_uppercase());
            let throttled = self.throttle.lock().unwrap().as_ref().is_some_and(|only| {
                if only.is_empty() {
                    WORK.contains(&command)
                } else {
                    only.iter().any(|c| text.starts_with(c.as_str()))
                }
            });
            if throttled {
                self.throttled.fetch_add(1, Ordering::SeqCst);
                return Act::Answer(
                    format!(
                        "{} NO [THROTTLED] Request is throttled. Suggested Backoff Time: 500 milliseconds\r\n",
                        line.tag
                    )
                    .into_bytes(),
                );
            }
            let store = command == "STORE" || text.starts_with("UID STORE");
            if store && self.in_no_keywords_folder(line.conn) && stores_keywords(&line.args) {
                self.keyword_refusals.fetch_add(1, Ordering::SeqCst);
                return Act::Answer(
                    format!(
                        "{} NO [CANNOT] Keywords are not supported here\r\n",
                        line.tag
                    )
                    .into_bytes(),
                );
            }
            Act::Forward
        }

        fn server_line(&self, conn: usize, line: Vec<u8>) -> Vec<Vec<u8>> {
            if line.starts_with(b"* OK [PERMANENTFLAGS") && self.in_no_keywords_folder(conn) {
                let text = String::from_utf8_lossy(&line)
                    .replace(" \\*", "")
                    .replace("\\*", "");
                return vec![text.into_bytes()];
            }
            vec![line]
        }
    }
}
