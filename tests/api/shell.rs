//! The HTTP shell: per-user rate limits, the request timeout, security headers, the web app.

use super::*;

#[tokio::test]
async fn ai_search_and_refresh_are_rate_limited_per_user() {
    let app = TestApp::with_config(
        "[limits]\nai_per_minute = 2\nsearch_per_minute = 3\nrefresh_per_minute = 1\n",
    );
    let dana = app.admin_token("dana", "correct horse").await;
    for (method, path, body, allowed, message) in [
        ("GET", "/api/search?q=x", None, 3, "יותר מדי חיפושים."),
        (
            "POST",
            "/api/claude/generate-subject",
            Some(json!({"emailBody": "שלום"})),
            2,
            "יותר מדי בקשות לעזרת AI.",
        ),
        (
            "POST",
            "/api/smart/compose",
            Some(json!({"description": "פגישה"})),
            0, // the AI calls share one bucket
            "יותר מדי בקשות לעזרת AI.",
        ),
        (
            "POST",
            "/api/sync/refresh",
            None,
            1,
            "יותר מדי בקשות סנכרון.",
        ),
    ] {
        // The calls themselves may fail (no AI key here): each still took its turn.
        common::assert_limited(&app, &dana, (method, path, body), allowed, message).await;
    }
    // Another user has buckets of their own; other calls are not limited.
    let (s, _) = app
        .json(
            "POST",
            "/api/admin/users",
            Some(&dana),
            Some(json!({"username": "yossi", "password": "password-2"})),
        )
        .await;
    assert_eq!(s, 200);
    let yossi = app.login("yossi", "password-2").await;
    let (s, _) = app.json("GET", "/api/search?q=x", Some(&yossi), None).await;
    assert_eq!(s, 200);
    let (s, _) = app.json("GET", "/api/app/me", Some(&dana), None).await;
    assert_eq!(s, 200);
    // Without a session: 401, not a bucket.
    let (s, _) = app.json("GET", "/api/search?q=x", None, None).await;
    assert_eq!(s, 401);
}

#[tokio::test]
async fn a_request_past_the_timeout_is_answered_503_in_hebrew() {
    let llm = common::llm::FakeLlm::start().await;
    let app = TestApp::with_config(&format!(
        "[server]\nrequest_timeout_secs = 5\n[ai]\nprovider = \"openai\"\nbase_url = \"{}/v1\"\ntimeout_secs = 60\n",
        llm.base
    ));
    let token = app.admin_token("dana", "correct horse").await;
    llm.push(common::llm::Reply::Slow(std::time::Duration::from_secs(8)));
    let started = std::time::Instant::now();
    let (s, v) = app
        .json(
            "POST",
            "/api/claude/generate-subject",
            Some(&token),
            Some(json!({"emailBody": "שלום"})),
        )
        .await;
    assert_eq!((s, v["error"].as_str()), (503, Some("timeout")), "{v}");
    assert_eq!(v["message"], mailclient::messages::REQUEST_TIMEOUT);
    assert!(started.elapsed() < std::time::Duration::from_secs(7));
}

#[tokio::test]
async fn hsts_only_when_the_server_has_its_own_certificate() {
    let get = || Request::get("/api/health").body(Body::empty()).unwrap();
    let plain = TestApp::new().send(get()).await;
    assert!(!plain.headers().contains_key("strict-transport-security"));
    // (The files are read by `serve`; the router only needs to know HTTPS is on.)
    let tls =
        TestApp::with_config("[server]\ntls_cert = \"/x/cert.pem\"\ntls_key = \"/x/key.pem\"\n");
    let resp = tls.send(get()).await;
    assert_eq!(
        resp.headers()["strict-transport-security"],
        "max-age=31536000"
    );
}

#[tokio::test]
async fn security_headers_on_every_response() {
    let app = TestApp::new();
    for path in ["/api/health", "/api/nope", "/", "/index.html"] {
        let resp = app
            .send(Request::get(path).body(Body::empty()).unwrap())
            .await;
        let h = resp.headers();
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        // Inline styles are allowed only as attributes (sanitized mail); never inline script
        // or style elements.
        for directive in csp.split(';').map(str::trim) {
            if directive.contains("unsafe-inline") {
                assert!(directive.starts_with("style-src-attr "), "{path}: {csp}");
            }
        }
        assert!(!csp.contains("unsafe-eval"), "{path}: {csp}");
        // The browser fetches only from us (the page-builder's content comes through the server).
        assert!(csp.contains("connect-src 'self';"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}");
        // The installable app's manifest and service worker: ours only.
        assert!(csp.contains("manifest-src 'self';"), "{path}: {csp}");
        assert!(csp.contains("worker-src 'self';"), "{path}: {csp}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["referrer-policy"], "no-referrer", "{path}");
        if path.starts_with("/api/") {
            assert_eq!(h["cache-control"], "no-store", "{path}");
        }
    }
    // A signed-in answer too (the user's own data).
    let token = app.admin_token("dana", "password1").await;
    let resp = app
        .send(
            Request::get("/api/settings/sync")
                .header("authorization", &token)
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["cache-control"], "no-store");
    // A search page far out is refused rather than collected.
    let (s, v) = app
        .json(
            "GET",
            "/api/search?q=x&page=100000&perPage=100",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert!(v["message"].as_str().unwrap().contains("10,000"), "{v}");
    let (s, _) = app
        .json(
            "GET",
            "/api/search?q=x&page=100&perPage=100",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, 200);
}

#[tokio::test]
async fn spa_is_served_with_the_right_caching() {
    let app = TestApp::new();
    let resp = app
        .send(Request::get("/").body(Body::empty()).unwrap())
        .await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["cache-control"], "no-cache");
    assert!(
        resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let etag = resp.headers()["etag"].clone();
    let index = body_text(resp).await;
    assert!(index.contains("lang=\"he\"") && index.contains("dir=\"rtl\""));
    assert!(
        !index.contains("<script>"),
        "no inline script in index.html"
    );

    // Any other path falls back to the app.
    let resp = app
        .send(Request::get("/some/deep/link").body(Body::empty()).unwrap())
        .await;
    assert_eq!(resp.status(), 200);
    assert_eq!(body_text(resp).await, index);

    // Revalidation answers 304.
    let resp = app
        .send(
            Request::get("/")
                .header("if-none-match", etag)
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(resp.status(), 304);

    // Hashed bundle files are immutable (when the web app is built, as in CI).
    let assets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web/dist/assets");
    if let Some(file) = std::fs::read_dir(&assets).ok().and_then(|mut d| d.next()) {
        let name = file.unwrap().file_name().into_string().unwrap();
        let resp = app
            .send(
                Request::get(format!("/assets/{name}"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(resp.status(), 200, "{name}");
        assert_eq!(
            resp.headers()["cache-control"],
            "public, max-age=31536000, immutable"
        );
        if name.ends_with(".js") {
            assert_eq!(
                resp.headers()["content-type"],
                "text/javascript; charset=utf-8"
            );
        }
    } else {
        assert!(
            index.contains("npm run build"),
            "without a bundle the notice page is served"
        );
    }
}

#[tokio::test]
async fn bundle_files_go_out_gzip_to_a_browser_and_plain_to_any_other_client() {
    let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web/dist");
    // The largest script (the entry: a few hundred kB that gzip takes to under a half).
    let Some(script) = std::fs::read_dir(dist.join("assets")).ok().and_then(|d| {
        d.flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".js"))
            .max_by_key(|e| e.metadata().map(|m| m.len()).unwrap_or(0))
            .map(|e| e.file_name().into_string().unwrap())
    }) else {
        return; // the web app is not built (CI builds it before the Rust tests)
    };
    let app = TestApp::new();
    for (path, file) in [
        ("/".to_string(), "index.html".to_string()),
        (format!("/assets/{script}"), format!("assets/{script}")),
    ] {
        let built = std::fs::read(dist.join(&file)).unwrap();
        let get = |encoding: Option<&str>, tag: Option<&str>| {
            let mut r = Request::get(path.as_str());
            if let Some(e) = encoding {
                r = r.header("accept-encoding", e);
            }
            if let Some(t) = tag {
                r = r.header("if-none-match", t);
            }
            app.send(r.body(Body::empty()).unwrap())
        };
        // A browser: gzip, the built file once inflated, and far fewer bytes.
        let resp = get(Some("gzip, deflate, br, zstd"), None).await;
        assert_eq!(resp.status(), 200, "{path}");
        assert_eq!(resp.headers()["content-encoding"], "gzip", "{path}");
        assert_eq!(resp.headers()["vary"], "accept-encoding", "{path}");
        let gz_tag = resp.headers()["etag"].to_str().unwrap().to_string();
        let gz = http_body_util::BodyExt::collect(resp.into_body())
            .await
            .unwrap()
            .to_bytes();
        assert!(
            gz.len() * 2 < built.len(),
            "{path}: {} of {}",
            gz.len(),
            built.len()
        );
        let mut inflated = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut inflated)
            .unwrap();
        assert!(inflated == built, "{path}: the gzip body is the built file");
        // No Accept-Encoding, or gzip refused: the built bytes as they are, under another tag.
        for encoding in [None, Some("gzip;q=0, identity"), Some("gzip;q=0, *")] {
            let resp = get(encoding, None).await;
            assert_eq!(resp.status(), 200, "{path}");
            assert!(resp.headers().get("content-encoding").is_none(), "{path}");
            let tag = resp.headers()["etag"].to_str().unwrap().to_string();
            assert_ne!(tag, gz_tag, "{path}");
            let body = http_body_util::BodyExt::collect(resp.into_body())
                .await
                .unwrap()
                .to_bytes();
            assert!(body == built, "{path}: the plain body is the built file");
            // Each tag revalidates its own representation only.
            assert_eq!(get(encoding, Some(&tag)).await.status(), 304, "{path}");
            assert_eq!(get(encoding, Some(&gz_tag)).await.status(), 200, "{path}");
        }
        // Any coding: gzip.
        let resp = get(Some("*"), None).await;
        assert_eq!(resp.headers()["content-encoding"], "gzip", "{path}");
        let resp = get(Some("gzip"), Some(&gz_tag)).await;
        assert_eq!(resp.status(), 304, "{path}");
        assert!(resp.headers().get("content-encoding").is_none(), "{path}");
    }
}

#[tokio::test]
async fn installable_app_files_have_their_types_and_are_revalidated() {
    let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web/dist");
    if !dist.join("sw.js").exists() {
        return; // the web app is not built (CI builds it before the Rust tests)
    }
    let app = TestApp::new();
    for (path, content_type, cache) in [
        (
            "/manifest.webmanifest",
            "application/manifest+json",
            "no-cache",
        ),
        ("/sw.js", "text/javascript; charset=utf-8", "no-cache"),
        ("/icon-192.png", "image/png", "public, max-age=3600"),
        ("/apple-touch-icon.png", "image/png", "public, max-age=3600"),
    ] {
        let resp = app
            .send(Request::get(path).body(Body::empty()).unwrap())
            .await;
        assert_eq!(resp.status(), 200, "{path}");
        assert_eq!(resp.headers()["content-type"], content_type, "{path}");
        assert_eq!(resp.headers()["cache-control"], cache, "{path}");
    }
}
