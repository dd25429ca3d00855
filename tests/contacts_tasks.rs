//! Contacts and tasks through the API: CRUD, isolation between users, Hebrew search, a vCard
//! round trip with Hebrew names, bad input refused with nothing half-saved; tasks newest first,
//! the toggle, filters, and — with the real binary — a due reminder over `/ws`.

mod common;

use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use common::binary_api::add_admin;
use common::mailflow::ADMIN_PASSWORD;
use common::{Server, TestApp, body_text};
use futures_util::{SinkExt, StreamExt};
use mailclient::messages;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

async fn two_users(app: &TestApp) -> (String, String) {
    let admin = app.admin_token("dana", ADMIN_PASSWORD).await;
    let (s, v) = app
        .json(
            "POST",
            "/api/admin/users",
            Some(&admin),
            Some(json!({"username": "yossi", "name": "יוסי", "password": "another pass 2"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let yossi = app.login("yossi", "another pass 2").await;
    (admin, yossi)
}

async fn post_raw(app: &TestApp, token: &str, uri: &str, body: Vec<u8>) -> (u16, Value) {
    let resp = app
        .send(
            Request::post(uri)
                .header("authorization", token)
                .header("content-type", "text/vcard")
                .body(Body::from(body))
                .unwrap(),
        )
        .await;
    let status = resp.status().as_u16();
    (
        status,
        serde_json::from_str(&body_text(resp).await).unwrap_or(Value::Null),
    )
}

async fn contacts(app: &TestApp, token: &str, query: &str) -> Vec<Value> {
    let (s, v) = app
        .json("GET", &format!("/api/contacts{query}"), Some(token), None)
        .await;
    assert_eq!(s, 200, "{v}");
    v["contacts"].as_array().unwrap().clone()
}

#[tokio::test]
async fn contacts_crud_search_isolation_and_vcard() {
    let app = TestApp::new();
    let (dana, yossi) = two_users(&app).await;

    // Name and email are required; nothing is stored without them.
    for body in [
        json!({"name": "x"}),
        json!({"email": "x@y"}),
        json!({"name": " ", "email": " "}),
    ] {
        let (s, v) = app
            .json("POST", "/api/contacts", Some(&dana), Some(body))
            .await;
        assert_eq!(s, 400);
        assert_eq!(v["message"], messages::CONTACT_REQUIRED);
    }
    let (s, v) = app
        .json(
            "POST",
            "/api/contacts",
            Some(&dana),
            Some(json!({"name": "x".repeat(400), "email": "a@b"})),
        )
        .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some(messages::CONTACT_TOO_LONG))
    );
    assert!(contacts(&app, &dana, "").await.is_empty());

    let (s, moshe) = app
        .json(
            "POST",
            "/api/contacts",
            Some(&dana),
            Some(json!({"name": "משה כֹּהֵן", "email": "moshe@example.co.il", "phone": "050-1234567",
                        "company": "מחשבים בע״מ", "groups": ["עבודה", "משפחה", "עבודה", " "], "notes": "שכן"})),
        )
        .await;
    assert_eq!(s, 200, "{moshe}");
    assert_eq!(
        moshe["groups"],
        json!(["עבודה", "משפחה"]),
        "trimmed, no repeats"
    );
    let (s, _) = app
        .json(
            "POST",
            "/api/contacts",
            Some(&dana),
            Some(json!({"name": "Avi", "email": "avi@example.com", "groups": ["חברים"]})),
        )
        .await;
    assert_eq!(s, 200);

    // Search folds niqqud and final letters; groups filter.
    for q in ["כהן", "כֹּהֵן", "COHEN@", "מחשב", "0501"] {
        let found = contacts(&app, &dana, &format!("?search={}", urlencode(q))).await;
        let want = usize::from(q != "COHEN@" && q != "0501");
        assert_eq!(found.len(), want, "{q}: {found:?}");
    }
    let found = contacts(&app, &dana, &format!("?search={}", urlencode("050-123"))).await;
    assert_eq!(found.len(), 1);
    let (_, v) = app.json("GET", "/api/contacts", Some(&dana), None).await;
    assert_eq!(v["groups"], json!(["חברים", "משפחה", "עבודה"]));
    let found = contacts(&app, &dana, &format!("?group={}", urlencode("חברים"))).await;
    assert_eq!(found.len(), 1);
    assert_eq!(found[0]["name"], "Avi");

    // Edit, and another user sees none of it and cannot touch it.
    let id = moshe["id"].as_str().unwrap();
    let (s, v) = app
        .json(
            "PUT",
            &format!("/api/contacts/{id}"),
            Some(&dana),
            Some(
                json!({"name": "משה כהן", "email": "moshe@example.co.il", "position": "מנהל",
                "company": "מחשבים בע״מ", "groups": ["עבודה", "משפחה"]}),
            ),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["position"], "מנהל");
    assert!(contacts(&app, &yossi, "").await.is_empty());
    let (s, _) = app
        .json(
            "PUT",
            &format!("/api/contacts/{id}"),
            Some(&yossi),
            Some(json!({"name": "x", "email": "y"})),
        )
        .await;
    assert_eq!(s, 404);
    let (s, _) = app
        .json("DELETE", &format!("/api/contacts/{id}"), Some(&yossi), None)
        .await;
    assert_eq!(s, 404);

    // vCard: export, then import into the other user: Hebrew names round-trip.
    let resp = app
        .send(
            Request::get("/api/contacts/export")
                .header("authorization", &dana)
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(resp.status(), 200);
    assert!(
        resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/vcard")
    );
    let vcf = body_text(resp).await;
    assert_eq!(vcf.matches("BEGIN:VCARD").count(), 2);
    let (s, v) = post_raw(&app, &yossi, "/api/contacts/import", vcf.into_bytes()).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["added"].as_u64(), v["updated"].as_u64()),
        (Some(2), Some(0))
    );
    let theirs = contacts(&app, &yossi, "").await;
    let names: Vec<&str> = theirs.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, vec!["Avi", "משה כהן"]);
    assert_eq!(theirs[1]["company"], "מחשבים בע״מ");
    assert_eq!(theirs[1]["groups"], json!(["עבודה", "משפחה"]));
    // Importing again updates rather than duplicates; a Google 3.0 card fills empty fields.
    let google = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Avi\r\nEMAIL;TYPE=INTERNET:AVI@example.com\r\nTEL;TYPE=CELL:052-7654321\r\nCATEGORIES:ספורט\r\nEND:VCARD\r\n";
    let (s, v) = post_raw(&app, &yossi, "/api/contacts/import", google.into()).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["added"].as_u64(), v["updated"].as_u64()),
        (Some(0), Some(1))
    );
    let avi = contacts(&app, &yossi, "?search=avi").await;
    assert_eq!(avi[0]["phone"], "052-7654321");
    assert_eq!(avi[0]["groups"], json!(["חברים", "ספורט"]));

    // Bad files: too large, malformed, nothing usable. Nothing changes.
    let (s, v) = post_raw(
        &app,
        &yossi,
        "/api/contacts/import",
        vec![b'x'; 6 * 1024 * 1024],
    )
    .await;
    assert_eq!(s, 413, "{v}");
    assert_eq!(v["message"], messages::VCARD_TOO_LARGE);
    for bad in [
        "not a vcard at all",
        "BEGIN:VCARD\nFN:no email\nEND:VCARD",
        "BEGIN:VCARD\nFN:x\nEMAIL:x@y",
    ] {
        let (s, v) = post_raw(&app, &yossi, "/api/contacts/import", bad.into()).await;
        assert_eq!(
            (s, v["message"].as_str()),
            (400, Some(messages::VCARD_EMPTY)),
            "{bad}"
        );
    }
    assert_eq!(contacts(&app, &yossi, "").await.len(), 2);

    // Delete; compose's address book lists contacts first.
    let (s, book) = app
        .json("GET", "/api/compose/address-book?q=", Some(&dana), None)
        .await;
    assert_eq!(s, 200, "{book}");
    assert!(
        book["contacts"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["email"] == "avi@example.com" && c["saved"] == true),
        "{book}"
    );
    let (s, _) = app
        .json("DELETE", &format!("/api/contacts/{id}"), Some(&dana), None)
        .await;
    assert_eq!(s, 200);
    assert_eq!(contacts(&app, &dana, "").await.len(), 1);
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn tasks_crud_toggle_filters_and_isolation() {
    let app = TestApp::new();
    let (dana, yossi) = two_users(&app).await;
    let (s, v) = app
        .json(
            "POST",
            "/api/tasks",
            Some(&dana),
            Some(json!({"title": "  "})),
        )
        .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some(messages::TASK_TITLE_REQUIRED))
    );
    let (s, v) = app
        .json(
            "POST",
            "/api/tasks",
            Some(&dana),
            Some(json!({"title": "x", "due_date": "tomorrow"})),
        )
        .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some(messages::TASK_DUE_INVALID))
    );
    let (s, v) = app
        .json(
            "POST",
            "/api/tasks",
            Some(&dana),
            Some(json!({"title": "x", "email_id": "999"})),
        )
        .await;
    assert_eq!(s, 404, "{v}");

    let (s, first) = app
        .json(
            "POST",
            "/api/tasks",
            Some(&dana),
            Some(json!({"title": "לשלם חשבון חשמל", "priority": "urgent", "due_date": "2020-01-01T10:00"})),
        )
        .await;
    assert_eq!(s, 200, "{first}");
    assert_eq!(first["status"], "pending");
    assert_eq!(first["overdue"], true);
    // 10:00 in Jerusalem in winter is 08:00 UTC.
    assert_eq!(first["due_date"], "2020-01-01T08:00:00Z");
    let (_, second) = app
        .json(
            "POST",
            "/api/tasks",
            Some(&dana),
            Some(json!({"title": "לקבוע פגישה", "description": "עם רינה"})),
        )
        .await;
    let (_, v) = app.json("GET", "/api/tasks", Some(&dana), None).await;
    let titles: Vec<&str> = v["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        vec!["לקבוע פגישה", "לשלם חשבון חשמל"],
        "newest first"
    );
    assert_eq!(
        (v["open"].as_u64(), v["overdue"].as_u64()),
        (Some(2), Some(1))
    );

    // The circle: pending → completed → pending.
    let id = first["id"].as_str().unwrap();
    let (s, t) = app
        .json(
            "POST",
            &format!("/api/tasks/{id}/toggle"),
            Some(&dana),
            None,
        )
        .await;
    assert_eq!(s, 200);
    assert_eq!(
        (t["status"].as_str(), t["overdue"].as_bool()),
        (Some("completed"), Some(false))
    );
    assert!(t["completed_date"].is_string());
    for (filter, want) in [("open", 1), ("done", 1), ("overdue", 0), ("all", 2)] {
        let (_, v) = app
            .json(
                "GET",
                &format!("/api/tasks?filter={filter}"),
                Some(&dana),
                None,
            )
            .await;
        assert_eq!(v["tasks"].as_array().unwrap().len(), want, "{filter}");
    }
    let (s, _) = app
        .json("GET", "/api/tasks?filter=later", Some(&dana), None)
        .await;
    assert_eq!(s, 400);
    let (_, t) = app
        .json(
            "POST",
            &format!("/api/tasks/{id}/toggle"),
            Some(&dana),
            None,
        )
        .await;
    assert_eq!(t["status"], "pending");

    // Edit; another user sees and touches nothing.
    let id2 = second["id"].as_str().unwrap();
    let (s, t) = app
        .json("PUT", &format!("/api/tasks/{id2}"), Some(&dana), Some(json!({"title": "לקבוע פגישה עם רינה", "priority": "high", "due_date": "2030-06-01"})))
        .await;
    assert_eq!(s, 200, "{t}");
    assert_eq!(t["due_date"], "2030-06-01T06:00:00Z");
    let (_, v) = app.json("GET", "/api/tasks", Some(&yossi), None).await;
    assert_eq!(v["tasks"], json!([]));
    for (m, uri) in [
        ("PUT", format!("/api/tasks/{id2}")),
        ("DELETE", format!("/api/tasks/{id2}")),
        ("POST", format!("/api/tasks/{id2}/toggle")),
    ] {
        let (s, _) = app
            .json(m, &uri, Some(&yossi), Some(json!({"title": "x"})))
            .await;
        assert_eq!(s, 404, "{m} {uri}");
    }
    let (s, _) = app
        .json("DELETE", &format!("/api/tasks/{id2}"), Some(&dana), None)
        .await;
    assert_eq!(s, 200);
    let (_, v) = app.json("GET", "/api/tasks", Some(&dana), None).await;
    assert_eq!(v["tasks"].as_array().unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_falling_due_is_announced_over_the_live_channel() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let cfg = dir.path().join("config.toml");
    std::fs::write(&cfg, "").unwrap();
    add_admin(&data, cfg.to_str().unwrap());
    let server = Server::start(&data, &["--config", cfg.to_str().unwrap()]);
    let api = common::binary_api::Api::login(&server).await;
    let url = server.url("/ws").replacen("http://", "ws://", 1);
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    ws.send(Message::text(
        json!({"type": "auth", "token": api.token}).to_string(),
    ))
    .await
    .unwrap();
    // Due ten seconds from now, in UTC: not overdue when the POST answers, even on a busy
    // machine, and announced within the next reminder tick (15 s) after it falls due.
    let due = (time::OffsetDateTime::now_utc() + time::Duration::seconds(10))
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let r = api
        .post(
            "/api/tasks",
            json!({"title": "להתקשר לאמא", "due_date": due}),
        )
        .await;
    assert_eq!(r.status(), 200);
    let task: Value = r.json().await.unwrap();
    assert_eq!(task["overdue"], false);
    let event = tokio::time::timeout(Duration::from_secs(40), async {
        loop {
            if let Some(Ok(Message::Text(t))) = ws.next().await {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["type"] == "task_due" {
                    return v;
                }
            }
        }
    })
    .await
    .expect("task_due within 40 s");
    assert_eq!(event["data"]["title"], "להתקשר לאמא");
    assert_eq!(event["data"]["id"], task["id"]);
    // Once: it is now overdue, and no second reminder comes.
    let again = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            if let Some(Ok(Message::Text(t))) = ws.next().await {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["type"] == "task_due" {
                    return v;
                }
            }
        }
    })
    .await;
    assert!(again.is_err(), "announced twice: {again:?}");
    let v = api.get_json("/api/tasks?filter=overdue").await;
    assert_eq!(v["tasks"].as_array().unwrap().len(), 1);
    server.stop();
}
