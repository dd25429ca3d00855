//! How a section checks its values: [`Check`] names the key (`section.key`) and, when the value
//! came from the environment or a flag, where from, in one line; its helpers hold the shapes
//! the sections share (a range, a lower bound, a URL, a host name).

use std::collections::BTreeMap;
use std::fmt::Display;
use std::ops::RangeInclusive;

use super::ConfigError;

/// One section's checker: `bad("timeout_secs", …)` in `[mail]` names `mail.timeout_secs`.
pub struct Check<'a> {
    section: String,
    /// Config key → the environment variable or flag that set it.
    sources: &'a BTreeMap<String, String>,
}

/// What a section's check returns: the first bad value, as one line.
pub type Checked = Result<(), ConfigError>;

impl<'a> Check<'a> {
    /// The checker of `[section]` (a nested one is `oauth.google`).
    pub fn new(section: &str, sources: &'a BTreeMap<String, String>) -> Self {
        Self {
            section: section.to_string(),
            sources,
        }
    }

    /// The checker of a section inside this one (`[oauth.google]`).
    pub fn nested(&self, name: &str) -> Check<'a> {
        Check::new(&format!("{}.{name}", self.section), self.sources)
    }

    /// The full name of a key of this section.
    pub fn key(&self, key: &str) -> String {
        format!("{}.{key}", self.section)
    }

    /// The error for a bad value: `invalid config value for `section.key` (from VAR): "value": why`.
    pub fn bad(&self, key: &str, value: &dyn Display, why: &str) -> Checked {
        let key = self.key(key);
        let from = self
            .sources
            .get(&key)
            .map(|s| format!(" (from {s})"))
            .unwrap_or_default();
        Err(ConfigError(format!(
            "invalid config value for `{key}`{from}: \"{value}\": {why}"
        )))
    }

    /// [`Self::bad`] unless `ok`.
    pub fn ensure(&self, ok: bool, key: &str, value: &dyn Display, why: &str) -> Checked {
        if ok {
            Ok(())
        } else {
            self.bad(key, value, why)
        }
    }

    /// A number in `range`: else "expected 1 to 600 seconds" (`unit` " seconds", or "").
    pub fn within(
        &self,
        key: &str,
        value: impl Into<u64> + Copy,
        range: RangeInclusive<u64>,
        unit: &str,
    ) -> Checked {
        let value = value.into();
        let why = format!("expected {} to {}{unit}", range.start(), range.end());
        self.ensure(range.contains(&value), key, &value, &why)
    }

    /// A number at least `min`: else "expected at least 10 seconds".
    pub fn at_least(
        &self,
        key: &str,
        value: impl Into<u64> + Copy,
        min: u64,
        unit: &str,
    ) -> Checked {
        let value = value.into();
        let why = format!("expected at least {min}{unit}");
        self.ensure(value >= min, key, &value, &why)
    }

    /// A URL that starts with `http://` or `https://`.
    pub fn web_url(&self, key: &str, url: &str) -> Checked {
        let ok = url.starts_with("http://") || url.starts_with("https://");
        self.ensure(
            ok,
            key,
            &url,
            "expected a URL starting with http:// or https://",
        )
    }

    /// Addresses or CIDR networks (`allowed_private_networks` of an outbound request's section).
    pub fn networks(&self, key: &str, networks: &[String]) -> Checked {
        for network in networks {
            self.ensure(
                super::parse_network(network).is_some(),
                key,
                network,
                "expected an IP address or a network such as 192.168.1.0/24",
            )?;
        }
        Ok(())
    }

    /// A host name that is not blank (a mail server of an OAuth provider).
    pub fn host(&self, key: &str, host: &str) -> Checked {
        self.ensure(!host.trim().is_empty(), key, &host, "expected a host name")
    }
}

/// A host name, an IP address, or `*.` and a domain: what `[mail] allowed_hosts` may list.
pub fn host_pattern_ok(pattern: &str) -> bool {
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
