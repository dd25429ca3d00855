//! Push devices over the API (issue 39; the deliveries themselves are proven end to end by
//! `web/e2e/push.e2e.mjs` against a push service stand-in): a device subscribes with its
//! browser's keys under the `[push]` policy, gets quiet hours (checked), is another user's to
//! nobody; a backup carries the devices and a restore goes through the same checks (a file's
//! device that another user has is left out); removing the user forgets them.

mod common;

use common::TestApp;
use mailclient::messages;
use redb::{ReadableDatabase, ReadableTableMetadata, TableDefinition};
use serde_json::{Value, json};

const MASTER: &str = "סיסמת-אב-ארוכה";
/// A P-256 point and an auth secret, as a browser sends them (RFC 8291's example keys).
const P256DH: &str =
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
const AUTH: &str = "BTBZMqHH6r4Tts7J_aSIgg";
const CONFIG: &str = "[push]\nallowed_hosts = []\nallowed_private_networks = [\"127.0.0.1/32\"]\n";

fn subscription(endpoint: &str) -> Value {
    json!({"endpoint": endpoint, "keys": {"p256dh": P256DH, "auth": AUTH}, "label": "Chrome, Android"})
}

/// Subscribes `endpoint` for the user: the status and the answer.
async fn subscribe(app: &TestApp, token: &str, endpoint: &str) -> (u16, Value) {
    app.json(
        "POST",
        "/api/push/devices",
        Some(token),
        Some(subscription(endpoint)),
    )
    .await
}

async fn devices(app: &TestApp, token: &str) -> Vec<Value> {
    let (s, v) = app.json("GET", "/api/push", Some(token), None).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        v["publicKey"].as_str().unwrap().len(),
        87,
        "a P-256 point, base64url"
    );
    v["devices"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_device_subscribes_under_the_policy_and_is_nobody_elses() {
    let app = TestApp::with_config(CONFIG);
    let admin = app.admin_token("dana", "admin-password-1").await;
    let (eve, _) = app.plain_user(&admin, "eve").await;
    // Refused: a host the policy refuses, keys that are not a P-256 point, a long name.
    for (body, why) in [
        (
            subscription("https://169.254.169.254/latest"),
            messages::PUSH_ENDPOINT_REFUSED,
        ),
        (
            subscription("http://10.1.2.3/push/a"),
            messages::PUSH_ENDPOINT_REFUSED,
        ),
        (
            json!({"endpoint": "http://127.0.0.1:9/push/a", "keys": {"p256dh": AUTH, "auth": AUTH}}),
            messages::PUSH_KEYS_BAD,
        ),
        (
            json!({"endpoint": "http://127.0.0.1:9/push/a", "keys": {"p256dh": P256DH, "auth": AUTH}, "label": "x".repeat(81)}),
            messages::PUSH_LABEL_TOO_LONG,
        ),
    ] {
        let (s, v) = app
            .json("POST", "/api/push/devices", Some(&admin), Some(body))
            .await;
        assert_eq!((s, v["message"].as_str()), (400, Some(why)), "{v}");
    }
    let (s, d) = subscribe(&app, &admin, "http://127.0.0.1:9/push/a").await;
    assert_eq!(s, 200, "{d}");
    assert_eq!(
        (d["enabled"].as_bool(), d["label"].as_str()),
        (Some(true), Some("Chrome, Android"))
    );
    // The same browser again renews it: still one device.
    let (s, again) = subscribe(&app, &admin, "http://127.0.0.1:9/push/a").await;
    assert_eq!((s, &again["id"]), (200, &d["id"]));
    assert_eq!(devices(&app, &admin).await.len(), 1);
    let id = d["id"].as_u64().unwrap();
    let path = format!("/api/push/devices/{id}");
    // Quiet hours: a minute past the day is refused in Hebrew; the Shabbat preset is kept.
    let (s, v) = app
        .json(
            "PATCH",
            &path,
            Some(&admin),
            Some(json!({"quiet": {"night": {"from": 1440, "to": 0}, "shabbat": null}})),
        )
        .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some(messages::PUSH_QUIET_BAD))
    );
    let quiet = json!({"night": {"from": 1320, "to": 420}, "shabbat": {"from": 960, "to": 1200}});
    let (s, v) = app
        .json(
            "PATCH",
            &path,
            Some(&admin),
            Some(json!({"quiet": quiet, "enabled": false})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!((&v["quiet"], v["enabled"].as_bool()), (&quiet, Some(false)));
    // Another user sees none of it and touches nothing.
    assert!(devices(&app, &eve).await.is_empty());
    for (method, p) in [
        ("PATCH", path.clone()),
        ("DELETE", path.clone()),
        ("POST", format!("{path}/test")),
    ] {
        let body = (method == "PATCH").then(|| json!({"enabled": true}));
        let (s, _) = app.json(method, &p, Some(&eve), body).await;
        assert_eq!(s, 404, "{method} {p}");
    }
    assert_eq!(devices(&app, &admin).await[0]["enabled"], false);
    // The browser signed in to Eve now: the device is hers, no longer Dana's.
    let (s, _) = subscribe(&app, &eve, "http://127.0.0.1:9/push/a").await;
    assert_eq!(s, 200);
    assert!(devices(&app, &admin).await.is_empty());
    assert_eq!(devices(&app, &eve).await.len(), 1);
}

#[tokio::test]
async fn the_devices_are_backed_up_restored_through_the_checks_and_forgotten() {
    let app = TestApp::with_config(CONFIG);
    let admin = app.admin_token("dana", "admin-password-1").await;
    let (yossi, yossi_id) = app.plain_user(&admin, "yossi").await;
    let (s, d) = subscribe(&app, &yossi, "http://127.0.0.1:9/push/y").await;
    assert_eq!(s, 200, "{d}");
    let quiet = json!({"night": null, "shabbat": {"from": 960, "to": 1200}});
    let path = format!("/api/push/devices/{}", d["id"]);
    app.json("PATCH", &path, Some(&yossi), Some(json!({"quiet": quiet})))
        .await;
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/backup",
            Some(&yossi),
            Some(json!({"masterPassword": MASTER})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert!(
        v["sections"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s == "pushDevices"),
        "{v}"
    );
    let (s, _) = app.json("DELETE", &path, Some(&yossi), None).await;
    assert_eq!(s, 200);
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/backup/restore",
            Some(&yossi),
            Some(json!({"masterPassword": MASTER})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let back = devices(&app, &yossi).await;
    assert_eq!(back.len(), 1);
    assert_eq!(
        (&back[0]["endpoint"], &back[0]["quiet"]),
        (&json!("http://127.0.0.1:9/push/y"), &quiet)
    );

    // A file may be anyone's: Dana's restore of a file naming Yossi's device leaves it his,
    // and bad keys are left out with a note.
    let file = common::sealed_backup(
        MASTER,
        json!({"pushDevices": [
            {"endpoint": "http://127.0.0.1:9/push/y", "p256dh": P256DH, "auth": AUTH, "label": "x", "enabled": true, "quiet": {"night": null, "shabbat": null}},
            {"endpoint": "http://127.0.0.1:9/push/z", "p256dh": "AAAA", "auth": AUTH, "label": "x", "enabled": true, "quiet": {"night": null, "shabbat": null}}
        ]}),
    );
    let (s, v) = app
        .json(
            "POST",
            "/api/settings/backup/restore-file",
            Some(&admin),
            Some(json!({"masterPassword": MASTER, "file": file})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let notes: Vec<&str> = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(notes.contains(&messages::PUSH_ENDPOINT_REFUSED), "{v}");
    assert!(notes.contains(&messages::PUSH_KEYS_BAD), "{v}");
    assert!(devices(&app, &admin).await.is_empty());
    assert_eq!(devices(&app, &yossi).await.len(), 1);

    // Removing Yossi forgets his devices.
    let (s, v) = app
        .json(
            "DELETE",
            &format!("/api/admin/users/{yossi_id}"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let table: TableDefinition<(u64, u64), &[u8]> = TableDefinition::new("push_devices");
    let txn = app.state.store.db().begin_read().unwrap();
    assert_eq!(txn.open_table(table).unwrap().len().unwrap(), 0);
}
