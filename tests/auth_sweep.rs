//! The auth sweep (issue 22): a table of every route with the role it needs, checked against
//! the app through `app()`:
//! - without a token, every route but the public ones answers 401;
//! - an admin route called by a user answers 403;
//! - a route naming an object (a mail, a thread, a draft, an attachment, a contact, a task, a
//!   rule, a template) with another user's id answers 404, and that user's object is unchanged.
//!
//! A second test reads the routes out of `src/` and fails when one is missing from the table
//! (or the table names one that no longer exists): a new route must say who may call it. The
//! table and Yossi's objects live in tests/common/routes.rs (tests/cousers.rs uses them too).

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::TestApp;
use common::routes::{
    Access::*, ROUTES, body_for, fill, snapshot, two_users, valid_body, yossi_objects, yossi_uri,
};

#[tokio::test]
async fn every_route_needs_its_role_and_sees_only_its_user_s_objects() {
    let app = TestApp::new();
    let (_admin, yossi, rina) = two_users(&app).await;

    // 1. No token: 401 everywhere but the public routes.
    let mut wrong = Vec::new();
    for (method, path, access) in ROUTES {
        if matches!(access, Public | Socket) {
            continue;
        }
        let uri = fill(path, &|_| "1".into());
        let (s, _) = app.json(method, &uri, None, body_for(method)).await;
        if s != 401 {
            wrong.push(format!("{method} {uri}: {s} without a token"));
        }
    }
    // 2. A user on an admin route: 403.
    for (method, path, access) in ROUTES {
        if *access != Admin {
            continue;
        }
        let uri = fill(path, &|_| "1".into());
        let (s, _) = app.json(method, &uri, Some(&rina), body_for(method)).await;
        if s != 403 {
            wrong.push(format!("{method} {uri}: {s} for a user"));
        }
    }

    // 3. Yossi's objects, named by Rina: 404, and unchanged.
    let ids = yossi_objects(&app, &yossi).await;
    let before = snapshot(&app, &yossi).await;
    for (method, path, access) in ROUTES {
        if *access != User || !path.contains('{') {
            continue;
        }
        let Some(uri) = yossi_uri(path, &ids) else {
            continue;
        };
        let (s, v) = app
            .json(method, &uri, Some(&rina), valid_body(path, method))
            .await;
        if s != 404 {
            wrong.push(format!("{method} {uri}: {s} for another user ({v})"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(
        snapshot(&app, &yossi).await,
        before,
        "nothing of Yossi's changed"
    );
}

/// Every `.route("path", method(handler)…)` in `src/`, as (METHOD, path).
fn routes_in_source() -> BTreeSet<(String, String)> {
    fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, files);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut out = BTreeSet::new();
    for f in files {
        let whole = std::fs::read_to_string(&f).unwrap();
        // Unit tests build routers of their own ("/slow" for a timeout test): not the app's.
        let src = whole.split("#[cfg(test)]").next().unwrap_or_default();
        let mut at = 0;
        while let Some(i) = src[at..].find(".route(") {
            let open = at + i + ".route(".len();
            // The call's extent: up to its closing parenthesis.
            let (mut depth, mut end) = (1, open);
            for (j, c) in src[open..].char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    end = open + j;
                    break;
                }
            }
            let call = &src[open..end];
            at = end;
            let Some(q1) = call.find('"') else { continue };
            let q2 = q1 + 1 + call[q1 + 1..].find('"').unwrap();
            let path = &call[q1 + 1..q2];
            let handlers = &call[q2 + 1..];
            for method in ["get", "post", "put", "delete", "patch"] {
                let hit = handlers.match_indices(&format!("{method}(")).any(|(k, _)| {
                    k == 0
                        || !handlers.as_bytes()[k - 1].is_ascii_alphanumeric()
                            && handlers.as_bytes()[k - 1] != b'_'
                });
                if hit {
                    out.insert((method.to_uppercase(), path.to_string()));
                }
            }
        }
    }
    out
}

#[test]
fn the_table_lists_every_route_and_only_those() {
    let in_source = routes_in_source();
    assert!(
        in_source.len() > 50,
        "the scan found the routes: {in_source:?}"
    );
    let table: BTreeSet<(String, String)> = ROUTES
        .iter()
        .map(|(m, p, _)| (m.to_string(), p.to_string()))
        .collect();
    assert_eq!(table.len(), ROUTES.len(), "a route is listed twice");
    let missing: Vec<_> = in_source.difference(&table).collect();
    let gone: Vec<_> = table.difference(&in_source).collect();
    assert!(
        missing.is_empty() && gone.is_empty(),
        "routes without a role in tests/auth_sweep.rs ROUTES: {missing:?}; listed but gone: {gone:?}"
    );
}
