//! Triage against a real Dovecot: every status and its `movedTo`, the keywords and folder moves
//! on the server, statuses surviving a full re-sync, deleting (site only) and Trash, bulk
//! actions, threads with filters and sort, Inbox Zero's overdue and auto-archive around their
//! day boundaries, counts, and isolation between users.

mod common;

use std::time::Duration;

use common::TestApp;
use common::mailflow::*;
use common::mailserver::MailServer;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc2822;

const DAY: i64 = 86_400;

/// A plain message dated `age` seconds ago.
fn mail(subject: &str, id: &str, age: i64) -> String {
    let date = (OffsetDateTime::now_utc() - time::Duration::seconds(age))
        .format(&Rfc2822)
        .unwrap();
    format!(
        "From: Sender <sender@outside.test>\r\nTo: user1@example.test\r\nSubject: {subject}\r\n\
         Message-ID: <{id}@outside.test>\r\nDate: {date}\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\nbody of {subject}\r\n"
    )
}

/// Percent-encodes a path segment (thread ids are Message-IDs: `<`, `>`, `@`).
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn seed(ms: &MailServer, user: &str, mails: &[(&str, String)]) {
    let dir = tempfile::tempdir().unwrap();
    for (name, raw) in mails {
        std::fs::write(dir.path().join(format!("{name}.eml")), raw).unwrap();
    }
    ms.seed(user, dir.path(), "INBOX");
}

/// The IMAP flags Dovecot holds for the message with this subject in `folder`.
fn server_flags(ms: &MailServer, user: &str, folder: &str, subject: &str) -> Option<String> {
    let out = ms.doveadm(&[
        "-f",
        "flow",
        "fetch",
        "-u",
        &format!("{user}@example.test"),
        "flags",
        "mailbox",
        folder,
        "subject",
        subject,
    ]);
    out.lines()
        .find_map(|l| l.strip_prefix("flags="))
        .map(str::to_string)
}

async fn get(app: &TestApp, token: &str, path: &str) -> Value {
    let (s, v) = app.json("GET", path, Some(token), None).await;
    assert_eq!(s, 200, "{path}: {v}");
    v
}

async fn id_in(app: &TestApp, token: &str, listing: &str, subject: &str) -> Option<String> {
    let sep = if listing.contains('?') { '&' } else { '?' };
    let rows = get(app, token, &format!("{listing}{sep}perPage=500")).await;
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r["subject"] == subject)
        .map(|r| r["id"].as_str().unwrap().to_string())
}

/// The id of the inbox mail with this subject (it must be there).
async fn inbox_id(app: &TestApp, token: &str, subject: &str) -> String {
    id_in(app, token, "/api/emails/inbox", subject)
        .await
        .unwrap_or_else(|| panic!("{subject} in the inbox"))
}

async fn status(app: &TestApp, token: &str, id: &str, body: Value) -> (u16, Value) {
    app.json(
        "PUT",
        &format!("/api/emails/{id}/status"),
        Some(token),
        Some(body),
    )
    .await
}

async fn refresh(app: &TestApp, token: &str) {
    let (s, v) = app
        .json("POST", "/api/sync/refresh", Some(token), None)
        .await;
    assert_eq!(s, 200, "{v}");
}

/// Waits until `subject` is listed in `listing` (syncing as it goes); returns its id.
async fn wait_listed(app: &TestApp, token: &str, listing: &str, subject: &str) -> String {
    eventually(Duration::from_secs(30), subject, || async {
        refresh(app, token).await;
        id_in(app, token, listing, subject).await
    })
    .await
}

async fn wait_server(ms: &MailServer, folder: &str, subject: &str, keyword: Option<&str>) {
    eventually(
        Duration::from_secs(30),
        &format!("{subject} in {folder} with {keyword:?}"),
        || async {
            server_flags(ms, "user1", folder, subject)
                .filter(|f| keyword.is_none_or(|k| f.split_whitespace().any(|x| x == k)))
        },
    )
    .await;
}

async fn relogin(app: &TestApp, token: &str, ms: &MailServer) {
    let (_, accounts) = app
        .json("GET", "/api/auth/accounts", Some(token), None)
        .await;
    let session = accounts["accounts"][0]["sessionId"].clone();
    let (s, v) = app
        .json(
            "POST",
            "/api/auth/logout",
            Some(token),
            Some(json!({ "sessionId": session })),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(connect(app, token, ms.account("user1")).await.0, 200);
    wait_synced(app, token).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_status_moves_and_is_mirrored_on_the_mailbox() {
    let ms = MailServer::start();
    let names = ["reply-me", "done", "junk", "news", "sale", "other-client"];
    let mails: Vec<(&str, String)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (*n, mail(n, n, 3600 * (i as i64 + 1))))
        .collect();
    seed(&ms, "user1", &mails);
    let (app, token) = synced_app(&ms, "user1").await;
    let id = |s: &'static str| inbox_id(&app, &token, s);

    // needs_reply: stays in the inbox with priority high.
    let reply = id("reply-me").await;
    let (s, v) = status(&app, &token, &reply, json!({"status": "needs_reply"})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["movedTo"], "inbox");
    assert_eq!(v["email"]["status"], "needs_reply");
    assert_eq!(v["email"]["priority"], "high");
    // The answer carries the mail's thread as the list shows it after the change.
    assert_eq!(v["thread"]["emails"][0]["id"], json!(reply));
    assert_eq!(v["thread"]["status"], "needs_reply");
    assert_eq!(v["thread"]["labels"][0], "needs_reply");
    wait_server(&ms, "INBOX", "reply-me", Some("$NeedsReply")).await;
    assert!(
        server_flags(&ms, "user1", "INBOX", "reply-me")
            .unwrap()
            .contains("$HighPriority")
    );
    // urgent keeps the status.
    let (_, v) = status(&app, &token, &reply, json!({"status": "urgent"})).await;
    assert_eq!(
        (
            v["email"]["status"].as_str(),
            v["email"]["priority"].as_str()
        ),
        (Some("needs_reply"), Some("urgent"))
    );
    assert_eq!(v["movedTo"], "inbox");
    assert_eq!(v["thread"]["priority"], "urgent");
    assert_eq!(v["thread"]["labels"], json!(["urgent", "needs_reply"]));
    wait_server(&ms, "INBOX", "reply-me", Some("$Urgent")).await;
    assert!(
        !server_flags(&ms, "user1", "INBOX", "reply-me")
            .unwrap()
            .contains("$HighPriority")
    );

    // processed → Archive (moved on the server, keyword kept on the copy).
    let done = id("done").await;
    let (_, v) = status(&app, &token, &done, json!({"status": "processed"})).await;
    assert_eq!(v["movedTo"], "Archive");
    assert!(
        id_in(&app, &token, "/api/emails/inbox", "done")
            .await
            .is_none()
    );
    wait_server(&ms, "Archive", "done", Some("$Processed")).await;
    assert!(server_flags(&ms, "user1", "INBOX", "done").is_none());
    let archived = wait_listed(&app, &token, "/api/emails/archive", "done").await;
    let row = get(&app, &token, &format!("/api/emails/{archived}")).await;
    assert_eq!(row["status"], "processed");
    assert!(
        id_in(&app, &token, "/api/emails/session/Archive", "done")
            .await
            .is_some()
    );

    // spam → Junk with $Junk; listed under Spam.
    let junk = id("junk").await;
    let (_, v) = status(&app, &token, &junk, json!({"status": "spam"})).await;
    assert_eq!(v["movedTo"], "Spam");
    wait_server(&ms, "Junk", "junk", Some("$Junk")).await;
    let in_junk = wait_listed(&app, &token, "/api/emails/junk", "junk").await;
    assert!(
        id_in(&app, &token, "/api/emails/session/Spam", "junk")
            .await
            .is_some()
    );

    // info → Updates, advertisement → Promotions: listed there, still in INBOX on the server.
    let news = id("news").await;
    let (_, v) = app
        .json(
            "PUT",
            &format!("/api/emails/{news}/status?folder=Updates"),
            Some(&token),
            Some(json!({"status": "info"})),
        )
        .await;
    assert_eq!(v["movedTo"], "Updates");
    // The thread is the one the listing asked about shows: Updates keeps it now.
    assert_eq!(v["thread"]["emails"][0]["id"], json!(news));
    assert_eq!(v["thread"]["labels"], json!(["info"]));
    // Seen from the inbox it left, the answer still describes the mail itself.
    let (_, v) = app
        .json(
            "PUT",
            &format!("/api/emails/{news}/status?folder=inbox"),
            Some(&token),
            Some(json!({"status": "info"})),
        )
        .await;
    assert_eq!(v["thread"]["count"], 1);
    assert_eq!(v["thread"]["emails"][0]["id"], json!(news));
    let sale = id("sale").await;
    let (_, v) = status(&app, &token, &sale, json!({"status": "advertisement"})).await;
    assert_eq!(v["movedTo"], "Promotions");
    assert!(
        id_in(&app, &token, "/api/emails/session/Updates", "news")
            .await
            .is_some()
    );
    assert!(
        id_in(&app, &token, "/api/emails/session/Promotions", "sale")
            .await
            .is_some()
    );
    assert!(
        id_in(&app, &token, "/api/emails/inbox", "news")
            .await
            .is_none()
    );
    wait_server(&ms, "INBOX", "news", Some("$Info")).await;
    wait_server(&ms, "INBOX", "sale", Some("$Advertisement")).await;

    // Not spam after all: back to INBOX on the server.
    let (_, v) = status(&app, &token, &in_junk, json!({"status": "needs_reply"})).await;
    assert_eq!(v["movedTo"], "inbox");
    wait_server(&ms, "INBOX", "junk", Some("$NeedsReply")).await;
    // The copy back in INBOX keeps the time of its last status change, not its date.
    let back = wait_listed(&app, &token, "/api/emails/inbox", "junk").await;
    let row = get(&app, &token, &format!("/api/emails/{back}")).await;
    let activity = OffsetDateTime::parse(
        row["lastActivity"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    assert!(
        OffsetDateTime::now_utc() - activity < time::Duration::minutes(5),
        "{row}"
    );
    assert!(
        !server_flags(&ms, "user1", "INBOX", "junk")
            .unwrap()
            .contains("$Junk")
    );

    // Bad input.
    let (s, v) = status(&app, &token, &news, json!({"status": "bogus"})).await;
    assert_eq!(s, 400);
    assert_eq!(v["message"], "סטטוס לא תקין");
    let (s, _) = status(&app, &token, "999999", json!({"status": "info"})).await;
    assert_eq!(s, 404);

    // Another client sets a keyword: the status follows.
    ms.doveadm(&[
        "flags",
        "add",
        "-u",
        "user1@example.test",
        "$Processed",
        "mailbox",
        "INBOX",
        "subject",
        "other-client",
    ]);
    wait_listed(&app, &token, "/api/emails/session/Archive", "other-client").await;

    // Counts are the listings' sizes.
    let c = get(&app, &token, "/api/emails/counts").await;
    assert_eq!(c["needsReply"], 2, "{c}");
    assert_eq!(c["urgent"], 1, "{c}");
    assert_eq!(c["info"], 1, "{c}");
    assert_eq!(c["advertisements"], 1, "{c}");
    assert_eq!(c["processed"], 2, "{c}");
    assert_eq!(c["inbox"], 2, "{c}");

    // A full re-sync (forget the cache, sync again) restores every status from the keywords.
    relogin(&app, &token, &ms).await;
    let updates = id_in(&app, &token, "/api/emails/session/Updates", "news").await;
    assert!(updates.is_some(), "info survived the re-sync");
    let again = id_in(&app, &token, "/api/emails/inbox", "reply-me")
        .await
        .unwrap();
    let row = get(&app, &token, &format!("/api/emails/{again}")).await;
    assert_eq!(
        (row["status"].as_str(), row["priority"].as_str()),
        (Some("needs_reply"), Some("urgent"))
    );
    let c2 = get(&app, &token, "/api/emails/counts").await;
    assert_eq!(c, c2, "counts after a full re-sync");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delete_hides_for_good_trash_moves_and_bulk_applies() {
    let ms = MailServer::start();
    let names = ["hide-me", "trash-me", "bulk-a", "bulk-b", "keep", "read-me"];
    let mails: Vec<(&str, String)> = names.iter().map(|n| (*n, mail(n, n, 600))).collect();
    seed(&ms, "user1", &mails);
    let (app, token) = synced_app(&ms, "user1").await;
    let id = |s: &'static str| inbox_id(&app, &token, s);

    let hide = id("hide-me").await;
    let (s, v) = app
        .json("DELETE", &format!("/api/emails/{hide}"), Some(&token), None)
        .await;
    assert_eq!(s, 200, "{v}");
    assert!(
        id_in(&app, &token, "/api/emails/inbox", "hide-me")
            .await
            .is_none()
    );
    let (s, _) = app
        .json("GET", &format!("/api/emails/{hide}"), Some(&token), None)
        .await;
    assert_eq!(s, 404);
    // The mailbox is untouched…
    refresh(&app, &token).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(server_flags(&ms, "user1", "INBOX", "hide-me").is_some());
    // …and a full re-sync of the folder (new UIDVALIDITY: every message fetched again under
    // a new id) keeps it hidden.
    let keep_before = id("keep").await;
    ms.doveadm(&[
        "mailbox",
        "update",
        "-u",
        "user1@example.test",
        "--uid-validity",
        "4242",
        "INBOX",
    ]);
    eventually(Duration::from_secs(30), "the re-sync", || async {
        refresh(&app, &token).await;
        id_in(&app, &token, "/api/emails/inbox", "keep")
            .await
            .filter(|k| *k != keep_before)
    })
    .await;
    assert!(
        id_in(&app, &token, "/api/emails/inbox", "hide-me")
            .await
            .is_none()
    );
    assert_eq!(get(&app, &token, "/api/emails/counts").await["inbox"], 5);

    // Needs reply, then trashed: no longer counted as waiting.
    let trash = id("trash-me").await;
    status(&app, &token, &trash, json!({"status": "needs_reply"})).await;
    assert_eq!(
        get(&app, &token, "/api/emails/counts").await["needsReply"],
        1
    );
    let (s, v) = app
        .json(
            "POST",
            &format!("/api/emails/{trash}/trash"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!((s, v["movedTo"].as_str()), (200, Some("trash")), "{v}");
    assert!(
        id_in(&app, &token, "/api/emails/inbox", "trash-me")
            .await
            .is_none()
    );
    wait_server(&ms, "Trash", "trash-me", None).await;
    assert!(server_flags(&ms, "user1", "INBOX", "trash-me").is_none());
    wait_listed(&app, &token, "/api/emails/trash", "trash-me").await;
    assert_eq!(
        get(&app, &token, "/api/emails/counts").await["needsReply"],
        0
    );

    // Marked spam and deleted at once: whether the move went first or not, it stays gone.
    let doomed = id("keep").await;
    status(&app, &token, &doomed, json!({"status": "spam"})).await;
    let (s, _) = app
        .json(
            "DELETE",
            &format!("/api/emails/{doomed}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200);
    refresh(&app, &token).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    refresh(&app, &token).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    for listing in [
        "/api/emails/session/Spam",
        "/api/emails/junk",
        "/api/emails/inbox",
    ] {
        assert!(
            id_in(&app, &token, listing, "keep").await.is_none(),
            "{listing}"
        );
    }

    // Bulk: a status for two, then read; unknown and foreign ids are skipped.
    let (a, b) = (id("bulk-a").await, id("bulk-b").await);
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/bulk",
            Some(&token),
            Some(json!({"ids": [a, b, "424242"], "action": "status", "status": "spam"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["updated"].as_u64(), v["movedTo"].as_str()),
        (Some(2), Some("Spam"))
    );
    // The changed mail as it is now, so the web shows the server's state.
    let changed: Vec<(&str, &str)> = v["emails"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["id"].as_str().unwrap(), e["status"].as_str().unwrap()))
        .collect();
    assert_eq!(changed, [(a.as_str(), "spam"), (b.as_str(), "spam")]);
    wait_server(&ms, "Junk", "bulk-a", Some("$Junk")).await;
    wait_server(&ms, "Junk", "bulk-b", Some("$Junk")).await;
    let keep = id("read-me").await;
    let (_, v) = app
        .json(
            "POST",
            "/api/emails/bulk",
            Some(&token),
            Some(json!({"ids": [keep], "action": "read"})),
        )
        .await;
    assert_eq!(v["updated"], 1);
    wait_server(&ms, "INBOX", "read-me", Some("\\Seen")).await;
    for bad in [
        json!({"ids": [], "action": "read"}),
        json!({"ids": [keep], "action": "explode"}),
        json!({"ids": [keep], "action": "status", "status": "bogus"}),
    ] {
        let (s, v) = app
            .json("POST", "/api/emails/bulk", Some(&token), Some(bad))
            .await;
        assert_eq!(s, 400, "{v}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inbox_zero_overdue_and_auto_archive_follow_the_day_boundaries() {
    let ms = MailServer::start();
    let hour = 3600;
    seed(
        &ms,
        "user1",
        &[
            ("old-unread", mail("old-unread", "ou", 3 * DAY + hour)),
            ("young-unread", mail("young-unread", "yu", 3 * DAY - hour)),
            ("urgent-old", mail("urgent-old", "uo", DAY + hour)),
            ("urgent-young", mail("urgent-young", "uy", DAY - hour)),
            (
                "stale-processed",
                mail("stale-processed", "sp", 7 * DAY + hour),
            ),
            (
                "fresh-processed",
                mail("fresh-processed", "fp", 7 * DAY - hour),
            ),
            ("stale-info", mail("stale-info", "si", 30 * DAY)),
        ],
    );
    // Triaged earlier by another client: the keywords come with the mail, so its activity is
    // its date.
    for (subject, keyword) in [
        ("stale-processed", "$Processed"),
        ("fresh-processed", "$Processed"),
        ("stale-info", "$Info"),
        ("young-unread", "\\Seen"),
    ] {
        ms.doveadm(&[
            "flags",
            "add",
            "-u",
            "user1@example.test",
            keyword,
            "mailbox",
            "INBOX",
            "subject",
            subject,
        ]);
    }
    // young-unread is read but marked needs reply below (3 days minus an hour: not overdue).
    let (app, token) = synced_app(&ms, "user1").await;
    for subject in ["urgent-old", "urgent-young"] {
        let id = id_in(&app, &token, "/api/emails/inbox", subject)
            .await
            .unwrap();
        // Read, so only urgency can make them overdue.
        app.json(
            "PUT",
            &format!("/api/emails/{id}"),
            Some(&token),
            Some(json!({"is_read": true})),
        )
        .await;
        let (s, _) = status(&app, &token, &id, json!({"status": "urgent"})).await;
        assert_eq!(s, 200);
    }
    let young = id_in(&app, &token, "/api/emails/inbox", "young-unread")
        .await
        .unwrap();
    status(&app, &token, &young, json!({"status": "needs_reply"})).await;

    let z = get(&app, &token, "/api/emails/inbox-zero").await;
    let reminders: Vec<&str> = z["reminders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["subject"].as_str().unwrap())
        .collect();
    // Oldest first: old-unread (3 days + 1 h), urgent-old (1 day + 1 h).
    assert_eq!(reminders, ["old-unread", "urgent-old"], "{z}");
    assert_eq!(z["overdue"], 2, "{z}");
    assert_eq!(z["reminders"][0]["daysOverdue"], 3);
    assert_eq!(z["reminders"][1]["daysOverdue"], 1);
    assert_eq!(z["needsReply"], 3, "{z}");
    assert_eq!(z["urgent"], 2, "{z}");
    assert_eq!(z["processed"], 2, "{z}");
    let candidates: Vec<&str> = z["autoArchive"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["subject"].as_str().unwrap())
        .collect();
    assert_eq!(candidates, ["stale-info", "stale-processed"], "{z}");
    assert_eq!(z["autoArchiveCount"], 2);

    // Archive them plus a non-candidate: only the candidates go.
    let mut ids: Vec<Value> = z["autoArchive"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].clone())
        .collect();
    ids.push(json!(young));
    let (s, v) = app
        .json(
            "POST",
            "/api/emails/auto-archive",
            Some(&token),
            Some(json!({"emailIds": ids})),
        )
        .await;
    assert_eq!((s, v["archivedCount"].as_u64()), (200, Some(2)), "{v}");
    wait_server(&ms, "Archive", "stale-info", Some("$Info")).await;
    wait_server(&ms, "Archive", "stale-processed", Some("$Processed")).await;
    assert!(server_flags(&ms, "user1", "INBOX", "fresh-processed").is_some());
    let z = get(&app, &token, "/api/emails/inbox-zero").await;
    assert_eq!(z["autoArchiveCount"], 0, "{z}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn threads_filters_sort_and_isolation() {
    let ms = MailServer::start();
    let root = mail("Plan", "plan", 5 * 3600);
    let reply = mail("Re: Plan", "plan-re", 3600).replace(
        "MIME-Version",
        "In-Reply-To: <plan@outside.test>\r\nReferences: <plan@outside.test>\r\nMIME-Version",
    );
    let attached = "From: Avi <avi@outside.test>\r\nTo: user1@example.test\r\nSubject: Attached\r\n\
        Message-ID: <att@outside.test>\r\nMIME-Version: 1.0\r\n\
        Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nsee\r\n\
        --b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=a.pdf\r\n\r\n%PDF\r\n--b--\r\n"
        .to_string();
    seed(
        &ms,
        "user1",
        &[
            ("1", root),
            ("2", reply),
            ("3", attached),
            ("4", mail("Zebra", "zebra", 7200)),
        ],
    );
    seed(&ms, "user2", &[("1", mail("for two only", "two", 60))]);
    let (app, token) = synced_app(&ms, "user1").await;

    let threads = get(&app, &token, "/api/threads/inbox").await;
    let threads = threads.as_array().unwrap();
    assert_eq!(threads.len(), 3, "{threads:?}");
    let plan = threads
        .iter()
        .find(|t| t["count"] == 2)
        .expect("the Plan thread");
    assert_eq!(plan["subject"], "Re: Plan");
    assert_eq!(plan["isRead"], false);
    assert_eq!(plan["participants"], json!(["Sender"]));
    // A page of threads carries each thread's newest mail; the thread whole is on demand.
    let carried = plan["emails"].as_array().unwrap();
    assert_eq!(carried.len(), 1);
    assert_eq!(carried[0]["subject"], "Re: Plan");
    let path = format!(
        "/api/threads/inbox/{}",
        encode(plan["id"].as_str().unwrap())
    );
    let whole = get(&app, &token, &path).await;
    let subjects_of = |t: &Value| -> Vec<String> {
        t["emails"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["subject"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(subjects_of(&whole), ["Re: Plan", "Plan"]);
    assert_eq!(whole["count"], 2);

    let subjects = |v: Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| r["subject"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        subjects(get(&app, &token, "/api/emails/inbox?filter=attachment").await),
        ["Attached"]
    );
    assert_eq!(
        subjects(get(&app, &token, "/api/emails/inbox?sort=subject").await),
        ["Attached", "Re: Plan", "Plan", "Zebra"]
    );
    assert_eq!(
        subjects(get(&app, &token, "/api/emails/inbox?sort=sender&order=asc").await)[0],
        "Attached",
        "Avi sorts before Sender"
    );
    let id = id_in(&app, &token, "/api/emails/inbox", "Zebra")
        .await
        .unwrap();
    app.json(
        "PUT",
        &format!("/api/emails/{id}"),
        Some(&token),
        Some(json!({"is_starred": true})),
    )
    .await;
    assert_eq!(
        subjects(get(&app, &token, "/api/emails/inbox?filter=starred").await),
        ["Zebra"]
    );
    assert_eq!(
        get(&app, &token, "/api/emails/inbox?filter=unread,starred")
            .await
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let (s, v) = app
        .json("GET", "/api/emails/inbox?sort=size", Some(&token), None)
        .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some("אפשרות סינון או מיון לא תקינה"))
    );

    // A second user with a mailbox of their own sees none of the first one's.
    let yossi = second_user(&app, &token, &ms, "user2").await;
    let (s, _) = status(&app, &yossi, &id, json!({"status": "spam"})).await;
    assert_eq!(s, 404, "another user's mail");
    let (s, _) = app
        .json("DELETE", &format!("/api/emails/{id}"), Some(&yossi), None)
        .await;
    assert_eq!(s, 404);
    let (_, v) = app
        .json(
            "POST",
            "/api/emails/bulk",
            Some(&yossi),
            Some(json!({"ids": [id], "action": "delete"})),
        )
        .await;
    assert_eq!(v["updated"], 0);
    let (s, v) = app.json("GET", &path, Some(&yossi), None).await;
    assert_eq!(s, 404, "another user's thread: {v}");
    assert_eq!(v["message"], "השיחה לא נמצאה בתיקייה הזו");
    let t2 = get(&app, &yossi, "/api/threads/inbox").await;
    assert_eq!(subjects(t2), ["for two only"]);
    let z2 = get(&app, &yossi, "/api/emails/inbox-zero").await;
    assert_eq!(z2["urgent"], 0);
    assert_eq!(get(&app, &yossi, "/api/emails/counts").await["inbox"], 1);
    assert_eq!(get(&app, &token, "/api/emails/counts").await["starred"], 1);
}
