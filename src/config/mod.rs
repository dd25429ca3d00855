//! Configuration: built-in defaults, then the TOML file, then `MAILCLIENT_<SECTION>_<KEY>`
//! environment variables, then command-line flags. Every key is documented in
//! `config.example.toml`; a bad value is one clear line naming the key, never a panic.
//!
//! This file only loads; each section is a file of its own (`mail.rs`: [`MailConfig`], its
//! defaults and `MailConfig::check`), and `Config::validate` calls each section's check
//! through a `check::Check` that names the key and where its value came from.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

mod ai;
mod auth;
mod builder;
mod check;
mod compose;
mod limits;
mod log;
mod mail;
mod oauth;
mod push;
mod search;
mod server;
mod storage;
mod unsubscribe;

pub use ai::AiConfig;
pub use auth::AuthConfig;
pub use builder::BuilderConfig;
pub use check::base_url_ok;
use check::{Check, Checked};
pub use compose::ComposeConfig;
pub use limits::LimitsConfig;
pub use log::LogConfig;
pub use mail::MailConfig;
use oauth::NESTED_SECTIONS;
pub use oauth::{GoogleOAuthConfig, MicrosoftOAuthConfig, OAuthConfig};
pub use push::PushConfig;
pub use search::{SERVE_WRITER_MB, SearchConfig, WriterOptions};
pub use server::{ServerConfig, parse_network};
pub use storage::StorageConfig;
pub use unsubscribe::UnsubscribeConfig;

/// Environment variables with this prefix override config keys.
pub const ENV_PREFIX: &str = "MAILCLIENT_";

#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub server: ServerConfig,
    pub storage: StorageConfig,
    pub auth: AuthConfig,
    pub mail: MailConfig,
    pub compose: ComposeConfig,
    pub ai: AiConfig,
    pub search: SearchConfig,
    pub limits: LimitsConfig,
    pub builder: BuilderConfig,
    pub unsubscribe: UnsubscribeConfig,
    pub oauth: OAuthConfig,
    pub push: PushConfig,
    pub log: LogConfig,
}

/// A configuration error: one line, naming the key and where its value came from.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("{0}")]
pub struct ConfigError(pub String);

/// Overrides given on the command line; they win over the file and the environment.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    pub data_dir: Option<PathBuf>,
    pub listen: Option<String>,
}

impl Config {
    /// Loads the configuration: defaults, then `path` (if given), then the environment, then
    /// `overrides`. The file is required to exist when a path is given explicitly.
    pub fn load(path: Option<&Path>, overrides: &Overrides) -> Result<Self, ConfigError> {
        let env: Vec<(String, String)> = std::env::vars().collect();
        let file_text = match path {
            Some(p) => Some(std::fs::read_to_string(p).map_err(|e| {
                ConfigError(format!("cannot read config file {}: {e}", p.display()))
            })?),
            None => None,
        };
        let origin = path.map(|p| p.display().to_string());
        Self::from_sources(file_text.as_deref(), origin.as_deref(), &env, overrides)
    }

    /// The pure part of [`Config::load`], so tests can drive it without touching the process
    /// environment.
    pub fn from_sources(
        file_text: Option<&str>,
        file_name: Option<&str>,
        env: &[(String, String)],
        overrides: &Overrides,
    ) -> Result<Self, ConfigError> {
        let file_label = file_name.unwrap_or("config file");
        let mut table: toml::Table = match file_text {
            Some(text) => toml::from_str(text).map_err(|e| {
                ConfigError(format!(
                    "{file_label}: {}",
                    e.message().lines().next().unwrap_or("invalid TOML")
                ))
            })?,
            None => toml::Table::new(),
        };
        // Which keys came from which environment variable, for the error message.
        let mut sources: BTreeMap<String, String> = BTreeMap::new();
        for (name, value) in env {
            let Some(rest) = name.strip_prefix(ENV_PREFIX) else {
                continue;
            };
            let Some((section, key)) = rest.split_once('_') else {
                continue;
            };
            let (section, key) = (section.to_ascii_lowercase(), key.to_ascii_lowercase());
            let (section, key) = nested(&section, &key);
            let entry = table
                .entry(section.clone())
                .or_insert_with(|| toml::Value::Table(toml::Table::new()));
            let Some(section_table) = entry.as_table_mut() else {
                return Err(ConfigError(format!(
                    "{file_label}: `{section}` must be a section ([{section}])"
                )));
            };
            let (target, path) = match key.split_once('.') {
                Some((sub, key)) => {
                    let sub_entry = section_table
                        .entry(sub.to_string())
                        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
                    let Some(sub_table) = sub_entry.as_table_mut() else {
                        return Err(ConfigError(format!(
                            "{file_label}: `{section}.{sub}` must be a section ([{section}.{sub}])"
                        )));
                    };
                    (sub_table, key.to_string())
                }
                None => (section_table, key.clone()),
            };
            target.insert(path, env_value(value));
            sources.insert(format!("{section}.{key}"), name.clone());
        }

        let mut config: Config = serde_path_to_error::deserialize(toml::Value::Table(table))
            .map_err(|e| {
                let key = e.path().to_string();
                let from = sources
                    .get(&key)
                    .map(|var| format!(" (from {var})"))
                    .unwrap_or_default();
                ConfigError(format!(
                    "invalid config value for `{key}`{from}: {}",
                    e.inner().to_string().lines().next().unwrap_or_default()
                ))
            })?;

        if let Some(dir) = &overrides.data_dir {
            config.storage.data_dir = dir.clone();
            sources.insert("storage.data_dir".into(), "--data-dir".into());
        }
        if let Some(listen) = &overrides.listen {
            config.server.listen = listen.clone();
            sources.insert("server.listen".into(), "--listen".into());
        }
        config.validate(&sources)?;
        Ok(config)
    }

    /// Each section checks its own values, in the order of the sections: the first bad one is
    /// the error.
    fn validate(&self, sources: &BTreeMap<String, String>) -> Checked {
        let check = |section: &str| Check::new(section, sources);
        self.server.check(&check("server"))?;
        self.storage.check(&check("storage"))?;
        self.auth.check(&check("auth"))?;
        self.mail.check(&check("mail"))?;
        self.compose.check(&check("compose"))?;
        self.ai.check(&check("ai"))?;
        self.search.check(&check("search"))?;
        self.limits.check(&check("limits"))?;
        self.builder.check(&check("builder"))?;
        self.unsubscribe.check(&check("unsubscribe"))?;
        self.oauth.check(&check("oauth"))?;
        self.push.check(&check("push"))?;
        self.log.check(&check("log"))
    }

    /// `[server] public_url` when it is HTTPS: where a provider may send the browser back.
    pub fn https_public_url(&self) -> Option<&str> {
        let url = self.server.public_url.trim_end_matches('/');
        url.starts_with("https://").then_some(url)
    }

    pub fn listen_addr(&self) -> SocketAddr {
        // Checked by `validate`.
        self.server
            .listen
            .parse()
            .expect("server.listen was validated")
    }

    /// The base URL people open in their browser, given the address actually bound (the
    /// configured port may be 0). An unspecified bind address (0.0.0.0) is shown as loopback;
    /// set `server.public_url` to print the LAN name instead.
    pub fn public_url(&self, bound: SocketAddr) -> String {
        if !self.server.public_url.is_empty() {
            return self.server.public_url.trim_end_matches('/').to_string();
        }
        let mut shown = bound;
        if shown.ip().is_unspecified() {
            shown.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
        }
        let scheme = if self.tls_files().is_some() {
            "https"
        } else {
            "http"
        };
        format!("{scheme}://{shown}")
    }

    /// `[server] tls_cert` and `tls_key` when HTTPS is on (the checks made them a pair).
    pub fn tls_files(&self) -> Option<(&Path, &Path)> {
        let (cert, key) = (&self.server.tls_cert, &self.server.tls_key);
        (!cert.as_os_str().is_empty()).then_some((cert.as_path(), key.as_path()))
    }
}

/// `(section, key)` of an environment variable, with a nested section's name moved into the
/// key: `oauth`, `google_client_id` → `oauth`, `google.client_id`.
fn nested(section: &str, key: &str) -> (String, String) {
    for (outer, inner) in NESTED_SECTIONS {
        if section == *outer {
            for sub in *inner {
                if let Some(rest) = key.strip_prefix(sub).and_then(|r| r.strip_prefix('_')) {
                    return (section.to_string(), format!("{sub}.{rest}"));
                }
            }
        }
    }
    (section.to_string(), key.to_string())
}

/// An environment value is read as a TOML literal when it is one (numbers, booleans, arrays),
/// otherwise as a plain string, so `MAILCLIENT_SERVER_LISTEN=127.0.0.1:9000` needs no quotes.
fn env_value(raw: &str) -> toml::Value {
    let parsed: Result<toml::Table, _> = toml::from_str(&format!("v = {raw}"));
    match parsed.ok().and_then(|mut t| t.remove("v")) {
        Some(v) if !v.is_table() => v,
        _ => toml::Value::String(raw.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn defaults_work_with_no_file() {
        let c = Config::from_sources(None, None, &[], &Overrides::default()).unwrap();
        assert_eq!(c.server.listen, "127.0.0.1:8080");
        assert_eq!(c.storage.data_dir, PathBuf::from("./data"));
        assert_eq!(
            c.public_url("127.0.0.1:8080".parse().unwrap()),
            "http://127.0.0.1:8080"
        );
        assert_eq!(
            c.public_url("0.0.0.0:9000".parse().unwrap()),
            "http://127.0.0.1:9000"
        );
    }

    #[test]
    fn file_then_env_then_flags() {
        let file = "[server]\nlisten = \"127.0.0.1:9000\"\n[auth]\nsession_ttl_hours = 5\n";
        let e = env(&[
            ("MAILCLIENT_AUTH_SESSION_TTL_HOURS", "7"),
            ("MAILCLIENT_STORAGE_DATA_DIR", "/tmp/x"),
            ("UNRELATED", "1"),
        ]);
        let c = Config::from_sources(Some(file), None, &e, &Overrides::default()).unwrap();
        assert_eq!(c.server.listen, "127.0.0.1:9000");
        assert_eq!(c.auth.session_ttl_hours, 7);
        assert_eq!(c.storage.data_dir, PathBuf::from("/tmp/x"));

        let o = Overrides {
            listen: Some("127.0.0.1:9100".into()),
            data_dir: Some("/srv/mail".into()),
        };
        let c = Config::from_sources(Some(file), None, &e, &o).unwrap();
        assert_eq!(c.server.listen, "127.0.0.1:9100");
        assert_eq!(c.storage.data_dir, PathBuf::from("/srv/mail"));
    }

    #[test]
    fn oauth_sections_come_from_the_file_or_the_environment() {
        let c = Config::from_sources(None, None, &[], &Overrides::default()).unwrap();
        assert!(c.oauth.google.is_none() && c.oauth.microsoft.is_none());
        let e = env(&[
            (
                "MAILCLIENT_OAUTH_GOOGLE_CLIENT_ID",
                "id.apps.googleusercontent.com",
            ),
            ("MAILCLIENT_OAUTH_GOOGLE_CLIENT_SECRET", "s"),
            ("MAILCLIENT_OAUTH_MICROSOFT_TENANT", "consumers"),
        ]);
        let file = "[oauth.microsoft]\nclient_id = \"abc\"\n";
        let c = Config::from_sources(Some(file), None, &e, &Overrides::default()).unwrap();
        let g = c.oauth.google.unwrap();
        assert_eq!(g.client_id, "id.apps.googleusercontent.com");
        assert_eq!(g.token_url, "https://oauth2.googleapis.com/token");
        let m = c.oauth.microsoft.unwrap();
        assert_eq!(
            (m.client_id.as_str(), m.tenant.as_str()),
            ("abc", "consumers")
        );
        assert_eq!(
            m.token_endpoint(),
            "https://login.microsoftonline.com/consumers/oauth2/v2.0/token"
        );
        // A section without its client id names the key and the variable.
        let e = env(&[("MAILCLIENT_OAUTH_GOOGLE_CLIENT_SECRET", "s")]);
        let err = Config::from_sources(None, None, &e, &Overrides::default()).unwrap_err();
        assert!(err.0.contains("oauth.google.client_id"), "{err}");
        let e = env(&[
            ("MAILCLIENT_OAUTH_MICROSOFT_CLIENT_ID", "abc"),
            ("MAILCLIENT_OAUTH_MICROSOFT_TOKEN_URL", "ftp://x"),
        ]);
        let err = Config::from_sources(None, None, &e, &Overrides::default()).unwrap_err();
        assert!(
            err.0.contains(
                "`oauth.microsoft.token_url` (from MAILCLIENT_OAUTH_MICROSOFT_TOKEN_URL)"
            ),
            "{err}"
        );
    }

    #[test]
    fn env_listen_needs_no_quotes() {
        let e = env(&[("MAILCLIENT_SERVER_LISTEN", "127.0.0.1:9000")]);
        let c = Config::from_sources(None, None, &e, &Overrides::default()).unwrap();
        assert_eq!(c.listen_addr().port(), 9000);
    }

    #[test]
    fn the_ai_endpoint_comes_from_the_environment_and_is_checked() {
        let e = env(&[
            ("MAILCLIENT_AI_BASE_URL", "http://127.0.0.1:11434/v1"),
            ("MAILCLIENT_AI_PROVIDER", "openai"),
            ("MAILCLIENT_AI_TIMEOUT_SECS", "5"),
        ]);
        let c = Config::from_sources(None, None, &e, &Overrides::default()).unwrap();
        assert_eq!(c.ai.base_url, "http://127.0.0.1:11434/v1");
        assert_eq!((c.ai.provider.as_str(), c.ai.timeout_secs), ("openai", 5));
        let e = env(&[("MAILCLIENT_AI_PROVIDER", "gemini")]);
        let err = Config::from_sources(None, None, &e, &Overrides::default()).unwrap_err();
        assert!(
            err.0
                .contains("`ai.provider` (from MAILCLIENT_AI_PROVIDER)"),
            "{err}"
        );
    }

    #[test]
    fn wrong_type_names_the_key_and_variable() {
        let e = env(&[("MAILCLIENT_AUTH_SESSION_TTL_HOURS", "soon")]);
        let err = Config::from_sources(None, None, &e, &Overrides::default()).unwrap_err();
        assert!(err.0.contains("`auth.session_ttl_hours`"), "{err}");
        assert!(err.0.contains("MAILCLIENT_AUTH_SESSION_TTL_HOURS"), "{err}");
        assert!(!err.0.contains('\n'));
    }

    #[test]
    fn bad_listen_is_one_line_naming_the_key() {
        let err = Config::from_sources(
            Some("[server]\nlisten = \"nowhere\""),
            None,
            &[],
            &Overrides::default(),
        )
        .unwrap_err();
        assert_eq!(
            err.0,
            "invalid config value for `server.listen`: \"nowhere\": expected an address and port such as 127.0.0.1:8080"
        );
    }

    #[test]
    fn unknown_key_is_rejected() {
        let err = Config::from_sources(
            Some("[server]\nlisen = \"x\""),
            None,
            &[],
            &Overrides::default(),
        )
        .unwrap_err();
        assert!(err.0.contains("server"), "{err}");
        assert!(err.0.contains("lisen"), "{err}");
    }

    #[test]
    fn broken_toml_names_the_file() {
        let err =
            Config::from_sources(Some("[server"), Some("my.toml"), &[], &Overrides::default())
                .unwrap_err();
        assert!(err.0.starts_with("my.toml:"), "{err}");
    }

    #[test]
    fn mail_host_limits_are_read_and_checked() {
        let file = "[mail]\nallowed_hosts = [\"imap.gmail.com\", \"*.example.org\", \"10.0.0.5\", \"::1\"]\ndeny_private_ranges = true\n";
        let c = Config::from_sources(Some(file), None, &[], &Overrides::default()).unwrap();
        assert_eq!(c.mail.allowed_hosts.len(), 4);
        assert!(c.mail.deny_private_ranges);
        let e = env(&[("MAILCLIENT_MAIL_DENY_PRIVATE_RANGES", "true")]);
        let c = Config::from_sources(None, None, &e, &Overrides::default()).unwrap();
        assert!(c.mail.deny_private_ranges);
        for bad in [
            "imaps://imap.gmail.com",
            "imap.gmail.com:993",
            "",
            "a..b",
            "*.",
            "*.10.0.0.1",
            "two words",
        ] {
            let file = format!("[mail]\nallowed_hosts = [{bad:?}]\n");
            let err =
                Config::from_sources(Some(&file), None, &[], &Overrides::default()).unwrap_err();
            assert!(err.0.contains("`mail.allowed_hosts`"), "{bad}: {err}");
        }
    }

    #[test]
    fn zero_ttl_is_rejected() {
        let err = Config::from_sources(
            Some("[auth]\nsession_ttl_hours = 0"),
            None,
            &[],
            &Overrides::default(),
        )
        .unwrap_err();
        assert!(err.0.contains("auth.session_ttl_hours"));
    }

    #[test]
    fn limits_and_idle_hours_are_checked() {
        let load = |toml: &str| Config::from_sources(Some(toml), None, &[], &Overrides::default());
        for (toml, key) in [
            (
                "[server]\nrequest_timeout_secs = 1",
                "server.request_timeout_secs",
            ),
            ("[server]\nmax_connections = 0", "server.max_connections"),
            (
                "[server]\nmax_connections = 100\nmax_connections_per_client = 101",
                "server.max_connections_per_client",
            ),
            (
                "[server]\nfirst_byte_timeout_secs = 0",
                "server.first_byte_timeout_secs",
            ),
            (
                "[server]\nmin_body_bytes_per_sec = 0",
                "server.min_body_bytes_per_sec",
            ),
            ("[auth]\nsession_idle_hours = 0", "auth.session_idle_hours"),
            (
                "[auth]\nsession_idle_hours = 9000",
                "auth.session_idle_hours",
            ),
            ("[limits]\nai_per_minute = 0", "limits.ai_per_minute"),
            (
                "[limits]\nsearch_per_minute = 0",
                "limits.search_per_minute",
            ),
            (
                "[limits]\nrefresh_per_minute = 0",
                "limits.refresh_per_minute",
            ),
            ("[limits]\nai_per_day = 0", "limits.ai_per_day"),
            ("[limits]\nrules_per_minute = 0", "limits.rules_per_minute"),
            (
                "[limits]\nbuilder_per_minute = 0",
                "limits.builder_per_minute",
            ),
        ] {
            let err = load(toml).unwrap_err();
            assert!(err.0.contains(&format!("`{key}`")), "{toml}: {err}");
        }
        // An idle limit past the lifetime is allowed: the lifetime ends the session first.
        load("[auth]\nsession_ttl_hours = 5").unwrap();
    }
}
