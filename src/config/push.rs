//! `[push]`: Web Push notifications to the users' devices (RFC 8030, 8291, 8292). A device's
//! subscription names the URL of its browser vendor's push service; the server posts the
//! encrypted notification there. The browser chose that URL, so the requests follow an outbound
//! policy as the unsubscribe requests do (`crate::http::outbound`): by default only the push
//! services of the browsers in use (Chrome/Edge through FCM, Firefox, Edge on Windows, Safari),
//! only HTTPS, never a private address unless listed.

use serde::{Deserialize, Serialize};

use super::check::{Check, Checked};

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct PushConfig {
    /// Off: the settings card says notifications are not offered and nothing is sent.
    pub enabled: bool,
    /// The hosts a subscription's push service may be on (as `[mail] allowed_hosts`); empty:
    /// any public host.
    pub allowed_hosts: Vec<String>,
    /// Loopback, private and link-local networks a push service may be on all the same (a test's
    /// stand-in); plain `http://` is accepted only for these.
    pub allowed_private_networks: Vec<String>,
    /// The contact the push services see in the VAPID token (`mailto:` or `https:`); empty:
    /// `[server] public_url` when it is HTTPS, else a placeholder address.
    pub contact: String,
    /// Seconds to wait for a push service (1 to 60).
    pub timeout_secs: u64,
}

impl Default for PushConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            allowed_hosts: [
                "fcm.googleapis.com",
                "*.push.services.mozilla.com",
                "*.notify.windows.com",
                "web.push.apple.com",
                "*.push.apple.com",
            ]
            .map(String::from)
            .to_vec(),
            allowed_private_networks: Vec::new(),
            contact: String::new(),
            timeout_secs: 10,
        }
    }
}

impl PushConfig {
    /// A bounded wait, well-formed networks and contact.
    pub fn check(&self, c: &Check) -> Checked {
        c.within("timeout_secs", self.timeout_secs, 1..=60, " seconds")?;
        c.networks("allowed_private_networks", &self.allowed_private_networks)?;
        let contact = &self.contact;
        c.ensure(
            contact.is_empty() || contact.starts_with("mailto:") || contact.starts_with("https://"),
            "contact",
            contact,
            "expected a mailto: or https:// URL",
        )
    }
}
