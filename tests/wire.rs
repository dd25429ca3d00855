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
