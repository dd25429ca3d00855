//! The keys that guard the server on the network (issue 22): who may speak for a client
//! (`trusted_proxies`), HTTPS, request and connection limits, idle sessions and the per-user
//! rate limits of the expensive calls. Their checks live here so `config.rs` stays readable;
//! each is one line naming the key, like the others.

use std::fmt::Display;
use std::net::IpAddr;

use ipnet::IpNet;
use serde::{Deserialize, Serialize};

use super::{Config, ConfigError};

/// Calls per minute each user may make of the expensive endpoints (a token bucket that holds a
/// minute's worth and refills evenly).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct LimitsConfig {
    /// AI calls (`/api/claude/*`, `/api/smart/*`).
    pub ai_per_minute: u32,
    /// Searches (`/api/search`).
    pub search_per_minute: u32,
    /// "Sync now" (`/api/sync/refresh`).
    pub refresh_per_minute: u32,
    /// Settings backups saved or opened (`/api/settings/backup*`): each costs a password hash.
    pub backup_per_minute: u32,
    /// Mails one user's rules may forward per day (UTC), new mail and "run now" together: a
    /// stranger's flood or a loop between two forwarding mailboxes stops there.
    pub forwards_per_day: u32,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        Self {
            ai_per_minute: 20,
            search_per_minute: 120,
            refresh_per_minute: 6,
            backup_per_minute: 6,
            forwards_per_day: 100,
        }
    }
}

/// An address or a network: `10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`.
pub fn parse_network(text: &str) -> Option<IpNet> {
    let text = text.trim();
    text.parse::<IpNet>()
        .ok()
        .or_else(|| text.parse::<IpAddr>().ok().map(IpNet::from))
}

pub(super) type Bad<'a> = &'a dyn Fn(&str, &dyn Display, &str) -> Result<(), ConfigError>;

pub(super) fn validate(c: &Config, bad: Bad<'_>) -> Result<(), ConfigError> {
    let server = &c.server;
    for proxy in &server.trusted_proxies {
        if parse_network(proxy).is_none() {
            return bad(
                "server.trusted_proxies",
                proxy,
                "expected an IP address or a network such as 10.0.0.0/8",
            );
        }
    }
    let (cert, key) = (&server.tls_cert, &server.tls_key);
    if cert.as_os_str().is_empty() != key.as_os_str().is_empty() {
        let (set, missing) = if key.as_os_str().is_empty() {
            ("server.tls_cert", "server.tls_key")
        } else {
            ("server.tls_key", "server.tls_cert")
        };
        return bad(
            missing,
            &"",
            &format!("must be set together with {set} (both empty serves plain HTTP)"),
        );
    }
    if !(5..=3600).contains(&server.request_timeout_secs) {
        return bad(
            "server.request_timeout_secs",
            &server.request_timeout_secs,
            "expected 5 to 3600 seconds",
        );
    }
    if !(16..=100_000).contains(&server.max_connections) {
        return bad(
            "server.max_connections",
            &server.max_connections,
            "expected 16 to 100000",
        );
    }
    let auth = &c.auth;
    if auth.session_idle_hours == 0 || auth.session_idle_hours > 24 * 365 {
        return bad(
            "auth.session_idle_hours",
            &auth.session_idle_hours,
            "expected 1 to 8760 hours",
        );
    }
    for (key, value) in [
        ("limits.ai_per_minute", c.limits.ai_per_minute),
        ("limits.search_per_minute", c.limits.search_per_minute),
        ("limits.refresh_per_minute", c.limits.refresh_per_minute),
        ("limits.backup_per_minute", c.limits.backup_per_minute),
        ("limits.forwards_per_day", c.limits.forwards_per_day),
    ] {
        if !(1..=100_000).contains(&value) {
            return bad(key, &value, "expected 1 to 100000 calls per minute");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::Overrides;
    use super::*;

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

    #[test]
    fn limits_and_idle_hours_are_checked() {
        for (toml, key) in [
            (
                "[server]\nrequest_timeout_secs = 1",
                "server.request_timeout_secs",
            ),
            ("[server]\nmax_connections = 0", "server.max_connections"),
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
        ] {
            let err = load(toml).unwrap_err();
            assert!(err.0.contains(&format!("`{key}`")), "{toml}: {err}");
        }
        // An idle limit past the lifetime is allowed: the lifetime ends the session first.
        load("[auth]\nsession_ttl_hours = 5").unwrap();
    }
}
