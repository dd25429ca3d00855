//! Preferences synced between sessions (spec 001 §4, §7 "Settings sync") through `app()`:
//! versions, a 409 only where a newer version changed the same key, merging otherwise, the
//! history and its limits, rollback, isolation between users, and bad input refused with a
//! Hebrew message and nothing stored.

mod common;

use axum::body::Body;
use axum::http::Request;
use common::TestApp;
use serde_json::{Value, json};

async fn put(app: &TestApp, token: &str, update: Value, kind: &str, base: u64) -> (u16, Value) {
    app.json(
        "PUT",
        "/api/settings/sync",
        Some(token),
        Some(json!({"settingsUpdate": update, "settingsType": kind, "baseVersion": base})),
    )
    .await
}

async fn current(app: &TestApp, token: &str) -> Value {
    let (s, v) = app
        .json("GET", "/api/settings/sync", Some(token), None)
        .await;
    assert_eq!(s, 200, "{v}");
    v
}

/// The admin, and a second user made by the admin.
async fn two_users(app: &TestApp) -> (String, String) {
    let admin = app.admin_token("dana", "password1").await;
    let (s, v) = app
        .json(
            "POST",
            "/api/admin/users",
            Some(&admin),
            Some(json!({"username": "yossi", "name": "יוסי", "password": "password2"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let yossi = app.login("yossi", "password2").await;
    (admin, yossi)
}

#[tokio::test]
async fn versions_conflicts_merges_and_isolation() {
    let app = TestApp::new();
    let (dana, yossi) = two_users(&app).await;
    let other_session = app.login("dana", "password1").await;

    // The defaults of spec 001 §3, at version 0.
    let v = current(&app, &dana).await;
    assert_eq!(v["version"], 0);
    assert_eq!(
        v["syncedSettings"],
        json!({"emailNotifications": true, "desktopNotifications": true,
            "soundNotifications": false, "autoRead": false, "smartReply": true,
            "darkMode": false, "language": "he", "timezone": "Asia/Jerusalem",
            "appScale": 0.85, "fontScale": 0.9, "iconScale": 0.9, "compactMode": false, "showPreview": true,
            "followUpDays": 3, "swipeAction": "archive", "offlineMessages": 300})
    );

    // A change is a new version, and the other session reads it.
    let (s, v) = put(&app, &dana, json!({"darkMode": true}), "ui", 0).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["version"], 1);
    assert_eq!(v["syncedSettings"]["darkMode"], true);
    assert_eq!(
        current(&app, &other_session).await["syncedSettings"]["darkMode"],
        true
    );

    // The other session, still at version 0, changes another key: merged, no conflict.
    let (s, v) = put(
        &app,
        &other_session,
        json!({"soundNotifications": true}),
        "notifications",
        0,
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["version"], 2);
    assert_eq!(
        v["syncedSettings"]["darkMode"], true,
        "the newer change is kept"
    );
    assert_eq!(v["syncedSettings"]["soundNotifications"], true);

    // Still at version 0, it changes the key version 1 set: 409 with the clash, nothing stored.
    let (s, v) = put(
        &app,
        &other_session,
        json!({"darkMode": false, "compactMode": true}),
        "ui",
        0,
    )
    .await;
    assert_eq!(s, 409, "{v}");
    assert_eq!(v["error"], "conflict");
    assert!(v["message"].as_str().unwrap().contains("במקביל"), "{v}");
    assert_eq!(v["version"], 2);
    assert_eq!(v["conflicts"].as_array().unwrap().len(), 1, "{v}");
    let c = &v["conflicts"][0];
    assert_eq!(
        (c["key"].as_str(), &c["yours"], &c["theirs"]),
        (Some("darkMode"), &json!(false), &json!(true))
    );
    assert_eq!(c["version"], 1);
    assert_eq!(c["changedBy"], "מנהלת", "{c}");
    assert_eq!(
        current(&app, &dana).await["syncedSettings"]["compactMode"],
        false
    );

    // "Merge": the same values again, based on the server's version now.
    let (s, v) = put(
        &app,
        &other_session,
        json!({"darkMode": false, "compactMode": true}),
        "ui",
        2,
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["version"], 3);

    // The same values once more: nothing new, no version.
    let (s, v) = put(&app, &dana, json!({"compactMode": true}), "ui", 3).await;
    assert_eq!((s, &v["version"]), (200, &json!(3)));

    // Another user: their own defaults and their own versions.
    let v = current(&app, &yossi).await;
    assert_eq!(
        (v["version"].as_u64(), &v["syncedSettings"]["darkMode"]),
        (Some(0), &json!(false))
    );
    let (s, v) = put(
        &app,
        &yossi,
        json!({"timezone": "Europe/London"}),
        "general",
        0,
    )
    .await;
    assert_eq!((s, &v["version"]), (200, &json!(1)));
    assert_eq!(
        current(&app, &dana).await["syncedSettings"]["timezone"],
        "Asia/Jerusalem"
    );
    let (_, h) = app
        .json("GET", "/api/settings/history", Some(&yossi), None)
        .await;
    assert_eq!(h["history"].as_array().unwrap().len(), 1, "{h}");
    // Nobody restores another user's version.
    let (s, _) = app
        .json(
            "POST",
            "/api/settings/rollback",
            Some(&yossi),
            Some(json!({"version": 3})),
        )
        .await;
    assert_eq!(s, 404);

    // Without a session: 401.
    let (s, _) = app.json("GET", "/api/settings/sync", None, None).await;
    assert_eq!(s, 401);
}

#[tokio::test]
async fn history_limits_and_rollback() {
    let app = TestApp::new();
    let dana = app.admin_token("dana", "password1").await;
    for version in 0..25u64 {
        let scale = if version % 2 == 0 { 1.1 } else { 0.85 };
        let req = Request::builder()
            .method("PUT")
            .uri("/api/settings/sync")
            .header("authorization", &dana)
            .header("content-type", "application/json")
            .header(
                "user-agent",
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
            )
            .body(Body::from(
                json!({"settingsUpdate": {"appScale": scale}, "settingsType": "ui", "baseVersion": version})
                    .to_string(),
            ))
            .unwrap();
        let resp = app.send(req).await;
        assert_eq!(resp.status(), 200);
    }
    // Default limit 20, newest first, with who, which keys and when.
    let (s, h) = app
        .json("GET", "/api/settings/history", Some(&dana), None)
        .await;
    assert_eq!(s, 200, "{h}");
    let entries = h["history"].as_array().unwrap();
    assert_eq!(entries.len(), 20);
    assert_eq!(entries[0]["version"], 25);
    assert_eq!(entries[19]["version"], 6);
    assert_eq!(entries[0]["settingsUpdate"], json!(["appScale"]));
    assert_eq!(entries[0]["settingsType"], "ui");
    assert_eq!(entries[0]["changedBy"], "מנהלת (Chrome, Linux)");
    assert!(entries[0]["timestamp"].as_str().unwrap().starts_with("20"));
    let (_, h) = app
        .json("GET", "/api/settings/history?limit=2", Some(&dana), None)
        .await;
    assert_eq!(h["history"].as_array().unwrap().len(), 2);
    let (_, h) = app
        .json("GET", "/api/settings/history?limit=200", Some(&dana), None)
        .await;
    assert_eq!(h["history"].as_array().unwrap().len(), 25);
    for bad in ["0", "201", "abc", "-1"] {
        let (s, v) = app
            .json(
                "GET",
                &format!("/api/settings/history?limit={bad}"),
                Some(&dana),
                None,
            )
            .await;
        assert_eq!(s, 400, "limit={bad}: {v}");
        assert_eq!(
            v["message"],
            "מספר הרשומות בהיסטוריה צריך להיות בין 1 ל-200"
        );
    }

    // Version 24 had appScale 0.85 (i = 23); now it is 1.1. Rollback restores it as version 26.
    assert_eq!(
        current(&app, &dana).await["syncedSettings"]["appScale"],
        1.1
    );
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/rollback",
            Some(&dana),
            Some(json!({"version": 24})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["message"], "ההגדרות שוחזרו בהצלחה");
    assert_eq!(v["version"], 26);
    assert_eq!(v["syncedSettings"]["appScale"], 0.85);
    assert_eq!(
        current(&app, &dana).await["syncedSettings"]["appScale"],
        0.85
    );
    let (_, h) = app
        .json("GET", "/api/settings/history?limit=1", Some(&dana), None)
        .await;
    assert_eq!(h["history"][0]["settingsUpdate"], json!(["appScale"]));
    // A version never made.
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/rollback",
            Some(&dana),
            Some(json!({"version": 99})),
        )
        .await;
    assert_eq!(s, 404, "{v}");
    assert_eq!(v["message"], "הגרסה לא נמצאה בהיסטוריה");
}

#[tokio::test]
async fn bad_input_is_refused_in_hebrew_and_stores_nothing() {
    let app = TestApp::new();
    let dana = app.admin_token("dana", "password1").await;
    put(&app, &dana, json!({"darkMode": true}), "ui", 0).await;
    let cases = [
        (
            json!({"settingsUpdate": {"nope": true}, "settingsType": "ui", "baseVersion": 1}),
            "הגדרה לא מוכרת: nope",
        ),
        (
            json!({"settingsUpdate": {"darkMode": "yes"}, "settingsType": "ui", "baseVersion": 1}),
            "ערך לא תקין להגדרה darkMode",
        ),
        (
            json!({"settingsUpdate": {"appScale": 9}, "settingsType": "ui", "baseVersion": 1}),
            "גודל התצוגה צריך להיות בין 0.5 ל-2",
        ),
        (
            json!({"settingsUpdate": {"timezone": "Mars/Olympus"}, "settingsType": "general", "baseVersion": 1}),
            "אזור זמן לא מוכר",
        ),
        (
            json!({"settingsUpdate": {"language": "en"}, "settingsType": "general", "baseVersion": 1}),
            "שפת הממשק היחידה כרגע היא עברית (he)",
        ),
        (
            json!({"settingsUpdate": {"darkMode": false}, "settingsType": "colors", "baseVersion": 1}),
            "סוג הגדרות לא תקין (general, notifications או ui)",
        ),
        (
            json!({"settingsUpdate": {}, "settingsType": "ui", "baseVersion": 1}),
            "עדכון ההגדרות ריק",
        ),
        (
            json!({"settingsUpdate": [true], "settingsType": "ui", "baseVersion": 1}),
            "עדכון ההגדרות צריך להיות אובייקט של מפתחות וערכים",
        ),
        (
            json!({"settingsUpdate": {"darkMode": false}, "settingsType": "ui", "baseVersion": 7}),
            "גרסת ההגדרות שצוינה אינה קיימת. טען את הדף מחדש.",
        ),
        // One good key beside a bad one: nothing of it is stored either.
        (
            json!({"settingsUpdate": {"compactMode": true, "fontScale": "big"}, "settingsType": "ui", "baseVersion": 1}),
            "ערך לא תקין להגדרה fontScale",
        ),
    ];
    for (body, message) in cases {
        let (s, v) = app
            .json("PUT", "/api/settings/sync", Some(&dana), Some(body.clone()))
            .await;
        assert_eq!(s, 400, "{body}: {v}");
        assert_eq!(v["message"], message, "{body}");
    }
    // Seventeen keys (one more than there are), and a body of 100 KB: too large.
    let mut many = serde_json::Map::new();
    for i in 0..17 {
        many.insert(format!("k{i}"), json!(true));
    }
    let (s, v) = put(&app, &dana, Value::Object(many), "ui", 1).await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some("עדכון ההגדרות גדול מדי")),
        "{v}"
    );
    let huge = json!({"settingsUpdate": {"timezone": "x".repeat(100_000)}, "settingsType": "general", "baseVersion": 1});
    let (s, v) = app
        .json("PUT", "/api/settings/sync", Some(&dana), Some(huge))
        .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some("עדכון ההגדרות גדול מדי")),
        "{v}"
    );
    // Not JSON, and a missing base version.
    let req = Request::builder()
        .method("PUT")
        .uri("/api/settings/sync")
        .header("authorization", &dana)
        .header("content-type", "application/json")
        .body(Body::from("{nope"))
        .unwrap();
    let resp = app.send(req).await;
    assert_eq!(resp.status(), 400);
    let (s, v) = app
        .json(
            "PUT",
            "/api/settings/sync",
            Some(&dana),
            Some(json!({"settingsUpdate": {"darkMode": false}, "settingsType": "ui"})),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .starts_with("גוף הבקשה אינו JSON תקין"),
        "{v}"
    );

    // Still version 1, dark, nothing else changed.
    let v = current(&app, &dana).await;
    assert_eq!(v["version"], 1);
    assert_eq!(v["syncedSettings"]["darkMode"], true);
    assert_eq!(v["syncedSettings"]["compactMode"], false);
    let (_, h) = app
        .json("GET", "/api/settings/history", Some(&dana), None)
        .await;
    assert_eq!(h["history"].as_array().unwrap().len(), 1);
}
