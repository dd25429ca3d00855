//! Global settings for the household and settings backups sealed with a master password, on
//! the real binary with a real Dovecot + Postfix and a local AI provider: the admin saves the
//! household's mail settings, a second user loads them and is connected without ever receiving
//! the password; a backup made on one data dir is restored on a fresh one (a second server
//! process): the mailbox syncs again and the AI key works; a wrong or short master password
//! changes nothing; no secret is in the stored blob or the downloaded file.

mod common;

use std::path::{Path, PathBuf};

use common::Server;
use common::binary_api::{Api, add_admin};
use common::llm::FakeLlm;
use common::mailserver::MailServer;
use serde_json::{Value, json};

const MASTER: &str = "סיסמת-אב-ארוכה";

/// A data dir with the admin dana, and a config trusting the mail server's CA and pointing the
/// AI at the local provider.
fn install(ms: &MailServer, llm: &FakeLlm) -> (tempfile::TempDir, PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let cfg = dir.path().join("config.toml");
    std::fs::write(
        &cfg,
        format!(
            "{}[ai]\nbase_url = \"{}\"\nmodel = \"claude-test\"\ntimeout_secs = 5\n",
            ms.config_toml(),
            llm.base
        ),
    )
    .unwrap();
    let config = cfg.to_str().unwrap().to_string();
    add_admin(&data, &config);
    (dir, data, config)
}

async fn send(
    api: &Api,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> (u16, String) {
    let mut r = api
        .client
        .request(method, format!("{}{path}", api.base))
        .header("authorization", &api.token);
    if let Some(b) = body {
        r = r.json(&b);
    }
    let resp = r.send().await.unwrap();
    (resp.status().as_u16(), resp.text().await.unwrap())
}

async fn call(api: &Api, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
    let (s, text) = send(api, method, path, body).await;
    (s, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn file_contains(path: &Path, needle: &str) -> bool {
    let bytes = std::fs::read(path).unwrap();
    bytes.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn household_mail_settings_connect_a_second_user_without_showing_the_password() {
    let ms = MailServer::start();
    ms.seed("user1", &common::mailflow::fixtures("hebrew"), "INBOX");
    let llm = FakeLlm::start().await;
    let (_dir, data, config) = install(&ms, &llm);
    let server = Server::start(&data, &["--config", &config]);
    let admin = Api::login(&server).await;
    use reqwest::Method as M;

    // A second user, not an admin.
    let (s, v) = call(
        &admin,
        M::POST,
        "/api/admin/users",
        Some(json!({"username": "yossi", "name": "יוסי", "password": "yossi-password"})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let yossi = Api::login_as(&server, "yossi", "yossi-password").await;

    let (_, v) = call(&yossi, M::GET, "/api/global-settings/email/exists", None).await;
    assert_eq!(v["exists"], false);

    // The household's settings: only an admin saves them, and only with address and password.
    let mut body = ms.account("user1");
    body["claudeApiKey"] = json!("sk-ant-household-secret");
    let (s, v) = call(
        &yossi,
        M::POST,
        "/api/global-settings/email",
        Some(body.clone()),
    )
    .await;
    assert_eq!(s, 403, "{v}");
    let mut no_password = body.clone();
    no_password["password"] = json!("");
    let (s, v) = call(
        &admin,
        M::POST,
        "/api/global-settings/email",
        Some(no_password),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["message"], "מלא אימייל וסיסמה לפני השמירה הגלובלית");
    let (s, v) = call(&admin, M::POST, "/api/global-settings/email", Some(body)).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["settings"]["updatedBy"], "dana");

    // What the second user sees: that they exist, and the servers; never a secret.
    let mut seen = String::new();
    let (s, text) = send(&yossi, M::GET, "/api/global-settings/email/exists", None).await;
    assert_eq!(s, 200);
    seen.push_str(&text);
    let exists: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        (exists["exists"].as_bool(), exists["updatedBy"].as_str()),
        (Some(true), Some("dana"))
    );
    let (s, text) = send(&yossi, M::GET, "/api/global-settings/email", None).await;
    assert_eq!(s, 200);
    seen.push_str(&text);
    let view: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(view["settings"]["email"], "user1@example.test");
    assert_eq!(view["settings"]["passwordSet"], true);
    assert_eq!(view["settings"]["claudeApiKeySet"], true);

    // Loading connects their mailbox on the server side, to the real Dovecot.
    let (s, text) = send(&yossi, M::POST, "/api/global-settings/email/load", None).await;
    assert_eq!(s, 200, "{text}");
    seen.push_str(&text);
    let synced = yossi.wait_synced().await;
    assert_eq!(synced["state"], "idle");
    assert!(yossi.inbox_total().await > 0);
    let (_, text) = send(&yossi, M::GET, "/api/auth/accounts", None).await;
    seen.push_str(&text);
    for secret in ["pass1", "sk-ant-household-secret"] {
        assert!(!seen.contains(secret), "a response to yossi holds {secret}");
    }

    // The household's AI key serves him (he has none of his own), and he is told so.
    let (_, v) = call(&yossi, M::GET, "/api/settings/claude-api-key/exists", None).await;
    assert_eq!(v, json!({"exists": false, "household": true}));
    let (s, v) = call(
        &yossi,
        M::POST,
        "/api/claude/smart-reply",
        Some(json!({"emailContent": {"from": "a@b.test", "subject": "שלום", "body": "מה שלומך?", "date": "2026-11-25"}})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        llm.last().header("x-api-key"),
        Some("sk-ant-household-secret")
    );

    // The global AI training records who saved it by e-mail (spec 001 §6): the admin's mailbox,
    // or the unknown-user label while she has none.
    let training = json!({"settings": {"tone": "friendly"}});
    let (s, v) = call(
        &admin,
        M::POST,
        "/api/global-settings/ai-training",
        Some(training.clone()),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["settings"]["updatedBy"], "משתמש לא ידוע");
    let (s, text) = send(&admin, M::POST, "/api/global-settings/email/load", None).await;
    assert_eq!(s, 200, "{text}");
    let (_, v) = call(
        &admin,
        M::POST,
        "/api/global-settings/ai-training",
        Some(training),
    )
    .await;
    assert_eq!(v["settings"]["updatedBy"], "user1@example.test");
    let (_, v) = call(
        &yossi,
        M::GET,
        "/api/global-settings/ai-training/exists",
        None,
    )
    .await;
    assert_eq!(v["updatedBy"], "user1@example.test");

    server.stop();
    // Sealed at rest: neither secret is in the store file.
    let file = data.join(mailclient::store::DB_FILE);
    assert!(!file_contains(&file, "sk-ant-household-secret"));
    assert!(!file_contains(&file, "\"pass1\""));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_restores_on_a_fresh_install_and_a_wrong_password_changes_nothing() {
    let ms = MailServer::start();
    ms.seed("user1", &common::mailflow::fixtures("hebrew"), "INBOX");
    let llm = FakeLlm::start().await;
    use reqwest::Method as M;

    // The first install: a mailbox, an AI key, a preference, a template.
    let (_d1, data1, config1) = install(&ms, &llm);
    let first = Server::start(&data1, &["--config", &config1]);
    let api = Api::login(&first).await;
    api.connect_synced(&ms, "user1").await;
    let (s, v) = call(
        &api,
        M::POST,
        "/api/settings/claude-api-key",
        Some(json!({"apiKey": "sk-ant-backup-secret"})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = call(
        &api,
        M::PUT,
        "/api/settings/sync",
        Some(json!({"settingsUpdate": {"darkMode": true, "timezone": "Europe/London"}, "settingsType": "general", "baseVersion": 0})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = call(
        &api,
        M::POST,
        "/api/templates",
        Some(json!({"name": "תבנית מגובה", "subject": "נושא", "body": "<p>גוף</p>"})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    for (uri, body) in [
        (
            "/api/contacts",
            json!({"name": "שרה מגובה", "email": "sara@example.test", "groups": ["משפחה"]}),
        ),
        (
            "/api/tasks",
            json!({"title": "משימה מגובה", "priority": "high"}),
        ),
        (
            "/api/rules",
            json!({"name": "כלל מגובה", "conditions": [{"field": "subject", "value": "חשבונית"}],
                              "actions": [{"kind": "add_label", "value": "invoices"}]}),
        ),
    ] {
        let (s, v) = call(&api, M::POST, uri, Some(body)).await;
        assert_eq!(s, 200, "{uri}: {v}");
    }

    // No backup yet; a 7-character master password is refused.
    let (_, v) = call(&api, M::GET, "/api/settings/backup", None).await;
    assert_eq!(v["exists"], false);
    let (s, v) = call(
        &api,
        M::POST,
        "/api/settings/backup",
        Some(json!({"masterPassword": "1234567"})),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["message"], "סיסמת האב חייבת להכיל לפחות 8 תווים");
    let (_, v) = call(&api, M::GET, "/api/settings/backup", None).await;
    assert_eq!(v["exists"], false, "nothing kept");

    let (s, v) = call(
        &api,
        M::POST,
        "/api/settings/backup",
        Some(json!({"masterPassword": MASTER})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let sections: Vec<&str> = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    for s in [
        "preferences",
        "aiProvider",
        "templates",
        "mailboxes",
        "contacts",
        "tasks",
        "rules",
    ] {
        assert!(sections.contains(&s), "{s} in {sections:?}");
    }
    let (_, v) = call(&api, M::GET, "/api/settings/backup", None).await;
    assert_eq!(v["exists"], true);

    // The file: no secret in it.
    let r = api.get("/api/settings/backup/download").await;
    assert_eq!(r.status(), 200);
    assert!(
        r.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("mailclient-settings.mcbk")
    );
    let file = r.bytes().await.unwrap().to_vec();
    for secret in [
        "pass1",
        "sk-ant-backup-secret",
        "user1@example.test",
        "תבנית מגובה",
    ] {
        assert!(
            !file.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "{secret} in the file"
        );
    }

    // A wrong master password restores nothing.
    let (s, v) = call(
        &api,
        M::POST,
        "/api/settings/backup/restore",
        Some(json!({"masterPassword": "not-the-master"})),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(
        v["message"],
        "סיסמת האב שגויה (או שהגיבוי שונה). דבר לא השתנה."
    );
    first.stop();
    let store_file = data1.join(mailclient::store::DB_FILE);
    assert!(!file_contains(&store_file, "sk-ant-backup-secret"));

    // A fresh install on another data dir: restore from the file.
    let (_d2, data2, config2) = install(&ms, &llm);
    let second = Server::start(&data2, &["--config", &config2]);
    let api2 = Api::login(&second).await;
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD.encode(&file);
    let (s, v) = call(
        &api2,
        M::POST,
        "/api/settings/backup/restore-file",
        Some(json!({"masterPassword": "wrong-password", "file": b64})),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    let (_, accounts) = call(&api2, M::GET, "/api/auth/accounts", None).await;
    assert_eq!(
        accounts["accounts"].as_array().unwrap().len(),
        0,
        "a wrong password changes nothing"
    );
    let (_, prefs) = call(&api2, M::GET, "/api/settings/sync", None).await;
    assert_eq!(prefs["version"], 0);
    let (s, v) = call(
        &api2,
        M::POST,
        "/api/settings/backup/restore-file",
        Some(json!({"masterPassword": MASTER, "file": b64})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["message"], "ההגדרות נטענו מהגיבוי");

    // The mailbox syncs again; the AI key works against the local provider; the rest is back.
    api2.wait_synced().await;
    assert!(api2.inbox_total().await > 0);
    let (s, v) = call(
        &api2,
        M::POST,
        "/api/claude/smart-reply",
        Some(json!({"emailContent": {"from": "a@b.test", "subject": "שלום", "body": "מה שלומך?", "date": "2026-11-25"}})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(llm.last().header("x-api-key"), Some("sk-ant-backup-secret"));
    let (_, prefs) = call(&api2, M::GET, "/api/settings/sync", None).await;
    assert_eq!(prefs["syncedSettings"]["darkMode"], true);
    assert_eq!(prefs["syncedSettings"]["timezone"], "Europe/London");
    let (_, templates) = call(&api2, M::GET, "/api/templates", None).await;
    assert!(templates.to_string().contains("תבנית מגובה"), "{templates}");
    let (_, contacts) = call(&api2, M::GET, "/api/contacts", None).await;
    assert_eq!(contacts["contacts"][0]["name"], "שרה מגובה", "{contacts}");
    assert_eq!(contacts["contacts"][0]["groups"], json!(["משפחה"]));
    let (_, tasks) = call(&api2, M::GET, "/api/tasks", None).await;
    assert_eq!(tasks["tasks"][0]["title"], "משימה מגובה", "{tasks}");
    assert_eq!(tasks["tasks"][0]["priority"], "high");
    let (_, rules) = call(&api2, M::GET, "/api/rules", None).await;
    assert_eq!(rules["rules"][0]["name"], "כלל מגובה", "{rules}");
    assert_eq!(rules["rules"][0]["actions"][0]["value"], "invoices");
    second.stop();
}
