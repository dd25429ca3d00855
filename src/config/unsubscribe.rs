//! `[unsubscribe]`: the subscription manager's one-click unsubscribe requests (RFC 8058), which
//! the server posts to a URL a mail chose: bounded in time, no redirects, and under the same
//! outbound host policy as the page-builder's form actions (`crate::http::outbound`).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::check::{Check, Checked};

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct UnsubscribeConfig {
    /// Seconds to wait for a list's unsubscribe endpoint (1 to 60).
    pub timeout_secs: u64,
    /// The only hosts an unsubscribe URL may name (as `[mail] allowed_hosts`); empty: any
    /// public host.
    pub allowed_hosts: Vec<String>,
    /// Loopback, private and link-local networks an unsubscribe URL may reach all the same
    /// (refused by default).
    pub allowed_private_networks: Vec<String>,
    /// PEM files of extra certificate authorities to trust for unsubscribe URLs (an internal
    /// CA; the tests' own), on top of the built-in web PKI roots.
    pub extra_ca_files: Vec<PathBuf>,
}

impl Default for UnsubscribeConfig {
    fn default() -> Self {
        Self {
            timeout_secs: 10,
            allowed_hosts: Vec::new(),
            allowed_private_networks: Vec::new(),
            extra_ca_files: Vec::new(),
        }
    }
}

impl UnsubscribeConfig {
    /// A bounded wait and well-formed networks.
    pub fn check(&self, c: &Check) -> Checked {
        c.within("timeout_secs", self.timeout_secs, 1..=60, " seconds")?;
        c.networks("allowed_private_networks", &self.allowed_private_networks)
    }
}
