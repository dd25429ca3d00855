//! The table of every route with the role it needs (issue 22), and the objects of one user
//! that the others' requests name: shared by tests/auth_sweep.rs (roles, 404 for another
//! user's ids) and tests/cousers.rs (a hostile co-user gets none of the first user's data).
//! A route added to `src/` without a row here fails tests/auth_sweep.rs.

use serde_json::{Value, json};

use super::TestApp;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Access {
    /// Anyone (sign-in, first run, health, the provider list shown before sign-in…).
    Public,
    /// A signed-in user.
    User,
    /// A signed-in admin.
    Admin,
    /// The live channel: authenticated inside the socket (4001 when the token is bad; see
    /// tests/live.rs), so a plain request without an upgrade never gets that far.
    Socket,
    /// The agents' endpoint: an agent token of the settings page (tests/mcp.rs), never a
    /// session's, which answers 401 like no token.
    Agent,
}
pub use Access::*;

/// Every route: method, path as the router spells it, who may call it.
pub const ROUTES: &[(&str, &str, Access)] = &[
    ("GET", "/api/health", Public),
    ("GET", "/ws", Socket),
    // sign-in, first run, own account
    ("POST", "/api/app/login", Public),
    ("POST", "/api/app/logout", User),
    ("GET", "/api/app/me", User),
    ("POST", "/api/app/password", User),
    ("GET", "/api/setup/status", Public),
    ("POST", "/api/setup/admin", Public),
    ("GET", "/api/admin/users", Admin),
    ("POST", "/api/admin/users", Admin),
    ("PUT", "/api/admin/users/{id}", Admin),
    ("DELETE", "/api/admin/users/{id}", Admin),
    // mailbox connection
    ("POST", "/api/auth/login", User),
    ("POST", "/api/auth/test-connection", User),
    ("POST", "/api/auth/logout", User),
    ("GET", "/api/auth/accounts", User),
    ("GET", "/api/providers", User),
    ("GET", "/api/providers/detect", User),
    ("POST", "/api/sync/refresh", User),
    // OAuth sign-in to Gmail and Microsoft mailboxes; the callback is Google's redirect of the
    // browser, authenticated by the flow's state (no session token on a redirect)
    ("GET", "/api/oauth/providers", User),
    ("POST", "/api/oauth/microsoft/device", User),
    ("GET", "/api/oauth/flows/{flow_id}", User),
    ("POST", "/api/oauth/google/start", User),
    ("POST", "/api/oauth/google/claim", User),
    ("POST", "/api/oauth/google/finish", User),
    ("GET", "/api/oauth/google/callback", Public),
    // AI
    ("POST", "/api/settings/claude-api-key", User),
    ("DELETE", "/api/settings/claude-api-key", User),
    ("GET", "/api/settings/claude-api-key/exists", User),
    ("GET", "/api/settings/ai", User),
    ("PUT", "/api/settings/ai", User),
    ("GET", "/api/settings/ai-training", User),
    ("POST", "/api/settings/ai-training", User),
    ("POST", "/api/claude/smart-reply", User),
    ("POST", "/api/claude/generate-subject", User),
    ("POST", "/api/claude/improve-email", User),
    ("POST", "/api/smart/summary", User),
    ("POST", "/api/smart/replies", User),
    ("POST", "/api/smart/compose", User),
    ("GET", "/api/smart/insights", User),
    // auto-reply
    ("GET", "/api/auto-reply/settings", User),
    ("POST", "/api/auto-reply/settings", User),
    ("GET", "/api/auto-reply/stats", User),
    ("GET", "/api/auto-reply/activity", User),
    ("POST", "/api/auto-reply/clear", User),
    // spam detection
    ("GET", "/api/settings/spam-detection", User),
    ("POST", "/api/settings/spam-detection", User),
    ("GET", "/api/spam/debug/{id}", User),
    ("GET", "/api/spam/classify", User),
    ("POST", "/api/spam/classify", User),
    ("GET", "/api/spam/activity", User),
    ("DELETE", "/api/spam/activity", User),
    // preferences, backups, global settings
    ("GET", "/api/settings/sync", User),
    ("PUT", "/api/settings/sync", User),
    ("GET", "/api/settings/history", User),
    ("POST", "/api/settings/rollback", User),
    ("GET", "/api/settings/backup", User),
    ("POST", "/api/settings/backup", User),
    ("POST", "/api/settings/backup/restore", User),
    ("GET", "/api/settings/backup/download", User),
    ("POST", "/api/settings/backup/restore-file", User),
    ("GET", "/api/global-settings/email/exists", User),
    ("GET", "/api/global-settings/email", User),
    ("POST", "/api/global-settings/email", Admin),
    ("POST", "/api/global-settings/email/load", User),
    ("GET", "/api/global-settings/ai-training/exists", User),
    ("GET", "/api/global-settings/ai-training", User),
    ("POST", "/api/global-settings/ai-training", Admin),
    // mail
    ("GET", "/api/emails/counts", User),
    ("GET", "/api/emails/inbox-zero", User),
    ("POST", "/api/emails/auto-archive", User),
    ("POST", "/api/emails/bulk", User),
    ("GET", "/api/emails/remote-senders", User),
    ("POST", "/api/emails/remote-senders", User),
    ("DELETE", "/api/emails/remote-senders/{address}", User),
    ("GET", "/api/emails/session/{folder}", User),
    ("GET", "/api/threads/{folder}", User),
    ("GET", "/api/threads/{folder}/{thread}", User),
    ("GET", "/api/emails/{key}", User),
    ("PUT", "/api/emails/{key}", User),
    ("DELETE", "/api/emails/{key}", User),
    ("PUT", "/api/emails/{id}/status", User),
    ("POST", "/api/emails/{id}/trash", User),
    ("GET", "/api/emails/{id}/attachments/{index}", User),
    ("GET", "/api/emails/{id}/raw", User),
    ("GET", "/api/folders", User),
    ("GET", "/api/search", User),
    // writing
    ("POST", "/api/emails/send", User),
    ("GET", "/api/outbox", User),
    ("PUT", "/api/outbox/{id}", User),
    ("DELETE", "/api/outbox/{id}", User),
    ("POST", "/api/outbox/{id}/undo", User),
    ("POST", "/api/outbox/{id}/retry", User),
    ("POST", "/api/attachments", User),
    ("DELETE", "/api/attachments/{id}", User),
    ("GET", "/api/drafts", User),
    ("POST", "/api/drafts/save", User),
    ("DELETE", "/api/drafts/delete-all", User),
    ("PUT", "/api/drafts/{id}", User),
    ("DELETE", "/api/drafts/{id}", User),
    ("POST", "/api/drafts/{id}/send", User),
    ("GET", "/api/compose/recent-contacts", User),
    ("GET", "/api/compose/address-book", User),
    ("GET", "/api/templates", User),
    ("POST", "/api/templates", User),
    ("PUT", "/api/templates/{id}", User),
    ("DELETE", "/api/templates/{id}", User),
    // contacts, tasks, rules
    ("GET", "/api/contacts", User),
    ("POST", "/api/contacts", User),
    ("PUT", "/api/contacts/{id}", User),
    ("DELETE", "/api/contacts/{id}", User),
    ("GET", "/api/contacts/{id}/mail", User),
    ("GET", "/api/contacts/suggestions", User),
    ("POST", "/api/contacts/import", User),
    ("GET", "/api/contacts/export", User),
    ("GET", "/api/tasks", User),
    ("POST", "/api/tasks", User),
    ("PUT", "/api/tasks/{id}", User),
    ("DELETE", "/api/tasks/{id}", User),
    ("POST", "/api/tasks/{id}/toggle", User),
    ("GET", "/api/rules", User),
    ("POST", "/api/rules", User),
    ("PUT", "/api/rules/order", User),
    ("PUT", "/api/rules/{id}", User),
    ("DELETE", "/api/rules/{id}", User),
    ("PUT", "/api/rules/{id}/active", User),
    ("POST", "/api/rules/{id}/preview", User),
    ("POST", "/api/rules/{id}/run", User),
    ("GET", "/api/rules/{id}/activity", User),
    // snooze, follow-ups, subscriptions (their per-user isolation: tests/snooze.rs,
    // tests/followups.rs, tests/subscriptions.rs)
    ("GET", "/api/snooze", User),
    ("GET", "/api/snooze/options", User),
    ("POST", "/api/snooze", User),
    ("PUT", "/api/snooze/{id}", User),
    ("POST", "/api/snooze/{id}/wake", User),
    ("GET", "/api/followups", User),
    ("POST", "/api/followups", User),
    ("PUT", "/api/followups/{id}", User),
    ("DELETE", "/api/followups/{id}", User),
    ("POST", "/api/followups/{id}/nudge", User),
    // the user's own folders (another user's mailbox or mail: 404, tests/folders.rs)
    ("GET", "/api/folders/tree", User),
    ("POST", "/api/folders/create", User),
    ("POST", "/api/folders/rename", User),
    ("POST", "/api/folders/delete", User),
    ("POST", "/api/folders/move-mail", User),
    // push notifications (another user's device: 404, tests/push.rs)
    ("GET", "/api/push", User),
    ("POST", "/api/push/devices", User),
    ("PATCH", "/api/push/devices/{id}", User),
    ("DELETE", "/api/push/devices/{id}", User),
    ("POST", "/api/push/devices/{id}/test", User),
    // labels (another user's label: 404, tests/labels.rs)
    ("GET", "/api/labels", User),
    ("POST", "/api/labels", User),
    ("PUT", "/api/labels/{id}", User),
    ("DELETE", "/api/labels/{id}", User),
    ("GET", "/api/subscriptions", User),
    ("POST", "/api/subscriptions/bulk", User),
    ("POST", "/api/subscriptions/{id}/unsubscribe", User),
    ("POST", "/api/subscriptions/{id}/block", User),
    ("POST", "/api/subscriptions/{id}/archive", User),
    // the page-builder page (no per-user objects: the entry is the household's)
    ("GET", "/api/builder/content", User),
    ("POST", "/api/builder/form", User),
    // meeting invitations in a mail
    ("GET", "/api/invites/{id}", User),
    ("POST", "/api/invites/{id}/reply", User),
    ("GET", "/api/invites/{id}/ics", User),
    ("POST", "/api/invites/{id}/task", User),
    // the agent API: its tokens (the settings page) and its endpoint; GET and DELETE of the
    // endpoint are 405 for anyone (no stream, no session)
    ("GET", "/api/mcp/tokens", User),
    ("POST", "/api/mcp/tokens", User),
    ("DELETE", "/api/mcp/tokens/{id}", User),
    ("GET", "/api/mcp/tokens/{id}/calls", User),
    ("POST", "/mcp", Agent),
    ("GET", "/mcp", Public),
    ("DELETE", "/mcp", Public),
];

/// `path` with each `{param}` replaced by `value(param)`.
pub fn fill(path: &str, value: &dyn Fn(&str) -> String) -> String {
    let mut out = String::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        let end = rest[start..].find('}').expect("closed") + start;
        out.push_str(&rest[..start]);
        out.push_str(&value(&rest[start + 1..end]));
        rest = &rest[end + 1..];
    }
    out + rest
}

/// The admin dana and two users, yossi (whose objects the others name) and rina: their tokens.
pub async fn two_users(app: &TestApp) -> (String, String, String) {
    let admin = app.admin_token("dana", "admin-password-1").await;
    for (name, pass) in [("yossi", "yossi-password-1"), ("rina", "rina-password-1")] {
        let (s, v) = app
            .json(
                "POST",
                "/api/admin/users",
                Some(&admin),
                Some(json!({"username": name, "name": name, "password": pass})),
            )
            .await;
        assert_eq!(s, 200, "{v}");
    }
    let yossi = app.login("yossi", "yossi-password-1").await;
    let rina = app.login("rina", "rina-password-1").await;
    (admin, yossi, rina)
}

/// A body that passes JSON parsing, so a route answers for who calls it, not for the body.
pub fn body_for(method: &str) -> Option<Value> {
    matches!(method, "POST" | "PUT" | "DELETE").then(|| json!({}))
}

/// The ids of one object of each kind that Yossi owns.
pub struct Ids {
    pub mail: String,
    pub thread: String,
    pub draft: String,
    pub upload: String,
    pub contact: String,
    pub task: String,
    pub rule: String,
    pub template: String,
    pub agent_token: String,
}

pub async fn yossi_objects(app: &TestApp, yossi: &str) -> Ids {
    let dir = tempfile::tempdir().unwrap();
    let mail = "From: Noa <noa@example.test>\r\nTo: yossi@example.test\r\nSubject: of yossi\r\n\
                Message-ID: <sweep-1@example.test>\r\nDate: Thu, 26 Nov 2026 10:00:00 +0000\r\n\
                Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n\
                private\r\n--b\r\nContent-Type: text/plain; name=a.txt\r\n\
                Content-Disposition: attachment; filename=a.txt\r\n\r\nsecret file\r\n--b--\r\n";
    std::fs::write(dir.path().join("1.eml"), mail).unwrap();
    for folder in ["INBOX", "Drafts"] {
        let report = mailclient::import::run(
            &app.state.store,
            &app.state.service::<mailclient::search::Search>(),
            &mailclient::import::Options {
                path: dir.path().to_path_buf(),
                username: "yossi".into(),
                account: None,
                folder: folder.into(),
                show_progress: false,
                log_every: std::time::Duration::from_secs(5),
            },
        )
        .unwrap();
        assert_eq!(report.imported, 1, "{:?}", report.failed);
    }
    let (_, list) = app
        .json("GET", "/api/emails/inbox", Some(yossi), None)
        .await;
    let first = &list[0];
    let (_, drafts) = app
        .json("GET", "/api/emails/drafts", Some(yossi), None)
        .await;
    let upload = axum::http::Request::builder()
        .method("POST")
        .uri("/api/attachments?name=notes.txt")
        .header("authorization", yossi)
        .header("content-type", "text/plain")
        .body(axum::body::Body::from("yossi's notes"))
        .unwrap();
    let resp = app.send(upload).await;
    assert_eq!(resp.status(), 200);
    let upload: Value = serde_json::from_str(&super::body_text(resp).await).unwrap();
    let made = |uri: &'static str, body: Value| async move {
        let (s, v) = app.json("POST", uri, Some(yossi), Some(body)).await;
        assert_eq!(s, 200, "{uri}: {v}");
        v["id"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| v["id"].to_string())
    };
    Ids {
        mail: first["id"].as_str().unwrap().to_string(),
        thread: first["threadId"].as_str().unwrap().to_string(),
        draft: drafts[0]["id"].as_str().expect("a draft").to_string(),
        upload: upload["id"].as_str().unwrap().to_string(),
        contact: made(
            "/api/contacts",
            json!({"name": "Noa", "email": "noa@example.test"}),
        )
        .await,
        task: made("/api/tasks", json!({"title": "של יוסי"})).await,
        rule: made(
            "/api/rules",
            json!({"name": "של יוסי", "conditions": [{"field": "subject", "value": "x"}],
                   "actions": [{"kind": "mark_as_read"}]}),
        )
        .await,
        template: made(
            "/api/templates",
            json!({"name": "של יוסי", "subject": "s", "body": "b"}),
        )
        .await,
        agent_token: {
            let (s, v) = app
                .json(
                    "POST",
                    "/api/mcp/tokens",
                    Some(yossi),
                    Some(json!({"name": "של יוסי", "scopes": ["read"]})),
                )
                .await;
            assert_eq!(s, 200, "{v}");
            v["token"]["id"].as_str().unwrap().to_string()
        },
    }
}

/// The URI naming Yossi's object for a route with parameters; None where the route names no
/// object of one user (a folder name, a sender address, the outbox, whose items exist only
/// while a send waits; see tests/outgoing.rs for its isolation).
pub fn yossi_uri(path: &str, ids: &Ids) -> Option<String> {
    let names_object = ["{id}", "{key}", "{thread}"]
        .iter()
        .any(|p| path.contains(p));
    if !names_object {
        return None;
    }
    let id = if path.starts_with("/api/emails/{")
        || path.starts_with("/api/threads/")
        || path.starts_with("/api/spam/debug/")
        || path.starts_with("/api/invites/")
    {
        &ids.mail
    } else if path.starts_with("/api/drafts/") {
        &ids.draft
    } else if path.starts_with("/api/attachments/") {
        &ids.upload
    } else if path.starts_with("/api/contacts/") {
        &ids.contact
    } else if path.starts_with("/api/tasks/") {
        &ids.task
    } else if path.starts_with("/api/rules/") {
        &ids.rule
    } else if path.starts_with("/api/templates/") {
        &ids.template
    } else if path.starts_with("/api/mcp/tokens/") {
        &ids.agent_token
    } else {
        return None;
    };
    Some(fill(path, &|param| match param {
        "folder" => "inbox".into(),
        "thread" => ids.thread.clone(),
        "index" => "0".into(),
        _ => id.clone(),
    }))
}

/// A body the route would accept from its owner, so only ownership can refuse it.
pub fn valid_body(path: &str, method: &str) -> Option<Value> {
    let v = match (method, path) {
        ("PUT", "/api/emails/{key}") => json!({"is_read": true, "is_starred": true}),
        ("PUT", "/api/emails/{id}/status") => json!({"status": "processed"}),
        ("PUT", "/api/drafts/{id}") => {
            json!({"to": ["a@example.test"], "subject": "changed", "body": "<p>changed</p>"})
        }
        ("POST", "/api/drafts/{id}/send") => json!({}),
        ("PUT", "/api/contacts/{id}") => json!({"name": "changed", "email": "c@example.test"}),
        ("PUT", "/api/tasks/{id}") => json!({"title": "changed"}),
        ("PUT", "/api/rules/{id}") => json!({"name": "changed",
            "conditions": [{"field": "subject", "value": "y"}], "actions": [{"kind": "mark_as_read"}]}),
        ("PUT", "/api/rules/{id}/active") => json!({"is_active": false}),
        ("PUT", "/api/templates/{id}") => json!({"name": "changed", "subject": "s", "body": "b"}),
        ("POST", "/api/invites/{id}/reply") => json!({"answer": "accepted"}),
        (m, _) => return body_for(m),
    };
    Some(v)
}

/// What Yossi sees of his objects, to compare before and after.
pub async fn snapshot(app: &TestApp, yossi: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for uri in [
        "/api/emails/inbox",
        "/api/emails/drafts",
        "/api/contacts",
        "/api/tasks",
        "/api/rules",
        "/api/templates",
        "/api/mcp/tokens",
    ] {
        let (s, v) = app.json("GET", uri, Some(yossi), None).await;
        assert_eq!(s, 200, "{uri}");
        out.push(v);
    }
    out
}
