//! The web's API types are generated from the server's (issue 14): this fails when a handler's
//! type changed and `web/src/api/generated.ts` was not regenerated. To regenerate:
//! `UPDATE_WIRE=1 cargo test --test wire`.

use std::path::Path;

#[test]
fn generated_typescript_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/src/api/generated.ts");
    let wanted = mailclient::app::typescript();
    if std::env::var_os("UPDATE_WIRE").is_some() {
        std::fs::write(&path, &wanted).unwrap();
        return;
    }
    let found = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        found == wanted,
        "web/src/api/generated.ts is out of date: run `UPDATE_WIRE=1 cargo test --test wire` and commit it"
    );
}

#[test]
fn every_feature_contributes() {
    let ts = mailclient::app::typescript();
    for name in [
        "Email",
        "Thread",
        "User",
        "MailAccount",
        "OutboxItem",
        "SearchResponse",
    ] {
        assert!(
            ts.contains(&format!("export type {name} =")),
            "{name} is missing from the wire contract"
        );
    }
}

/// Every event of the live channel is one variant of one generated union (issue 36): the web
/// switches over it instead of guarding hand-written shapes.
#[test]
fn live_events_are_one_generated_union() {
    let ts = mailclient::app::typescript();
    let start = ts
        .find("export type LiveEvent =")
        .expect("LiveEvent is in the wire contract");
    let union = &ts[start..ts[start..].find('\n').map_or(ts.len(), |e| start + e)];
    for name in [
        "auth_success",
        "auth_error",
        "pong",
        "subscribed",
        "unsubscribed",
        "new_mail",
        "mail_changed",
        "stats",
        "sync_status",
        "system_notification",
        "settings_changed",
        "settings_stale",
        "settings_conflict",
        "auto_reply",
        "task_due",
        "spam_detected",
        "oauth_sign_in_needed",
    ] {
        assert!(
            union.contains(&format!("\"type\": \"{name}\"")),
            "{name} is not in the LiveEvent union: {union}"
        );
    }
}
