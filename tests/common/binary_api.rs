//! The real binary over HTTP: signing in as the admin created on the command line, and the
//! few calls tests make with a kept-alive client.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::mailserver::MailServer;
use super::{Server, run_cli};

/// `mailclient user add dana --admin` on a data dir (password "correct horse 1").
pub fn add_admin(data: &Path, config: &str) {
    let out = run_cli(
        &[
            "--config",
            config,
            "--data-dir",
            data.to_str().unwrap(),
            "user",
            "add",
            "dana",
            "--admin",
        ],
        &[],
        Some("correct horse 1\n"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A temp data dir holding the admin, and a config file trusting `ms`'s CA: what the real
/// binary is started with (and restarted with, on the same data).
pub struct BinaryEnv {
    _dir: tempfile::TempDir,
    pub data: std::path::PathBuf,
    pub config: String,
}

impl BinaryEnv {
    pub fn new(ms: &MailServer) -> Self {
        Self::with_config(ms, "")
    }

    /// With more TOML after the mail server's (an `[ai]` section, …).
    pub fn with_config(ms: &MailServer, extra: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let cfg = dir.path().join("config.toml");
        std::fs::write(&cfg, format!("{}\n{extra}", ms.config_toml())).unwrap();
        let config = cfg.to_str().unwrap().to_string();
        add_admin(&data, &config);
        Self {
            _dir: dir,
            data,
            config,
        }
    }

    pub fn start(&self) -> Server {
        Server::start(&self.data, &["--config", &self.config])
    }
}

pub struct Api {
    pub client: reqwest::Client,
    pub base: String,
    pub token: String,
}

impl Api {
    /// Signs in as the admin `add_admin` made.
    pub async fn login(server: &Server) -> Self {
        Self::login_as(server, "dana", "correct horse 1").await
    }

    pub async fn login_as(server: &Server, username: &str, password: &str) -> Self {
        let client = super::http().build().unwrap();
        let v: Value = client
            .post(server.url("/api/app/login"))
            .json(&json!({"username": username, "password": password}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        Self {
            client,
            base: server.base.clone(),
            token: v["token"].as_str().expect("token").to_string(),
        }
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.base))
            .header("authorization", &self.token)
            .send()
            .await
            .unwrap()
    }

    pub async fn sync_status(&self) -> Value {
        let v: Value = self.get("/api/auth/accounts").await.json().await.unwrap();
        v["accounts"][0]["sync"].clone()
    }

    pub async fn inbox_total(&self) -> usize {
        let r = self.get("/api/emails/inbox?perPage=1").await;
        r.headers()["x-total-count"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap()
    }

    /// Connects `user`'s mailbox and waits for its first sync.
    pub async fn connect_synced(&self, ms: &MailServer, user: &str) {
        assert_eq!(
            self.post("/api/auth/login", ms.account(user))
                .await
                .status(),
            200
        );
        self.wait_synced().await;
    }

    pub async fn wait_synced(&self) -> Value {
        let deadline = Instant::now() + Duration::from_secs(180);
        loop {
            let s = self.sync_status().await;
            if s["initialSyncDone"] == true && s["state"] == "idle" {
                return s;
            }
            assert!(Instant::now() < deadline, "sync did not finish: {s}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

impl Api {
    pub async fn post(&self, path: &str, body: Value) -> reqwest::Response {
        self.client
            .post(format!("{}{path}", self.base))
            .header("authorization", &self.token)
            .json(&body)
            .send()
            .await
            .unwrap()
    }

    /// Sets the user's time zone to [`super::midday_zone`] and returns it.
    pub async fn set_midday_zone(&self) -> chrono_tz::Tz {
        let (name, tz) = super::midday_zone();
        let version = self.get_json("/api/settings/sync").await["version"].clone();
        let r = self
            .client
            .put(format!("{}/api/settings/sync", self.base))
            .header("authorization", &self.token)
            .json(&super::timezone_update(&name, &version))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["syncedSettings"]["timezone"], name.as_str(), "{v}");
        tz
    }

    pub async fn get_json(&self, path: &str) -> Value {
        let r = self.get(path).await;
        assert_eq!(r.status(), 200, "{path}");
        r.json().await.unwrap()
    }
}
