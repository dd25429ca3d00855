//! The real `mailclient` binary: the CLI, config errors, and `serve` over HTTP with its
//! health check, first-run link and schema checks.

mod common;

use common::{Server, run_cli};
use serde_json::{Value, json};

fn dir_arg(dir: &tempfile::TempDir) -> String {
    dir.path().display().to_string()
}

#[test]
fn bad_config_value_is_one_line_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir_arg(&dir);
    let out = run_cli(
        &["migrate", "--data-dir", &d],
        &[("MAILCLIENT_SERVER_LISTEN", "not-an-address")],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("server.listen") && err.contains("MAILCLIENT_SERVER_LISTEN"),
        "{err}"
    );
    assert!(!err.contains("panicked"));

    let cfg = dir.path().join("bad.toml");
    std::fs::write(&cfg, "[auth]\nsession_ttl_hours = \"forever\"\n").unwrap();
    let out = run_cli(&["--config", cfg.to_str().unwrap(), "migrate"], &[], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("auth.session_ttl_hours"), "{err}");

    let out = run_cli(
        &["migrate", "--config", "/nonexistent/mailclient.toml"],
        &[],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("cannot read config file")
    );
}

#[test]
fn example_config_is_valid_and_documents_every_key() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/config.example.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let parsed =
        mailclient::config::Config::from_sources(Some(&text), Some(path), &[], &Default::default())
            .unwrap();
    // The example holds the defaults, and names every key the code knows.
    assert_eq!(parsed, mailclient::config::Config::default());
    let defaults = toml::Value::try_from(serde_json::to_value(&parsed).unwrap()).unwrap();
    for (section, keys) in defaults.as_table().unwrap() {
        assert!(
            text.contains(&format!("[{section}]")),
            "[{section}] missing"
        );
        for key in keys.as_table().unwrap().keys() {
            assert!(
                text.contains(&format!("\n{key} =")),
                "{section}.{key} missing"
            );
        }
    }
}

/// Runs `mailclient <words...> --data-dir <dir>`: the global flag after the subcommand.
/// Words are split on spaces; arguments with spaces go through `run_cli` directly.
fn user_cli(dir: &str, words: &str) -> std::process::Output {
    let mut args: Vec<&str> = words.split(' ').collect();
    args.extend(["--data-dir", dir]);
    run_cli(&args, &[], None)
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn user_admin_commands() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir_arg(&dir);
    // Global flag after the subcommand...
    let add = [
        "user",
        "add",
        "dana",
        "--password",
        "password-1",
        "--admin",
        "--name",
        "דנה כהן",
    ];
    let out = run_cli(&[&add[..], &["--data-dir", &d]].concat(), &[], None);
    assert!(out.status.success(), "{}", stderr(&out));
    // ...and before it; the password read from standard input when not given.
    let out = run_cli(
        &["--data-dir", &d, "user", "add", "yossi"],
        &[],
        Some("password-2\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));

    // ...or from a file, kept out of the process list.
    let file = dir.path().join("password.txt");
    std::fs::write(&file, "password-from-file\n").unwrap();
    let out = run_cli(
        &[
            "--data-dir",
            &d,
            "user",
            "add",
            "noa",
            "--password-file",
            file.to_str().unwrap(),
        ],
        &[],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run_cli(
        &[
            "--data-dir",
            &d,
            "user",
            "passwd",
            "noa",
            "--password-file",
            "/nonexistent/pw",
        ],
        &[],
        None,
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("cannot read /nonexistent/pw"),
        "{}",
        stderr(&out)
    );

    let list = String::from_utf8(user_cli(&d, "user list").stdout).unwrap();
    assert!(list.contains("1\tdana\tadmin\tדנה כהן"), "{list}");
    assert!(list.contains("2\tyossi\tuser\tyossi"), "{list}");
    assert!(list.contains("3\tnoa\tuser\tnoa"), "{list}");

    let out = user_cli(&d, "user add DANA --password password-3");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("שם המשתמש כבר קיים"));

    let out = user_cli(&d, "user add short --password 1234");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("8 תווים"));

    assert!(
        user_cli(&d, "user passwd yossi --password password-9")
            .status
            .success()
    );
    assert!(user_cli(&d, "user remove yossi").status.success());
    let out = user_cli(&d, "user remove yossi");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("no user named yossi"));
    let list = String::from_utf8(user_cli(&d, "user list").stdout).unwrap();
    assert!(!list.contains("yossi"));
}

#[test]
fn migrate_reports_and_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir_arg(&dir);
    let out = run_cli(&["migrate", "--data-dir", &d], &[], None);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("applied migration 1: users and sessions"),
        "{text}"
    );
    let out = run_cli(&["migrate", "--data-dir", &d], &[], None);
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("up to date")
    );
}

#[test]
fn serve_refuses_a_newer_schema() {
    let dir = tempfile::tempdir().unwrap();
    {
        let (store, _) = mailclient::schema::open_and_migrate(dir.path()).unwrap();
        store
            .force_schema_version(mailclient::schema::SCHEMA_VERSION + 1)
            .unwrap();
    }
    let d = dir_arg(&dir);
    let out = run_cli(
        &["serve", "--listen", "127.0.0.1:0", "--data-dir", &d],
        &[],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("newer than this mailclient knows"), "{err}");
}

#[tokio::test(flavor = "multi_thread")]
async fn serve_first_run_login_and_restart() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &[]);
    let link = server
        .setup_link
        .clone()
        .expect("first run prints the setup link");
    assert!(
        link.starts_with(&format!("{}/#/setup?token=", server.base)),
        "the link names the bound port: {link}"
    );
    let token = server.setup_token().unwrap();
    // Not a terminal (the journal, here a pipe): the token is in no line serve printed, only in
    // a file of the data dir that this user alone may read.
    assert!(
        server
            .stdout
            .lock()
            .unwrap()
            .iter()
            .all(|l| !l.contains(&token)),
        "the setup token reached the log"
    );
    let link_file = dir.path().join(mailclient::auth::setup::LINK_FILE);
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&link_file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }
    let http = common::http().build().unwrap();

    let health: Value = http
        .get(server.url("/api/health"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(health["status"], "ok");
    assert!(
        health.get("version").is_none(),
        "no version for a stranger: {health}"
    );

    // The web app answers at / with the Hebrew RTL page.
    let index = http
        .get(server.url("/"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(index.contains("dir=\"rtl\""));

    let resp = http
        .post(server.url("/api/setup/admin"))
        .json(&json!({"token": token, "username": "admin", "name": "מנהל", "password": "admin-password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert!(!link_file.exists(), "the spent link's file is removed");
    let login: Value = http
        .post(server.url("/api/app/login"))
        .json(&json!({"username": "admin", "password": "admin-password"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(login["success"], true);
    let session = login["token"].as_str().unwrap().to_string();
    assert_eq!(server.stop().code(), Some(0), "SIGTERM is a clean shutdown");

    // After a restart: no setup link, and the session still works (it lives in the store).
    let server = Server::start(dir.path(), &[]);
    assert!(server.setup_link.is_none());
    let me = http
        .get(server.url("/api/app/me"))
        .header("authorization", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), 200);
    let me: Value = me.json().await.unwrap();
    assert_eq!(me["user"]["name"], "מנהל");
}

/// A self-signed certificate for 127.0.0.1 (not a CA: it is the server's own), made with the
/// openssl command line: (cert.pem, key.pem).
fn self_signed(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    let out = std::process::Command::new("openssl")
        .args(["req", "-x509", "-newkey", "ec", "-pkeyopt"])
        .args(["ec_paramgen_curve:prime256v1", "-nodes", "-days", "2"])
        .args(["-subj", "/CN=mailclient-test"])
        .args(["-addext", "subjectAltName=IP:127.0.0.1"])
        .args(["-addext", "basicConstraints=critical,CA:FALSE"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .output()
        .expect("the openssl command");
    assert!(out.status.success(), "{}", stderr(&out));
    (cert, key)
}

#[tokio::test]
async fn serve_speaks_https_with_its_own_certificate_and_sends_hsts() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = self_signed(dir.path());
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[server]\ntls_cert = \"{}\"\ntls_key = \"{}\"\n",
            cert.display(),
            key.display()
        ),
    )
    .unwrap();
    let data = dir.path().join("data");
    let server = Server::launch(&data, &["--config", config.to_str().unwrap()]);
    assert!(
        server.base.starts_with("https://127.0.0.1:"),
        "{}",
        server.base
    );

    let trusting = mailclient::mail::tls::TlsContext::new(std::slice::from_ref(&cert))
        .unwrap()
        .client_config(None, Default::default())
        .unwrap();
    let client = reqwest::Client::builder()
        .tls_backend_preconfigured((*trusting).clone())
        .build()
        .unwrap();
    let mut answer = None;
    for _ in 0..100 {
        match client.get(server.url("/api/health")).send().await {
            Ok(r) => {
                answer = Some(r);
                break;
            }
            Err(_) => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
        }
    }
    let answer = answer.expect("health over HTTPS");
    assert_eq!(answer.status(), 200);
    assert_eq!(
        answer.headers()["strict-transport-security"],
        "max-age=31536000"
    );
    let v: Value = answer.json().await.unwrap();
    assert_eq!(v["status"], "ok");
    // The first-run link names the HTTPS address.
    let link = server
        .stdout
        .lock()
        .unwrap()
        .iter()
        .any(|l| l.contains("https://127.0.0.1:"));
    assert!(link);

    // Plain HTTP on the TLS port gets no answer; a client that does not trust the
    // certificate is refused.
    let plain = server.base.replace("https://", "http://");
    let plain = common::http()
        .build()
        .unwrap()
        .get(format!("{plain}/api/health"))
        .send()
        .await;
    assert!(plain.map(|r| !r.status().is_success()).unwrap_or(true));
    let untrusting = common::http().build().unwrap();
    assert!(
        untrusting
            .get(server.url("/api/health"))
            .send()
            .await
            .is_err()
    );
    server.stop();
}

/// The lines `serve` logged that say the store was not closed cleanly: once `want` of them are
/// there, or after 5 s (for `want` 0, after half a second); its stderr is read by a thread of
/// its own, so a line may come a moment after the server answers.
fn unclean_lines(server: &Server, want: usize) -> Vec<String> {
    let wait = if want == 0 { 500 } else { 5_000 };
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(wait);
    loop {
        let found: Vec<String> = (server.stdout.lock().unwrap().iter())
            .filter(|l| l.contains("not closed cleanly"))
            .cloned()
            .collect();
        if (want > 0 && found.len() >= want) || std::time::Instant::now() >= deadline {
            return found;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// SIGTERM closes the store, so the next start opens it at once; a killed server's store is
/// checked page by page at the next start (14 s before listening at 1,000,000 messages), and
/// says so.
#[tokio::test(flavor = "multi_thread")]
async fn a_stopped_server_closes_its_store_and_a_killed_ones_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let added = user_cli(
        &dir_arg(&dir),
        "user add dana --password password-1 --admin",
    );
    assert!(added.status.success(), "{}", stderr(&added));
    let server = Server::start(dir.path(), &[]);
    assert_eq!(server.stop().code(), Some(0));

    let server = Server::start_logged(dir.path(), &[], "warn");
    assert_eq!(
        unclean_lines(&server, 0),
        Vec::<String>::new(),
        "after SIGTERM"
    );
    // A commit after the clean open (a session), so the kill leaves the file in need of the check.
    let login = common::http()
        .build()
        .unwrap()
        .post(server.url("/api/app/login"))
        .json(&json!({"username": "dana", "password": "password-1"}))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), 200);
    drop(server); // SIGKILL

    let server = Server::start_logged(dir.path(), &[], "warn");
    assert_eq!(unclean_lines(&server, 1).len(), 1, "after SIGKILL");
    assert_eq!(server.stop().code(), Some(0));
}
