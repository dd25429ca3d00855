//! A real network: QRESYNC reconnects (RFC 7162) that cost a SELECT per changed folder
//! (LIST-STATUS tells which) and move only what changed, expunges read from VANISHED, never from
//! a listing of the whole folder. A relay between the client and Dovecot records every command.

use std::sync::{Arc, Mutex};

use super::*;
use crate::common::imap_relay::{self, Act, ClientLine, Relay, Rewrite};

/// Every command the client sent, by connection: `(conn, "UID FETCH 1:* ...")`; the server's
/// capabilities without the words in `hide`.
#[derive(Default)]
pub(super) struct Recorder {
    lines: Mutex<Vec<(usize, String)>>,
    hide: Vec<&'static str>,
}

impl Rewrite for Recorder {
    fn client_line(&self, line: &ClientLine<'_>) -> Act {
        let text = format!("{} {}", line.command, line.args);
        self.lines.lock().unwrap().push((line.conn, text));
        Act::Forward
    }
    fn server_line(&self, _conn: usize, line: Vec<u8>) -> Vec<Vec<u8>> {
        if line.starts_with(b"* CAPABILITY") || line.windows(12).any(|w| w == b"[CAPABILITY ") {
            let mut text = String::from_utf8_lossy(&line).into_owned();
            for word in &self.hide {
                text = text.replace(&format!(" {word}"), "");
            }
            return vec![text.into_bytes()];
        }
        vec![line]
    }
}

impl Recorder {
    /// A recorder that hides `hide` from the server's capabilities.
    pub(super) fn hiding(hide: Vec<&'static str>) -> Self {
        Self {
            hide,
            ..Self::default()
        }
    }

    /// The commands of connection `conn`, from the `from`-th on.
    pub(super) fn of(&self, conn: usize, from: usize) -> Vec<String> {
        let lines = self.lines.lock().unwrap();
        lines
            .iter()
            .filter(|(c, _)| *c == conn)
            .skip(from)
            .map(|(_, l)| l.clone())
            .collect()
    }

    /// Waits until connection `conn` has sent its `n`-th IDLE (a pass done, the client waiting).
    pub(super) async fn idling(&self, conn: usize, n: usize) {
        eventually(Duration::from_secs(60), "the client idling", || async {
            let idles = self
                .of(conn, 0)
                .iter()
                .filter(|l| l.starts_with("IDLE"))
                .count();
            (idles >= n).then_some(())
        })
        .await;
    }
}

/// An app with user1's mailbox connected through a relay that rewrites as `rewrite` says; the
/// account's id.
pub(super) async fn through(
    ms: &MailServer,
    rewrite: Arc<dyn Rewrite>,
) -> (TestApp, String, Relay, u64) {
    let relay = Relay::start(ms.imap_port(), rewrite).await;
    let (app, token) = app_with(ms).await;
    let account = imap_relay::account_through(ms, "user1", relay.port);
    let (s, v) = connect(&app, &token, account).await;
    assert_eq!(s, 200, "{v}");
    let account = v["account"]["id"].as_u64().unwrap();
    (app, token, relay, account)
}

/// Another client expunges `uids` of user1's INBOX.
fn expunge(ms: &MailServer, uids: &str) {
    let user = "user1@example.test";
    ms.doveadm(&["expunge", "-u", user, "mailbox", "INBOX", "uid", uids]);
}

/// Another client flags `uids` of user1's INBOX.
fn flag(ms: &MailServer, uids: &str) {
    let user = "user1@example.test";
    ms.doveadm(&[
        "flags",
        "add",
        "-u",
        user,
        "\\Flagged",
        "mailbox",
        "INBOX",
        "uid",
        uids,
    ]);
}

/// Waits for a connection after `last`; the newest.
pub(super) async fn reconnected(relay: &Relay, last: usize) -> usize {
    eventually(Duration::from_secs(30), "a reconnect", || async {
        (relay.connections() > last + 1).then_some(relay.connections() - 1)
    })
    .await
}

pub(super) fn has(commands: &[String], word: &str) -> usize {
    commands.iter().filter(|c| c.contains(word)).count()
}

fn is_flagged(app: &TestApp, account: u64, uid: u32) -> bool {
    let r = mailclient::mailstore::MailRead::new(&app.state.store).unwrap();
    let id = r.id_of_uid(account, "INBOX", uid).unwrap().expect("stored");
    r.meta(id).unwrap().unwrap().flagged
}

/// 1,200 messages; a reconnect to the unchanged mailbox sends a SELECT per folder and nothing
/// else per folder; 1,000 flag changes made elsewhere arrive in the SELECT's answer (no FETCH);
/// expunges made elsewhere while the client idles arrive as VANISHED (no UID SEARCH).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconnect_resynchronises_each_folder_in_its_select() {
    let ms = MailServer::start();
    let mails: Vec<String> = (1..=1200).map(|n| small_mail(&format!("qr {n}"))).collect();
    ms.seed("user1", mail_dir(&mails).path(), "INBOX");
    let recorder = Arc::new(Recorder::default());
    let (app, token, relay, account) = through(&ms, recorder.clone()).await;
    wait_synced(&app, &token).await;
    assert_eq!(inbox_total(&app, &token).await, 1200);
    let first = relay.connections() - 1;
    recorder.idling(first, 1).await;
    assert_eq!(has(&recorder.of(first, 0), "ENABLE QRESYNC"), 1);

    // A reconnect to the unchanged mailbox.
    let mut bytes = vec![relay.bytes_down()];
    relay.bye("Server shutting down.").await;
    let second = reconnected(&relay, first).await;
    recorder.idling(second, 1).await;
    let commands = recorder.of(second, 0);
    bytes.push(relay.bytes_down());
    let mut sent = vec![commands.len()];
    let folders = has(&commands, "LIST ");
    eprintln!("reconnect, unchanged: {commands:#?}");
    assert_eq!(has(&commands, "FETCH"), 0, "{commands:#?}");
    assert_eq!(has(&commands, "SEARCH"), 0, "{commands:#?}");
    let selects = has(&commands, "SELECT ");
    // LIST-STATUS (RFC 5819) said no folder changed: none is selected but INBOX, once, where
    // the client then idles (mail may have come since the LIST).
    assert!(
        folders == 1 && has(&commands, "RETURN (SPECIAL-USE STATUS (") == 1,
        "one LIST, with the folders' STATUS: {commands:#?}"
    );
    assert!(
        selects == 1 && has(&commands, "SELECT \"INBOX\" (QRESYNC (") == 1,
        "only INBOX selected, in QRESYNC: {commands:#?}"
    );
    // INBOX is synced before the LIST asks each folder's STATUS, so the server opens it once
    // (the STATUS of the selected folder comes from the open one).
    let at = |word: &str| commands.iter().position(|c| c.contains(word));
    assert!(at("SELECT \"INBOX\"") < at("LIST "), "{commands:#?}");
    // LOGIN, CAPABILITY, ENABLE, SELECT, LIST, IDLE.
    assert!(commands.len() <= 6, "{commands:#?}");

    // 1,000 flag changes by another client while the client is away.
    let before = fetch_counts(&app, account);
    bytes.push(relay.bytes_down());
    relay.bye("Server shutting down.").await;
    flag(&ms, "1:1000");
    let third = reconnected(&relay, second).await;
    eventually(Duration::from_secs(30), "the 1,000 flags", || async {
        is_flagged(&app, account, 1000).then_some(())
    })
    .await;
    recorder.idling(third, 1).await;
    let commands = recorder.of(third, 0);
    bytes.push(relay.bytes_down());
    sent.push(commands.len());
    assert!(is_flagged(&app, account, 1) && is_flagged(&app, account, 500));
    assert!(!is_flagged(&app, account, 1001));
    let after = fetch_counts(&app, account);
    assert_eq!(
        after.commands, before.commands,
        "the flags came in the SELECT, no FETCH: {commands:#?}"
    );
    assert_eq!(has(&commands, "FETCH"), 0, "{commands:#?}");

    // Another client expunges while this one idles on INBOX: VANISHED, no listing.
    let seen = recorder.of(third, 0).len();
    expunge(&ms, "1101:1110");
    eventually(Duration::from_secs(30), "the expunges", || async {
        (inbox_total(&app, &token).await == 1190).then_some(())
    })
    .await;
    let commands = recorder.of(third, seen);
    assert_eq!(has(&commands, "SEARCH"), 0, "{commands:#?}");
    assert_eq!(has(&commands, "FETCH"), 0, "{commands:#?}");

    // And expunges made while it was away: from the SELECT's VANISHED (EARLIER). One mail
    // moved to Trash meanwhile: Trash changed too, and is the only other folder selected.
    bytes.push(relay.bytes_down());
    relay.bye("Server shutting down.").await;
    expunge(&ms, "1:5");
    let user = "user1@example.test";
    ms.doveadm(&["move", "-u", user, "Trash", "mailbox", "INBOX", "uid", "6"]);
    let fourth = reconnected(&relay, third).await;
    eventually(
        Duration::from_secs(30),
        "the expunges while away",
        || async { (inbox_total(&app, &token).await == 1184).then_some(()) },
    )
    .await;
    recorder.idling(fourth, 1).await;
    let commands = recorder.of(fourth, 0);
    let trash = list(&app, &token, "trash").await;
    assert!(
        trash.iter().any(|m| m["subject"] == "qr 6"),
        "the moved mail is in Trash: {trash:?}"
    );
    let selected: Vec<&String> = commands.iter().filter(|c| c.contains("SELECT ")).collect();
    assert!(
        selected
            .iter()
            .all(|c| c.contains("\"INBOX\"") || c.contains("\"Trash\"")),
        "only the folders that changed: {commands:#?}"
    );
    bytes.push(relay.bytes_down());
    sent.push(commands.len());
    let per: Vec<u64> = bytes.chunks(2).map(|p| p[1] - p[0]).collect();
    eprintln!(
        "per reconnect (unchanged, 1,000 flags, 5 expunges): {sent:?} commands, {per:?} bytes \
         from the server"
    );
    assert_eq!(has(&commands, "SEARCH"), 0, "{commands:#?}");
    // One FETCH: the body of the mail now in Trash (under a UID of its own there).
    assert_eq!(has(&commands, "FETCH"), 1, "{commands:#?}");
}

/// Cuts the first connection after `cut_after` message bodies passed, or passes nothing more
/// on it after `freeze_after` (as a server that stopped mid-FETCH); counts every body passed.
struct CutMidFetch {
    cut_after: usize,
    freeze_after: usize,
    bodies: Mutex<Vec<usize>>,
}

impl CutMidFetch {
    fn new(cut_after: usize, freeze_after: usize) -> Self {
        Self {
            cut_after,
            freeze_after,
            bodies: Mutex::default(),
        }
    }

    fn frozen(&self) -> bool {
        let bodies = self.bodies.lock().unwrap();
        bodies.iter().find(|&&n| n > 0) == Some(&self.freeze_after)
    }
}

impl Rewrite for CutMidFetch {
    fn server_line(&self, conn: usize, line: Vec<u8>) -> Vec<Vec<u8>> {
        let mut bodies = self.bodies.lock().unwrap();
        if bodies.len() <= conn {
            bodies.resize(conn + 1, 0);
        }
        let first = bodies.iter().position(|&n| n > 0).unwrap_or(conn);
        if first == conn && bodies[conn] >= self.freeze_after {
            return Vec::new();
        }
        if line.starts_with(b"* ") && line.windows(8).any(|w| w == b"BODY[] {") {
            bodies[conn] += 1;
        }
        vec![line]
    }
    fn cut(&self, conn: usize) -> bool {
        let bodies = self.bodies.lock().unwrap();
        let first = bodies.iter().position(|&n| n > 0);
        first == Some(conn) && bodies[conn] == self.cut_after
    }
}

/// The link drops in the middle of a body FETCH of the initial sync (5,000 messages: chunks of
/// 50, 2,500 and 2,450, cut as the third begins, while the second is being stored). The sync resumes on a new
/// connection: every message is stored once, and what was stored before the cut (the first
/// two chunks) is not fetched again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_cut_mid_fetch_resumes_without_fetching_stored_mail_again() {
    const TOTAL: usize = 5000;
    // The first two chunks arrived; the second is still being stored when the link drops.
    const STORED: usize = 50 + 2500;
    const CUT: usize = STORED + 1;
    let ms = MailServer::start();
    let mails: Vec<String> = (1..=TOTAL)
        .map(|n| small_mail(&format!("cut {n}")))
        .collect();
    ms.seed("user1", mail_dir(&mails).path(), "INBOX");
    let rewrite = Arc::new(CutMidFetch::new(CUT, usize::MAX));
    let (app, token, relay, account) = through(&ms, rewrite.clone()).await;
    eventually(Duration::from_secs(180), "every message", || async {
        (inbox_total(&app, &token).await == TOTAL).then_some(())
    })
    .await;
    wait_synced(&app, &token).await;
    let bodies = rewrite.bodies.lock().unwrap().clone();
    let cut_conn = bodies.iter().position(|&n| n > 0).unwrap();
    assert_eq!(bodies[cut_conn], CUT, "the cut came mid-FETCH: {bodies:?}");
    assert!(relay.connections() > cut_conn + 1, "it reconnected");
    let fetched: usize = bodies.iter().sum();
    // Only the bodies of the chunk the cut broke were not stored: fetched again, no more.
    assert!(
        fetched <= TOTAL + (CUT - STORED),
        "{fetched} bodies fetched for {TOTAL}: {bodies:?}"
    );
    each_once(&app, account, TOTAL);
    eprintln!("bodies fetched per connection: {bodies:?}");
}

/// Each of the `total` INBOX messages once in the store: every UID, each its own record,
/// nothing more.
fn each_once(app: &TestApp, account: u64, total: usize) {
    let r = mailclient::mailstore::MailRead::new(&app.state.store).unwrap();
    assert_eq!(r.stored_count(account, "INBOX").unwrap(), total);
    let ids: std::collections::HashSet<u64> = (1..=total as u32)
        .map(|uid| r.id_of_uid(account, "INBOX", uid).unwrap().expect("stored"))
        .collect();
    assert_eq!(ids.len(), total, "each message once");
    assert_eq!(r.message_ids().unwrap().count(), total, "no stray copies");
}

/// The mail server is killed in the middle of the initial sync's body FETCHes and started
/// again: the sync resumes; every message once, only what the kill broke fetched twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_fetch_resumes_without_duplicates() {
    const TOTAL: usize = 5000;
    let ms = MailServer::start();
    let mails: Vec<String> = (1..=TOTAL)
        .map(|n| small_mail(&format!("kill {n}")))
        .collect();
    ms.seed("user1", mail_dir(&mails).path(), "INBOX");
    // The server stops answering 1,000 messages into the third chunk, then is killed.
    let counter = Arc::new(CutMidFetch::new(usize::MAX, 50 + 2500 + 1000));
    let (app, token, _relay, account) = through(&ms, counter.clone()).await;
    let fetched = || counter.bodies.lock().unwrap().iter().sum::<usize>();
    eventually(Duration::from_secs(60), "the third chunk", || async {
        counter.frozen().then_some(())
    })
    .await;
    ms.stop();
    let at_kill = fetched();
    tokio::time::sleep(Duration::from_secs(2)).await;
    ms.restart();
    eventually(Duration::from_secs(180), "every message", || async {
        (inbox_total(&app, &token).await == TOTAL).then_some(())
    })
    .await;
    wait_synced(&app, &token).await;
    let bodies = counter.bodies.lock().unwrap().clone();
    assert!(at_kill < TOTAL, "killed mid-sync: {at_kill} of {TOTAL}");
    assert!(
        fetched() <= TOTAL + 1000,
        "{} bodies fetched for {TOTAL}: {bodies:?}",
        fetched()
    );
    each_once(&app, account, TOTAL);
    eprintln!("killed after {at_kill} bodies; bodies per connection: {bodies:?}");
}

/// Records whether the client asked for COMPRESS; hides the server's COMPRESS=DEFLATE when told.
#[derive(Default)]
struct Compression {
    hide: bool,
    asked: std::sync::atomic::AtomicBool,
}

impl Rewrite for Compression {
    fn client_line(&self, line: &ClientLine<'_>) -> Act {
        if line.command == "COMPRESS" {
            self.asked.store(true, std::sync::atomic::Ordering::SeqCst);
        }
        Act::Forward
    }
    fn server_line(&self, _conn: usize, line: Vec<u8>) -> Vec<Vec<u8>> {
        if !self.hide {
            return vec![line];
        }
        let text = String::from_utf8_lossy(&line).replace(" COMPRESS=DEFLATE", "");
        vec![text.into_bytes()]
    }
}

/// A Dovecot with its imap_zlib plugin offers COMPRESS=DEFLATE: the sync turns it on, syncs
/// the same mailbox as without it, and the server sends far fewer bytes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compress_deflate_where_offered_cuts_the_bytes() {
    const TOTAL: usize = 400;
    let ms = MailServer::start_with(&[("MAILTEST_IMAP_COMPRESS", "1")]);
    let text = "שלום, זו הודעה לבדיקה של דחיסה בקישור הביתי. ".repeat(20);
    let mails: Vec<String> = (1..=TOTAL)
        .map(|n| format!("{}{text}\r\n", small_mail(&format!("zip {n}"))))
        .collect();
    ms.seed("user1", mail_dir(&mails).path(), "INBOX");
    let mut bytes = Vec::new();
    for hide in [true, false] {
        let rewrite = Arc::new(Compression {
            hide,
            ..Compression::default()
        });
        let relay = Relay::start(ms.imap_port(), rewrite.clone()).await;
        let (app, token) = app_with(&ms).await;
        let account = imap_relay::account_through(&ms, "user1", relay.port);
        assert_eq!(connect(&app, &token, account).await.0, 200);
        wait_synced(&app, &token).await;
        assert_eq!(inbox_total(&app, &token).await, TOTAL);
        let asked = rewrite.asked.load(std::sync::atomic::Ordering::SeqCst);
        assert_eq!(asked, !hide, "COMPRESS asked for only where offered");
        bytes.push(relay.bytes_down());
        if !hide {
            // IDLE over the compressed stream: new mail still shows.
            ms.deliver("user1@example.test", &small_mail("zip late"));
            eventually(Duration::from_secs(20), "mail during IDLE", || async {
                (inbox_total(&app, &token).await == TOTAL + 1).then_some(())
            })
            .await;
        }
    }
    let (plain, deflated) = (bytes[0], bytes[1]);
    eprintln!("initial sync of {TOTAL} mails: {plain} bytes plain, {deflated} with COMPRESS");
    assert!(
        deflated * 3 < plain,
        "{deflated} bytes with COMPRESS, {plain} without"
    );
}

/// Answers the client's first IDLE itself: `+ idling`, then at once the tagged OK that ends
/// it, as a server (or a proxy) ending an IDLE on its own does. Later IDLEs go to Dovecot.
#[derive(Default)]
struct EndsFirstIdle {
    idles: Mutex<usize>,
}

impl Rewrite for EndsFirstIdle {
    fn client_line(&self, line: &ClientLine<'_>) -> Act {
        if line.command != "IDLE" {
            return Act::Forward;
        }
        let mut idles = self.idles.lock().unwrap();
        *idles += 1;
        if *idles > 1 {
            return Act::Forward;
        }
        Act::Answer(format!("+ idling\r\n{} OK IDLE terminated\r\n", line.tag).into_bytes())
    }
}

/// An IDLE the server ends with a plain tagged OK (no BYE) is followed by an INBOX sync and a
/// new IDLE on the same connection: new mail shows, no reconnect, no error. The scheduler's
/// INBOX check is off (600 s), so only IDLE can bring the mail.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_the_server_ends_with_ok_is_taken_up_again() {
    let ms = MailServer::start();
    ms.deliver("user1@example.test", &small_mail("before"));
    let rewrite = Arc::new(EndsFirstIdle::default());
    let relay = Relay::start(ms.imap_port(), rewrite.clone()).await;
    let (app, token) = app_with_mail(&ms, "poll_interval_secs = 600\ninbox_poll_secs = 600").await;
    let account = imap_relay::account_through(&ms, "user1", relay.port);
    assert_eq!(connect(&app, &token, account).await.0, 200);
    wait_synced(&app, &token).await;
    let connections = relay.connections();
    eventually(Duration::from_secs(20), "a second IDLE", || async {
        (*rewrite.idles.lock().unwrap() >= 2).then_some(())
    })
    .await;
    ms.deliver("user1@example.test", &small_mail("after the ended idle"));
    eventually(Duration::from_secs(20), "the mail", || async {
        (inbox_total(&app, &token).await == 2).then_some(())
    })
    .await;
    assert_eq!(relay.connections(), connections, "no reconnect");
    let (_, v) = app
        .json("GET", "/api/auth/accounts", Some(&token), None)
        .await;
    assert!(v["accounts"][0]["sync"]["error"].is_null(), "{v}");
}

/// Answers a writer's `UID SEARCH HEADER Message-ID` with Outlook's throttling NO.
struct ThrottlesSearch;

impl Rewrite for ThrottlesSearch {
    fn client_line(&self, line: &ClientLine<'_>) -> Act {
        if line.command == "UID" && line.args.to_ascii_uppercase().contains("SEARCH HEADER") {
            let no = format!("{} NO [THROTTLED] Request is throttled.\r\n", line.tag);
            return Act::Answer(no.into_bytes());
        }
        Act::Forward
    }
}

/// The writer of Sent and Drafts looks for a Message-ID before it files a copy: a throttled
/// SEARCH is an error (the write is retried later), not "not filed yet", which would file the
/// mail twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_throttled_search_of_the_writer_is_no_empty_answer() {
    let ms = MailServer::start();
    let relay = Relay::start(ms.imap_port(), Arc::new(ThrottlesSearch)).await;
    let (app, token) = app_with(&ms).await;
    let account = imap_relay::account_through(&ms, "user1", relay.port);
    let (s, v) = connect(&app, &token, account).await;
    assert_eq!(s, 200, "{v}");
    wait_synced(&app, &token).await;
    let id = v["account"]["id"].as_u64().unwrap();
    let account = mailclient::accounts::get(&app.state.store, id)
        .unwrap()
        .unwrap();
    let mut mb = mailclient::outgoing::mailbox::Mailbox::of_state(&app.state, &account)
        .await
        .unwrap();
    let found = mb.holds("Sent", "<filed@sender.test>").await;
    assert!(found.is_err(), "a throttled SEARCH read as {found:?}");
    mb.close().await;
}

/// Without QRESYNC (hidden from the client), CONDSTORE as before: no ENABLE, flag changes by
/// `CHANGEDSINCE`, expunges by a UID listing of the folder whose count changed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_qresync_condstore_as_before() {
    let ms = MailServer::start();
    let mails: Vec<String> = (1..=20).map(|n| small_mail(&format!("cs {n}"))).collect();
    ms.seed("user1", mail_dir(&mails).path(), "INBOX");
    let recorder = Arc::new(Recorder {
        hide: vec!["QRESYNC"],
        ..Recorder::default()
    });
    let (app, token, relay, account) = through(&ms, recorder.clone()).await;
    wait_synced(&app, &token).await;
    let conn = relay.connections() - 1;
    recorder.idling(conn, 1).await;
    flag(&ms, "1:3");
    eventually(Duration::from_secs(30), "the flags", || async {
        is_flagged(&app, account, 3).then_some(())
    })
    .await;
    expunge(&ms, "4:5");
    eventually(Duration::from_secs(30), "the expunges", || async {
        (inbox_total(&app, &token).await == 18).then_some(())
    })
    .await;
    let commands = recorder.of(conn, 0);
    assert_eq!(has(&commands, "ENABLE"), 0, "{commands:#?}");
    assert_eq!(has(&commands, "QRESYNC"), 0, "{commands:#?}");
    assert!(has(&commands, "CHANGEDSINCE") >= 1, "{commands:#?}");
    assert!(has(&commands, "SEARCH") >= 1, "{commands:#?}");
}
