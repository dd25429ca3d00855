//! `[server]`: where the server listens and how it faces the network (issue 22): who may speak
//! for a client (`trusted_proxies`), HTTPS, and the request and connection limits.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use ipnet::IpNet;
use serde::{Deserialize, Serialize};

use super::check::{Check, Checked};

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
    /// Open connections of one client (an address; IPv6 per /64) at most; more are closed at
    /// once. `trusted_proxies` are not capped.
    pub max_connections_per_client: u64,
    /// Seconds a new connection has to send its first byte.
    pub first_byte_timeout_secs: u64,
    /// The slowest a request body may arrive, on average after its first 10 seconds.
    pub min_body_bytes_per_sec: u64,
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
            max_connections: 2048,
            max_connections_per_client: 64,
            first_byte_timeout_secs: 10,
            min_body_bytes_per_sec: 1024,
        }
    }
}

impl ServerConfig {
    /// The listening address, the public URL and the network guards.
    pub fn check(&self, c: &Check) -> Checked {
        c.ensure(
            self.listen.parse::<SocketAddr>().is_ok(),
            "listen",
            &self.listen,
            "expected an address and port such as 127.0.0.1:8080",
        )?;
        if !self.public_url.is_empty() {
            c.web_url("public_url", &self.public_url)?;
        }
        for proxy in &self.trusted_proxies {
            c.ensure(
                parse_network(proxy).is_some(),
                "trusted_proxies",
                proxy,
                "expected an IP address or a network such as 10.0.0.0/8",
            )?;
        }
        let (cert, key) = (&self.tls_cert, &self.tls_key);
        if cert.as_os_str().is_empty() != key.as_os_str().is_empty() {
            let (set, missing) = if key.as_os_str().is_empty() {
                ("server.tls_cert", "tls_key")
            } else {
                ("server.tls_key", "tls_cert")
            };
            return c.bad(
                missing,
                &"",
                &format!("must be set together with {set} (both empty serves plain HTTP)"),
            );
        }
        c.within(
            "request_timeout_secs",
            self.request_timeout_secs,
            5..=3600,
            " seconds",
        )?;
        c.within("max_connections", self.max_connections, 16..=100_000, "")?;
        c.ensure(
            (1..=self.max_connections).contains(&self.max_connections_per_client),
            "max_connections_per_client",
            &self.max_connections_per_client,
            "expected 1 to server.max_connections",
        )?;
        c.within(
            "first_byte_timeout_secs",
            self.first_byte_timeout_secs,
            1..=300,
            " seconds",
        )?;
        c.within(
            "min_body_bytes_per_sec",
            self.min_body_bytes_per_sec,
            1..=100_000_000,
            " bytes per second",
        )
    }
}

/// An address or a network: `10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`.
pub fn parse_network(text: &str) -> Option<IpNet> {
    let text = text.trim();
    text.parse::<IpNet>()
        .ok()
        .or_else(|| text.parse::<IpAddr>().ok().map(IpNet::from))
}

#[cfg(test)]
mod tests {
    use super::super::{Config, ConfigError, Overrides};

    fn load(toml: &str) -> Result<Config, ConfigError> {
        Config::from_sources(Some(toml), None, &[], &Overrides::default())
    }

    #[test]
    fn trusted_proxies_take_addresses_and_networks() {
        let c = load("[server]\ntrusted_proxies = [\"127.0.0.1\", \"10.0.0.0/8\", \"fd00::/8\"]")
            .unwrap();
        assert_eq!(c.server.trusted_proxies.len(), 3);
        let err = load("[server]\ntrusted_proxies = [\"proxy.lan\"]").unwrap_err();
        assert_eq!(
            err.0,
            "invalid config value for `server.trusted_proxies`: \"proxy.lan\": expected an IP \
             address or a network such as 10.0.0.0/8"
        );
    }

    #[test]
    fn tls_needs_both_files() {
        let err = load("[server]\ntls_cert = \"/etc/x.pem\"").unwrap_err();
        assert!(err.0.contains("`server.tls_key`"), "{err}");
        assert!(!err.0.contains('\n'));
        let err = load("[server]\ntls_key = \"/etc/x.key\"").unwrap_err();
        assert!(err.0.contains("`server.tls_cert`"), "{err}");
        load("[server]\ntls_cert = \"/a.pem\"\ntls_key = \"/a.key\"").unwrap();
    }
}
