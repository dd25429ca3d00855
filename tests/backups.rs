//! Settings backups and the controls around them (issue 37): a user's backup names the mailbox
//! they loaded from the household's settings but never carries its password (opened offline
//! with their own master password), and a restore relinks it here or leaves it out elsewhere; a
//! restore goes through the routes' own checks and limits (the AI base-URL gate, the mailbox
//! checks, the connection-test budget, the cap on mailboxes, the tasks' texts); the AI base URL
//! is gated where it is used, so a demotion takes effect; a hostile backup file is refused
//! before any key derivation and backups are rate-limited per user; labels come back with their
//! keywords, and a file's labels go through the manager's checks.

mod common;

use common::TestApp;
use common::llm::FakeLlm;
use common::mailflow::{ADMIN_PASSWORD, connect, wait_synced};
use common::mailserver::MailServer;
use mailclient::messages;
use serde_json::{Value, json};

const MASTER: &str = "סיסמת-אב-ארוכה";

/// `POST /api/settings/backup` with [`MASTER`].
async fn save_backup(app: &TestApp, token: &str) -> (u16, Value) {
    let body = json!({"masterPassword": MASTER});
    app.json("POST", "/api/settings/backup", Some(token), Some(body))
        .await
}

async fn restore_file(app: &TestApp, token: &str, master: &str, file: &str) -> (u16, Value) {
    app.json(
        "POST",
        "/api/settings/backup/restore-file",
        Some(token),
        Some(json!({"masterPassword": master, "file": file})),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_users_backup_names_the_household_mailbox_but_never_carries_its_password() {
    let ms = MailServer::start();
    let app = TestApp::with_config(&ms.config_toml());
    let admin = app.admin_token("dana", ADMIN_PASSWORD).await;
    let mut household = ms.account("user1");
    household["claudeApiKey"] = json!("sk-ant-household-secret");
    let (s, v) = app
        .json(
            "POST",
            "/api/global-settings/email",
            Some(&admin),
            Some(household),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (yossi, _) = app.plain_user(&admin, "yossi").await;
    let (s, v) = app
        .json(
            "POST",
            "/api/global-settings/email/load",
            Some(&yossi),
            None,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    wait_synced(&app, &yossi).await;
    // Logging in again without a password (the saved one reused) keeps it the household's.
    let mut again = ms.account("user1");
    again["password"] = json!("");
    assert_eq!(connect(&app, &yossi, again).await.0, 200);

    // His backup, with a master password of his own, downloaded and opened offline.
    let (s, v) = save_backup(&app, &yossi).await;
    assert_eq!(s, 200, "{v}");
    let resp = app
        .send(
            axum::http::Request::get("/api/settings/backup/download")
                .header("authorization", &yossi)
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    let file = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .unwrap();
    let plain = mailclient::backup::seal::open(MASTER, &file).unwrap();
    let text = String::from_utf8(plain).unwrap();
    for secret in ["pass1", "sk-ant-household-secret"] {
        assert!(
            !text.contains(secret),
            "{secret} in the opened backup: {text}"
        );
    }
    let sections: Value = serde_json::from_str(&text).unwrap();
    let mailbox = &sections["sections"]["mailboxes"][0];
    assert_eq!(mailbox["email"], "user1@example.test", "{text}");
    assert_eq!(
        (mailbox["household"].as_bool(), mailbox["password"].as_str()),
        (Some(true), Some(""))
    );

    // On this install the reference is linked again to the household's settings.
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD.encode(&file);
    let (s, v) = app
        .json("POST", "/api/auth/logout", Some(&yossi), Some(json!({})))
        .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = restore_file(&app, &yossi, MASTER, &b64).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["notes"], json!([]), "{v}");
    wait_synced(&app, &yossi).await;

    // Elsewhere (no household settings there): left out, with a Hebrew note.
    let other = TestApp::with_config(&ms.config_toml());
    let stranger = other.admin_token("noa", ADMIN_PASSWORD).await;
    let (s, v) = restore_file(&other, &stranger, MASTER, &b64).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        v["notes"],
        json!([messages::restored_household_mailbox_skipped(
            "user1@example.test"
        )])
    );
    let (_, accounts) = other
        .json("GET", "/api/auth/accounts", Some(&stranger), None)
        .await;
    assert_eq!(accounts["accounts"], json!([]), "{accounts}");
}

/// A mailbox of a backup, at a closed port of this machine (never reached in these tests).
fn mailbox(n: usize) -> Value {
    json!({"email": format!("box{n}@example.test"), "password": "p", "imap_server": "127.0.0.1",
           "imap_port": 1, "imap_ssl": true, "smtp_server": "127.0.0.1", "smtp_port": 1,
           "smtp_ssl": true, "imap_fingerprint": null, "smtp_fingerprint": null})
}

#[tokio::test]
async fn a_restore_goes_through_the_routes_checks_and_limits() {
    let app = TestApp::with_config("[mail]\nmax_accounts_per_user = 3\n");
    let admin = app.admin_token("dana", ADMIN_PASSWORD).await;
    let (yossi, _) = app.plain_user(&admin, "yossi").await;

    // The AI base URL only an admin sets: left out, with a note; the provider is restored.
    let file = common::sealed_backup(
        MASTER,
        json!({"aiProvider": {"choice": {"provider": "openai", "model": "m", "baseUrl": "http://169.254.169.254/v1"}}}),
    );
    let (s, v) = restore_file(&app, &yossi, MASTER, &file).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["notes"], json!([messages::RESTORED_AI_BASE_URL_SKIPPED]));
    let (_, ai) = app
        .json("GET", "/api/settings/ai", Some(&yossi), None)
        .await;
    assert_eq!(
        (ai["baseUrl"].as_str(), ai["provider"].as_str()),
        (Some(""), Some("openai")),
        "{ai}"
    );
    assert!(
        !ai["effective"]["baseUrl"]
            .as_str()
            .unwrap()
            .contains("169.254"),
        "{ai}"
    );

    // Tasks pass the route's text checks.
    let file = common::sealed_backup(
        MASTER,
        json!({"tasks": [{"id": 1, "title": "x".repeat(10_000), "description": "", "priority": "low",
                          "due": null, "status": "pending", "created": 0, "completed": null,
                          "email_id": null, "email_subject": null}]}),
    );
    let (s, v) = restore_file(&app, &yossi, MASTER, &file).await;
    assert_eq!(s, 400, "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains(messages::CONTACT_TOO_LONG),
        "{v}"
    );
    let (_, tasks) = app.json("GET", "/api/tasks", Some(&yossi), None).await;
    assert_eq!(tasks["tasks"], json!([]), "{tasks}");

    // Mailboxes: the same checks as a login (a server name that is not one is refused)...
    let mut bad = mailbox(0);
    bad["imap_server"] = json!("evil host\r\nX: y");
    let (s, v) = restore_file(
        &app,
        &yossi,
        MASTER,
        &common::sealed_backup(MASTER, json!({"mailboxes": [bad]})),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains(messages::MAIL_SERVER_INVALID),
        "{v}"
    );
    // ...and the cap on mailboxes per user (3 here).
    let five: Vec<Value> = (1..=5).map(mailbox).collect();
    let (s, v) = restore_file(
        &app,
        &yossi,
        MASTER,
        &common::sealed_backup(MASTER, json!({"mailboxes": five})),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains(&messages::mailboxes_full(3)),
        "{v}"
    );
    let (_, accounts) = app
        .json("GET", "/api/auth/accounts", Some(&yossi), None)
        .await;
    assert_eq!(
        accounts["accounts"].as_array().unwrap().len(),
        3,
        "{accounts}"
    );

    // The connection-test budget: each restored mailbox spends a try, like a login.
    let app = TestApp::with_config("[mail]\nmax_accounts_per_user = 100\n");
    let admin = app.admin_token("dana", ADMIN_PASSWORD).await;
    let many: Vec<Value> = (1..=20).map(mailbox).collect();
    let (s, v) = restore_file(
        &app,
        &admin,
        MASTER,
        &common::sealed_backup(MASTER, json!({"mailboxes": many})),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    let (_, accounts) = app
        .json("GET", "/api/auth/accounts", Some(&admin), None)
        .await;
    assert_eq!(
        accounts["accounts"].as_array().unwrap().len(),
        mailclient::accounts::limit::BURST as usize,
        "{accounts}"
    );
    let (s, _) = app
        .json(
            "POST",
            "/api/auth/test-connection",
            Some(&admin),
            Some(mailbox(99)),
        )
        .await;
    assert_eq!(s, 429, "the restore spent the tries");
}

#[tokio::test]
async fn a_hostile_backup_file_is_refused_before_any_work_and_backups_are_rate_limited() {
    let app = TestApp::with_config("[limits]\nbackup_per_minute = 3\n");
    let token = app.admin_token("dana", ADMIN_PASSWORD).await;
    // 61 bytes asking for 256 MiB and 10 passes (2.6 s of a core each, before).
    let mut blob = b"MCBK\x01".to_vec();
    for n in [256 * 1024u32, 10, 1] {
        blob.extend_from_slice(&n.to_le_bytes());
    }
    blob.resize(61, 7);
    use base64::Engine;
    let file = base64::engine::general_purpose::STANDARD.encode(&blob);
    let started = std::time::Instant::now();
    let (s, v) = restore_file(&app, &token, MASTER, &file).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["message"], messages::BACKUP_TOO_COSTLY);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    // A few hashes a minute per user, then 429 in Hebrew.
    for _ in 0..2 {
        let (s, v) = restore_file(&app, &token, MASTER, &file).await;
        assert_eq!(s, 400, "{v}");
    }
    let (s, v) = save_backup(&app, &token).await;
    assert_eq!(s, 429, "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .starts_with(messages::BACKUPS_LIMITED),
        "{v}"
    );
}

/// Compose's "generate subject" for a body (an AI call).
async fn subject(app: &TestApp, token: &str) -> (u16, Value) {
    app.json(
        "POST",
        "/api/claude/generate-subject",
        Some(token),
        Some(json!({"emailBody": "שלום, נפגש מחר?"})),
    )
    .await
}

#[tokio::test]
async fn a_base_url_saved_while_admin_stops_at_the_demotion() {
    let llm = FakeLlm::start().await;
    let theirs = FakeLlm::start().await;
    let app = TestApp::with_config(&format!(
        "[ai]\nbase_url = \"{}\"\nmodel = \"claude-test\"\ntimeout_secs = 2\n",
        llm.base
    ));
    let dana = app.admin_token("dana", ADMIN_PASSWORD).await;
    // Dana, an admin, points her calls at another address (a key sealed for it).
    let (s, v) = app
        .json(
            "PUT",
            "/api/settings/ai",
            Some(&dana),
            Some(json!({"provider": "anthropic", "baseUrl": theirs.base})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/claude-api-key",
            Some(&dana),
            Some(json!({"apiKey": "sk-ant-dana"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (s, _) = subject(&app, &dana).await;
    assert_eq!(s, 200);
    assert_eq!(theirs.requests().len(), 1);

    // A second admin makes her a plain user: the saved address is no longer used.
    let (s, v) = app
        .json(
            "POST",
            "/api/admin/users",
            Some(&dana),
            Some(json!({"username": "rina", "name": "רינה", "password": "another pass 3", "role": "admin"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let rina = app.login("rina", "another pass 3").await;
    let (_, me) = app.json("GET", "/api/app/me", Some(&dana), None).await;
    let dana_id = me["user"]["id"].as_u64().unwrap();
    let (s, v) = app
        .json(
            "PUT",
            &format!("/api/admin/users/{dana_id}"),
            Some(&rina),
            Some(json!({"role": "user"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (_, ai) = app.json("GET", "/api/settings/ai", Some(&dana), None).await;
    assert_eq!(ai["effective"]["baseUrl"], llm.base.as_str(), "{ai}");
    // Her key was sealed for that address: here she has none, and nothing goes there.
    let (s, _) = subject(&app, &dana).await;
    assert_eq!(s, 400);
    assert_eq!(theirs.requests().len(), 1, "no call after the demotion");
}

/// Labels in a backup (issue 43): a renamed Hebrew label comes back with its name, colour and
/// the keyword its mail carries; a file's label goes through the manager's checks, and a keyword
/// a label may not carry is mapped afresh, with a note.
#[tokio::test]
async fn labels_come_back_with_their_keywords_and_a_files_labels_are_checked() {
    let app = TestApp::with_config("[limits]\nbackup_per_minute = 20\n");
    let admin = app.admin_token("dana", ADMIN_PASSWORD).await;
    let (s, work) = app
        .json(
            "POST",
            "/api/labels",
            Some(&admin),
            Some(json!({"name": "עבודה", "color": "#188038"})),
        )
        .await;
    assert_eq!(s, 200, "{work}");
    let id = work["id"].as_str().unwrap();
    let (s, v) = app
        .json(
            "PUT",
            &format!("/api/labels/{id}"),
            Some(&admin),
            Some(json!({"name": "עבודה שוטפת"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = save_backup(&app, &admin).await;
    assert_eq!(s, 200, "{v}");
    assert!(
        v["sections"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s == "labels"),
        "{v}"
    );
    let (s, _) = app
        .json("DELETE", &format!("/api/labels/{id}"), Some(&admin), None)
        .await;
    assert_eq!(s, 200);
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/backup/restore",
            Some(&admin),
            Some(json!({"masterPassword": MASTER})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (_, v) = app.json("GET", "/api/labels", Some(&admin), None).await;
    let back = &v["labels"][0];
    assert_eq!(
        (&back["name"], &back["color"], &back["keyword"]),
        (&json!("עבודה שוטפת"), &json!("#188038"), &work["keyword"]),
        "{v}"
    );

    // A file's labels: a keyword no label may carry is mapped afresh (and said), a bad colour
    // refused as the manager refuses it.
    let (yossi, _) = app.plain_user(&admin, "yossi").await;
    let file = common::sealed_backup(
        MASTER,
        json!({"labels": [{"keyword": "\\Deleted", "name": "בית", "color": "#1a73e8"}]}),
    );
    let (s, v) = restore_file(&app, &yossi, MASTER, &file).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["notes"], json!([messages::restored_label_keyword("בית")]));
    let (_, v) = app.json("GET", "/api/labels", Some(&yossi), None).await;
    assert_eq!(
        v["labels"][0]["keyword"],
        mailclient::labels::keyword::keyword_for("בית", 0),
        "{v}"
    );
    let file = common::sealed_backup(
        MASTER,
        json!({"labels": [{"keyword": "x", "name": "x", "color": "javascript:1"}]}),
    );
    let (s, v) = restore_file(&app, &yossi, MASTER, &file).await;
    assert_eq!(s, 400, "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains(messages::LABEL_COLOR_INVALID),
        "{v}"
    );
}
