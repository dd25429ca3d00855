//! Test fixtures: an in-process app for `oneshot` requests, and the real binary started on a
//! temp data dir and a free loopback port, polled until its health check answers.
#![allow(dead_code)]

pub mod agents;
pub mod binary_api;
pub mod folders;
pub mod https_standin;
pub mod imap_relay;
pub mod llm;
pub mod mailflow;
pub mod mailserver;
pub mod oauth_server;
pub mod routes;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, Response};
use http_body_util::BodyExt;
use mailclient::app::{AppState, app};
use mailclient::auth::setup::SetupGate;
use mailclient::config::{Config, Overrides};
use serde_json::Value;
use tower::ServiceExt;

pub struct TestApp {
    pub state: AppState,
    _dir: tempfile::TempDir,
}

impl TestApp {
    pub fn new() -> Self {
        Self::with_config("")
    }

    pub fn with_config(toml: &str) -> Self {
        // Tests drive the API faster than a person: the per-user limits stay out of the way
        // unless a test sets its own (tests/api/shell.rs checks them).
        let toml = if toml.contains("[limits]") {
            toml.to_string()
        } else {
            format!(
                "{toml}\n[limits]\nai_per_minute = 100000\nsearch_per_minute = 100000\nrefresh_per_minute = 100000\n\
                 rules_per_minute = 100000\nspam_debug_per_minute = 100000\ncontacts_import_per_minute = 100000\n\
                 builder_per_minute = 100000\nai_per_day = 1000000\n"
            )
        };
        let toml = toml.as_str();
        let dir = tempfile::tempdir().unwrap();
        let overrides = Overrides {
            data_dir: Some(dir.path().to_path_buf()),
            listen: None,
        };
        let config = Config::from_sources(Some(toml), None, &[], &overrides).unwrap();
        let (store, _) = mailclient::schema::open_and_migrate(dir.path()).unwrap();
        let state = mailclient::app::state(config, store).unwrap();
        // The scheduler with every job, as `serve` runs it (only inside a runtime: some tests
        // are sync).
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            // Prepared before the test goes on (the change-log readers placed), as `serve` does
            // before it syncs.
            mailclient::app::prepare(&state).unwrap();
            let s = state.clone();
            rt.spawn(async move { mailclient::app::start_scheduler(&s).await.unwrap() });
            // The change feed, which wakes the jobs that follow new mail (quicker than `serve`'s).
            let _guard = rt.enter();
            state.changes.spawn(Duration::from_millis(50));
        }
        // The search indexer, as `serve` runs it (a thread: it needs no runtime).
        state
            .service::<mailclient::search::Search>()
            .spawn_indexer(Duration::from_millis(50), Duration::from_millis(50));
        Self { state, _dir: dir }
    }

    pub async fn send(&self, req: Request<Body>) -> Response<Body> {
        app(self.state.clone()).oneshot(req).await.unwrap()
    }

    /// Sends a request and returns the status and the body parsed as JSON.
    pub async fn json(
        &self,
        method: &str,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut b = Request::builder().method(method).uri(uri);
        if let Some(t) = token {
            b = b.header("authorization", t);
        }
        let req = match body {
            Some(v) => b
                .header("content-type", "application/json")
                .body(Body::from(v.to_string()))
                .unwrap(),
            None => b.body(Body::empty()).unwrap(),
        };
        let resp = self.send(req).await;
        let status = resp.status().as_u16();
        let bytes = resp.into_body().collect().await.unwrap().to_bytes();
        let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        (status, value)
    }

    /// Sets the user's time zone to [`midday_zone`] and returns it.
    pub async fn set_midday_zone(&self, token: &str) -> chrono_tz::Tz {
        let (name, tz) = midday_zone();
        let (s, v) = self
            .json("GET", "/api/settings/sync", Some(token), None)
            .await;
        assert_eq!(s, 200, "{v}");
        let body = timezone_update(&name, &v["version"]);
        let (s, v) = self
            .json("PUT", "/api/settings/sync", Some(token), Some(body))
            .await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["syncedSettings"]["timezone"], name.as_str(), "{v}");
        tz
    }

    /// Creates the first admin through the setup gate and returns a session token.
    pub async fn admin_token(&self, username: &str, password: &str) -> String {
        let token = self
            .state
            .service::<SetupGate>()
            .token()
            .expect("setup is open");
        let (s, _) = self
            .json(
                "POST",
                "/api/setup/admin",
                None,
                Some(serde_json::json!({"token": token, "username": username, "name": "מנהלת", "password": password})),
            )
            .await;
        assert_eq!(s, 200);
        self.login(username, password).await
    }

    pub async fn login(&self, username: &str, password: &str) -> String {
        let (s, v) = self
            .json(
                "POST",
                "/api/app/login",
                None,
                Some(serde_json::json!({"username": username, "password": password})),
            )
            .await;
        assert_eq!(s, 200, "{v}");
        v["token"].as_str().unwrap().to_string()
    }

    /// A user who is not an admin, made by `admin` and signed in: (token, id).
    pub async fn plain_user(&self, admin: &str, name: &str) -> (String, u64) {
        let body =
            serde_json::json!({"username": name, "name": name, "password": "plain-password-1"});
        let (s, v) = self
            .json("POST", "/api/admin/users", Some(admin), Some(body))
            .await;
        assert_eq!(s, 200, "{v}");
        let id = v["user"]["id"].as_u64().unwrap();
        (self.login(name, "plain-password-1").await, id)
    }
}

/// A zone without summer time whose local time is now between 12:00 and 12:59 (`Etc/GMT-N`
/// is UTC+N). A test that counts what happened "today" in the user's zone, or looks at the
/// weekday there, sets it as the user's `timezone` first: its midnight is then eleven hours
/// away or more, whenever the test runs (in Asia/Jerusalem, a run at 21:59 UTC in winter
/// crosses into the next day part way through).
pub fn midday_zone() -> (String, chrono_tz::Tz) {
    use chrono::Timelike;
    let east = 12 - chrono::Utc::now().hour() as i32; // -11..=12
    let name = match east {
        0 => "Etc/GMT".to_string(),
        e if e > 0 => format!("Etc/GMT-{e}"),
        e => format!("Etc/GMT+{}", -e),
    };
    let tz = name.parse().expect("an Etc zone");
    (name, tz)
}

/// The `PUT /api/settings/sync` body that sets the user's time zone to `name`.
pub fn timezone_update(name: &str, base_version: &serde_json::Value) -> serde_json::Value {
    serde_json::json!({"settingsUpdate": {"timezone": name},
        "settingsType": "general", "baseVersion": base_version})
}

/// An HTTP client for the tests, on the binary's own TLS (ring, the system's trust store):
/// reqwest is built without a crypto provider of its own, so its default client would panic.
pub fn http() -> reqwest::ClientBuilder {
    reqwest::Client::builder()
        .tls_backend_preconfigured(mailclient::mail::tls::system_https().expect("TLS config"))
}

pub async fn body_text(resp: Response<Body>) -> String {
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Calls `method path body` `allowed` times as `token` (any answer but 429), then once more:
/// 429 `rate_limited` with a Hebrew message starting `message` and saying when to retry.
pub async fn assert_limited(
    app: &TestApp,
    token: &str,
    (method, path, body): (&str, &str, Option<serde_json::Value>),
    allowed: usize,
    message: &str,
) {
    for _ in 0..allowed {
        let (s, v) = app.json(method, path, Some(token), body.clone()).await;
        assert_ne!(s, 429, "{path}: {v}");
    }
    let (s, v) = app.json(method, path, Some(token), body).await;
    assert_eq!(
        (s, v["error"].as_str()),
        (429, Some("rate_limited")),
        "{path}: {v}"
    );
    let text = v["message"].as_str().unwrap();
    assert!(
        text.starts_with(message) && text.contains("נסה שוב בעוד"),
        "{text}"
    );
    assert!(v["retryAfterSecs"].as_u64().unwrap() >= 1, "{v}");
}

pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_mailclient"))
}

/// Runs the binary to completion with `args` and the given environment.
pub fn run_cli(args: &[&str], env: &[(&str, &str)], stdin: Option<&str>) -> std::process::Output {
    use std::io::Write;
    let mut cmd = Command::new(binary());
    cmd.args(args)
        .env_remove("MAILCLIENT_CONFIG")
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    if let Some(s) = stdin {
        input.write_all(s.as_bytes()).unwrap();
    }
    drop(input);
    child.wait_with_output().unwrap()
}

/// A settings backup file (base64) as anyone could make one: `sections` sealed with `master`.
pub fn sealed_backup(master: &str, sections: serde_json::Value) -> String {
    use base64::Engine;
    let plain = serde_json::json!({"format": "mailclient-settings", "version": 1,
                                   "createdAt": "2026-01-01T00:00:00Z", "sections": sections});
    let blob = mailclient::backup::seal::seal(master, plain.to_string().as_bytes());
    base64::engine::general_purpose::STANDARD.encode(blob)
}

/// What `serve` prints before the path of the first-run link's file.
pub const SETUP_LINK_IS_IN: &str = "The one-time link to create the first admin is in ";

/// The real `mailclient serve`, on a free loopback port. Killed on drop.
pub struct Server {
    child: Child,
    pub base: String,
    pub setup_link: Option<String>,
    pub stdout: Arc<Mutex<Vec<String>>>,
}

impl Server {
    pub fn start(data_dir: &Path, extra_args: &[&str]) -> Self {
        let mut server = Self::launch(data_dir, extra_args);
        server.wait_healthy();
        server.setup_link = server.find_setup_link();
        server
    }

    /// The first-run link: printed on a terminal, else (as here, stdout is a pipe) in the 0600
    /// file whose path `serve` printed.
    fn find_setup_link(&self) -> Option<String> {
        let lines = self.stdout.lock().unwrap();
        if let Some(l) = lines.iter().find(|l| l.contains("/#/setup?token=")) {
            return Some(l.trim().to_string());
        }
        let path = lines.iter().find_map(|l| {
            let rest = l.split(SETUP_LINK_IS_IN).nth(1)?;
            Some(rest.split(" (").next()?.trim().to_string())
        })?;
        Some(std::fs::read_to_string(path).ok()?.trim().to_string())
    }

    /// Started and listening, not yet probed (an HTTPS server: the probe speaks plain HTTP).
    pub fn launch(data_dir: &Path, extra_args: &[&str]) -> Self {
        Self::launch_with_log(data_dir, extra_args, None)
    }

    /// Started with `RUST_LOG=level`, its log (stderr) kept in `stdout` with the rest: for
    /// tests that read what the server logs.
    pub fn start_logged(data_dir: &Path, extra_args: &[&str], level: &str) -> Self {
        let server = Self::launch_with_log(data_dir, extra_args, Some(level));
        server.wait_healthy();
        server
    }

    fn launch_with_log(data_dir: &Path, extra_args: &[&str], level: Option<&str>) -> Self {
        let mut cmd = Command::new(binary());
        cmd.args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
            .arg(data_dir)
            .args(extra_args)
            .env_remove("MAILCLIENT_CONFIG")
            .env("RUST_LOG", level.unwrap_or("warn"))
            .stdout(Stdio::piped())
            .stderr(if level.is_some() {
                Stdio::piped()
            } else {
                Stdio::inherit()
            });
        let mut child = cmd.spawn().unwrap();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let out = child.stdout.take().unwrap();
        let sink = lines.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        if let Some(err) = child.stderr.take() {
            let sink = lines.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(err).lines().map_while(Result::ok) {
                    sink.lock().unwrap().push(line);
                }
            });
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        let base = loop {
            if let Some(l) = lines.lock().unwrap().iter().find_map(|l| {
                l.strip_prefix("mailclient listening on ")
                    .map(str::to_string)
            }) {
                break l;
            }
            if let Ok(Some(status)) = child.try_wait() {
                panic!("serve exited early: {status}");
            }
            assert!(Instant::now() < deadline, "serve did not start");
            std::thread::sleep(Duration::from_millis(50));
        };
        Self {
            child,
            base,
            setup_link: None,
            stdout: lines,
        }
    }

    /// Polls `GET /api/health` until it answers ok.
    fn wait_healthy(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        let url = format!("{}/api/health", self.base);
        loop {
            if probe::health_ok(&url).unwrap_or(false) {
                return;
            }
            assert!(Instant::now() < deadline, "health check never answered");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    pub fn setup_token(&self) -> Option<String> {
        self.setup_link
            .as_ref()
            .and_then(|l| l.split("token=").nth(1))
            .map(str::to_string)
    }

    /// Stops the server with SIGTERM and waits for a clean exit.
    pub fn stop(mut self) -> std::process::ExitStatus {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Ok(Some(s)) = self.child.try_wait() {
                return s;
            }
            assert!(Instant::now() < deadline, "serve ignored SIGTERM");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

mod probe {
    /// A tiny blocking health probe over a raw socket, so the poller needs no runtime.
    pub fn health_ok(url: &str) -> std::io::Result<bool> {
        use std::io::{Read, Write};
        let rest = url.strip_prefix("http://").unwrap();
        let (host, path) = rest.split_once('/').unwrap();
        let mut s = std::net::TcpStream::connect(host)?;
        s.set_read_timeout(Some(std::time::Duration::from_secs(2)))?;
        write!(
            s,
            "GET /{path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )?;
        let mut buf = String::new();
        s.read_to_string(&mut buf)?;
        Ok(buf.starts_with("HTTP/1.1 200") && buf.contains("\"status\":\"ok\""))
    }
}
