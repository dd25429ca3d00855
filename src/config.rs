//! Configuration: built-in defaults, then the TOML file, then `MAILCLIENT_<SECTION>_<KEY>`
//! environment variables, then command-line flags. Every key is documented in
//! `config.example.toml`; a bad value is one clear line naming the key, never a panic.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::crypto::Secret;

mod network;
pub use network::{LimitsConfig, parse_network};

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
    pub oauth: OAuthConfig,
    pub log: LogConfig,
}

/// OAuth2 sign-in (XOAUTH2) to Gmail and Microsoft mailboxes: each provider is on when its
/// section is present (`[oauth.google]`, `[oauth.microsoft]`). The endpoint URLs default to the
/// providers' own; they are settable so tests (and an admin's proxy) can point elsewhere.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct OAuthConfig {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub google: Option<GoogleOAuthConfig>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub microsoft: Option<MicrosoftOAuthConfig>,
    /// Seconds to wait for one answer of a provider's token endpoint (1 to 60).
    pub timeout_secs: u64,
}

/// `[oauth.google]`: an OAuth client of Google Cloud (a desktop-type client for the pasted
/// loopback redirect; a web client whose redirect URI is
/// `{public_url}/api/oauth/google/callback` when `[server] public_url` is HTTPS).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct GoogleOAuthConfig {
    pub client_id: String,
    pub client_secret: Secret,
    pub auth_url: String,
    pub token_url: String,
    pub revoke_url: String,
    /// The mail servers a Google account connects to (Gmail's).
    pub imap_server: String,
    pub imap_port: u16,
    pub imap_ssl: bool,
    pub smtp_server: String,
    pub smtp_port: u16,
    pub smtp_ssl: bool,
}

impl Default for GoogleOAuthConfig {
    fn default() -> Self {
        Self {
            client_id: String::new(),
            client_secret: Secret::default(),
            auth_url: "https://accounts.google.com/o/oauth2/v2/auth".into(),
            token_url: "https://oauth2.googleapis.com/token".into(),
            revoke_url: "https://oauth2.googleapis.com/revoke".into(),
            imap_server: "imap.gmail.com".into(),
            imap_port: 993,
            imap_ssl: true,
            smtp_server: "smtp.gmail.com".into(),
            smtp_port: 465,
            smtp_ssl: true,
        }
    }
}

/// `[oauth.microsoft]`: an app registration of Microsoft Entra (a public client with the
/// device code flow allowed).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct MicrosoftOAuthConfig {
    pub client_id: String,
    /// Only for a confidential client; a public client has none.
    pub client_secret: Secret,
    /// `common` (work and personal accounts), `consumers`, `organizations` or a tenant id.
    pub tenant: String,
    /// Empty: `https://login.microsoftonline.com/{tenant}/oauth2/v2.0/devicecode`.
    pub device_url: String,
    /// Empty: `https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token`.
    pub token_url: String,
    pub imap_server: String,
    pub imap_port: u16,
    pub imap_ssl: bool,
    pub smtp_server: String,
    pub smtp_port: u16,
    pub smtp_ssl: bool,
}

impl Default for MicrosoftOAuthConfig {
    fn default() -> Self {
        Self {
            client_id: String::new(),
            client_secret: Secret::default(),
            tenant: "common".into(),
            device_url: String::new(),
            token_url: String::new(),
            imap_server: "outlook.office365.com".into(),
            imap_port: 993,
            imap_ssl: true,
            smtp_server: "smtp.office365.com".into(),
            smtp_port: 587,
            smtp_ssl: false,
        }
    }
}

impl MicrosoftOAuthConfig {
    fn tenant_url(&self, what: &str) -> String {
        format!(
            "https://login.microsoftonline.com/{}/oauth2/v2.0/{what}",
            self.tenant
        )
    }

    pub fn device_endpoint(&self) -> String {
        if self.device_url.is_empty() {
            self.tenant_url("devicecode")
        } else {
            self.device_url.clone()
        }
    }

    pub fn token_endpoint(&self) -> String {
        if self.token_url.is_empty() {
            self.tenant_url("token")
        } else {
            self.token_url.clone()
        }
    }
}

impl Default for OAuthConfig {
    fn default() -> Self {
        Self {
            google: None,
            microsoft: None,
            timeout_secs: 15,
        }
    }
}

/// Sections whose keys are themselves sections: `MAILCLIENT_OAUTH_GOOGLE_CLIENT_ID` is
/// `[oauth.google] client_id`.
const NESTED_SECTIONS: &[(&str, &[&str])] = &[("oauth", &["google", "microsoft"])];

/// The page-builder page (`/BuilderPage`): content entries of Builder.io's model `page`,
/// fetched by the server so the browser never talks to Builder's hosts.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct BuilderConfig {
    /// The space's public API key; empty turns the page off (it says where to set the key).
    pub api_key: String,
    /// Builder's content API (`{base_url}/api/v3/content/page`).
    pub base_url: String,
    /// Builder's form-submit endpoint, for forms with e-mail delivery when no mailbox of the
    /// user can send them.
    pub form_submit_url: String,
    /// Where the empty page's button opens the Builder editor.
    pub editor_url: String,
    /// Seconds to wait for Builder or a form's action (1 to 120).
    pub timeout_secs: u64,
    /// Seconds a fetched entry is served from memory (0 to 3600; 0 = always fetch).
    pub cache_secs: u64,
}

impl Default for BuilderConfig {
    fn default() -> Self {
        Self {
            api_key: String::new(),
            base_url: "https://cdn.builder.io".into(),
            form_submit_url: "https://builder.io/api/v1/form-submit".into(),
            editor_url: "https://builder.io/content".into(),
            timeout_secs: 10,
            cache_secs: 60,
        }
    }
}

/// The full-text index (`<data dir>/index`).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct SearchConfig {
    /// Memory the index writer buffers before writing a segment, in MiB (16 to 1024): more
    /// makes big imports faster and uses more memory.
    pub writer_memory_mb: u64,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            writer_memory_mb: 48,
        }
    }
}

/// The most `serve`'s index writer buffers, in MiB.
pub const SERVE_WRITER_MB: u64 = 24;

/// How much memory the writer may buffer before it writes a segment.
#[derive(Debug, Clone, Copy)]
pub struct WriterOptions {
    pub threads: usize,
    pub memory_bytes: usize,
}

impl SearchConfig {
    /// `serve` keeps one indexing thread: it follows the sync, a few thousand messages per
    /// commit, so a bigger buffer would only hold memory (at most [`SERVE_WRITER_MB`]).
    pub fn serve_writer(&self) -> WriterOptions {
        WriterOptions {
            threads: 1,
            memory_bytes: (self.writer_memory_mb.min(SERVE_WRITER_MB) as usize) << 20,
        }
    }

    /// `import` indexes on half the cores (up to 4): indexing is about half an import's work,
    /// and reading, parsing, compressing and storing run beside it. On two cores one indexing
    /// thread with the whole buffer writes fewer, bigger segments than two (3 instead of 5 at
    /// 60,000 messages), so less CPU goes to merging; with every merge bounded its memory stays
    /// below two threads' at 300,000 (docs/BENCHMARKS.md, issue 23, sixth pass).
    pub fn import_writer(&self) -> WriterOptions {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        WriterOptions {
            threads: (cores / 2).clamp(1, 4),
            memory_bytes: (self.writer_memory_mb as usize) << 20,
        }
    }
}

/// The language-model provider for AI help (docs/API.md "AI help"); users may override
/// provider, model and base URL in their settings.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct AiConfig {
    /// `anthropic` (the Messages API, the user's key) or `openai` (any OpenAI-compatible
    /// chat-completions server: Ollama, llama.cpp, vLLM, OpenAI).
    pub provider: String,
    /// The model; empty means the provider's default (see `crate::ai::provider`).
    pub model: String,
    /// Where the provider listens; empty means its public address. For `openai` include the
    /// `/v1` part (Ollama: `http://127.0.0.1:11434/v1`).
    pub base_url: String,
    /// Seconds to wait for one answer (1 to 600).
    pub timeout_secs: u64,
    /// Retries after 429, 529 and 5xx answers (0 to 5), waiting the provider's Retry-After or
    /// 1 s doubling.
    pub max_retries: u32,
    /// Whether users who are not admins may point their own AI calls at another address (the
    /// server would send requests wherever they say; admins always may).
    pub allow_user_base_url: bool,
}

impl Default for AiConfig {
    fn default() -> Self {
        Self {
            provider: "anthropic".into(),
            model: String::new(),
            base_url: String::new(),
            timeout_secs: 60,
            max_retries: 2,
            allow_user_base_url: false,
        }
    }
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ComposeConfig {
    /// Seconds a sent mail waits in the outbox, during which "undo" takes it back (0 to 300).
    pub undo_send_secs: u64,
    /// Largest attachment a user may upload, in MiB (1 to 200).
    pub max_attachment_mb: u64,
    /// Attachments in one mail (1 to 100).
    pub max_attachments: u64,
    /// All the attachments of one mail together, in MiB (1 to 1000).
    pub max_mail_attachments_mb: u64,
    /// What one user's uploads waiting to be sent may take together, in MiB (1 to 100000).
    pub upload_quota_mb: u64,
    /// How many uploads one user may have waiting (1 to 10000).
    pub max_uploads: u64,
}

impl Default for ComposeConfig {
    fn default() -> Self {
        Self {
            undo_send_secs: 10,
            max_attachment_mb: 25,
            max_attachments: 20,
            max_mail_attachments_mb: 50,
            upload_quota_mb: 500,
            max_uploads: 200,
        }
    }
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    /// Address and port to listen on.
    pub listen: String,
    /// The address users type in their browser, used in the printed first-run link.
    /// Empty means `http://<listen>`.
    pub public_url: String,
    /// Reverse proxies (IPs or CIDRs) whose `X-Forwarded-For` names the client; from any other
    /// peer the header is ignored. Empty: the TCP peer is the client.
    pub trusted_proxies: Vec<String>,
    /// PEM certificate chain and private key to serve HTTPS with; both empty: plain HTTP.
    pub tls_cert: PathBuf,
    pub tls_key: PathBuf,
    /// Seconds one request may take before it is answered 503 (not `/ws`, which is long-lived).
    pub request_timeout_secs: u64,
    /// Open connections at most; more wait until one closes.
    pub max_connections: u64,
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct StorageConfig {
    pub data_dir: PathBuf,
    /// The store's page cache, in MiB: bounds memory however large the mailbox.
    pub cache_size_mb: u64,
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct MailConfig {
    /// PEM files of extra certificate authorities to trust for IMAP and SMTP (a home server's
    /// own CA), on top of the built-in web PKI roots.
    pub extra_ca_files: Vec<PathBuf>,
    /// Seconds to wait for a mail server to connect, log in or answer.
    pub timeout_secs: u64,
    /// Seconds between full syncs of every folder (INBOX is watched with IDLE in between).
    pub poll_interval_secs: u64,
    /// Seconds between checks of INBOX on a server without IDLE (the design's 30 s).
    pub inbox_poll_secs: u64,
    /// The only IMAP/SMTP hosts users may connect to (names or IP literals as typed, or
    /// `*.example.com` for its subdomains); empty means any. Any user names the hosts of a
    /// connection test, so this keeps the server from connecting wherever they say.
    pub allowed_hosts: Vec<String>,
    /// Refuse mail servers whose name resolves to a loopback or private address too (checked on
    /// the resolved addresses). Off by default: a mail server on the LAN, or on this machine, is
    /// common. Link-local, metadata and other addresses where no mail server lives are refused
    /// whatever this says (`mail::hosts::never_mail`).
    pub deny_private_ranges: bool,
    /// Mailboxes one user may connect (1 to 1000): each is a sync task and connections.
    pub max_accounts_per_user: usize,
}

impl Default for MailConfig {
    fn default() -> Self {
        Self {
            extra_ca_files: Vec::new(),
            timeout_secs: 30,
            poll_interval_secs: 300,
            inbox_poll_secs: 30,
            allowed_hosts: Vec::new(),
            deny_private_ranges: false,
            max_accounts_per_user: 10,
        }
    }
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct AuthConfig {
    /// How long a sign-in session lasts, in hours.
    pub session_ttl_hours: u64,
    /// A session not used for this many hours ends (within `session_ttl_hours`).
    pub session_idle_hours: u64,
    /// Failed logins (per username, and per client address) before sign-in is refused for a while.
    pub max_failed_logins: u32,
    /// How long sign-in stays refused after too many failures, in minutes.
    pub lockout_minutes: u64,
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct LogConfig {
    /// A tracing filter: `info`, `debug`, `mailclient=debug,tower_http=info`, ...
    pub level: String,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            listen: "127.0.0.1:8080".into(),
            public_url: String::new(),
            trusted_proxies: Vec::new(),
            tls_cert: PathBuf::new(),
            tls_key: PathBuf::new(),
            request_timeout_secs: 300,
            max_connections: 512,
        }
    }
}

impl Default for StorageConfig {
    fn default() -> Self {
        Self {
            data_dir: PathBuf::from("./data"),
            cache_size_mb: crate::store::DEFAULT_CACHE_MB,
        }
    }
}

impl Default for AuthConfig {
    fn default() -> Self {
        Self {
            session_ttl_hours: 24 * 30,
            session_idle_hours: 24 * 7,
            max_failed_logins: 5,
            lockout_minutes: 15,
        }
    }
}

impl Default for LogConfig {
    fn default() -> Self {
        Self {
            level: "info".into(),
        }
    }
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

    fn validate(&self, sources: &BTreeMap<String, String>) -> Result<(), ConfigError> {
        let bad = |key: &str, value: &dyn std::fmt::Display, why: &str| {
            let from = sources
                .get(key)
                .map(|s| format!(" (from {s})"))
                .unwrap_or_default();
            Err(ConfigError(format!(
                "invalid config value for `{key}`{from}: \"{value}\": {why}"
            )))
        };
        if self.server.listen.parse::<SocketAddr>().is_err() {
            return bad(
                "server.listen",
                &self.server.listen,
                "expected an address and port such as 127.0.0.1:8080",
            );
        }
        let url = &self.server.public_url;
        if !(url.is_empty() || url.starts_with("http://") || url.starts_with("https://")) {
            return bad(
                "server.public_url",
                url,
                "expected a URL starting with http:// or https://",
            );
        }
        if self.storage.data_dir.as_os_str().is_empty() {
            return bad("storage.data_dir", &"", "must not be empty");
        }
        if !(16..=1024).contains(&self.search.writer_memory_mb) {
            return bad(
                "search.writer_memory_mb",
                &self.search.writer_memory_mb,
                "expected 16 to 1024",
            );
        }
        if self.storage.cache_size_mb < 4 {
            return bad(
                "storage.cache_size_mb",
                &self.storage.cache_size_mb,
                "expected at least 4",
            );
        }
        if self.mail.timeout_secs == 0 || self.mail.timeout_secs > 600 {
            return bad(
                "mail.timeout_secs",
                &self.mail.timeout_secs,
                "expected 1 to 600 seconds",
            );
        }
        if self.mail.poll_interval_secs < 10 {
            return bad(
                "mail.poll_interval_secs",
                &self.mail.poll_interval_secs,
                "expected at least 10 seconds",
            );
        }
        if !(1..=1000).contains(&self.mail.max_accounts_per_user) {
            return bad(
                "mail.max_accounts_per_user",
                &self.mail.max_accounts_per_user,
                "expected 1 to 1000",
            );
        }
        if !(5..=3600).contains(&self.mail.inbox_poll_secs) {
            return bad(
                "mail.inbox_poll_secs",
                &self.mail.inbox_poll_secs,
                "expected 5 to 3600 seconds",
            );
        }
        if let Some(bad_host) = self.mail.allowed_hosts.iter().find(|h| !host_pattern_ok(h)) {
            return bad(
                "mail.allowed_hosts",
                bad_host,
                "expected host names or IP addresses (or *.example.com), without a scheme or port",
            );
        }
        if self.compose.undo_send_secs > 300 {
            return bad(
                "compose.undo_send_secs",
                &self.compose.undo_send_secs,
                "expected 0 to 300 seconds",
            );
        }
        if !(1..=200).contains(&self.compose.max_attachment_mb) {
            return bad(
                "compose.max_attachment_mb",
                &self.compose.max_attachment_mb,
                "expected 1 to 200",
            );
        }
        for (key, value, range) in [
            (
                "compose.max_attachments",
                self.compose.max_attachments,
                1..=100,
            ),
            (
                "compose.max_mail_attachments_mb",
                self.compose.max_mail_attachments_mb,
                1..=1000,
            ),
            (
                "compose.upload_quota_mb",
                self.compose.upload_quota_mb,
                1..=100_000,
            ),
            ("compose.max_uploads", self.compose.max_uploads, 1..=10_000),
        ] {
            if !range.contains(&value) {
                return bad(
                    key,
                    &value,
                    &format!("expected {} to {}", range.start(), range.end()),
                );
            }
        }
        if !matches!(self.ai.provider.as_str(), "anthropic" | "openai") {
            return bad(
                "ai.provider",
                &self.ai.provider,
                "expected anthropic or openai",
            );
        }
        let url = &self.ai.base_url;
        if !(url.is_empty() || base_url_ok(url)) {
            return bad(
                "ai.base_url",
                url,
                "expected an http:// or https:// URL without a user name, query or fragment",
            );
        }
        if self.ai.timeout_secs == 0 || self.ai.timeout_secs > 600 {
            return bad(
                "ai.timeout_secs",
                &self.ai.timeout_secs,
                "expected 1 to 600 seconds",
            );
        }
        if self.ai.max_retries > 5 {
            return bad("ai.max_retries", &self.ai.max_retries, "expected 0 to 5");
        }
        if self.auth.session_ttl_hours == 0 || self.auth.session_ttl_hours > 24 * 365 {
            return bad(
                "auth.session_ttl_hours",
                &self.auth.session_ttl_hours,
                "expected 1 to 8760 hours",
            );
        }
        if self.auth.max_failed_logins == 0 {
            return bad(
                "auth.max_failed_logins",
                &self.auth.max_failed_logins,
                "expected at least 1",
            );
        }
        if self.auth.lockout_minutes == 0 {
            return bad(
                "auth.lockout_minutes",
                &self.auth.lockout_minutes,
                "expected at least 1 minute",
            );
        }
        for (key, url) in [
            ("builder.base_url", &self.builder.base_url),
            ("builder.form_submit_url", &self.builder.form_submit_url),
            ("builder.editor_url", &self.builder.editor_url),
        ] {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return bad(key, url, "expected a URL starting with http:// or https://");
            }
        }
        if self.builder.timeout_secs == 0 || self.builder.timeout_secs > 120 {
            return bad(
                "builder.timeout_secs",
                &self.builder.timeout_secs,
                "expected 1 to 120 seconds",
            );
        }
        if self.builder.cache_secs > 3600 {
            return bad(
                "builder.cache_secs",
                &self.builder.cache_secs,
                "expected 0 to 3600 seconds",
            );
        }
        self.validate_oauth(&bad)?;
        network::validate(self, &bad)?;
        if tracing_subscriber::EnvFilter::try_new(&self.log.level).is_err() {
            return bad(
                "log.level",
                &self.log.level,
                "expected a level such as info or debug",
            );
        }
        Ok(())
    }

    fn validate_oauth(&self, bad: network::Bad<'_>) -> Result<(), ConfigError> {
        let o = &self.oauth;
        if o.timeout_secs == 0 || o.timeout_secs > 60 {
            return bad(
                "oauth.timeout_secs",
                &o.timeout_secs,
                "expected 1 to 60 seconds",
            );
        }
        let mut urls: Vec<(&str, &str)> = Vec::new();
        let mut ids: Vec<(&str, &str)> = Vec::new();
        if let Some(g) = &o.google {
            ids.push(("oauth.google.client_id", &g.client_id));
            urls.extend([
                ("oauth.google.auth_url", g.auth_url.as_str()),
                ("oauth.google.token_url", g.token_url.as_str()),
                ("oauth.google.revoke_url", g.revoke_url.as_str()),
            ]);
            if g.client_secret.trim().is_empty() {
                return bad(
                    "oauth.google.client_secret",
                    &"",
                    "Google's clients need their secret (Google Cloud, Credentials)",
                );
            }
            for (key, host) in [
                ("oauth.google.imap_server", &g.imap_server),
                ("oauth.google.smtp_server", &g.smtp_server),
            ] {
                if host.trim().is_empty() {
                    return bad(key, host, "expected a host name");
                }
            }
        }
        if let Some(m) = &o.microsoft {
            ids.push(("oauth.microsoft.client_id", &m.client_id));
            let tenant_ok = !m.tenant.is_empty()
                && m.tenant.len() <= 100
                && m.tenant
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'));
            if !tenant_ok {
                return bad(
                    "oauth.microsoft.tenant",
                    &m.tenant,
                    "expected common, consumers, organizations or a tenant id",
                );
            }
            for (key, url) in [
                ("oauth.microsoft.device_url", &m.device_url),
                ("oauth.microsoft.token_url", &m.token_url),
            ] {
                if !url.is_empty() {
                    urls.push((key, url));
                }
            }
            for (key, host) in [
                ("oauth.microsoft.imap_server", &m.imap_server),
                ("oauth.microsoft.smtp_server", &m.smtp_server),
            ] {
                if host.trim().is_empty() {
                    return bad(key, host, "expected a host name");
                }
            }
        }
        for (key, id) in ids {
            if id.trim().is_empty() || id.len() > 500 {
                return bad(key, &id, "expected the client id of the app registration");
            }
        }
        for (key, url) in urls {
            if !base_url_ok(url) {
                return bad(
                    key,
                    &url,
                    "expected a URL starting with http:// or https://",
                );
            }
        }
        Ok(())
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

/// A host name, an IP address, or `*.` and a domain: what `[mail] allowed_hosts` may list.
fn host_pattern_ok(pattern: &str) -> bool {
    let host = pattern.strip_prefix("*.").unwrap_or(pattern);
    if host.parse::<std::net::IpAddr>().is_ok() {
        return !pattern.starts_with('*');
    }
    !host.is_empty()
        && host.len() <= 253
        && host.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// http(s), a host, no user name or password, query or fragment (nothing secret to show back).
pub fn base_url_ok(url: &str) -> bool {
    let Some((scheme, rest)) = url.split_once("://") else {
        return false;
    };
    let authority = rest.split('/').next().unwrap_or_default();
    matches!(scheme, "http" | "https")
        && !authority.is_empty()
        && !authority.contains('@')
        && !url.contains(['?', '#'])
        && !url.chars().any(|c| c.is_control() || c.is_whitespace())
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
}
