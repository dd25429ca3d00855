//! A server with CONDSTORE but no LIST-STATUS (or one that refused it): a reconnect asks every folder's
//! STATUS in one round trip, the commands sent together, and selects only INBOX and the
//! folders that changed. Without CONDSTORE (Outlook's way) nothing tells a flag change apart,
//! and every folder is selected.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::network::{Recorder, has, reconnected, through};
use super::*;
use crate::common::imap_relay::{Act, ClientLine, Rewrite};

/// The recorder, holding back the server's answers to STATUS until it has the answers of
/// `expect` STATUS commands: a client that waits for each answer before sending the next
/// STATUS never gets one (its pass then times out), one that sends them together gets them all.
#[derive(Default)]
struct HoldStatus {
    recorder: Recorder,
    expect: AtomicUsize,
    /// The tags of the STATUS commands the client sent, by connection (tags start again at
    /// each connection).
    tags: std::sync::Mutex<Vec<(usize, String)>>,
    /// The lines held back, and how many of them are STATUS completions.
    held: std::sync::Mutex<(Vec<Vec<u8>>, usize)>,
}

impl Rewrite for HoldStatus {
    fn client_line(&self, line: &ClientLine<'_>) -> Act {
        if line.command == "STATUS" {
            let tag = format!("{} ", line.tag);
            self.tags.lock().unwrap().push((line.conn, tag));
        }
        self.recorder.client_line(line)
    }
    fn server_line(&self, conn: usize, line: Vec<u8>) -> Vec<Vec<u8>> {
        let expect = self.expect.load(Ordering::SeqCst);
        let completion = self
            .tags
            .lock()
            .unwrap()
            .iter()
            .any(|(c, t)| *c == conn && line.starts_with(t.as_bytes()));
        if expect == 0 || !(completion || line.starts_with(b"* STATUS ")) {
            return self.recorder.server_line(conn, line);
        }
        let mut held = self.held.lock().unwrap();
        held.0.push(line);
        held.1 += usize::from(completion);
        if held.1 < expect {
            return Vec::new();
        }
        held.1 = 0;
        std::mem::take(&mut held.0)
    }
}

/// The folders of user1's mailbox but INBOX, as the store holds them.
fn other_folders(app: &TestApp, account: u64) -> usize {
    let r = mailclient::mailstore::MailRead::new(&app.state.store).unwrap();
    let folders = r.folders(account).unwrap();
    folders.iter().filter(|f| f.name != "INBOX").count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_list_status_the_folders_are_asked_their_status_together() {
    let ms = MailServer::start();
    let mails: Vec<String> = (1..=20).map(|n| small_mail(&format!("st {n}"))).collect();
    ms.seed("user1", mail_dir(&mails).path(), "INBOX");
    let hold = Arc::new(HoldStatus {
        recorder: Recorder::hiding(vec!["LIST-STATUS", "QRESYNC"]),
        ..HoldStatus::default()
    });
    let (app, token, relay, account) = through(&ms, hold.clone()).await;
    wait_synced(&app, &token).await;
    let first = relay.connections() - 1;
    hold.recorder.idling(first, 1).await;
    let others = other_folders(&app, account);
    assert!(others >= 5, "Sent, Drafts, Trash, Junk, Archive: {others}");
    hold.expect.store(others, Ordering::SeqCst);

    // A reconnect to the unchanged mailbox: one STATUS per folder but INBOX, sent together
    // (the relay answers none before it has them all), and only INBOX selected.
    relay.bye("Server shutting down.").await;
    let second = reconnected(&relay, first).await;
    hold.recorder.idling(second, 1).await;
    let commands = hold.recorder.of(second, 0);
    eprintln!("reconnect, unchanged: {commands:#?}");
    assert_eq!(has(&commands, "RETURN"), 0, "{commands:#?}");
    assert_eq!(has(&commands, "STATUS "), others, "{commands:#?}");
    assert!(
        has(&commands, "SELECT ") == 1 && has(&commands, "SELECT \"INBOX\"") == 1,
        "only INBOX selected: {commands:#?}"
    );
    // CONDSTORE without QRESYNC: INBOX's flags asked since its MODSEQ, no other folder's.
    assert!(has(&commands, "CHANGEDSINCE") <= 1, "{commands:#?}");
    // LOGIN, CAPABILITY, LIST, the STATUS commands, SELECT, INBOX's flags, IDLE.
    assert!(commands.len() <= others + 6, "{commands:#?}");

    // A mail moved to Trash (INBOX hears of it in IDLE; Trash is not looked at then): at the
    // next reconnect Trash's STATUS changed, and it is selected too.
    let user = "user1@example.test";
    ms.doveadm(&["move", "-u", user, "Trash", "mailbox", "INBOX", "uid", "6"]);
    eventually(Duration::from_secs(30), "INBOX without it", || async {
        (inbox_total(&app, &token).await == 19).then_some(())
    })
    .await;
    relay.bye("Server shutting down.").await;
    let third = reconnected(&relay, second).await;
    eventually(
        Duration::from_secs(30),
        "the moved mail in Trash",
        || async {
            let trash = list(&app, &token, "trash").await;
            trash.iter().any(|m| m["subject"] == "st 6").then_some(())
        },
    )
    .await;
    hold.recorder.idling(third, 1).await;
    let commands = hold.recorder.of(third, 0);
    let selected: Vec<&String> = commands.iter().filter(|c| c.contains("SELECT ")).collect();
    assert!(
        selected.iter().any(|c| c.contains("\"Trash\""))
            && selected
                .iter()
                .all(|c| c.contains("\"INBOX\"") || c.contains("\"Trash\"")),
        "only the folders that changed: {commands:#?}"
    );
    assert_eq!(inbox_total(&app, &token).await, 19);
}

/// Without CONDSTORE (Outlook.com's way; hidden from the client), no STATUS can tell a flag
/// change: a reconnect selects every folder.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_condstore_every_folder_is_selected() {
    let ms = MailServer::start();
    let mails: Vec<String> = (1..=20).map(|n| small_mail(&format!("ls {n}"))).collect();
    ms.seed("user1", mail_dir(&mails).path(), "INBOX");
    let recorder = Arc::new(Recorder::hiding(vec![
        "LIST-STATUS",
        "QRESYNC",
        "CONDSTORE",
    ]));
    let (app, token, relay, account) = through(&ms, recorder.clone()).await;
    wait_synced(&app, &token).await;
    let first = relay.connections() - 1;
    recorder.idling(first, 1).await;
    relay.bye("Server shutting down.").await;
    let second = reconnected(&relay, first).await;
    recorder.idling(second, 1).await;
    let commands = recorder.of(second, 0);
    assert_eq!(has(&commands, "RETURN"), 0, "{commands:#?}");
    assert_eq!(has(&commands, "STATUS"), 0, "{commands:#?}");
    assert!(
        has(&commands, "SELECT ") > other_folders(&app, account),
        "every folder selected: {commands:#?}"
    );
}
