//! Requests that once took the real server down or locked everyone out (issue 37), against the
//! real binary: a page-builder form whose field name had 130,000 dotted parts (the JSON body
//! nested that deep overflowed the stack and aborted the process), other deeply nested input
//! (JSON bodies, search queries), and one host holding every connection slot with idle sockets.
//! After each, `/api/health` still answers. Then the parsers that read what strangers write, on
//! input nested far deeper than any mail, inside a stack the size of a server thread's (a stack
//! overflow cannot be caught, it aborts the process), and in bounded time.

mod common;

use std::time::Duration;

use axum::Router;
use axum::routing::{get, post};
use common::Server;
use common::binary_api::{Api, add_admin};
use serde_json::{Value, json};

/// A Builder stand-in with one page holding one form that posts JSON to the stand-in.
async fn builder_stand_in() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let action = format!("{base}/action");
    let app = Router::new()
        .route(
            "/api/v3/content/page",
            get(move || {
                let action = action.clone();
                async move {
                    axum::Json(json!({"results": [{"id": "e", "data": {"blocks": [
                        {"@type": "@builder.io/sdk:Element", "id": "form",
                         "component": {"name": "Form:Form", "options": {
                             "sendSubmissionsTo": "custom", "action": action,
                             "contentType": "application/json"}}}]}}]}))
                }
            }),
        )
        .route(
            "/action",
            post(|| async { axum::Json(json!({"ok": true})) }),
        );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

/// The real binary with `toml` and the admin of `add_admin`.
fn serve(toml: &str) -> (tempfile::TempDir, Server) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let config = dir.path().join("config.toml");
    std::fs::write(&config, toml).unwrap();
    let config = config.to_str().unwrap().to_string();
    add_admin(&data, &config);
    let server = Server::start(&data, &["--config", &config]);
    (dir, server)
}

async fn healthy(server: &Server) {
    let answer = common::http()
        .build()
        .unwrap()
        .get(server.url("/api/health"))
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .expect("the server still answers");
    assert_eq!(answer.status(), 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deeply_nested_requests_are_refused_and_the_server_stays_up() {
    let base = builder_stand_in().await;
    let (_dir, server) = serve(&format!(
        "[builder]\napi_key = \"k\"\nbase_url = \"{base}\"\n"
    ));
    let api = Api::login(&server).await;
    let form =
        |fields: Value| json!({"urlPath": "/builder-demo", "blockId": "form", "fields": fields});

    // The request of the report: one field named a.a.a.… with 130,000 parts.
    let deep = vec!["a"; 130_000].join(".");
    let r = api
        .post(
            "/api/builder/form",
            form(json!([{"key": deep, "value": "x"}])),
        )
        .await;
    assert_eq!(r.status(), 400);
    let v: Value = r.json().await.unwrap();
    assert_eq!(
        v["message"],
        mailclient::messages::BUILDER_FORM_KEY_TOO_DEEP
    );
    healthy(&server).await;

    // A JSON body nested 100,000 deep: refused by the parser's depth limit.
    let nested = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let r = api
        .client
        .post(server.url("/api/builder/form"))
        .bearer_auth(&api.token)
        .header("content-type", "application/json")
        .body(format!(
            "{{\"urlPath\":\"/builder-demo\",\"blockId\":\"form\",\"fields\":[{{\"key\":\"k\",\"value\":{nested}}}]}}"
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    healthy(&server).await;

    // A search query of nested parentheses: bounded by the query language.
    let q = format!("{}x{}", "(".repeat(100), ")".repeat(100));
    let r = api
        .get(&format!(
            "/api/search?q={}",
            url::form_urlencoded::byte_serialize(q.as_bytes()).collect::<String>()
        ))
        .await;
    assert_eq!(r.status(), 400);
    healthy(&server).await;
}

/// A connection to `addr` from the loopback address `from` (127.0.0.2 is another host).
async fn connect_from(from: &str, addr: std::net::SocketAddr) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(addr).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_host_holding_idle_connections_cannot_starve_another() {
    // 100 connections in all; the host at 127.0.0.2 opens 150 and sends nothing.
    let (_dir, server) = serve("[server]\nmax_connections = 100\n");
    let addr: std::net::SocketAddr = server.base.trim_start_matches("http://").parse().unwrap();
    let mut idle = Vec::new();
    for _ in 0..150 {
        idle.push(connect_from("127.0.0.2", addr).await);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Another host (127.0.0.1) is still served, at once.
    let started = std::time::Instant::now();
    healthy(&server).await;
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    // The idle host kept its cap (64): the connections past it were closed.
    let mut closed = 0;
    for stream in &idle {
        let mut byte = [0u8; 1];
        let peeked = tokio::time::timeout(Duration::from_millis(20), stream.peek(&mut byte)).await;
        if let Ok(Ok(0) | Err(_)) = peeked {
            closed += 1;
        }
    }
    assert!(closed >= 150 - 64, "{closed} of 150 closed");
    drop(idle);
}

/// Runs `f` on a thread with the stack of a server thread (tokio's workers and blocking threads
/// get 2 MiB): an overflow aborts this test process, as it would the server.
fn on_a_server_threads_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn the_parsers_of_strangers_input_never_recurse_past_a_threads_stack() {
    use mailclient::mail::{parse, preview, sanitize};
    on_a_server_threads_stack(|| {
        // MIME: multiparts nested 5,000 deep, and as many mails inside mails.
        let mut multipart = String::from("From: a@example.test\r\nSubject: deep\r\n");
        for i in 0..5_000 {
            multipart.push_str(&format!(
                "Content-Type: multipart/mixed; boundary=\"b{i}\"\r\n\r\n--b{i}\r\n"
            ));
        }
        multipart.push_str("Content-Type: text/plain\r\n\r\nbottom\r\n");
        let mut rfc822 = String::from("From: a@example.test\r\nSubject: deep\r\n");
        for _ in 0..5_000 {
            rfc822.push_str("Content-Type: message/rfc822\r\n\r\nSubject: inner\r\n");
        }
        rfc822.push_str("\r\nbottom\r\n");
        for raw in [multipart, rfc822] {
            let raw = raw.as_bytes();
            let s = parse::summary(raw);
            let full = parse::full(raw);
            let _ = sanitize::sanitize(&full.html, false, &|_| None);
            let _ = parse::searchable(raw);
            let _ = parse::body_text(raw);
            let _ = parse::attachment(raw, 0);
            let _ = preview::preview(&s.subject);
        }
        // HTML: 60,000 nested elements through the sanitizer and the preview's text; nested
        // past what a browser keeps, it is flattened first (html5ever's cost is quadratic in
        // the depth: half a minute of a core here before, minutes for a larger mail).
        let started = std::time::Instant::now();
        let html = format!("{}x{}", "<div>".repeat(60_000), "</div>".repeat(60_000));
        let _ = sanitize::sanitize(&html, false, &|_| None);
        let _ = preview::strip_html(&html);
        let mail = format!("From: a@example.test\r\nContent-Type: text/html\r\n\r\n{html}");
        let full = parse::full(mail.as_bytes());
        let _ = sanitize::sanitize(&full.html, true, &|_| None);
        let _ = parse::searchable(mail.as_bytes());
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "{:?}",
            started.elapsed()
        );
        // Search queries and vCards: bounded or flat.
        let q = format!("{}x{}", "(".repeat(400), ")".repeat(400));
        assert!(mailclient::search::query::parse(&q, 0).is_err());
        let _ = mailclient::contacts::vcard::read(&"BEGIN:VCARD\r\n".repeat(50_000));
    });
}
