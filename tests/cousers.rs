//! A hostile co-user (issue 37): two users of one install. Rina, the second, calls every route
//! of the table (tests/common/routes.rs) with Yossi's ids, restores crafted backup files (naming
//! his mail, his address, the household's mailbox), imports a crafted vCard, and follows the
//! links a stranger can complete (the first-run link, the OAuth callback). Every answer she gets
//! is scanned for Yossi's marker strings and secrets: none may reach her, and nothing of his
//! changes.

mod common;

use common::TestApp;
use common::routes::{
    Access, ROUTES, fill, snapshot, two_users, valid_body, yossi_objects, yossi_uri,
};
use serde_json::{Value, json};

/// What only Yossi's data holds (tests/common/routes.rs makes most of it), and his secrets.
const YOSSI_MARKERS: &[&str] = &[
    "of yossi",
    "secret file",
    "yossi's notes",
    "של יוסי",
    "sweep-1@example.test",
    "zqx-yossi-template",
    "sk-ant-yossi-secret",
    "yossi-mailbox-secret",
    "yossi-master-secret",
];

/// Every answer Rina got: (what she asked, status, body).
#[derive(Default)]
struct Seen(Vec<(String, u16, String)>);

impl Seen {
    async fn call(
        &mut self,
        app: &TestApp,
        token: &str,
        method: &str,
        uri: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut b = axum::http::Request::builder()
            .method(method)
            .uri(uri)
            .header("authorization", token);
        let payload = match body {
            Some(v) => {
                b = b.header("content-type", "application/json");
                axum::body::Body::from(v.to_string())
            }
            None => axum::body::Body::empty(),
        };
        let resp = app.send(b.body(payload).unwrap()).await;
        let status = resp.status().as_u16();
        let headers = format!("{:?}", resp.headers());
        let text = common::body_text(resp).await;
        self.0.push((
            format!("{method} {uri}"),
            status,
            format!("{headers}\n{text}"),
        ));
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    fn leaks(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (asked, status, text) in &self.0 {
            for m in YOSSI_MARKERS {
                if text.contains(m) {
                    out.push(format!(
                        "{asked} ({status}) holds {m:?}: {}",
                        text.chars().take(300).collect::<String>()
                    ));
                }
            }
        }
        out
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_co_user_gets_none_of_the_first_users_data_or_secrets() {
    let app = TestApp::with_config("[limits]\nbackup_per_minute = 100000\n");
    let (_admin, yossi, rina) = two_users(&app).await;

    // Yossi's data and secrets: his objects, a mailbox with its password, an AI key, a
    // template, a settings backup.
    let ids = yossi_objects(&app, &yossi).await;
    let yossi_id = mailclient::auth::users::find_by_username(&app.state.store, "yossi")
        .unwrap()
        .unwrap()
        .id;
    mailclient::accounts::save(
        &app.state.store,
        &app.state.key,
        yossi_id,
        &mailclient::accounts::Settings {
            email: "yossi@example.test".into(),
            password: "yossi-mailbox-secret".into(),
            servers: mailclient::mail::servers::MailServers {
                imap_server: "127.0.0.1".into(),
                imap_port: 1,
                imap_ssl: true,
                smtp_server: "127.0.0.1".into(),
                smtp_port: 1,
                smtp_ssl: true,
            },
            imap_fingerprint: None,
            smtp_fingerprint: None,
            auth: Default::default(),
            household: false,
        },
        10,
    )
    .unwrap();
    for (uri, body) in [
        (
            "/api/settings/claude-api-key",
            json!({"apiKey": "sk-ant-yossi-secret"}),
        ),
        (
            "/api/templates",
            json!({"name": "zqx-yossi-template", "subject": "s", "body": "b"}),
        ),
        (
            "/api/settings/backup",
            json!({"masterPassword": "yossi-master-secret"}),
        ),
    ] {
        let (s, v) = app.json("POST", uri, Some(&yossi), Some(body)).await;
        assert_eq!(s, 200, "{uri}: {v}");
    }
    let before = snapshot(&app, &yossi).await;

    let mut seen = Seen::default();
    // 1. Every route, with Yossi's ids where it names an object (her own session last out).
    let mut routes: Vec<&(&str, &str, Access)> = ROUTES
        .iter()
        .filter(|(_, _, a)| matches!(a, Access::User | Access::Public))
        .collect();
    routes.sort_by_key(|(m, p, _)| (*m, *p) == ("POST", "/api/app/logout"));
    for (method, path, _) in routes {
        let uri = yossi_uri(path, &ids).unwrap_or_else(|| {
            fill(path, &|param| match param {
                "folder" => "inbox".into(),
                "index" => "0".into(),
                "address" => "noa@example.test".into(),
                _ => ids.mail.clone(),
            })
        });
        seen.call(&app, &rina, method, &uri, valid_body(path, method))
            .await;
    }
    let rina = app.login("rina", "rina-password-1").await;
    // Yossi's ids and words where the routes take them in a query or a body.
    for (method, uri, body) in [
        ("GET", "/api/search?q=yossi".to_string(), None),
        ("GET", "/api/search?q=secret".to_string(), None),
        ("GET", "/api/search?q=from:noa".to_string(), None),
        (
            "POST",
            "/api/tasks".to_string(),
            Some(json!({"title": "mine", "email_id": ids.mail})),
        ),
        (
            "POST",
            "/api/claude/smart-reply".to_string(),
            Some(json!({"emailId": ids.mail})),
        ),
        (
            "POST",
            "/api/smart/summary".to_string(),
            Some(json!({"emailId": ids.mail})),
        ),
        (
            "POST",
            "/api/emails/send".to_string(),
            Some(
                json!({"to": ["a@example.test"], "subject": "s", "body": "b", "attachments": [ids.upload]}),
            ),
        ),
        ("GET", "/api/settings/backup/download".to_string(), None),
        (
            "POST",
            "/api/settings/backup/restore".to_string(),
            Some(json!({"masterPassword": "yossi-master-secret"})),
        ),
        ("GET", "/api/contacts/suggestions".to_string(), None),
        ("GET", "/api/compose/address-book?q=noa".to_string(), None),
    ] {
        seen.call(&app, &rina, method, &uri, body).await;
    }

    // 2. Crafted files: a backup naming his mail, his address (as the household's mailbox and
    // as her own), his contact; a vCard with his contact's address.
    let file = common::sealed_backup(
        "rina-master-1",
        json!({
            "tasks": [{"id": ids.task.parse::<u64>().unwrap_or(1), "title": "stolen?", "description": "",
                       "priority": "low", "due": null, "status": "pending", "created": 0,
                       "completed": null, "email_id": ids.mail.parse::<u64>().unwrap_or(1),
                       "email_subject": null}],
            "contacts": [{"name": "Noa", "email": "noa@example.test"}],
            "mailboxes": [{"email": "yossi@example.test", "password": "", "household": true,
                           "imap_server": "127.0.0.1", "imap_port": 1, "imap_ssl": true,
                           "smtp_server": "127.0.0.1", "smtp_port": 1, "smtp_ssl": true,
                           "imap_fingerprint": null, "smtp_fingerprint": null}],
        }),
    );
    let (s, v) = seen
        .call(
            &app,
            &rina,
            "POST",
            "/api/settings/backup/restore-file",
            Some(json!({"masterPassword": "rina-master-1", "file": file})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let vcard = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Noa\r\nEMAIL:noa@example.test\r\nEND:VCARD\r\n";
    let req = axum::http::Request::post("/api/contacts/import")
        .header("authorization", &rina)
        .body(axum::body::Body::from(vcard))
        .unwrap();
    let resp = app.send(req).await;
    seen.0.push((
        "POST /api/contacts/import".into(),
        resp.status().as_u16(),
        common::body_text(resp).await,
    ));
    // What she has now: her own, nothing of his.
    for uri in [
        "/api/tasks",
        "/api/contacts",
        "/api/auth/accounts",
        "/api/templates",
        "/api/emails/inbox",
        "/api/rules",
        "/api/settings/ai",
    ] {
        seen.call(&app, &rina, "GET", uri, None).await;
    }

    // 3. The links a stranger can complete.
    seen.call(
        &app,
        &rina,
        "POST",
        "/api/setup/admin",
        Some(
            json!({"token": "x", "username": "rina2", "name": "r", "password": "rina-password-2"}),
        ),
    )
    .await;
    seen.call(
        &app,
        &rina,
        "GET",
        "/api/oauth/google/callback?state=forged&code=stolen",
        None,
    )
    .await;

    let leaks = seen.leaks();
    assert!(leaks.is_empty(), "{}", leaks.join("\n"));
    assert!(
        seen.0.len() > ROUTES.len() / 2,
        "asked {} things",
        seen.0.len()
    );
    assert_eq!(
        snapshot(&app, &yossi).await,
        before,
        "nothing of Yossi's changed"
    );
    // His mailbox and key are still his, unopened by anyone else.
    let accounts = mailclient::accounts::list_for_user(&app.state.store, yossi_id).unwrap();
    assert_eq!(
        accounts
            .iter()
            .filter(|a| a.email == "yossi@example.test")
            .count(),
        1
    );
}
