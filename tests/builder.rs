//! The page-builder endpoints against a local stand-in for Builder.io's content API on loopback
//! (the real API's shapes: `GET /api/v3/content/page?apiKey&userAttributes.urlPath&limit` →
//! `{"results": [entry]}`; `POST /api/v1/form-submit?apiKey&to&name`): the entry cached, the
//! editor's preview past the cache, Builder's 404/500/slow/huge/malformed answers as Hebrew
//! errors, no key, and the form block's deliveries (custom JSON and form-urlencoded, Builder's
//! form-submit, the user's mailbox through the outbox), with the form actions' policy (no
//! internal address unless the admin allows it: the stand-in's loopback is allowed here) and
//! the rate limit of form posts and previews.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use common::TestApp;
use mailclient::messages;
use serde_json::{Value, json};

const KEY: &str = "test-public-key";

/// A form post the stub received: path, query, content type, body.
type Post = (String, String, String, String);

#[derive(Clone, Default)]
struct Stub {
    /// Each content request's query.
    content: Arc<Mutex<Vec<std::collections::HashMap<String, String>>>>,
    /// Each form post: path, query, content type, body.
    posts: Arc<Mutex<Vec<Post>>>,
}

fn entry(base: &str) -> Value {
    let el = |id: &str, name: &str, options: Value| {
        json!({"@type": "@builder.io/sdk:Element", "id": id,
               "component": {"name": name, "options": options},
               "responsiveStyles": {"large": {"marginTop": "20px"}}})
    };
    let form = |id: &str, options: Value| {
        let mut b = el(id, "Form:Form", options);
        b["children"] = json!([el(
            &format!("{id}-name"),
            "Form:Input",
            json!({"name": "name", "required": true})
        )]);
        b
    };
    json!({
        "id": "entry-1", "name": "דף הדגמה", "modelId": "m1", "published": "published",
        "data": {"title": "דף הדגמה", "url": "/builder-demo", "blocks": [
            el("text-1", "Text", json!({"text": "<h1>שלום</h1>"})),
            form("form-json", json!({"sendSubmissionsTo": "custom", "action": format!("{base}/action"),
                "contentType": "application/json", "customHeaders": {"X-Form": "1"}, "name": "צור קשר"})),
            form("form-encoded", json!({"sendSubmissionsTo": "custom", "action": format!("{base}/action"),
                "contentType": "application/x-www-form-urlencoded", "method": "PUT"})),
            form("form-email", json!({"sendSubmissionsTo": "email",
                "sendSubmissionsToEmail": "owner@example.test", "name": "פנייה"})),
            form("form-xml", json!({"sendSubmissionsTo": "custom", "action": format!("{base}/action"),
                "contentType": "text/xml"})),
            form("form-elsewhere", json!({"sendSubmissionsTo": "custom", "action": "http://10.0.0.1:9/x"})),
            form("form-metadata", json!({"sendSubmissionsTo": "custom",
                "action": "http://169.254.169.254/latest/meta-data/", "method": "PUT"})),
            form("form-mapped", json!({"sendSubmissionsTo": "custom", "action": "http://[::ffff:127.0.0.1]:9/x"})),
        ]},
        "variations": {}, "lastUpdated": 1764230400000u64, "testRatio": 1
    })
}

async fn start_stub() -> (String, Stub) {
    let stub = Stub::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let b = base.clone();
    let content =
        move |State(s): State<Stub>, Query(q): Query<std::collections::HashMap<String, String>>| {
            let base = b.clone();
            async move {
                s.content.lock().unwrap().push(q.clone());
                if q.get("apiKey").map(String::as_str) != Some(KEY) {
                    return (StatusCode::UNAUTHORIZED, "bad key").into_response();
                }
                let path = q.get("userAttributes.urlPath").cloned().unwrap_or_default();
                match path.as_str() {
                    "/builder-demo" => {
                        axum::Json(json!({"results": [entry(&base)]})).into_response()
                    }
                    "/gone" => {
                        (StatusCode::NOT_FOUND, "{\"message\":\"Not found\"}").into_response()
                    }
                    "/broken" => (StatusCode::INTERNAL_SERVER_ERROR, "oops").into_response(),
                    "/slow" => {
                        tokio::time::sleep(Duration::from_secs(4)).await;
                        axum::Json(json!({"results": []})).into_response()
                    }
                    "/huge" => "x".repeat(5 * 1024 * 1024).into_response(),
                    "/malformed" => "<html>not json</html>".into_response(),
                    _ => axum::Json(json!({"results": []})).into_response(),
                }
            }
        };
    let record = |path: &'static str| {
        move |State(s): State<Stub>,
              axum::extract::RawQuery(q): axum::extract::RawQuery,
              headers: HeaderMap,
              body: Bytes| async move {
            let ct = headers
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string();
            let extra = headers.get("x-form").map(|_| " x-form").unwrap_or_default();
            s.posts.lock().unwrap().push((
                path.to_string(),
                q.unwrap_or_default(),
                format!("{ct}{extra}"),
                String::from_utf8_lossy(&body).into_owned(),
            ));
            if String::from_utf8_lossy(&body).contains("taken") {
                return (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    axum::Json(json!({"error": {"message": "השם תפוס"}})),
                )
                    .into_response();
            }
            axum::Json(json!({"ok": true})).into_response()
        }
    };
    let app = Router::new()
        .route("/api/v3/content/page", get(content))
        .route("/action", post(record("/action")).put(record("/action")))
        .route("/api/v1/form-submit", post(record("/form-submit")))
        .with_state(stub.clone());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, stub)
}

/// The stand-in on loopback as Builder; its form actions (on loopback too) allowed.
fn config(base: &str, extra: &str) -> String {
    let allow = "allowed_private_networks = [\"127.0.0.1\"]\n";
    bare_config(base, &format!("{allow}{extra}"))
}

/// As [`config`], with the form actions' default policy: no internal address.
fn bare_config(base: &str, extra: &str) -> String {
    format!(
        "[builder]\napi_key = \"{KEY}\"\nbase_url = \"{base}\"\nform_submit_url = \"{base}/api/v1/form-submit\"\ntimeout_secs = 1\ncache_secs = 60\n{extra}"
    )
}

async fn signed_in(toml: &str) -> (TestApp, String) {
    let app = TestApp::with_config(toml);
    let token = app.admin_token("dana", "password1").await;
    (app, token)
}

#[tokio::test]
async fn without_a_key_the_page_is_off_and_says_so() {
    let (app, token) = signed_in("").await;
    let (s, v) = app
        .json(
            "GET",
            "/api/builder/content?urlPath=/builder-demo",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["configured"], false);
    assert!(v["entry"].is_null());
    assert_eq!(v["editorUrl"], "https://builder.io/content");
    // A form has nothing to be found in.
    let (s, v) = app
        .json(
            "POST",
            "/api/builder/form",
            Some(&token),
            Some(json!({"urlPath": "/builder-demo", "blockId": "form-json", "fields": []})),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["message"], messages::BUILDER_NOT_CONFIGURED);
    // Signed out: nothing.
    let (s, _) = app
        .json(
            "GET",
            "/api/builder/content?urlPath=/builder-demo",
            None,
            None,
        )
        .await;
    assert_eq!(s, 401);
}

#[tokio::test]
async fn the_entry_is_fetched_once_and_cached_the_preview_asks_again() {
    let (base, stub) = start_stub().await;
    let (app, token) = signed_in(&config(&base, "")).await;
    let url = "/api/builder/content?urlPath=%2Fbuilder-demo";
    let (s, v) = app.json("GET", url, Some(&token), None).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["configured"], true);
    assert_eq!(v["apiKey"], KEY);
    assert_eq!(v["urlPath"], "/builder-demo");
    assert_eq!(v["entry"]["id"], "entry-1");
    assert_eq!(v["entry"]["data"]["blocks"][0]["component"]["name"], "Text");
    let (s, _) = app.json("GET", url, Some(&token), None).await;
    assert_eq!(s, 200);
    {
        let asked = stub.content.lock().unwrap();
        assert_eq!(asked.len(), 1, "the second answer came from the cache");
        assert_eq!(asked[0]["apiKey"], KEY);
        assert_eq!(asked[0]["userAttributes.urlPath"], "/builder-demo");
        assert_eq!(asked[0]["limit"], "1");
        assert!(!asked[0].contains_key("cachebust"));
    }
    let (s, _) = app
        .json("GET", &format!("{url}&preview=true"), Some(&token), None)
        .await;
    assert_eq!(s, 200);
    let asked = stub.content.lock().unwrap();
    assert_eq!(asked.len(), 2, "the preview skips the cache");
    assert_eq!(asked[1]["cachebust"], "true");
}

#[tokio::test]
async fn builders_failures_are_hebrew_errors_and_missing_entries_are_empty() {
    let (base, stub) = start_stub().await;
    let (app, token) = signed_in(&config(&base, "")).await;
    let get = |path: &str| format!("/api/builder/content?urlPath={path}");
    for path in ["/nothing-here", "/gone"] {
        let (s, v) = app.json("GET", &get(path), Some(&token), None).await;
        assert_eq!(s, 200, "{path}: {v}");
        assert!(v["entry"].is_null(), "{path}: {v}");
    }
    for (path, message) in [
        (
            "/broken",
            format!("{} (500)", messages::BUILDER_UPSTREAM_STATUS),
        ),
        ("/slow", messages::BUILDER_UPSTREAM_TIMEOUT.to_string()),
        ("/huge", messages::BUILDER_UPSTREAM_TOO_LARGE.to_string()),
        (
            "/malformed",
            messages::BUILDER_UPSTREAM_MALFORMED.to_string(),
        ),
    ] {
        let started = std::time::Instant::now();
        let (s, v) = app.json("GET", &get(path), Some(&token), None).await;
        assert_eq!(s, 502, "{path}: {v}");
        assert_eq!(v["error"], "upstream_failed", "{path}: {v}");
        if path == "/huge" {
            // 5 MB: refused by its length, never read whole.
            assert_eq!(v["message"], messages::BUILDER_UPSTREAM_TOO_LARGE, "{v}");
        } else {
            assert_eq!(v["message"], message.as_str(), "{path}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{path}: bounded in time"
        );
    }
    // Failures are not cached: asked again.
    let before = stub.content.lock().unwrap().len();
    let _ = app.json("GET", &get("/broken"), Some(&token), None).await;
    assert_eq!(stub.content.lock().unwrap().len(), before + 1);
    // A path that is no path.
    for bad in ["builder-demo", "%2Fa%0Ab"] {
        let (s, v) = app.json("GET", &get(bad), Some(&token), None).await;
        assert_eq!(s, 400, "{bad}: {v}");
        assert_eq!(v["message"], messages::BUILDER_PATH_INVALID);
    }
    // A wrong key is Builder's 401, shown as its status.
    let (app2, token2) = signed_in(&config(&base, "").replace(KEY, "wrong")).await;
    let (s, v) = app2
        .json("GET", &get("/builder-demo"), Some(&token2), None)
        .await;
    assert_eq!(s, 502);
    assert!(v["message"].as_str().unwrap().contains("(401)"), "{v}");
}

async fn submit(app: &TestApp, token: &str, block: &str, fields: Value) -> (u16, Value) {
    app.json(
        "POST",
        "/api/builder/form",
        Some(token),
        Some(json!({"urlPath": "/builder-demo", "blockId": block, "fields": fields})),
    )
    .await
}

#[tokio::test]
async fn form_blocks_post_through_the_server_as_configured() {
    let (base, stub) = start_stub().await;
    let (app, token) = signed_in(&config(&base, "")).await;
    let posts = || stub.posts.lock().unwrap().clone();

    // Custom, JSON (the default): dotted names nest, numbers and booleans stay typed, the
    // block's headers go along.
    let (s, v) = submit(
        &app,
        &token,
        "form-json",
        json!([
        {"key": "name", "value": "דנה"}, {"key": "contact.email", "value": "d@example.test"},
        {"key": "age", "value": 30}, {"key": "agree", "value": true}]),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["ok"], true);
    assert_eq!(v["status"], 200);
    assert_eq!(v["deliveredBy"], "custom");
    assert!(
        v["contentType"]
            .as_str()
            .unwrap()
            .starts_with("application/json")
    );
    let (path, _, ct, body) = posts().pop().unwrap();
    assert_eq!(path, "/action");
    assert_eq!(ct, "application/json x-form");
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        json!({"name": "דנה", "contact": {"email": "d@example.test"}, "age": 30, "agree": true})
    );

    // The action's error answer comes back as it is (the block reads errorMessagePath in it).
    let (s, v) = submit(
        &app,
        &token,
        "form-json",
        json!([{"key": "name", "value": "taken"}]),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["ok"], false);
    assert_eq!(v["status"], 422);
    assert_eq!(
        serde_json::from_str::<Value>(v["body"].as_str().unwrap()).unwrap()["error"]["message"],
        "השם תפוס"
    );

    // Custom, form-urlencoded with PUT.
    let (s, v) = submit(
        &app,
        &token,
        "form-encoded",
        json!([{"key": "שם", "value": "דנה כהן"}]),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (_, _, ct, body) = posts().pop().unwrap();
    assert_eq!(ct, "application/x-www-form-urlencoded");
    assert_eq!(body, "%D7%A9%D7%9D=%D7%93%D7%A0%D7%94+%D7%9B%D7%94%D7%9F");

    // E-mail delivery without a mailbox: Builder's form-submit (query apiKey, to = base64,
    // name), multipart as the SDK sends it.
    let (s, v) = submit(
        &app,
        &token,
        "form-email",
        json!([{"key": "message", "value": "שלום"}]),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["deliveredBy"], "builder");
    let (path, query, ct, body) = posts().pop().unwrap();
    assert_eq!(path, "/form-submit");
    let q: std::collections::HashMap<String, String> =
        url::form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect();
    assert_eq!(q["apiKey"], KEY);
    assert_eq!(q["to"], "b3duZXJAZXhhbXBsZS50ZXN0"); // btoa("owner@example.test")
    assert_eq!(q["name"], "פנייה");
    assert!(ct.starts_with("multipart/form-data; boundary="), "{ct}");
    assert!(body.contains("name=\"message\"\r\n\r\nשלום\r\n"), "{body}");

    // An unsupported content type is refused and nothing is sent.
    let sent = posts().len();
    let (s, v) = submit(
        &app,
        &token,
        "form-xml",
        json!([{"key": "a", "value": "b"}]),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["message"], messages::BUILDER_FORM_CONTENT_TYPE);
    // A block that is not in the entry, or not a form.
    for block in ["nope", "text-1"] {
        let (s, v) = submit(&app, &token, block, json!([])).await;
        assert_eq!(s, 404, "{block}: {v}");
        assert_eq!(v["message"], messages::BUILDER_FORM_NOT_FOUND);
    }
    // Bounds.
    let many: Vec<Value> = (0..101)
        .map(|i| json!({"key": format!("f{i}"), "value": "x"}))
        .collect();
    let (s, _) = submit(&app, &token, "form-json", Value::Array(many)).await;
    assert_eq!(s, 400);
    // A name of 130,000 dotted parts once nested the JSON body that deep: the stack overflowed
    // writing it, and the process aborted. Refused before anything is built or sent.
    let deep = vec!["a"; 130_000].join(".");
    let (s, v) = submit(
        &app,
        &token,
        "form-json",
        json!([{"key": deep, "value": "x"}]),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["message"], messages::BUILDER_FORM_KEY_TOO_DEEP);
    assert_eq!(posts().len(), sent, "nothing sent for refused forms");
}

#[tokio::test]
async fn form_actions_reach_no_internal_host_by_default() {
    let (base, stub) = start_stub().await;
    // The admin's base_url (loopback here) is trusted; the content's action URLs are not:
    // loopback, the cloud metadata address and IPv4-mapped loopback are refused whatever
    // [mail] allows.
    let (app, token) = signed_in(&bare_config(
        &base,
        "[mail]\ndeny_private_ranges = false\nallowed_hosts = []\n",
    ))
    .await;
    let (s, v) = app
        .json(
            "GET",
            "/api/builder/content?urlPath=/builder-demo",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200, "{v}");
    for block in [
        "form-json",
        "form-elsewhere",
        "form-metadata",
        "form-mapped",
    ] {
        let (s, v) = submit(&app, &token, block, json!([{"key": "a", "value": "b"}])).await;
        assert_eq!(s, 403, "{block}: {v}");
        assert_eq!(v["message"], messages::BUILDER_FORM_HOST_REFUSED);
    }
    assert!(stub.posts.lock().unwrap().is_empty());

    // The admin allowed 127.0.0.1 (the stand-in): that one goes, nothing else internal.
    let (app, token) = signed_in(&config(&base, "")).await;
    for block in ["form-elsewhere", "form-metadata"] {
        let (s, v) = submit(&app, &token, block, json!([])).await;
        assert_eq!(s, 403, "{block}: {v}");
    }
    assert!(stub.posts.lock().unwrap().is_empty());
    let (s, v) = submit(&app, &token, "form-json", json!([])).await;
    assert_eq!(s, 200, "{v}");

    // An allowed list that does not name the action's host refuses it too.
    let (app, token) = signed_in(&config(&base, "allowed_hosts = [\"forms.example.com\"]\n")).await;
    let before = stub.posts.lock().unwrap().len();
    let (s, v) = submit(&app, &token, "form-json", json!([])).await;
    assert_eq!(s, 403, "{v}");
    assert_eq!(stub.posts.lock().unwrap().len(), before);
}

#[tokio::test]
async fn form_posts_and_previews_are_rate_limited() {
    let (base, _stub) = start_stub().await;
    let (app, token) = signed_in(&config(&base, "[limits]\nbuilder_per_minute = 2\n")).await;
    let preview = "/api/builder/content?urlPath=%2Fbuilder-demo&preview=true";
    let (s, v) = app.json("GET", preview, Some(&token), None).await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = submit(&app, &token, "form-json", json!([])).await;
    assert_eq!(s, 200, "{v}");
    // The bucket is empty: a form post and a preview wait; the cached page does not.
    let (s, v) = submit(&app, &token, "form-json", json!([])).await;
    assert_eq!((s, v["error"].as_str()), (429, Some("rate_limited")), "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .starts_with(messages::BUILDER_CALLS_LIMITED)
    );
    let (s, _) = app.json("GET", preview, Some(&token), None).await;
    assert_eq!(s, 429);
    let (s, _) = app
        .json(
            "GET",
            "/api/builder/content?urlPath=%2Fbuilder-demo",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200);
}

#[tokio::test]
async fn email_forms_go_through_the_users_mailbox_when_there_is_one() {
    let (base, stub) = start_stub().await;
    let (app, token) = signed_in(&config(&base, "")).await;
    let (_, me) = app.json("GET", "/api/app/me", Some(&token), None).await;
    let user_id = me["user"]["id"].as_u64().or(me["id"].as_u64()).unwrap();
    let settings = mailclient::accounts::Settings {
        email: "dana@example.test".into(),
        password: "secret".into(),
        servers: mailclient::mail::servers::MailServers {
            imap_server: "127.0.0.1".into(),
            imap_port: 9,
            imap_ssl: true,
            smtp_server: "127.0.0.1".into(),
            smtp_port: 9,
            smtp_ssl: true,
        },
        imap_fingerprint: None,
        smtp_fingerprint: None,
        auth: Default::default(),
        household: false,
    };
    mailclient::accounts::save(&app.state.store, &app.state.key, user_id, &settings, 10).unwrap();
    let (s, v) = submit(
        &app,
        &token,
        "form-email",
        json!([
        {"key": "message", "value": "<b>שלום</b>"}]),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["deliveredBy"], "mail");
    assert_eq!(v["ok"], true);
    assert!(
        stub.posts.lock().unwrap().is_empty(),
        "Builder was not asked"
    );
    let items = mailclient::outgoing::outbox::list(&app.state.store, user_id).unwrap();
    assert_eq!(items.len(), 1);
    let mail = &items[0].mail;
    assert_eq!(mail.to[0].email, "owner@example.test");
    assert_eq!(mail.from.email, "dana@example.test");
    assert_eq!(mail.subject, "טופס חדש: פנייה");
    assert!(
        mail.html.contains("&lt;b&gt;שלום&lt;/b&gt;"),
        "{}",
        mail.html
    );
}
