//! How mail is fetched: sparse UIDs are listed, not walked; chunks are bounded by bytes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::*;
use crate::common::imap_relay::{Act, ClientLine, Rewrite};

/// Gmail-like UIDs: UIDNEXT millions above the message count. The sync lists the UIDs that
/// exist (ESEARCH) instead of walking 500-UID windows through the gaps (100,000 FETCHes here),
/// so every message arrives in a handful of commands; new mail across another gap too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sparse_uids_are_listed_not_walked() {
    let ms = MailServer::start();
    let mut subjects = Vec::new();
    for (batch, next_uid) in [("a", Some("1000000")), ("b", Some("50000000")), ("c", None)] {
        let mails: Vec<String> = (1..=5)
            .map(|n| {
                subjects.push(format!("sparse {batch}{n}"));
                small_mail(&format!("sparse {batch}{n}"))
            })
            .collect();
        ms.seed("user1", mail_dir(&mails).path(), "INBOX");
        if let Some(n) = next_uid {
            ms.doveadm(&[
                "mailbox",
                "update",
                "--min-next-uid",
                n,
                "-u",
                "user1@example.test",
                "INBOX",
            ]);
        }
    }
    let uids = server_uids(&ms, "user1", "INBOX");
    assert_eq!(uids.len(), 15, "{uids:?}");
    assert!(
        uids.contains(&1_000_000) && uids.contains(&50_000_004),
        "the gaps are there: {uids:?}"
    );

    let (app, token) = app_with(&ms).await;
    let (s, v) = connect(&app, &token, ms.account("user1")).await;
    assert_eq!(s, 200, "{v}");
    let account = v["account"]["id"].as_u64().unwrap();
    wait_synced(&app, &token).await;
    let listed = list(&app, &token, "inbox").await;
    let mut got: Vec<String> = listed
        .iter()
        .map(|e| e["subject"].as_str().unwrap().to_string())
        .collect();
    got.sort();
    subjects.sort();
    assert_eq!(got, subjects, "every message arrived once");
    let counts = fetch_counts(&app, account);
    // INBOX: the sizes, one chunk of bodies, the flags. The old walk: 100,000 body FETCHes.
    assert!(
        counts.commands <= 6 && counts.bodies <= 2,
        "{counts:?} FETCH commands for 15 messages"
    );

    // New mail beyond another gap: listed too, not walked.
    ms.doveadm(&[
        "mailbox",
        "update",
        "--min-next-uid",
        "90000000",
        "-u",
        "user1@example.test",
        "INBOX",
    ]);
    let late: Vec<String> = (1..=3).map(|n| small_mail(&format!("late{n}"))).collect();
    ms.seed("user1", mail_dir(&late).path(), "INBOX");
    assert!(server_uids(&ms, "user1", "INBOX").contains(&90_000_002));
    // IDLE brings it; a refresh now and then covers mail that landed just before IDLE began.
    let mut polls = 0;
    eventually(Duration::from_secs(30), "the late mail", || {
        polls += 1;
        let refresh = polls % 10 == 1;
        let (app, token) = (&app, &token);
        async move {
            if refresh {
                app.json("POST", "/api/sync/refresh", Some(token), None)
                    .await;
            }
            (inbox_total(app, token).await == 18).then_some(())
        }
    })
    .await;
    let after = fetch_counts(&app, account);
    assert!(
        after.commands - counts.commands <= 8,
        "{counts:?} then {after:?}"
    );
}

/// Chunks are bounded by bytes as well as by count: three 6 MiB mails never share one FETCH
/// of 16 MiB at most, and all arrive whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn big_messages_are_fetched_in_chunks_bounded_by_bytes() {
    const MIB: usize = 1 << 20;
    let big = |n: usize| {
        let line = "QUJD".repeat(19); // 76 characters of base64
        let lines = 6 * MIB / (line.len() + 2);
        let mut raw = format!(
            "From: a@sender.test\r\nTo: user1@example.test\r\nSubject: big {n}\r\n\
             Message-ID: <big{n}@sender.test>\r\nDate: Mon, 3 Mar 2025 10:00:0{n} +0000\r\n\
             MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n\
             --b\r\nContent-Type: text/plain\r\n\r\nbig {n}\r\n\
             --b\r\nContent-Type: application/octet-stream\r\n\
             Content-Disposition: attachment; filename=\"big{n}.bin\"\r\n\
             Content-Transfer-Encoding: base64\r\n\r\n"
        );
        raw.reserve(lines * (line.len() + 2) + 16);
        for _ in 0..lines {
            raw.push_str(&line);
            raw.push_str("\r\n");
        }
        raw.push_str("--b--\r\n");
        raw
    };
    let mails = vec![
        big(1),
        big(2),
        big(3),
        small_mail("small1"),
        small_mail("small2"),
    ];
    let total: usize = mails.iter().map(String::len).sum();
    let ms = MailServer::start();
    ms.seed("user1", mail_dir(&mails).path(), "INBOX");
    drop(mails);

    let (app, token) = app_with(&ms).await;
    let (s, v) = connect(&app, &token, ms.account("user1")).await;
    assert_eq!(s, 200, "{v}");
    let account = v["account"]["id"].as_u64().unwrap();
    let status = wait_synced(&app, &token).await;
    let listed = list(&app, &token, "inbox").await;
    let mut got: Vec<&str> = listed
        .iter()
        .map(|e| e["subject"].as_str().unwrap())
        .collect();
    got.sort();
    assert_eq!(got, ["big 1", "big 2", "big 3", "small1", "small2"]);
    assert_eq!(status["fetchedMessages"], 5, "{status}");
    assert!(
        status["fetchedBytes"].as_u64().unwrap() as usize >= total,
        "{status}"
    );
    // 18 MiB of mail: at least two body FETCHes (one would hold it all).
    let counts = fetch_counts(&app, account);
    assert_eq!(counts.bodies, 2, "{counts:?}");
    for e in listed
        .iter()
        .filter(|e| e["subject"] != "small1" && e["subject"] != "small2")
    {
        let id = e["id"].as_str().unwrap();
        let (s, v) = app
            .json("GET", &format!("/api/emails/{id}"), Some(&token), None)
            .await;
        assert_eq!(s, 200);
        let att = &v["attachments"][0];
        assert!(
            att["size"].as_u64().unwrap() as usize > 4 * MIB,
            "the attachment arrived whole: {att}"
        );
    }
}

/// The recorder, adding once, after the server's answer for the newest mail (sequence 120), an
/// unsolicited FETCH of an old one (another client flagging it): it carries a UID, and must not
/// be taken for one of the newest mails.
#[derive(Default)]
struct FlagsAnOldMail {
    recorder: super::network::Recorder,
    added: AtomicBool,
}

impl Rewrite for FlagsAnOldMail {
    fn client_line(&self, line: &ClientLine<'_>) -> Act {
        self.recorder.client_line(line)
    }
    fn server_line(&self, conn: usize, line: Vec<u8>) -> Vec<Vec<u8>> {
        let mut lines = self.recorder.server_line(conn, line);
        if lines.iter().any(|l| l.starts_with(b"* 120 FETCH (UID "))
            && !self.added.swap(true, Ordering::SeqCst)
        {
            lines.push(b"* 5 FETCH (UID 5 FLAGS (\\Seen))\r\n".to_vec());
        }
        lines
    }
}

/// A folder whose UIDs need listing (a `UID SEARCH`, slow for the server at a million mails):
/// its first page is asked by sequence number and fetched before the listing, and the rest
/// follows once, without the first page again (an unsolicited FETCH among the answers changes
/// nothing).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_page_is_fetched_before_the_folder_is_listed() {
    let ms = MailServer::start();
    let early: Vec<String> = (1..=60)
        .map(|n| small_mail(&format!("fp early {n}")))
        .collect();
    ms.seed("user1", mail_dir(&early).path(), "INBOX");
    ms.doveadm(&[
        "mailbox",
        "update",
        "--min-next-uid",
        "20000",
        "-u",
        "user1@example.test",
        "INBOX",
    ]);
    let late: Vec<String> = (1..=60)
        .map(|n| small_mail(&format!("fp late {n}")))
        .collect();
    ms.seed("user1", mail_dir(&late).path(), "INBOX");
    let rewrite = Arc::new(FlagsAnOldMail::default());
    let (app, token, relay, account) = super::network::through(&ms, rewrite.clone()).await;
    wait_synced(&app, &token).await;
    assert!(
        rewrite.added.load(Ordering::SeqCst),
        "the old mail's FETCH was sent"
    );
    let commands = rewrite.recorder.of(relay.connections() - 1, 0);
    let position = |word: &str| commands.iter().position(|c| c.contains(word));
    let (Some(newest), Some(first_body), Some(search)) = (
        position("FETCH 71:120 (UID)"),
        position("BODY.PEEK[]"),
        position("SEARCH"),
    ) else {
        panic!("the newest by sequence, a body FETCH, a listing: {commands:#?}");
    };
    assert!(newest < first_body && first_body < search, "{commands:#?}");
    // The newest 50 are UIDs 20010 to 20059, and the listing asks only below them.
    assert!(
        commands[first_body].contains("UID FETCH 20010:20059 ")
            && commands[search].contains("UID 1:20009"),
        "{commands:#?}"
    );
    let r = mailclient::mailstore::MailRead::new(&app.state.store).unwrap();
    assert_eq!(r.stored_count(account, "INBOX").unwrap(), 120);
    let ids: std::collections::HashSet<u64> = (1..=60)
        .chain(20_000..20_060)
        .map(|uid| r.id_of_uid(account, "INBOX", uid).unwrap().expect("stored"))
        .collect();
    assert_eq!(ids.len(), 120, "each mail once");
    assert_eq!(r.message_ids().unwrap().count(), 120, "no stray copies");
    assert_eq!(inbox_total(&app, &token).await, 120);
}
