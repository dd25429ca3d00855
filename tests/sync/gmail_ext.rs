//! Gmail's extension (X-GM-EXT-1) on the Gmail-shaped Dovecot of `gmail.rs`, played by a relay
//! that derives Gmail's ids from Dovecot's data (`speaks_gmail.rs`): copies known by
//! `X-GM-MSGID`, and labels read from `X-GM-LABELS`, names with quotes and backslashes included.

use super::gmail::*;
use super::outlook::full_pass;
use super::*;

/// A label hidden from IMAP, with a quote and a backslash in its name.
const HIDDEN: &str = "מוסתר \"ישן\" א\\ב";

/// `s` as an IMAP quoted string, as Gmail sends a label's name.
fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// With Gmail's extension (X-GM-EXT-1, here a stand-in relay deriving the ids from Dovecot's
/// data), a mail's copies are known by `X-GM-MSGID`: 40 downloads, each mail once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_gmails_extension_copies_are_known_by_their_gmail_id() {
    use crate::common::imap_relay::{self, Relay};
    use std::sync::atomic::Ordering;
    let ms = gmail_server();
    let gmail = std::sync::Arc::new(super::speaks_gmail::Gmail::default());
    let relay = Relay::start(ms.imap_port(), gmail.clone()).await;
    let (app, token) = app_with(&ms).await;
    let account = imap_relay::account_through(&ms, "user1", relay.port);
    assert_eq!(connect(&app, &token, account).await.0, 200);
    wait_synced(&app, &token).await;
    let sync = super::outlook::sync_status(&app, &token).await;
    assert_eq!(sync["fetchedMessages"], 40, "one download per mail: {sync}");
    assert!(
        gmail.msgid_fetches.load(Ordering::Relaxed) > 0,
        "X-GM-MSGID asked"
    );
    let id: u64 = id_of(&app, &token, "inbox", 26).await.parse().unwrap();
    let meta = mailclient::mailstore::MailRead::new(&app.state.store)
        .unwrap()
        .meta(id)
        .unwrap()
        .unwrap();
    assert!(
        meta.identity
            .as_deref()
            .is_some_and(|k| k.starts_with("gm:")),
        "{:?}",
        meta.identity
    );
    // Its thread is Gmail's (X-GM-THRID).
    let thrid = super::speaks_gmail::id_of("<gm26@sender.test>");
    assert_eq!(meta.thread_id, format!("gm-thread:{thrid}"));
    // Home INBOX; places All Mail and its label. `[Gmail]/Starred` (`\Flagged`) is a view of
    // the flagged mail, not synced: the flag is the home copy's.
    let mut places: Vec<&str> = meta.places.iter().map(|p| p.folder.as_str()).collect();
    places.sort();
    assert_eq!(meta.folder, "INBOX");
    assert!(meta.flagged, "{meta:?}");
    assert_eq!(
        places,
        ["&BeIF0QXVBdMF1A-", "[Gmail]/All Mail"],
        "{:?}",
        meta.places
    );
    let counts = get(&app, &token, "/api/emails/counts").await;
    assert_eq!(
        (counts["starred"].as_u64(), counts["inbox"].as_u64()),
        (Some(3), Some(30))
    );
    let archive = list(&app, &token, "session/Archive").await;
    assert_eq!(message_ids(&archive), gm_ids(30..40), "archive view");
}

/// Gmail's labels as X-GM-LABELS names them: a label hidden from IMAP (no folder) shows beside
/// the label folders, each label once, and a label taken away in Gmail (the mail's MODSEQ
/// changes with it) goes at the next look at the mail's flags.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn labels_hidden_from_imap_come_from_x_gm_labels_and_follow_changes() {
    use crate::common::imap_relay::{self, Relay};
    let ms = gmail_server();
    let gmail = std::sync::Arc::new(super::speaks_gmail::Gmail::default());
    // Its name holds a quote and a backslash, which X-GM-LABELS sends escaped.
    let hidden = quoted(&mailclient::mail::mutf7::encode(HIDDEN));
    let work = mailclient::mail::mutf7::encode(WORK_LABEL);
    let labels = |list: String| {
        let mut map = gmail.labels.lock().unwrap();
        map.insert("<gm26@sender.test>".to_string(), list);
    };
    labels(format!("\\Inbox \\Starred \\Important \"{work}\" {hidden}"));
    let relay = Relay::start(ms.imap_port(), gmail.clone()).await;
    let (app, token) = app_with(&ms).await;
    let account = imap_relay::account_through(&ms, "user1", relay.port);
    let (s, v) = connect(&app, &token, account).await;
    assert_eq!(s, 200, "{v}");
    let account = v["account"]["id"].as_u64().unwrap();
    wait_synced(&app, &token).await;
    let shown = |rows: Vec<Value>| {
        let mail = rows
            .into_iter()
            .find(|m| m["messageId"] == "gm26@sender.test");
        mail.expect("gm26 listed")["folderLabels"].clone()
    };
    assert_eq!(
        shown(list(&app, &token, "inbox").await),
        json!([HIDDEN, WORK_LABEL]),
        "the hidden label and the label folder, each once"
    );

    // The hidden label taken away in Gmail: the mail's MODSEQ moves (here by a flag).
    labels(format!("\\Inbox \\Starred \"{work}\""));
    let user = "user1@example.test";
    ms.doveadm(&[
        "flags",
        "add",
        "-u",
        user,
        "\\Seen",
        "mailbox",
        "INBOX",
        "header",
        "Message-ID",
        "<gm26@sender.test>",
    ]);
    full_pass(&app, &token).await;
    eventually(Duration::from_secs(20), "the label gone", || async {
        let now = shown(list(&app, &token, "inbox").await);
        (now == json!([WORK_LABEL])).then_some(())
    })
    .await;

    // A store from before labels were read (INBOX's state says so): its mail's labels are
    // asked once in full, though no MODSEQ moved on the server.
    labels(format!("\\Inbox \"{work}\" {hidden}"));
    {
        use mailclient::mailstore::{MailWrite, Reason};
        let txn = app.state.store.begin_write().unwrap();
        let w = MailWrite::new(&txn, Reason::Sync);
        let mut inbox = w.folder(account, "INBOX").unwrap().expect("INBOX");
        assert!(inbox.labels_read, "read with the first sync");
        inbox.labels_read = false;
        w.save_folder(account, &inbox).unwrap();
        txn.commit().unwrap();
    }
    full_pass(&app, &token).await;
    eventually(
        Duration::from_secs(20),
        "the labels read in full",
        || async {
            let now = shown(list(&app, &token, "inbox").await);
            (now == json!([HIDDEN, WORK_LABEL])).then_some(())
        },
    )
    .await;
}
