//! The mailbox connection and the sync engine against a real Dovecot + Postfix
//! (scripts/mail-test-server.sh), driven through the HTTP API in process.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::TestApp;
use common::mailflow::*;
use common::mailserver::MailServer;
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connect_reports_each_failure_distinctly() {
    let ms = MailServer::start();
    let (app, token) = app_with(&ms).await;

    let mut bad = ms.account("user1");
    bad["password"] = json!("wrong");
    let (s, v) = connect(&app, &token, bad).await;
    assert_eq!(s, 422, "{v}");
    assert_eq!(v["imap"]["kind"], "auth", "{v}");
    assert_eq!(v["smtp"]["kind"], "auth", "{v}");
    assert!(v["message"].as_str().unwrap().contains("סיסמה"), "{v}");

    let mut unreachable = ms.account("user1");
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closed_port = closed.local_addr().unwrap().port();
    drop(closed);
    unreachable["imap_port"] = json!(closed_port);
    let (s, v) = connect(&app, &token, unreachable).await;
    assert_eq!(s, 422);
    assert_eq!(v["imap"]["kind"], "unreachable", "{v}");
    assert_eq!(v["smtp"]["ok"], true, "{v}");

    // Plain IMAP port with SSL on: the TLS handshake fails.
    let mut wrong_tls = ms.account("user1");
    wrong_tls["imap_port"] = json!(ms.imap_port());
    let (_, v) = connect(&app, &token, wrong_tls).await;
    assert!(
        matches!(
            v["imap"]["kind"].as_str(),
            Some("tls" | "timeout" | "protocol")
        ),
        "{v}"
    );

    // A server that accepts and never greets: a timeout, not a hang.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let silent_port = silent.local_addr().unwrap().port();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((s, _)) = silent.accept().await {
            held.push(s);
        }
    });
    let mut slow = ms.account("user1");
    slow["imap_port"] = json!(silent_port);
    slow["imap_ssl"] = json!(false);
    let started = Instant::now();
    let (_, v) = connect(&app, &token, slow).await;
    assert_eq!(v["imap"]["kind"], "timeout", "{v}");
    assert!(started.elapsed() < Duration::from_secs(15));

    // The same on the SMTP side (lettre's session over our stream): unreachable, silent, and
    // implicit TLS against a plain port.
    let mut smtp = ms.account("user1");
    smtp["smtp_port"] = json!(closed_port);
    let (_, v) = connect(&app, &token, smtp).await;
    assert_eq!(v["smtp"]["kind"], "unreachable", "{v}");
    assert_eq!(v["imap"]["ok"], true, "{v}");
    let mut smtp = ms.account("user1");
    smtp["smtp_port"] = json!(silent_port);
    smtp["smtp_ssl"] = json!(false);
    let started = Instant::now();
    let (_, v) = connect(&app, &token, smtp).await;
    assert_eq!(v["smtp"]["kind"], "timeout", "{v}");
    assert!(started.elapsed() < Duration::from_secs(15));
    let mut smtp = ms.account("user1");
    smtp["smtp_port"] = json!(ms.submission_port());
    let (_, v) = connect(&app, &token, smtp).await;
    assert!(
        matches!(
            v["smtp"]["kind"].as_str(),
            Some("tls" | "timeout" | "protocol")
        ),
        "{v}"
    );

    // Bad input: the spec's rules before any network.
    let mut bad_port = ms.account("user1");
    bad_port["imap_port"] = json!("99999");
    let (s, v) = connect(&app, &token, bad_port).await;
    assert_eq!(s, 400, "{v}");

    // The good one, with a reversed address flipped by the spec's rule and ports as strings.
    let mut good = ms.account("user1");
    good["email_address"] = json!("example.test@user1");
    good["smtp_port"] = json!(ms.submissions_port().to_string());
    let (s, v) = connect(&app, &token, good).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["success"], true);
    assert_eq!(v["account"]["email_address"], "user1@example.test");
    assert!(v["sessionId"].as_str().is_some());
    assert!(
        !v.to_string().contains("pass1"),
        "no secret in the response"
    );

    // STARTTLS on the plain ports works too (test-connection, nothing saved).
    let mut starttls = ms.account("user2");
    starttls["imap_port"] = json!(ms.imap_port());
    starttls["imap_ssl"] = json!(false);
    starttls["smtp_port"] = json!(ms.submission_port());
    starttls["smtp_ssl"] = json!(false);
    let (s, v) = app
        .json(
            "POST",
            "/api/auth/test-connection",
            Some(&token),
            Some(starttls),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (_, v) = app
        .json("GET", "/api/auth/accounts", Some(&token), None)
        .await;
    assert_eq!(v["accounts"].as_array().unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn untrusted_certificate_is_accepted_only_by_its_fingerprint() {
    let ms = MailServer::start();
    // No extra CA: the test CA is unknown.
    let app = TestApp::with_config("[mail]\ntimeout_secs = 5\n");
    let token = app.admin_token("dana", ADMIN_PASSWORD).await;
    let (s, v) = connect(&app, &token, ms.account("user1")).await;
    assert_eq!(s, 422);
    assert_eq!(v["imap"]["kind"], "tls", "{v}");
    let print = v["imap"]["fingerprint"]
        .as_str()
        .expect("fingerprint shown")
        .to_string();
    assert_eq!(print.len(), 95, "{print}");
    assert!(v["imap"]["message"].as_str().unwrap().contains("תעודת"));
    // SMTP (implicit TLS to Postfix) the same: its certificate's fingerprint, checked in the
    // handshake.
    assert_eq!(v["smtp"]["kind"], "tls", "{v}");
    assert_eq!(
        v["smtp"]["fingerprint"].as_str().map(str::len),
        Some(95),
        "{v}"
    );
    assert!(v["smtp"]["message"].as_str().unwrap().contains("תעודת"));

    let mut wrong = ms.account("user1");
    wrong["imap_fingerprint"] = json!("00:".repeat(31) + "00");
    wrong["smtp_fingerprint"] = json!(v["smtp"]["fingerprint"]);
    let (s, _) = connect(&app, &token, wrong).await;
    assert_eq!(s, 422, "a different fingerprint is not accepted");

    let mut pinned = ms.account("user1");
    pinned["imap_fingerprint"] = json!(print.to_lowercase().replace(':', " "));
    pinned["smtp_fingerprint"] = json!(v["smtp"]["fingerprint"]);
    let (s, v) = connect(&app, &token, pinned).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["account"]["imap_fingerprint"], json!(print));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn password_is_sealed_at_rest_and_forgotten_on_logout() {
    let ms = MailServer::start();
    let (app, token) = app_with(&ms).await;
    let (s, v) = connect(&app, &token, ms.account("user1")).await;
    assert_eq!(s, 200, "{v}");
    let id = v["sessionId"].as_str().unwrap().to_string();
    wait_synced(&app, &token).await;
    let db = std::fs::read(app.state.store.path()).unwrap();
    assert!(
        !db.windows(5).any(|w| w == b"pass1"),
        "the mailbox password is not in the store in the clear"
    );
    let key = app.state.config.storage.data_dir.join("server.key");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(key).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }

    // The saved password goes only to the saved servers.
    let mut elsewhere = ms.account("user1");
    elsewhere["password"] = json!("");
    elsewhere["imap_server"] = json!("localhost");
    let (s, _) = app
        .json(
            "POST",
            "/api/auth/test-connection",
            Some(&token),
            Some(elsewhere),
        )
        .await;
    assert_eq!(s, 400, "an empty password with other servers is refused");
    let mut same = ms.account("user1");
    same["password"] = json!("");
    let (s, v) = app
        .json(
            "POST",
            "/api/auth/test-connection",
            Some(&token),
            Some(same),
        )
        .await;
    assert_eq!(
        s, 200,
        "the saved password is reused for the same servers: {v}"
    );

    // A malformed session id never means "all of them".
    let (s, _) = app
        .json(
            "POST",
            "/api/auth/logout",
            Some(&token),
            Some(json!({"sessionId": "acc-1"})),
        )
        .await;
    assert_eq!(s, 404);
    let (_, v) = app
        .json("GET", "/api/auth/accounts", Some(&token), None)
        .await;
    assert_eq!(v["accounts"].as_array().unwrap().len(), 1);

    let (s, v) = app
        .json(
            "POST",
            "/api/auth/logout",
            Some(&token),
            Some(json!({"sessionId": id})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (_, v) = app
        .json("GET", "/api/auth/accounts", Some(&token), None)
        .await;
    assert!(v["accounts"].as_array().unwrap().is_empty());
    assert_eq!(inbox_total(&app, &token).await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_sync_matches_the_server_and_idle_delivers_new_mail() {
    let ms = MailServer::start();
    let corpus = std::process::Command::new("bash")
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/corpus.sh"))
        .arg("dir")
        .output()
        .unwrap();
    assert!(
        corpus.status.success(),
        "{}",
        String::from_utf8_lossy(&corpus.stderr)
    );
    let corpus = PathBuf::from(String::from_utf8_lossy(&corpus.stdout).trim().to_string());
    ms.seed("user1", &corpus, "INBOX");
    ms.seed("user1", &fixtures("hebrew"), "Archive");
    let server_inbox = ms.message_count("user1", "INBOX");
    assert!(server_inbox > 3000, "{server_inbox}");

    let (app, token) = app_with(&ms).await;
    let (s, v) = connect(&app, &token, ms.account("user1")).await;
    assert_eq!(s, 200, "{v}");
    wait_synced(&app, &token).await;
    assert_eq!(inbox_total(&app, &token).await, server_inbox);
    let archive = list(&app, &token, "archive").await;
    assert_eq!(archive.len(), ms.message_count("user1", "Archive"));

    // Newest first.
    let first_page = list(&app, &token, "inbox").await;
    let dates: Vec<&str> = first_page
        .iter()
        .map(|e| e["date"].as_str().unwrap())
        .collect();
    let mut sorted = dates.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(dates, sorted);

    // Counts as the spec names them.
    let (_, counts) = app
        .json("GET", "/api/emails/counts", Some(&token), None)
        .await;
    assert_eq!(counts["inbox"], json!(server_inbox));
    for key in [
        "starred",
        "needsReply",
        "processed",
        "spam",
        "advertisements",
        "info",
        "sent",
        "drafts",
        "trash",
        "unread",
    ] {
        assert!(counts[key].is_u64(), "{key} in {counts}");
    }

    // IDLE: a delivery shows up within 5 s.
    let subject = format!("idle-check {}", std::process::id());
    let sent_at = Instant::now();
    ms.deliver(
        "user1@example.test",
        &format!("From: Outside <outside@sender.test>\nTo: user1@example.test\nSubject: {subject}\nMessage-ID: <idle-{}@sender.test>\n\nhello\n", std::process::id()),
    );
    eventually(Duration::from_secs(5), "IDLE delivery", || async {
        let page = list(&app, &token, "inbox").await;
        page.iter()
            .any(|e| e["subject"] == subject.as_str())
            .then_some(())
    })
    .await;
    eprintln!("IDLE delivery seen after {:?}", sent_at.elapsed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flags_flow_both_ways_and_expunge_and_uidvalidity_are_followed() {
    let ms = MailServer::start();
    ms.seed("user1", &fixtures("hebrew"), "INBOX");
    let (app, token) = app_with(&ms).await;
    let (s, v) = connect(&app, &token, ms.account("user1")).await;
    assert_eq!(s, 200, "{v}");
    wait_synced(&app, &token).await;
    let emails = list(&app, &token, "inbox").await;
    assert!(emails.len() >= 10);
    let target = emails
        .iter()
        .find(|e| e["is_read"] == false)
        .expect("an unread mail")
        .clone();
    let id = target["id"].as_str().unwrap();
    let message_id = target["messageId"].as_str().unwrap().to_string();

    // Local → server.
    let (s, v) = app
        .json(
            "PUT",
            &format!("/api/emails/{id}"),
            Some(&token),
            Some(json!({"is_read": true, "is_starred": true})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["email"]["is_starred"], true);
    eventually(Duration::from_secs(10), "flags on the server", || async {
        let out = ms.doveadm(&[
            "fetch",
            "-u",
            "user1@example.test",
            "flags",
            "mailbox",
            "INBOX",
            "header",
            "Message-ID",
            &message_id,
        ]);
        (out.contains("\\Seen") && out.contains("\\Flagged")).then_some(())
    })
    .await;

    // Server → local.
    ms.doveadm(&[
        "flags",
        "remove",
        "-u",
        "user1@example.test",
        "\\Flagged",
        "mailbox",
        "INBOX",
        "header",
        "Message-ID",
        &message_id,
    ]);
    app.json("POST", "/api/sync/refresh", Some(&token), None)
        .await;
    eventually(Duration::from_secs(10), "flag removal synced", || async {
        let (_, v) = app
            .json("GET", &format!("/api/emails/{id}"), Some(&token), None)
            .await;
        (v["is_starred"] == false).then_some(())
    })
    .await;

    // Expunge on the server.
    let before = inbox_total(&app, &token).await;
    ms.doveadm(&[
        "expunge",
        "-u",
        "user1@example.test",
        "mailbox",
        "INBOX",
        "header",
        "Message-ID",
        &message_id,
    ]);
    app.json("POST", "/api/sync/refresh", Some(&token), None)
        .await;
    eventually(Duration::from_secs(10), "expunge synced", || async {
        (inbox_total(&app, &token).await == before - 1).then_some(())
    })
    .await;
    let (s, _) = app
        .json("GET", &format!("/api/emails/{id}"), Some(&token), None)
        .await;
    assert_eq!(s, 404);

    // A new UIDVALIDITY: the folder is fetched again, same content, new ids.
    let old_ids: Vec<String> = list(&app, &token, "inbox")
        .await
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    ms.doveadm(&[
        "mailbox",
        "update",
        "-u",
        "user1@example.test",
        "--uid-validity",
        "4242",
        "INBOX",
    ]);
    app.json("POST", "/api/sync/refresh", Some(&token), None)
        .await;
    let new_ids: Vec<String> = eventually(
        Duration::from_secs(15),
        "re-sync after UIDVALIDITY",
        || async {
            let ids: Vec<String> = list(&app, &token, "inbox")
                .await
                .iter()
                .map(|e| e["id"].as_str().unwrap().to_string())
                .collect();
            (ids.len() == old_ids.len() && ids.iter().all(|i| !old_ids.contains(i))).then_some(ids)
        },
    )
    .await;
    assert_eq!(new_ids.len(), before - 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_users_never_see_each_others_mail() {
    let ms = MailServer::start();
    ms.seed("user1", &fixtures("hebrew"), "INBOX");
    ms.deliver(
        "user2@example.test",
        "From: a@sender.test\nTo: user2@example.test\nSubject: only for two\n\nsecret\n",
    );
    let (app, dana) = synced_app(&ms, "user1").await;
    let yossi = second_user(&app, &dana, &ms, "user2").await;
    let dana_mail = list(&app, &dana, "all").await;
    let yossi_mail = list(&app, &yossi, "all").await;
    assert!(!dana_mail.is_empty() && !yossi_mail.is_empty());
    assert!(dana_mail.iter().all(|e| e["subject"] != "only for two"));
    assert!(yossi_mail.iter().any(|e| e["subject"] == "only for two"));
    let theirs = yossi_mail[0]["id"].as_str().unwrap();
    for (method, uri, body) in [
        ("GET", format!("/api/emails/{theirs}"), None),
        (
            "PUT",
            format!("/api/emails/{theirs}"),
            Some(json!({"is_read": true})),
        ),
        ("GET", format!("/api/emails/{theirs}/raw"), None),
        ("GET", format!("/api/emails/{theirs}/attachments/0"), None),
    ] {
        let (s, _) = app.json(method, &uri, Some(&dana), body).await;
        assert_eq!(s, 404, "{method} {uri}");
    }
    let yossi_account = {
        let (_, v) = app
            .json("GET", "/api/auth/accounts", Some(&yossi), None)
            .await;
        v["accounts"][0]["sessionId"].as_str().unwrap().to_string()
    };
    let (s, _) = app
        .json(
            "POST",
            "/api/auth/logout",
            Some(&dana),
            Some(json!({"sessionId": yossi_account})),
        )
        .await;
    assert_eq!(s, 404, "one user cannot disconnect another's mailbox");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hebrew_golden_messages_decode_exactly() {
    let ms = MailServer::start();
    ms.seed("user3", &fixtures("hebrew"), "INBOX");
    let (app, token) = app_with(&ms).await;
    assert_eq!(connect(&app, &token, ms.account("user3")).await.0, 200);
    wait_synced(&app, &token).await;
    let emails = list(&app, &token, "inbox").await;
    let mut checked = 0;
    let mut threaded = 0;
    for entry in std::fs::read_dir(fixtures("hebrew")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let want: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let row = emails
            .iter()
            .find(|e| e["messageId"] == want["messageId"])
            .unwrap_or_else(|| panic!("{name}: message {} not listed", want["messageId"]));
        let id = row["id"].as_str().unwrap();
        let (s, got) = app
            .json("GET", &format!("/api/emails/{id}"), Some(&token), None)
            .await;
        assert_eq!(s, 200);
        for field in ["subject", "from", "from_name", "to"] {
            assert_eq!(got[field], want[field], "{name}: {field}");
        }
        assert_eq!(got["inReplyTo"], want["inReplyTo"], "{name}: inReplyTo");
        if let Some(parent) = want["inReplyTo"].as_str()
            && let Some(p) = emails.iter().find(|e| e["messageId"] == parent)
        {
            assert_eq!(
                row["threadId"], p["threadId"],
                "{name}: a reply joins its parent's thread"
            );
            threaded += 1;
        }
        if let Some(plain) = want["bodyPlain"].as_str() {
            assert_eq!(
                got["bodyPlain"].as_str().unwrap().trim_end(),
                plain,
                "{name}: bodyPlain"
            );
        }
        for needle in want["htmlContains"].as_array().cloned().unwrap_or_default() {
            let needle = needle.as_str().unwrap();
            assert!(
                got["body"].as_str().unwrap().contains(needle),
                "{name}: body lacks {needle}: {}",
                got["body"]
            );
        }
        let want_atts = want["attachments"].as_array().cloned().unwrap_or_default();
        let got_atts: Vec<&Value> = got["attachments"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["inline"] != true)
            .collect();
        assert_eq!(
            got_atts.len(),
            want_atts.len(),
            "{name}: attachments {}",
            got["attachments"]
        );
        for (g, w) in got_atts.iter().zip(&want_atts) {
            assert_eq!(g["filename"], w["filename"], "{name}");
            assert_eq!(g["contentType"], w["contentType"], "{name}");
            assert_eq!(g["size"], w["size"], "{name}");
            // The download gives the same bytes count and the decoded name.
            let resp = app
                .send(
                    axum::http::Request::get(format!(
                        "/api/emails/{id}/attachments/{}",
                        g["index"]
                    ))
                    .header("authorization", &token)
                    .body(axum::body::Body::empty())
                    .unwrap(),
                )
                .await;
            assert_eq!(resp.status(), 200);
            let cd = resp.headers()["content-disposition"]
                .to_str()
                .unwrap()
                .to_string();
            assert!(cd.contains("filename*=UTF-8''"), "{cd}");
            let bytes = http_body_util::BodyExt::collect(resp.into_body())
                .await
                .unwrap()
                .to_bytes();
            assert_eq!(
                bytes.len() as u64,
                g["size"].as_u64().unwrap(),
                "{name}: downloaded size"
            );
        }
        checked += 1;
    }
    assert!(checked >= 10, "golden files checked: {checked}");
    assert!(threaded >= 1, "a golden reply was threaded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_messages_sync_without_a_panic_and_are_all_listed() {
    let ms = MailServer::start();
    let seeded = ms.seed("user2", &fixtures("malformed"), "INBOX");
    let on_server = ms.message_count("user2", "INBOX");
    assert!(on_server >= 10, "{seeded:?}");
    let (app, token) = app_with(&ms).await;
    assert_eq!(connect(&app, &token, ms.account("user2")).await.0, 200);
    wait_synced(&app, &token).await;
    let emails = list(&app, &token, "inbox").await;
    assert_eq!(emails.len(), on_server);
    for e in &emails {
        let id = e["id"].as_str().unwrap();
        let (s, v) = app
            .json("GET", &format!("/api/emails/{id}"), Some(&token), None)
            .await;
        assert_eq!(s, 200, "{e}");
        assert!(v["body"].is_string());
    }
    assert!(
        emails.iter().any(|e| e["parsed"] == false),
        "some are shown raw"
    );
}

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
    // The full pass far away: only the INBOX poll can bring new mail in time.
    let config = ms.config_toml().replace(
        "poll_interval_secs = 10",
        "poll_interval_secs = 3600\ninbox_poll_secs = 5",
    );
    let app = TestApp::with_config(&config);
    let token = app.admin_token("dana", ADMIN_PASSWORD).await;
    assert_eq!(connect(&app, &token, ms.account("user1")).await.0, 200);
    let sync = wait_synced(&app, &token).await;
    assert_eq!(sync["idle"], false, "{sync}");
    ms.deliver("user1@example.test", &small_mail("polled in"));
    eventually(Duration::from_secs(30), "the INBOX poll", || async {
        list(&app, &token, "inbox")
            .await
            .iter()
            .any(|e| e["subject"] == "polled in")
            .then_some(())
    })
    .await;
    let (_, v) = app
        .json("GET", "/api/auth/accounts", Some(&token), None)
        .await;
    assert_eq!(v["accounts"][0]["sync"]["state"], "idle");
}

/// A directory of raw messages for `MailServer::seed`, named so they load in order.
fn mail_dir(messages: &[String]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (i, raw) in messages.iter().enumerate() {
        std::fs::write(dir.path().join(format!("{i:03}.eml")), raw).unwrap();
    }
    dir
}

fn small_mail(subject: &str) -> String {
    let id = subject.replace(' ', ".");
    format!(
        "From: a@sender.test\r\nTo: user1@example.test\r\nSubject: {subject}\r\n\
         Message-ID: <{id}@sender.test>\r\nDate: Mon, 3 Mar 2025 10:00:00 +0000\r\n\r\n{subject}\r\n"
    )
}

/// The UIDs of a folder as Dovecot holds them.
fn server_uids(ms: &MailServer, user: &str, folder: &str) -> Vec<u32> {
    let out = ms.doveadm(&[
        "-f",
        "flow",
        "fetch",
        "-u",
        &format!("{user}@example.test"),
        "uid",
        "mailbox",
        folder,
    ]);
    out.lines()
        .filter_map(|l| l.trim().strip_prefix("uid=")?.parse().ok())
        .collect()
}

fn fetch_counts(app: &TestApp, account: u64) -> mailclient::sync::FetchCounts {
    app.state
        .service::<mailclient::sync::SyncManager>()
        .fetch_counts(account)
        .expect("the account's task runs")
}

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
